"""The three streets of a streets game as its page shows them (RULES §3.9): for each street
each side's hand points, boxes and points still to go out, the side that went out, the
street's settlement (street bonus, box advantage, clean sweep) and its net; then the game
points G and the all-streets sweep. Every number is the core's (``result["streets"]``,
``result["game_points"]``, ``result["sweep"]``): nothing here is worked out again but the
points still to go, the street's target less a side's hand points in an open street."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext, pgettext

from .words import key_label


@dataclass(frozen=True)
class StreetSide:
    key: str
    label: str
    hand_points: int
    boxes: int
    to_go: int | None          # None once the street has ended
    street_bonus: int
    box_advantage: int
    clean_sweep: int
    final: int
    out: bool                  # this side went out and won the street
    net: int = 0               # the street's net for this side (+ or -), 0 while open


@dataclass(frozen=True)
class StreetCard:
    number: int
    title: str
    target: int
    complete: bool
    state: str                 # "Open" or "WE out in hand 4", in words
    weight: int
    clean: bool
    sides: list[StreetSide]
    net: int                   # toward the winner, 0 while open
    winner_label: str


@dataclass(frozen=True)
class GamePoints:
    key: str
    label: str
    value: int
    leader: bool


@dataclass(frozen=True)
class StreetsBlock:
    cards: list[StreetCard]
    game_points: list[GamePoints]
    sweep: bool
    complete: bool


def streets_block(result: dict) -> StreetsBlock | None:
    """The streets of ``result``, or None for a game without streets."""
    streets = result.get("streets")
    if not streets:
        return None
    cards = []
    for street in streets:
        winner = street.get("winner")
        complete = bool(street.get("complete"))
        sides = []
        for key, t in street["totals"].items():
            sides.append(StreetSide(
                key=key, label=key_label(result, key), hand_points=t["hand_points"],
                boxes=t["boxes"],
                to_go=None if complete else max(street["target"] - t["hand_points"], 0),
                street_bonus=t["street_bonus"], box_advantage=t["box_advantage"],
                clean_sweep=t["clean_sweep"], final=t["final"], out=key == winner,
                net=(street.get("net") or {}).get(key, 0) if complete else 0))
        winner_label = key_label(result, winner) if winner else ""
        if complete:
            state = gettext("%(side)s out in hand %(n)s") % {"side": winner_label,
                                                             "n": street["ended_at"]}
        else:
            state = pgettext("street not finished", "open")
        cards.append(StreetCard(
            number=street["number"],
            title=gettext("Street %(n)s") % {"n": street["number"]},
            target=street["target"], complete=complete, state=state,
            weight=street.get("weight", 1), clean=bool(street.get("clean")), sides=sides,
            net=street["net"].get(winner, 0) if winner else 0, winner_label=winner_label))
    g = result.get("game_points") or {}
    winner = result.get("winner")
    points = [GamePoints(key=key, label=key_label(result, key), value=value,
                         leader=(key == winner) if winner else value > 0)
              for key, value in g.items()]
    return StreetsBlock(cards=cards, game_points=points, sweep=bool(result.get("sweep")),
                        complete=bool(result.get("complete")))
