"""A stake in words, one sentence for every page: the evening's lists, the game's "Stakes
and rules" screen, the printed sheet's panel and the blank sheet (where the amount is a
line to write on).

    stake_sentence("0.01", "USD")                  0.01 USD per point
    stake_sentence("0.01", "USD", 5)               0.01 USD per 5 points
    stake_sentence(None, "USD")                    not for money

The screens and the paper say the same sentence (tests/scoresheets/test_one_stake_sentence.py
finds it in both).
"""

from __future__ import annotations

#: What a game without a stake is played for.
NO_STAKE = "not for money"
#: The line a blank sheet leaves for an amount to be written in.
BLANK_AMOUNT = "______"


def per_points_words(per_points: int | None = 1) -> str:
    """"per point", "per 5 points"."""
    per = per_points or 1
    return "per point" if per == 1 else f"per {per} points"


def stake_sentence(rate, currency: str, per_points: int | None = 1) -> str:
    """A rate in words, on every screen and every sheet: "0.01 USD per point"; ``rate``
    None: "not for money". The amount is written as given (the record's decimal string, a
    Decimal, or ``BLANK_AMOUNT``)."""
    if rate is None or rate == "":
        return NO_STAKE
    return f"{rate} {currency} {per_points_words(per_points)}"


def ante_sentence(ante, currency: str, *, each: bool = False) -> str:
    """CAP-IT's ante: "ante 1.00 USD" ("Ante 1.00 USD each" at the top of a sheet)."""
    if each:
        return f"Ante {ante} {currency} each"
    return f"ante {ante} {currency}"


def own_stake_sentence(name: str, stake, currency: str) -> str:
    """A player's own stake on paper: "Ann plays at 0.02 USD"."""
    return f"{name} plays at {stake} {currency}"
