"""Totals, scores and money as people read them, from the core's result.

Amounts stay the core's decimal strings ("-2.02") until they are printed, and they are
printed by one function, ``format_money`` (below): the ``money``/``signed`` template filters
(``ledger/templatetags/money.py``), the book, the settings screen's messages, the admin and
the CSV all call it, with a real minus sign on a page and a plain "-" where a spreadsheet
reads the number. It writes in the locale in force (CLDR's data through Babel: "1.234,50 €"
in German, "$1,234.50" in English), the table's own on its paper and share pages; the CSV
and the admin's lists take the plain form a program reads.
Nothing here adds points or money up: every number is one the core returned.

Hollywood is three games scored at once: its score is each game's total and the net over
the three (the core's ``net``, the third game weighted as the rules say), never the sum of
the three games' totals (which counted a hand won in two games twice).
"""

from __future__ import annotations

import copy
import decimal
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from babel import Locale
from babel.numbers import (
    get_currency_symbol,
    get_decimal_symbol,
    get_group_symbol,
    get_minus_sign_symbol,
    get_plus_sign_symbol,
)
from django.utils.translation import gettext, ngettext

from ledger.rules.money import decimal_text, format_minor, minor_exponent

from . import stakes as _stakes
from .locales import babel_locale
from .stakes import cover_rate, cover_sentence
from .words import SHUTOUT_SHORT, SHUTOUT_WORDS, key_label

# -- the one money formatter -------------------------------------------------------------

#: A real minus sign (U+2212): it lines up with "+" and does not break from its number.
MINUS = "\u2212"
#: The plain hyphen-minus a spreadsheet, the CSV and the JSON read as a negative number.
PLAIN_MINUS = "-"
_NEGATIVE = re.compile(r"(?<![\w.])-(?=\d)")
_LETTER_DIGIT = re.compile(r"(?<=[^\W\d_])(?=\d)|(?<=\d)(?=[^\W\d_])")
#: Enough digits for any amount a record may hold (Babel rounds in the context's precision).
_PRECISION = 200


def _number(text: str) -> Decimal | None:
    """The amount a text writes (either minus, an optional "+"), or None for a text that
    is not a plain decimal number."""
    body = text.strip().replace(MINUS, "-")
    if not re.fullmatch(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)", body):
        return None
    try:
        return Decimal(body)
    except (InvalidOperation, ValueError):
        return None


def money_sign(amount) -> int:
    """1, -1 or 0: the sign of an amount (a decimal string, with either minus, or a number);
    0 for a text that is not a number."""
    number = _number(str(amount))
    if number is None:
        return 0
    return (number > 0) - (number < 0)


def _places(text: str) -> int:
    """Decimals as written: "2.020" -> 3, "5" -> 0."""
    whole, dot, fraction = text.partition(".")
    return len(fraction) if dot else 0


def _babel_localized(number: Decimal, places: int, locale: Locale, currency: str, *,
                     grouped: bool = True) -> str:
    """``number`` in ``locale``'s digits, with exactly ``places`` decimals, and with
    ``currency``'s symbol in its place when a currency is given (Babel, CLDR); a negative
    ``number`` gets the locale's minus where its pattern puts it. Babel makes its pattern
    anew for each amount: ``_formatter`` keeps what it reads once per language, currency
    and number of decimals, and comes here only for a pattern it does not read itself."""
    pattern = copy.copy(locale.currency_formats["standard"] if currency
                        else locale.decimal_formats[None])
    pattern.frac_prec = (places, places)  # the core's minor units, not CLDR's
    with decimal.localcontext(prec=_PRECISION):
        written = pattern.apply(number, locale, currency=currency or None,
                                currency_digits=False, decimal_quantization=True,
                                group_separator=grouped)
    # CLDR's currency spacing, which Babel leaves out: a symbol of letters stands a no-break
    # space from the digits ("CHF 1.00", "KWD 0.500"), one of signs does not ("$1.00")
    return _LETTER_DIGIT.sub("\u00a0", written) if currency else written


