"""One hand scored on its own, as a game would score it: what the card picker's preview says
before the hand is saved (who wins, how, how many points), from ``score_gin_hand`` itself,
so the preview can never call a hand differently from the sheet.
"""

from __future__ import annotations

from .hand import GinHand, HandOutcome, score_gin_hand
from .limits import KnockLimit, knock_limit
from .problems import At, Problem
from .settings import DEFAULTS, PRESETS, default_preset


def full_rules(rules: dict | None, variant: str | None = None) -> dict:
    """``rules`` with every missing setting at the variant's default preset's value (no
    variant: the standard preset's)."""
    out = dict(PRESETS[default_preset(variant)])
    out.update(DEFAULTS)
    out.update(rules or {})
    return out


def play_hand(knocker: str, opponent: str, *, rules: dict | None = None,
              cards: dict | None = None, deadwood: dict | None = None,
              oklahoma: bool = False, upcard: str | None = None, gin: bool | None = None,
              big_gin: bool = False) -> tuple[HandOutcome | None, list[Problem], KnockLimit]:
    """Score a hand between ``knocker`` and ``opponent`` under ``rules`` (a game's settings;
    missing ones take their defaults): from the ``cards`` of both ({name: "AS 2S ..."})
    and/or their ``deadwood`` counts. In Oklahoma ``upcard`` is the up-card ("5S"), or its
    rank alone while the suit is not chosen yet.

    Returns the outcome (None when refused), the problems (as a game's hand 1 would give
    them) and the hand's knock limit.
    """
    rules = full_rules(rules)
    limit = knock_limit(rules, oklahoma=oklahoma, upcard=upcard)
    hand = GinHand(False, knocker, dict(deadwood) if deadwood is not None else None,
                   big_gin, limit.upcard if oklahoma else None,
                   dict(cards) if cards is not None else None, gin)
    problems: list[Problem] = []
    outcome = score_gin_hand(hand, (knocker, opponent), At(1), problems, rules,
                             oklahoma=oklahoma)
    return outcome, problems, limit
