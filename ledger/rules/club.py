"""The clubs' boxes and knock cards (RULES §3.7 and §6 "Club boxes and knock cards").

A deal (or a two-hand game's hand) won earns its winner one box, plus, with the club boxes
on, ``gin_boxes`` for each gin and ``undercut_boxes`` for each undercut the winner's side
made, and ``roodle_boxes`` for each table when the side won every table of a deal of two
tables or more. A doubled deal (a spade knock card, or a spade Oklahoma up-card, with
``spade_double``) doubles those extra boxes when ``double_extra_boxes`` is on; the deal's
own box never doubles.
"""

from __future__ import annotations

from .limits import parse_upcard
from .problems import At
from .settings import club_setting

__all__ = ["CLUB_BOXES", "boxes_for", "club_boxes_on", "read_knock_card"]

#: The settings that switch the club boxes on when one of them is above 0.
CLUB_BOXES = ("gin_boxes", "undercut_boxes", "roodle_boxes")

_GINS = ("gin", "big_gin")


def club_boxes_on(rules: dict) -> bool:
    """Whether the game counts extra boxes (one of ``CLUB_BOXES`` above 0): its hands then
    list the boxes they earned and its totals the boxes."""
    return any(club_setting(rules, name) > 0 for name in CLUB_BOXES)


def boxes_for(winner, outcomes: list, side_of, rules: dict, *, doubled: bool) -> int:
    """The boxes ``winner`` earns for a deal (or hand) it won: 1, plus the extra boxes of
    its tables' ``outcomes`` (``side_of(player)`` names a player's side; a table nobody won
    is a draw)."""
    gins = undercuts = won = 0
    for outcome in outcomes:
        if outcome.winner is None or side_of(outcome.winner) != winner:
            continue
        won += 1
        if outcome.result in _GINS:
            gins += 1
        elif outcome.result == "undercut":
            undercuts += 1
    extra = gins * club_setting(rules, "gin_boxes") + undercuts * club_setting(
        rules, "undercut_boxes")
    if len(outcomes) >= 2 and won == len(outcomes):  # a roodle: every table won
        extra += len(outcomes) * club_setting(rules, "roodle_boxes")
    if doubled and club_setting(rules, "double_extra_boxes"):
        extra *= 2
    return 1 + extra


def read_knock_card(raw: dict, where: At, problems: list, *, allowed: bool):
    """The deal's knock card, normalised ("5S"), or None when it has none; False (with a
    problem) when it is not a card or the game has no knock cards (``allowed``)."""
    if "knock_card" not in raw or raw["knock_card"] is None:
        return None
    if not allowed:
        problems.append(where.problem(
            "knock_card_not_here", "a knock card belongs to a deal of partnership or streets "
            "only", path="knock_card", field="knock_card"))
        return False
    parsed = parse_upcard(raw["knock_card"])
    if parsed is None:
        problems.append(where.problem(
            "knock_card_unreadable", f"{raw['knock_card']!r} is not a card like \"5S\" "
            f"(rank A 2-10 J Q K, suit S H D C)", path="knock_card", field="knock_card"))
        return False
    return parsed[0]


def doubled_by(card: str | None, rules: dict) -> bool:
    """Whether a knock card (or an Oklahoma up-card) doubles its deal: a spade under
    ``spade_double``."""
    return bool(card) and rules.get("spade_double", True) and card.endswith("S")