class _Formatter:
    """Writes amounts as ``_babel_localized`` does for one locale, currency, number of
    decimals and grouping, from the pattern's parts read once (CLDR's data through Babel):
    the book writes hundreds of amounts a page, and building Babel's pattern for each was a
    third of its time."""

    def __init__(self, locale: Locale, currency: str, places: int, grouped: bool):
        pattern = (locale.currency_formats["standard"] if currency
                   else locale.decimal_formats[None])
        self.simple = not (pattern.exp_prec or pattern.scale or "@" in pattern.pattern
                           or pattern.number_pattern == "")
        parts = [*pattern.prefix, *pattern.suffix]
        if currency:
            symbol = get_currency_symbol(currency, locale)
            parts = [p.replace("¤¤", currency.upper()).replace("¤", symbol) for p in parts]
        # a quoted text or a currency's name is left to Babel (none of CLDR's standard
        # patterns for our languages has one)
        self.simple = self.simple and not any("'" in p or "¤" in p for p in parts)
        self.prefix = parts[:2]
        self.suffix = parts[2:]
        self.places = places
        self.quantum = Decimal(1).scaleb(-places)
        self.grouped = grouped
        self.int_min = pattern.int_prec[0]
        self.grouping = pattern.grouping
        self.group = get_group_symbol(locale, numbering_system="latn")
        self.decimal = get_decimal_symbol(locale, numbering_system="latn")
        self.currency = currency
        self.locale = locale

    def __call__(self, number: Decimal) -> str:
        if not self.simple or not number.is_finite():
            return _babel_localized(number, self.places, self.locale, self.currency,
                                    grouped=self.grouped)
        negative = int(number.is_signed())
        with decimal.localcontext(prec=_PRECISION):
            rounded = abs(number).normalize().quantize(self.quantum)
        whole, _, fraction = f"{rounded:f}".partition(".")
        if self.grouped:
            if len(whole) < self.int_min:
                whole = "0" * (self.int_min - len(whole)) + whole
            size, later = self.grouping
            if len(whole) > size:
                groups = []
                while len(whole) > size:
                    groups.append(whole[-size:])
                    whole = whole[:-size]
                    size = later
                whole = self.group.join([whole, *reversed(groups)])
        if self.places:
            whole += self.decimal + fraction
        written = self.prefix[negative] + whole + self.suffix[negative]
        return _LETTER_DIGIT.sub("\u00a0", written) if self.currency else written


@lru_cache(maxsize=256)
def _formatter(locale: Locale, currency: str, places: int, grouped: bool) -> _Formatter:
    return _Formatter(locale, currency, places, grouped)


@lru_cache(maxsize=64)
def _signs(locale: Locale) -> tuple[str, str]:
    """The locale's minus and plus signs, as its patterns write them."""
    return get_minus_sign_symbol(locale), get_plus_sign_symbol(locale)


def _localized(number: Decimal, places: int, locale: Locale, currency: str, *,
               grouped: bool = True) -> str:
    """``number`` in ``locale``'s digits with exactly ``places`` decimals (see
    ``_babel_localized``), by the formatter made once for that locale and currency."""
    return _formatter(locale, currency, places, grouped)(number)


