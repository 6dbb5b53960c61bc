"""Score a whole game record: check it, dispatch to its variant, return the result."""

from __future__ import annotations

from .facts import facts_of, hand_stats
from .record import RecordError, read_record


def score_record(record: dict) -> dict:
    """The result of a game record (docs/game-record.md); raises ``RecordError``.

    The result depends on nothing but the record: no clock, no randomness, no database.
    Besides the format's keys it carries ``facts`` (what the game is: ``rules.facts``, and
    whether it ``accepts_hands``) and ``stats`` (each player's plays: ``hand_stats``).
    """
    game = read_record(record)
    problems: list = []
    scorer = _SCORERS[game.variant]
    out = scorer(game, problems)
    if problems or out is None:
        raise RecordError(problems or ["record: could not be scored"])
    out["facts"] = facts_of(out)
    out["stats"] = hand_stats(out)
    return out


def _scorers():
    from .box import score_box
    from .capit import score_capit
    from .captain import score_captain
    from .gin import score_two_hand
    from .hollywood import score_hollywood
    from .multitable import score_captain_tables, score_partnership

    return {
        "gin": score_two_hand,
        "oklahoma": score_two_hand,
        "hollywood": score_hollywood,
        "box": score_box,
        "captain": lambda game, problems: (
            score_captain if len(game.players) == 3 else score_captain_tables
        )(game, problems),  # three players share one table; five and seven play at several
        "partnership": score_partnership,
        "cap-it": score_capit,
    }


_SCORERS = _scorers()
