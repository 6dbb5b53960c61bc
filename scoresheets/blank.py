"""A blank sheet printed from the evening's screen, for a game that does not exist yet: a
chosen variant and players, in the order they were chosen, with the evening's stake.

Nothing is stored. The players' order gives the seats the way the start form does: the
first one deals first (two-hand games, CAP-IT); in the box and 3-player captain play it is
the cut order; 5 or 7 for captain play are the captains, then their opponents (table by
table), then the one who sits out; partnership is the first side, then the second."""

from __future__ import annotations

from django.db.models import Max

from ledger.models import Game, Session

from .selectors import blank_sheet_context

#: How many players each variant's blank sheet takes (the start form's VARIANT_COUNTS).
BLANK_COUNTS = {
    "gin": (2,), "oklahoma": (2,), "hollywood": (2,), "box": (3,),
    "captain": (3, 5, 7), "partnership": (4, 6), "cap-it": (4, 5, 6),
}
RECORD_FORMAT = "tablestakes.game/1"


def blank_setup(variant: str, players: list[str]) -> dict:
    if variant in ("gin", "oklahoma", "hollywood", "cap-it"):
        return {"first_dealer": players[0]}
    if variant == "captain" and len(players) > 3:
        half = len(players) // 2
        return {"captains": players[:half], "opponents": players[half:2 * half],
                "sitter": players[-1]}
    if variant == "partnership":
        half = len(players) // 2
        return {"sides": {"We": players[:half], "They": players[half:]}}
    return {}


def blank_record(session: Session, variant: str, players: list[str], preset: str = "",
                 ante=None) -> dict:
    record: dict = {"format": RECORD_FORMAT, "variant": variant}
    if preset:
        record["preset"] = preset
    record["rules"] = {}
    record["players"] = list(players)
    if variant != "cap-it" and session.rate is not None:
        record["stakes"] = {"rate": str(session.rate.normalize()),
                            "per_points": session.per_points, "currency": session.currency}
    elif variant == "cap-it" and ante is not None:
        record["stakes"] = {"ante": f"{ante:.2f}", "currency": session.currency}
    record["setup"] = blank_setup(variant, players)
    record["abandoned"] = False
    record["hands"] = []
    return record


def evening_blank_context(session: Session, variant: str, players: list[str],
                          preset: str = "", ante=None) -> tuple[dict, int]:
    """The blank sheet's context, and the number the game would have in the evening.
    Raises ValueError (from the core's refusal) if the players do not fit the variant."""
    sequence = (session.games.aggregate(n=Max("sequence"))["n"] or 0) + 1
    record = blank_record(session, variant, players, preset, ante)
    game = Game(session=session, sequence=sequence, variant=variant, preset=preset,
                rules={}, setup=record["setup"], currency=session.currency,
                rate=session.rate if variant != "cap-it" else None,
                per_points=session.per_points, ante=ante if variant == "cap-it" else None)
    return blank_sheet_context(game, record=record), sequence