def format_money(amount, currency: str = "", *, minor: bool = False, sign: bool = False,
                 minus: str = MINUS, show_currency: bool = False,
                 locale: str | Locale | None = None, plain: bool = False) -> str:
    """Money (or a signed score) as people read it; the only place that writes an amount.

    ``amount``: the core's decimal string ("-2.02", kept to its decimals), a Decimal or an
    int; with ``minor=True`` whole minor units of ``currency`` (202 USD -> "2.02"). An int
    without ``minor`` or a currency is a score (Hollywood's net points): grouped as the
    language groups a number ("+1,440", "+1.440"), as the ``points`` filter writes the
    scores beside it. Given a
    currency, an amount has at least the decimals of that currency's minor unit as the core
    decides them (``ledger.rules.money.minor_exponent``: JPY none, KWD three).
    ``locale``: a Django language code or a CLDR locale id; None: the language in force
    (the account's on screens, the table's on paper and share pages). The digits are
    grouped and the decimal mark placed as CLDR says for it ("1.234,50" in German,
    "1 234,50" in French, with the no-break spaces CLDR gives).
    ``sign``: "+" before a gain (zero has no sign). ``minus``: the sign of a loss, a real
    minus (U+2212) on pages, ``PLAIN_MINUS`` where a spreadsheet reads it; either stands
    where the locale's pattern puts its minus ("−$1,234.50", "−1.234,50 €").
    ``show_currency``: the currency's symbol where the locale writes it ("1.234,50 €",
    "$1,234.50"). ``plain``: the number as the core writes it, for files a program reads
    (the CSV, the admin's lists): no grouping, a decimal point, " EUR" after it when
    ``show_currency``. None or "" give ""; a text that is no number is returned as it is.
    """
    if amount is None or amount == "":
        return ""
    text = format_minor(amount, currency) if minor else str(amount).strip()
    number = _number(text)
    if number is None:
        return text
    direction = (number > 0) - (number < 0)
    digits = text.lstrip("+-" + MINUS)
    if plain:
        text = (minus if direction < 0 else "+" if direction > 0 and sign else "") + digits
        return f"{text} {currency}" if show_currency and currency else text
    places = _places(digits)
    if currency:
        places = max(places, minor_exponent(currency))
    where = babel_locale(locale)
    symbol = currency if show_currency else ""
    if direction == 0 or (direction > 0 and not sign):
        return _localized(abs(number), places, where, symbol)
    # the locale's pattern for a negative amount places the sign; ours replaces its minus
    written = _localized(-abs(number), places, where, symbol)
    locale_minus, locale_plus = _signs(where)
    mark = minus if direction < 0 else locale_plus
    return written.replace(locale_minus, mark, 1)


def money_words(amount, currency: str) -> str:
    """An amount in a sentence (a stake, an ante, who pays whom), with its currency's symbol
    where the language writes it: "$0.05", "0,05 €", "1 234,50 €". A blank line to write an
    amount on keeps the currency's code after it ("______ USD")."""
    text = format_money(amount, currency, show_currency=bool(currency))
    if currency and _number(str(amount)) is None and text:
        return f"{text} {currency}"
    return text


def amount_text(value, currency: str) -> str:
    """A stored amount (a stake, an ante: a Decimal) as a field and a sentence write it: the
    record's decimals ("0.01", "1.00", "0.015"), through ``format_money``; None gives ""."""
    if value is None:
        return ""
    return format_money(decimal_text(value, currency), currency, minus=PLAIN_MINUS)


def plain_amount(units: int, currency: str) -> str:
    """Minor units as the core writes an amount ("-2.02"): for the lists that the ``money``
    filters print later, the admin and the downloads."""
    return format_money(units, currency, minor=True, minus=PLAIN_MINUS, plain=True)


def minus_signs(text, minus: str = MINUS) -> str:
    """Every negative amount in a text ("+2.02 USD · -0.50 EUR") takes ``minus``; other
    hyphens stay."""
    if text is None:
        return ""
    return _NEGATIVE.sub(minus, str(text))


@dataclass
class Score:
    """One player's or side's score, for the tiles at the top and the session's lists."""

    key: str
    label: str
    value: int | str        # the final (or running) total; Hollywood: the net
    signed: bool = False    # Hollywood's net reads +175 / −175
    detail: str = ""        # Hollywood: "games 120 · 80 · 40", "Partien 1.200 · 80 · 40"
    leader: bool = False


@dataclass
class TotalsRow:
    """The end of a gin-family game (or one of Hollywood's games) for one player or side."""

    key: str
    label: str
    hand_points: int
    hands_won: int
    box_bonus: int
    game_bonus: int
    shutout: bool
    final: int
    boxes: str = ""         # "4 × 25 = 100", "4 won"
    shutout_text: str = ""


@dataclass
class GameColumn:
    """One of Hollywood's three games."""

    number: int
    weight: int
    complete: bool
    winner: str
    totals: list[TotalsRow]


@dataclass
class CapitTotal:
    name: str
    final: int
    rounds_won: int
    pot_won: str            # what the pot paid this player, in words: "15,00 €"


