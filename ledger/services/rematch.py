"""Same players again: a finished game's players start a new game of the same variant, with
the same preset, rules (as they stand after any change), stakes and setup.

The new game goes into the same evening. If that evening is settled, it cannot take another
game: the rematch then opens in the table's evening of today if one is still open, or else
in a new evening dated today with the same place, currency and default stake (the settled
evening is never reopened). Three-player captain play takes the cut order the core gives for
the next game (``next.next_game_players``, RULES §3.5) and lets its first opponent deal."""

from __future__ import annotations

from django.db import transaction

from ledger.clock import table_today
from ledger.models import Game, Session
from ledger.selectors.evenings import rematch_evening, session_is_settled
from ledger.selectors.games import game_result

from .base import User, _lock_session, _user
from .games import game_start
from .tables import session_create


@transaction.atomic
def game_rematch(*, game: Game, started_by: User | None) -> Game:
    """Start the rematch of ``game`` (which may be finished or abandoned; an unfinished game
    can be played again too). Returns the new game; its ``session`` says which evening."""
    session = _lock_session(game.session_id)
    if session_is_settled(session):
        session = rematch_evening(game) or _new_evening_today(session, started_by)
    seats = list(game.seats.select_related("player").order_by("seat"))
    players = [seat.player.name for seat in seats]
    setup = dict(game.setup or {})
    # captain play for 3: the core seats the next game (``next.next_game_players``)
    following = (game_result(game).get("next") or {}).get("next_game_players")
    if following and sorted(following) == sorted(players):
        players = list(following)
        setup.pop("first_dealer", None)
    stakes = {seat.player.name: seat.stake for seat in seats if seat.stake is not None}
    return game_start(
        session=session, variant=game.variant, players=players, started_by=started_by,
        preset=game.preset, rules=dict(game.rules or {}), setup=setup,
        rate=game.rate, per_points=game.per_points if game.rate is not None else None,
        ante=game.ante, lump_sum_stake=game.lump_sum_stake, player_stakes=stakes or None)


def _new_evening_today(settled: Session, by: User | None) -> Session:
    return session_create(table=settled.table, date=table_today(settled.table),
                          place=settled.place,
                          currency=settled.currency, rate=settled.rate,
                          per_points=settled.per_points, created_by=_user(by))
