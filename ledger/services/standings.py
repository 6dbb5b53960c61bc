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


def store_standings(game: Any, result: dict, players: dict[str, Any], *,
                    evening: bool = True) -> None:
    """Replace the game's standings with those of ``result`` (game.status already set),
    and (``evening``) its evening's sums."""
    from ledger.models import EveningStanding, GameStanding

    GameStanding.objects.filter(game_id=game.pk).delete()
    GameStanding.objects.bulk_create(standing_rows(
        GameStanding, game=game, session=game.session, result=result, status=game.status,
        players=players,
    ))
    if evening:
        store_evenings(GameStanding, EveningStanding, [game.session_id])


#: The figures an EveningStanding adds up (besides games, wins and shutouts, which count).
EVENING_SUMS = ("hands_played", "hands_won", "boxes", "gins", "big_gins", "undercuts_made",
                "undercuts_suffered", "hand_points", "money_minor")


def store_evenings(game_model: Any, evening_model: Any, session_ids: list[int]) -> None:
    """Rebuild the EveningStanding rows of these evenings from their finished games'
    GameStanding rows (one per evening, player and variant). Models are passed so the data
    migration can use its historical ones."""
    from django.db.models import Count, Q, Sum

    evening_model.objects.filter(session_id__in=session_ids).delete()
    rows = (
        game_model.objects.filter(session_id__in=session_ids).exclude(status="in_progress")
        .values("table_id", "session_id", "player_id", "variant", "currency", "date")
        .annotate(games=Count("id"), wins=Count("id", filter=Q(won=True)),
                  shutouts=Count("id", filter=Q(shutout=True)),
                  **{name: Sum(name) for name in EVENING_SUMS})
        .order_by()
    )
    evening_model.objects.bulk_create([evening_model(**row) for row in rows], batch_size=1000)