@dataclass
class MoneyLine:
    name: str
    amount: str             # the core's decimal string, "-2.02"
    side: str = ""
    stake: str = ""


@dataclass
class PaymentLine:
    payer: str
    payee: str
    amount: str
    paid: bool = False
    paid_at: str = ""
    pk: int | None = None


@dataclass
class Money:
    currency: str
    lines: list[MoneyLine] = field(default_factory=list)
    payments: list[PaymentLine] = field(default_factory=list)
    show_stake: bool = False
    show_side: bool = False
    cover: str = ""         # captain play: "Captains cover 4:3: each captain plays at ..."
    lump: str = ""          # a lump-sum game or a match: "Lump sum $5.00: the loser pays..."


def _totals_rows(result: dict, totals: dict, *, compact: bool = False) -> list[TotalsRow]:
    rules = result["rules"]
    box_bonus = rules.get("box_bonus")
    shutout = {mode: gettext(words) for mode, words in SHUTOUT_SHORT.items()} if compact else {
        mode: gettext("yes: %(effect)s") % {"effect": gettext(words)}
        for mode, words in SHUTOUT_WORDS.items()}
    rows = []
    for key, t in totals.items():
        if box_bonus and t.get("box_bonus"):
            # RULES 3.7: club boxes count more than one box a hand won
            boxes = f"{t.get('boxes', t['hands_won'])} \u00d7 {box_bonus} = {t['box_bonus']}"
        else:  # off, or not counted yet (the game is open)
            boxes = gettext("%(n)s won") % {"n": t["hands_won"]}
        rows.append(TotalsRow(
            key=key, label=key_label(result, key), hand_points=t.get("hand_points", 0),
            hands_won=t.get("hands_won", 0), box_bonus=t.get("box_bonus", 0),
            game_bonus=t.get("game_bonus", 0), shutout=bool(t.get("shutout")),
            final=t.get("final", 0), boxes=boxes,
            shutout_text=shutout[rules.get("shutout_mode", "none")] if t.get("shutout")
            else "\u2013"))
    return rows


def totals(result: dict) -> list[TotalsRow]:
    """The end-of-game rows of a gin-family game (not Hollywood, not CAP-IT)."""
    if result["facts"]["columns"] or result["facts"]["rounds"] or result.get("streets"):
        return []  # streets: the street cards (presentation.streets)
    return _totals_rows(result, result["totals"])


def game_columns(result: dict) -> list[GameColumn]:
    """Hollywood's three games, each with its own totals."""
    return [GameColumn(number=column["number"], weight=column.get("weight", 1),
                       complete=bool(column.get("complete")),
                       winner=column.get("winner") or "",
                       totals=_totals_rows(result, column["totals"], compact=True))
            for column in result.get("columns") or []]


def capit_totals(result: dict) -> list[CapitTotal]:
    if not result["facts"]["rounds"]:
        return []
    currency = result.get("currency", "")
    return [CapitTotal(name=name, final=t["final"], rounds_won=t["hands_won"],
                       pot_won=money_words(t.get("pot_won", ""), currency))
            for name, t in result["totals"].items()]


def scores(result: dict) -> list[Score]:
    """Each player's or side's score as the tiles, the session page and the session report
    show it: the final (or running) total; for Hollywood the net over the three games with
    each game's total."""
    winner = result.get("winner")
    leaders = set(winner) if isinstance(winner, list) else {winner}
    if result.get("streets"):  # RULES 3.9: the standing is the game points G
        g = result.get("game_points") or {}
        return [Score(key=key, label=key_label(result, key), value=g.get(key, 0), signed=True,
                      detail=gettext("streets %(scores)s") % {"scores": " \u00b7 ".join(
                          format_money(street["totals"][key]["final"])
                          for street in result["streets"])},
                      leader=key in leaders if winner else g.get(key, 0) > 0)
                for key in result["totals"]]
    if result.get("match"):  # RULES 3.10: a match is won on hands, its points only shown
        won = result["match"]["hands_won"]
        return [Score(key=key, label=key_label(result, key), value=won.get(key, 0),
                      detail=ngettext("%(n)s point", "%(n)s points", t.get("hand_points", 0))
                      % {"n": format_money(t.get("hand_points", 0))},
                      leader=key in leaders if winner else False)
                for key, t in result["totals"].items()]
    if result["facts"]["columns"]:
        net = result.get("net") or {}
        columns = result.get("columns") or []
        return [Score(key=key, label=key, value=net.get(key, 0), signed=True,
                      detail=gettext("games %(scores)s") % {"scores": " \u00b7 ".join(
                          format_money(column["totals"][key]["final"]) for column in columns)},
                      leader=key in leaders)
                for key in result["totals"]]
    return [Score(key=key, label=key_label(result, key), value=t.get("final", 0),
                  leader=key in leaders)
            for key, t in result["totals"].items()]


