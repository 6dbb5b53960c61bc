"""An evening (``Session``): its number among its date's, its games, players and nets, the
evening a rematch goes into, what a new one starts from; its settlement (the nets fixed and
the payments that square them) and whether it stands."""

from __future__ import annotations

import json

from django.db.models import Sum, TextField
from django.db.models.functions import Cast

from ledger.models import Game, Hand, MoneyPosting, Player, Session, SessionSettlement
from ledger.rules.money import decimal_text

from .games import game_queryset_for_records, game_record, game_seats, seats_with_players


def evening_numbers(table_id: int) -> dict[int, int]:
    """Each evening of the table: which of its date's evenings it is (1, 2...), in the
    order they were made (one query)."""
    numbers: dict[int, int] = {}
    seen: dict = {}
    for pk, day in (Session.objects.filter(table_id=table_id).order_by("date", "id")
                    .values_list("id", "date")):
        seen[day] = seen.get(day, 0) + 1
        numbers[pk] = seen[day]
    return numbers


def set_evening_numbers(sessions) -> None:
    """Give each evening of a list its ``number`` (``Session.number``) without a query each."""
    sessions = list(sessions)
    if not sessions:
        return
    by_table: dict[int, dict[int, int]] = {}
    for session in sessions:
        if session.table_id not in by_table:
            by_table[session.table_id] = evening_numbers(session.table_id)
        session.__dict__["number"] = by_table[session.table_id].get(session.pk, 1)


def rematch_evening(game: Game) -> Session | None:
    """The evening a rematch of ``game`` goes into: its own while that is not settled, else
    the table's evening of today in the same currency that is still open; None when there is
    none, and the rematch would open a new evening (``services.game_rematch``)."""
    from ledger.clock import table_today

    session = game.session
    if not session_is_settled(session):
        return session
    for candidate in (Session.objects.filter(table_id=session.table_id,
                                             date=table_today(session.table),
                                             currency=session.currency).order_by("-pk")):
        if not session_is_settled(candidate):
            return candidate
    return None


def new_evening_initial(table) -> dict:
    """What the "New evening" form starts from: today, and the place, currency and stake
    of the table's latest evening (latest date, then latest made), still editable; a table
    with no evening yet starts from USD, 1 point and no stake. Today is the table's (its
    time zone's date)."""
    from ledger.clock import table_today

    initial = {"date": table_today(table), "currency": "USD", "per_points": 1}
    last = Session.objects.filter(table=table).order_by("-date", "-id").first()
    if last is not None:
        initial.update(place=last.place, currency=last.currency, per_points=last.per_points)
        if last.rate is not None:
            initial["rate"] = decimal_text(last.rate, last.currency)
    return initial


def session_games(session: Session) -> list[Game]:
    """The session's games in order, prefetched for ``game_record``."""
    return list(game_queryset_for_records().filter(session=session).order_by("sequence"))


def session_game_records(session: Session) -> list[tuple[Game, dict]]:
    """The session's games in order, each with its record (``game_record``), in three
    queries: the games, their seats with their players, and what every hand that counts
    was entered as, for all the games at once, as stored JSON text decoded in one go (not
    a ``Hand`` object per hand: the session report of the demo evening and a 300-hand
    game read its 330 hands in 2 ms, not 8). What the games' records are the same as
    ``game_record`` of each of ``session_games``."""
    games = list(Game.objects.filter(session=session).select_related("session")
                 .prefetch_related(seats_with_players()).order_by("sequence"))
    rows = list(Hand.objects.filter(game__session=session, voided_at__isnull=True)
                .order_by("game_id", "number")
                .values_list("game_id", Cast("entry", TextField())))
    decoded = json.loads("[" + ",".join(text for _, text in rows) + "]")
    entries: dict[int, list[dict]] = {}
    for (game_id, _), entry in zip(rows, decoded, strict=True):
        entries.setdefault(game_id, []).append(entry)
    return [(game, game_record(game, hands=entries.get(game.pk, []))) for game in games]


def session_players(session: Session, games: list[Game] | None = None) -> list[Player]:
    """Everyone who played in the session, in order of first seat in the first game."""
    games = session_games(session) if games is None else games
    seen: dict[int, Player] = {}
    for game in games:
        for seat in game_seats(game):
            seen.setdefault(seat.player_id, seat.player)
    return list(seen.values())


def session_nets(session: Session, games: list[Game] | None = None) -> dict[str, int]:
    """Each player's net over every game of the session, in minor units (posted money:
    finished and abandoned games; a game in progress has no money yet). Sums to zero."""
    games = session_games(session) if games is None else games
    players = session_players(session, games)
    sums = dict(
        MoneyPosting.objects.filter(game__session=session)
        .values("player_id")
        .annotate(total=Sum("amount_minor"))
        .values_list("player_id", "total")
    )
    return {player.name: int(sums.get(player.id) or 0) for player in players}


def live_settlements():
    """Settlements that stand: not voided by reopening their evening (at most one per
    session). Every reader that asks 'is it settled?' or 'what is owed?' uses these."""
    return SessionSettlement.objects.filter(void__isnull=True)


def voided_settlements(session: Session) -> list[SessionSettlement]:
    """The session's settlements voided by reopening it (with who voided and who settled
    each), oldest first."""
    return list(SessionSettlement.objects.filter(session=session, void__isnull=False)
                .select_related("void__voided_by", "settled_by").order_by("id"))


def session_settlement(session: Session) -> SessionSettlement | None:
    """The session's live settlement with its payments (payer/payee loaded), or None."""
    return (
        live_settlements().filter(session=session)
        .prefetch_related("payments__payer", "payments__payee")
        .order_by("-id")
        .first()
    )


def settlement_nets(settlement: SessionSettlement, players: list[Player] | None = None
                    ) -> dict[str, int]:
    """The settled nets (minor units) in the players' current names. A settlement stores
    its nets by name, in the order of ``session_players`` at the time it was made; a settled
    evening's games no longer change, so that order still holds and names each net's
    player even after a rename."""
    players = session_players(settlement.session) if players is None else players
    nets = {name: int(units) for name, units in settlement.nets.items()}
    current = {player.name for player in players}
    if set(nets) == current or len(players) != len(nets):
        return nets
    return {player.name: units for player, units in zip(players, nets.values(), strict=True)}


def session_is_settled(session: Session) -> bool:
    return live_settlements().filter(session_id=session.pk).exists()
