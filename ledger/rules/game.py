"""Score a whole game record: check it, dispatch to its variant, return the result."""

from __future__ import annotations

import functools
import importlib

from .facts import facts_of, hand_stats
from .record import RecordError, read_record
from .variants import REGISTRY


def score_record(record: dict) -> dict:
    """The result of a game record (docs/game-record.md); raises ``RecordError``.

    The result depends on nothing but the record: no clock, no randomness, no database.
    Besides the format's keys it carries ``facts`` (what the game is: ``rules.facts``, and
    whether it ``accepts_hands``) and ``stats`` (each player's plays: ``hand_stats``).
    """
    game = read_record(record)
    problems: list = []
    scorer = scorer_of(REGISTRY[game.variant].at(len(game.players)).scorer)
    out = scorer(game, problems)
    if problems or out is None:
        raise RecordError(problems or ["record: could not be scored"])
    out["facts"] = facts_of(out)
    out["stats"] = hand_stats(out)
    return out


@functools.cache
def scorer_of(where: str):
    """The scoring function a variant's declaration names (``"module:function"`` of
    ``ledger.rules``), imported the first time it is asked for: the scorers import the
    record's reader, which imports the declarations, so a declaration cannot import them."""
    module, _, function = where.partition(":")
    return getattr(importlib.import_module(f".{module}", __package__), function)
