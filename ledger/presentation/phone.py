"""What the keeper's phone needs to say a game it scored itself, with no connection (issue 41):
the words of the next hand's panel, of the game's end and of the core's refusals, and how
money is written, all in the page's language and handed to the page once as JSON
(``{% phone_words_script %}``, ``#phone-words``), so that static/ledger/queue/scoring.js
writes no word, pattern or number format of its own.

Placeholders are ``{name}`` (words.js ``fill``). The tables are keyed by the core's names
(roles, contracts, problem codes, score keys): the phone looks a name up, it never compares
one. Money is written by CLDR's pattern parts for the page's locale, read here from the one
formatter (``money._formatter``): the phone applies them as ``format_money`` does.
"""

from __future__ import annotations

from django.utils.translation import get_language, gettext, ngettext, pgettext

from ledger.rules.catalog import CAPIT_CONTRACTS, ROLE_ORDER, plays_hand
from ledger.rules.money import minor_exponent

from . import problems
from .cardtext import SUIT_SIGNS
from .catalog import contract_text
from .flash import games_over_words, still_open_words
from .locales import babel_locale
from .money import _formatter, _signs
from .queue import plural_samples
from .words import key_label, role_chip, win_verb

#: what a placeholder becomes in a sentence the phone fills in (words.js ``fill``)
_SLOT = "{%s}"


def _slots(*names: str) -> dict:
    return {name: _SLOT % name for name in names}


def next_words() -> dict:
    """The next hand's panel (templates/ledger/_next.html): its title, "deals", "v", "Sits
    out:", the dealer side's line, each role's chip, which roles play the hand and in what
    order (``hand_pair``), CAP-IT's contracts, Hollywood's open games, and how names are
    joined (``words.names``)."""
    return {
        "hand": gettext("Hand %(n)s") % {"n": "{number}"},
        "round": gettext("Round %(n)s of 5") % {"n": "{number}"},
        "deals": gettext("deals"),
        "versus": pgettext("versus", "v"),
        "sits_out": gettext("Sits out:"),
        "dealer_side": pgettext("card table", "%(side)s deal at every table.") % _slots("side"),
        "and": gettext("%(names)s and %(last)s") % _slots("names", "last"),
        "chips": {role: chip for role in ROLE_ORDER if (chip := role_chip(role))},
        "playing": [role for role in ROLE_ORDER if plays_hand(role)],
        "contracts": {name: contract_text(name) for name in CAPIT_CONTRACTS},
        "open_games": open_games_words(),
    }


def open_games_words() -> dict:
    """Hollywood's line of the games still open and those over (flash.py
    ``open_games_text``), in each plural form of the language (by CLDR category, for
    ``Intl.PluralRules``); the games' numbers are joined by ``and``."""
    samples = plural_samples(get_language() or "en")
    games = {"games": "{games}"}
    return {"still": {category: still_open_words(n) % games for category, n in samples.items()},
            "over": {category: games_over_words(n) % games for category, n in samples.items()}}


def end_words(result: dict, cover: str = "") -> dict:
    """A finished game (game_detail.html's ``#over`` and _money.html): its heading, the
    sentence for each possible winner (a score's key) and for a tie, "Money", a payment,
    captain play's cover line (``money.cover_line``: the game's stakes, not its hands)."""
    return {
        "cover": cover,
        "over": gettext("Game over"),
        "winners": {key: win_verb(result, key) + "." for key in result.get("totals") or {}},
        "tie": gettext("A tie: %(names)s.") % _slots("names"),
        "money": gettext("Money"),
        # trusted words of the catalogs, with HTML; the phone escapes what it puts in
        "pays": gettext('<b>%(payer)s</b> pays <b>%(payee)s</b> <span class="money">'
                        '%(amount)s</span>') % _slots("payer", "payee", "amount"),
        "labels": {key: key_label(result, key) for key in result.get("totals") or {}},
    }


def money_format(currency: str, language: str | None = None) -> dict:
    """How ``format_money`` writes an amount in ``language`` (None: the language in force):
    without a currency (the lines of a game's money: ``signed``) and with ``currency``'s
    symbol (the payments: ``money``). Each: the pattern's prefixes and suffixes (positive,
    negative), the group and decimal marks, the grouping, the fewest whole digits; and the
    locale's minus and plus signs, the currency's decimals. None for a pattern only Babel
    writes (none of the five languages' standard patterns)."""
    locale = babel_locale(language)
    minus, plus = _signs(locale)

    def parts(symbol: str) -> dict | None:
        f = _formatter(locale, symbol, 2, True)
        if not f.simple:
            return None
        return {"prefix": list(f.prefix), "suffix": list(f.suffix), "group": f.group,
                "decimal": f.decimal, "grouping": list(f.grouping), "int_min": f.int_min}

    plain, symbol = parts(""), parts(currency) if currency else None
    if plain is None or (currency and symbol is None):
        return None
    return {"plain": plain, "currency": symbol, "minus": minus, "plus": plus,
            "minor": minor_exponent(currency) if currency else 0}


def refusal_words() -> dict:
    """The core's refusal of a hand at its field (ledger/forms/hands.py ``_place`` and
    ``problems.field_words``): on an English page the core's own words (``core``: True),
    else each code's sentence (with its numbers where the core gave them), named after the
    player and what the field holds, and a hand's place for the words above the form."""
    return {
        "core": problems.in_english(),
        "sentences": {code: gettext(text) for code, text in problems.SENTENCES.items()},
        "numbered": {code: gettext(text) % {name: _SLOT % name for name in
                                           ("count", "limit", "most", "points", "values")}
                     for code, text in problems.NUMBERED.items()},
        "labels": {what: gettext(text) % _slots("name")
                   for what, text in problems._LABELS.items()},
        "holds": dict(problems._HOLDS),
        "named": gettext("%(where)s: %(problem)s") % _slots("where", "problem"),
        "hand": gettext("Hand %(n)s") % {"n": "{number}"},
        "round": gettext("%(hand)s (round %(n)s)") % {"hand": "{hand}", "n": "{number}"},
        "table": pgettext("card table", "%(hand)s, table %(n)s") % {"hand": "{hand}",
                                                                    "n": "{number}"},
        "suits": dict(SUIT_SIGNS),
    }


def streets_words() -> dict:
    """The open streets' lines (templates/ledger/_streets.html): a side's boxes, in each
    plural form of the language (by CLDR category, for ``Intl.PluralRules``), and the
    points still to go."""
    samples = plural_samples(get_language() or "en")
    return {"boxes": {category: ngettext("%(n)s box", "%(n)s boxes", n) % {"n": "{n}"}
                      for category, n in samples.items()},
            "to_go": gettext("%(n)s to go") % {"n": "{n}"}}


def phone_words(result: dict, currency: str, cover: str = "") -> dict:
    """Everything above for one game (its money in ``currency``; ``cover``: its cover
    line), in the language in force."""
    return {
        "lang": get_language() or "en",
        "next": next_words(),
        # the tiles' line under Hollywood's and the streets' numbers (money.py scores)
        "tiles": {"games": gettext("games %(scores)s") % _slots("scores"),
                  "streets": gettext("streets %(scores)s") % _slots("scores")},
        "end": end_words(result, cover),
        "money": money_format(currency),
        "currency": currency,
        "refusals": refusal_words(),
        "streets": streets_words(),
    }
