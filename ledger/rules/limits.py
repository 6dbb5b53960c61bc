"""The knock limit of a hand (RULES §1, §3.2): the game's ``knock_limit`` setting, or in
Oklahoma gin the value of the up-card (face cards 10), an Ace under ``oklahoma_ace``
"gin_only" allowing only gin. The one place that works it out: the scorer, the card engine's
checks, the hand form and the card preview all ask here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

UPCARD_RANKS = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
                "10": 10, "T": 10, "J": 10, "Q": 10, "K": 10}
SUITS = ("S", "H", "D", "C")


@dataclass(frozen=True)
class KnockLimit:
    """``limit``: the most deadwood a knock may have (0: only gin ends the hand);
    ``gin_only``: an Ace up-card under "gin_only"; ``name``: how a line names it."""

    limit: int
    gin_only: bool
    name: str
    upcard: str | None = None

    def allows(self, deadwood: int, cards: int = 10) -> bool:
        """Whether a knocker holding ``cards`` cards (11: a big gin, all melded) with
        ``deadwood`` may end the hand."""
        most = 0 if self.gin_only or cards == 11 else self.limit
        return deadwood <= most


def parse_upcard(value) -> tuple[str, int, str] | None:
    """'5S' -> ('5S', 5, 'S'); None if it is not a card."""
    if not isinstance(value, str):
        return None
    text = value.strip().upper()
    rank, suit = text[:-1], text[-1:]
    if rank not in UPCARD_RANKS or suit not in SUITS:
        return None
    rank = "10" if rank == "T" else rank
    return rank + suit, UPCARD_RANKS[rank], suit


def knock_limit(rules: dict, *, oklahoma: bool = False, upcard: str | None = None,
                knock_card: str | None = None) -> KnockLimit:
    """The knock limit of a hand under ``rules`` (a game's resolved settings; missing ones
    take their defaults). In Oklahoma gin ``upcard`` is the up-card ("5S"), or its rank
    alone ("5", "A") while the suit is not known yet; without it the setting applies.
    A partnership or streets deal's ``knock_card`` (RULES §3.7) sets the limit the same way
    for every table of the deal."""
    if knock_card:
        return _knock_limit(rules.get("knock_limit", 10), rules.get("oklahoma_ace", "gin_only"),
                            True, knock_card, "the knock card")
    if not oklahoma or not upcard:
        setting = rules.get("knock_limit", 10)
        plain = _PLAIN.get(setting)
        if plain is None:
            plain = _PLAIN[setting] = KnockLimit(setting, False, "the knock limit")
        return plain
    return _knock_limit(rules.get("knock_limit", 10), rules.get("oklahoma_ace", "gin_only"),
                        True, upcard)


_PLAIN: dict = {}  # the setting's KnockLimit, made once per value (one per hand scored)


@lru_cache(maxsize=256)
def _knock_limit(setting: int, ace: str, by_upcard: bool, upcard,
                 noun: str = "the up-card") -> KnockLimit:
    if not by_upcard:
        return KnockLimit(setting, False, "the knock limit")
    parsed = parse_upcard(upcard)
    if parsed is not None:
        card, value = parsed[0], parsed[1]
    else:
        rank = str(upcard).strip().upper()
        if rank not in UPCARD_RANKS:
            return KnockLimit(setting, False, "the knock limit")
        card, value = ("10" if rank == "T" else rank), UPCARD_RANKS[rank]
    if value == 1:
        if ace == "gin_only":
            return KnockLimit(0, True, f"{noun} {card} (an Ace: gin only)", card)
        if ace != "one":
            raise ValueError(f'oklahoma_ace must be "gin_only" or "one", not {ace!r}')
        return KnockLimit(1, False, f"{noun} {card}", card)
    return KnockLimit(value, False, f"{noun} {card}", card)
