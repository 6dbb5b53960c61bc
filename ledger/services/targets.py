"""A streets game's target changed between two deals (RULES 3.9): the record's
``{"target": N}`` entry, recorded as the game's next entry through ``hand_record`` (so it
is numbered, idempotent, undone and rescored like a deal)."""

from __future__ import annotations

import uuid

from ledger.models import Game

from .base import User
from .hands import HandOutcome, hand_record


def target_change(*, game: Game, target: int, changed_by: User | None,
                  idempotency_key: uuid.UUID | str, number: int | None = None) -> HandOutcome:
    """Set a new ``target`` for every open street of ``game`` from the next deal on. The
    core refuses it (``RecordRefused``, ``target_passed``) when a side already has that many
    hand points in an open street, and a game whose variant takes no target change
    (``target_invalid``); nothing is stored then."""
    return hand_record(game=game, entry={"target": target}, recorded_by=changed_by,
                       idempotency_key=idempotency_key, number=number)
