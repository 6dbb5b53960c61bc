"""The game record's fields, declared once (docs/game-record.md): what ``score`` reads, what
an import and the hand services check the shape of before scoring.

One policy for a key a record, a hand or a table does not know: it is ignored (a sheet may
carry ``notes``; docs/rules-decisions.md "Records"). Unknown *setting* and preset names are
errors, as RULES §6 says: the core checks those when it resolves the rules.

Each known field has a kind: "name" (a player's name, text), "card" (a card, text such
as "7S"), "flag" (true or false),
"counts" (an object of player names to a number or cards), "names" (a list of names),
"object", "list", "text", "money", "number".
"""

from __future__ import annotations

__all__ = ["GAME_FIELDS", "HAND_FIELDS", "PLAY_FIELDS", "PLAY_PLACES", "ROUND_PLACES",
           "STAKE_FIELDS", "Place", "fields_of_kind", "known"]

#: The top level of a game record.
GAME_FIELDS = {
    "format": "text", "variant": "text", "preset": "text", "rules": "object",
    "players": "names", "stakes": "object", "setup": "object", "abandoned": "flag",
    "hands": "list",
}

#: A game's ``stakes``.
STAKE_FIELDS = {"rate": "money", "per_points": "number", "currency": "text",
                "players": "object", "ante": "money", "lump_sum_stake": "money"}

#: One gin-family play: a hand of a two-player game, or one table of a table game's hand.
PLAY_FIELDS = {
    "knocker": "name", "deadwood": "counts", "big_gin": "flag", "gin": "flag",
    "draw": "flag", "cards": "counts", "upcard": "card",
}

#: A hand of any variant: a play, a table game's ``tables`` (each a play) with its
#: ``cut_loser`` and (partnership, streets) the deal's ``knock_card``, a streets target
#: change (``target``), or a CAP-IT round (``went_out`` and ``points`` or ``cards``).
HAND_FIELDS = {**PLAY_FIELDS, "tables": "list", "cut_loser": "name", "went_out": "name",
               "points": "counts", "knock_card": "card", "target": "number"}


class Place:
    """Where a problem with a field of a hand is put right, as the keeper enters a hand: at
    a card table of it, its ``KNOCKER`` or a player's ``COUNT`` (deadwood) or ``CARDS``;
    for the whole hand, its ``UPCARD``, its ``CUT_LOSER`` or its ``KNOCK_CARD``; in a CAP-IT
    round, who ``WENT_OUT`` or a player's ``POINTS``."""

    KNOCKER = "knocker"
    COUNT = "count"
    CARDS = "cards"
    UPCARD = "upcard"
    CUT_LOSER = "cut_loser"
    KNOCK_CARD = "knock_card"
    WENT_OUT = "went_out"
    POINTS = "points"


#: The place of each field a problem may name, in a hand of plays (one or more card tables).
PLAY_PLACES = {"knocker": Place.KNOCKER, "deadwood": Place.COUNT, "cards": Place.CARDS,
               "upcard": Place.UPCARD, "cut_loser": Place.CUT_LOSER,
               "knock_card": Place.KNOCK_CARD}
#: ... and in a CAP-IT round (a player's cards are entered as the points they count).
ROUND_PLACES = {"went_out": Place.WENT_OUT, "points": Place.POINTS, "cards": Place.POINTS}


def fields_of_kind(fields: dict, kind: str) -> tuple[str, ...]:
    """The fields of ``fields`` that hold a value of ``kind``."""
    return tuple(name for name, of in fields.items() if of == kind)


def known(data: dict, fields: dict) -> dict:
    """``data`` without the keys ``fields`` does not declare: what the core reads of it."""
    return {key: value for key, value in data.items() if key in fields}
