"""Keeping each game's ``GameStanding`` rows equal to its current result.

Called by ``posting._apply_result`` (the one place every service brings a game in line with
its result: start, import, hand, correction, undo, rule or stake change, abandon) with the
same result dict it posts money from, so the statistics and the money can never tell two
stories. The rows are a cache of that result, not history: they are replaced (delete +
insert, in the caller's transaction). ``standing_rows`` is also used by the data migration
that fills older games and by the bench that builds a big table quickly.
"""

from __future__ import annotations

from typing import Any

from ledger.book.stats import standings_from_result


def standing_rows(model: Any, *, game: Any, session: Any, result: dict, status: str,
                  players: dict[str, Any]) -> list:
    """Unsaved ``model`` (GameStanding) rows for ``game`` from ``result``; ``players`` maps
    the result's names to Player rows (or ids)."""
    ended = status != "in_progress"
    rows = []
    for name, figures in standings_from_result(result, ended=ended).items():
        player = players[name]
        rows.append(model(
            table_id=session.table_id, session_id=session.pk, game_id=game.pk,
            player_id=getattr(player, "pk", player), variant=game.variant, status=status,
            date=session.date, finished_at=game.finished_at, currency=game.currency,
            **figures,
        ))
    return rows


def store_standings(game: Any, result: dict, players: dict[str, Any]) -> None:
    """Replace the game's standings with those of ``result`` (game.status already set)."""
    from ledger.models import GameStanding

    GameStanding.objects.filter(game_id=game.pk).delete()
    GameStanding.objects.bulk_create(standing_rows(
        GameStanding, game=game, session=game.session, result=result, status=game.status,
        players=players,
    ))
