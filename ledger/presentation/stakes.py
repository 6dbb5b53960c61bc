"""A stake in words, one sentence for every page: the evening's lists, the game's "Stakes
and rules" screen, the printed sheet's panel and the blank sheet (where the amount is a
line to write on).

    stake_sentence("0.01", "USD")                  $0.01 per point ("0,01 $ pro Punkt")
    stake_sentence("0.01", "EUR", 5)               €0.01 per 5 points ("0,01 € pro 5 Punkte")
    stake_sentence(None, "USD")                    not for money

The screens and the paper say the same sentence (tests/scoresheets/test_one_stake_sentence.py
finds it in both).
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.utils.translation import gettext, gettext_noop, ngettext

#: What a game without a stake is played for (translated where it is said).
NO_STAKE = gettext_noop("not for money")
#: The line a blank sheet leaves for an amount to be written in.
BLANK_AMOUNT = "______"


def _fmt(value, currency: str = "") -> str:
    """An amount as the language in force writes it ("0,05" in German), through the
    formatter ``ledger.presentation.money`` installs (``use_formatter``: this module is
    imported by it, not the other way round); the blank line and other text as given."""
    if value is None:
        return ""
    return _formatter(value, currency) if _formatter else str(value)


def _money(value, currency: str) -> str:
    """An amount with its currency's symbol where the language writes it ("$0.05",
    "0,05 €"; ``money.money_words``), the blank line with the currency's code after it."""
    if value is None:
        return ""
    return _words(value, currency) if _words else f"{value} {currency}".strip()


_formatter = None
_words = None


def use_formatter(formatter, words=None) -> None:
    """Write the amounts of the sentences with ``formatter(value, currency)`` (a number)
    and ``words(value, currency)`` (an amount of money, with its symbol)."""
    global _formatter, _words
    _formatter, _words = formatter, words


def per_points_words(per_points: int | None = 1) -> str:
    """"per point", "per 5 points"."""
    per = per_points or 1
    return ngettext("per point", "per %(n)s points", per) % {"n": per}


def stake_sentence(rate, currency: str, per_points: int | None = 1) -> str:
    """A rate in words, on every screen and every sheet: "$0.01 per point"; ``rate``
    None: "not for money". The amount is written as given (the record's decimal string, a
    Decimal, or ``BLANK_AMOUNT``)."""
    if rate is None or rate == "":
        return gettext(NO_STAKE)
    return f"{_money(rate, currency)} {per_points_words(per_points)}"


def ante_sentence(ante, currency: str, *, each: bool = False) -> str:
    """CAP-IT's ante: "ante $1.00" ("Ante $1.00 each" at the top of a sheet)."""
    values = {"amount": _money(ante, currency)}
    if each:
        return gettext("Ante %(amount)s each") % values
    return gettext("ante %(amount)s") % values


def own_stake_sentence(name: str, stake, currency: str) -> str:
    """A player's own stake on paper: "Ann plays at $0.02"."""
    return gettext("%(name)s plays at %(amount)s") % {
        "name": name, "amount": _money(stake, currency)}


# -- captain play's cover (RULES §3.5, §3.6; the core's ``facts["cover"]``) -------------------

def cover_ratio(cover) -> str:
    """The cover as players say it: "4:3", "3:2"; "2x" for the one captain of three."""
    opponents, captains = cover
    return f"{opponents}x" if captains == 1 else f"{opponents}:{captains}"


def cover_rate(rate, cover) -> str:
    """A captain's effective stake as the sum a player checks: "0.05 × 4/3", "0.05 × 2"."""
    opponents, captains = cover
    factor = str(opponents) if captains == 1 else f"{opponents}/{captains}"
    return f"{_fmt(rate)} \u00d7 {factor}"


def cover_value(rate, cover, minor: int, currency: str = "") -> str:
    """What that comes to: "= $0.075", "= $0.10" when it is exact to the currency's
    ``minor`` decimals and two more, else "≈ $0.0667"; "" for a rate that is not a number.
    Without a currency, the number alone ("= 0.10")."""
    opponents, captains = cover
    try:
        exact = Decimal(str(rate)) * opponents / captains
    except (InvalidOperation, ValueError):
        return ""
    shown = exact.quantize(Decimal(1).scaleb(-(minor + 2)))
    if shown != exact:
        return "\u2248 " + _amount(format(shown, "f"), currency)
    text = exact.normalize()
    if -text.as_tuple().exponent < minor:
        text = exact.quantize(Decimal(1).scaleb(-minor))
    return "= " + _amount(format(text, "f"), currency)


def _amount(value: str, currency: str) -> str:
    return _money(value, currency) if currency else _fmt(value)


def cover_sentence(rate, currency: str, per_points: int | None, cover, *, minor: int,
                   own_opponents: bool = False) -> str:
    """The cover in words, under the stake on the sheet and the money box:
    "Captains cover 4:3: each captain plays at 0.05 × 4/3 ≈ $0.0667 per point";
    "The captain covers both opponents (2x): 0.05 × 2 = $0.10 per point".
    ``own_opponents``: an opponent plays at a stake of his own, so the captains' stake is
    the opponents' stakes together divided among them (no one factor of the game's)."""
    opponents, captains = cover
    per = per_points_words(per_points)
    values = {"ratio": cover_ratio(cover), "currency": currency, "per": per,
              "opponents": opponents, "captains": captains}
    if own_opponents:
        if captains == 1:
            return gettext("The captain covers both opponents: he plays at their stakes "
                           "together, in %(currency)s %(per)s") % values
        return gettext("Captains cover %(ratio)s: each captain plays at the %(opponents)s "
                       "opponents' stakes together ÷ %(captains)s, in %(currency)s "
                       "%(per)s") % values
    values["amount"] = " ".join(
        part for part in (cover_rate(rate, cover), cover_value(rate, cover, minor, currency))
        if part)
    if captains == 1:
        return gettext("The captain covers both opponents (%(ratio)s): %(amount)s "
                       "%(per)s") % values
    return gettext("Captains cover %(ratio)s: each captain plays at %(amount)s "
                   "%(per)s") % values