def game_money(result: dict, record: dict) -> Money:
    """Who wins or pays what in this game, and the payments that square it."""
    stakes = record.get("stakes") or {}
    currency = result.get("currency") or stakes.get("currency", "")
    sides = result.get("sides") or {}
    side_of = {member: side for side, members in sides.items() for member in members}
    player_stakes = stakes.get("players") or {}
    cover = result["facts"].get("cover")
    captains = set(sides.get("captains") or []) if cover else set()
    own_opponents = bool(cover) and any(name in player_stakes
                                        for name in sides.get("opponents") or [])

    def stake_of(name: str) -> str:
        if name in player_stakes:
            return player_stakes[name]
        if name in captains and "rate" in stakes:  # the cover, as the sum a player checks
            return "" if own_opponents else cover_rate(stakes["rate"], cover)
        return stakes.get("rate", "")

    lines = [MoneyLine(name=name, amount=amount, side=side_of.get(name, ""),
                       stake=stake_of(name))
             for name, amount in (result.get("money") or {}).items()]
    payments = [PaymentLine(payer=p["from"], payee=p["to"], amount=p["amount"])
                for p in result.get("payments") or []]
    return Money(currency=currency, lines=lines, payments=payments,
                 show_stake="rate" in stakes, show_side=bool(sides),
                 cover=cover_line(result, record), lump=lump_line(result, record))


def lump_line(result: dict, record: dict) -> str:
    """A lump-sum game's or a best-of match's money in words (RULES 3.10): the amount the
    loser pays whatever the points, twice that for a lump-sum game's shutout; "" in the
    other games. The amount is the record's, the shutout the core's."""
    match = result.get("match")
    if not match and (result.get("rules") or {}).get("money_mode") != "lump_sum":
        return ""
    stakes = record.get("stakes") or {}
    amount = stakes.get("lump_sum_stake")
    if not amount:
        return gettext("No lump sum is set: nothing changes hands.")
    said = format_money(amount, stakes.get("currency", ""), show_currency=True)
    if match:
        return gettext("A match for %(amount)s: the loser pays it, whatever the points.") % {
            "amount": said}
    if result.get("complete") and any(t.get("shutout") for t in result["totals"].values()):
        return gettext("Lump sum %(amount)s, twice that for the shutout.") % {"amount": said}
    return gettext("Lump sum %(amount)s: the loser pays it, whatever the points.") % {
        "amount": said}


def cover_line(result: dict, record: dict) -> str:
    """Captain play's cover in words (the core's ``facts["cover"]``), or "" in the other
    games, a game without a rate, and one where every captain has a stake of his own."""
    cover = result["facts"].get("cover")
    stakes = record.get("stakes") or {}
    if not cover or "rate" not in stakes:
        return ""
    sides = result.get("sides") or {}
    player_stakes = stakes.get("players") or {}
    if all(name in player_stakes for name in sides.get("captains") or []):
        return ""
    currency = stakes.get("currency", "")
    return cover_sentence(stakes["rate"], currency, stakes.get("per_points", 1), cover,
                          minor=minor_exponent(currency),
                          own_opponents=any(name in player_stakes
                                            for name in sides.get("opponents") or []))


_stakes.use_formatter(lambda value, currency="": format_money(value, currency), money_words)
