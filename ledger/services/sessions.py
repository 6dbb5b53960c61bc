"""Settling an evening, marking its payments paid, and storing a whole evening from its record."""

from __future__ import annotations

import datetime
from dataclasses import replace

from django.db import transaction

from ledger import cleaning, limits
from ledger.exceptions import (
    LedgerError,
    LedgerIntegrityError,
    RecordRefused,
)
from ledger.models import (
    GameStatus,
    MoneyPosting,
    PaymentMark,
    Session,
    SessionSettlement,
    SettlementPayment,
)
from ledger.rules.money import fewest_payments, format_minor, minor_exponent
from ledger.selectors.evenings import (
    live_settlements,
    session_games,
    session_nets,
    session_players,
)
from ledger.selectors.exports import SESSION_FORMAT
from ledger.selectors.games import game_record, money_to_minor

from .base import (
    User,
    _ensure_open,
    _lock_session,
    _score,
    _user,
)
from .games import game_import
from .tables import players_get_or_create, session_create, table_create, table_named

# -- settlement ------------------------------------------------------------------------------

@transaction.atomic
def session_settle(*, session: Session, settled_by: User | None) -> SessionSettlement:
    """Settle the evening: every player's net over all its games (every variant together)
    and the fewest payments that square it (the core's ``fewest_payments``).

    Refused while a game is in progress (finish or abandon it first) or if the session is
    already settled. Before settling, every game's posted money is checked against the
    core's score of its hands. After this the session's games can no longer change.
    The number of queries does not depend on the number of hands or games.
    """
    session = _lock_session(session)
    _ensure_open(session)
    games = session_games(session)
    open_games = [game.sequence for game in games if game.status == GameStatus.IN_PROGRESS]
    if open_games:
        raise LedgerError(code="settle_open_games", games=list(open_games))
    nets = session_nets(session, games)
    per_game = _posted_by_game(session)
    for game in games:
        expected = {name: amount for name, amount in money_to_minor(
            _score(game_record(game))["money"], game.currency).items() if amount}
        if per_game.get(game.pk, {}) != expected:
            raise LedgerIntegrityError(
                f"Game {game.sequence}: its posted money differs from the score of its hands."
            )
    if sum(nets.values()) != 0:
        raise LedgerIntegrityError("the session's nets do not sum to zero")
    players = {player.name: player for player in session_players(session, games)}
    settlement = SessionSettlement.objects.create(
        session=session, currency=session.currency, nets=nets, settled_by=_user(settled_by),
    )
    SettlementPayment.objects.bulk_create(
        SettlementPayment(settlement=settlement, order=order, payer=players[payment.payer],
                          payee=players[payment.payee], amount_minor=payment.units)
        for order, payment in enumerate(fewest_payments(nets), start=1)
    )
    return settlement


def _posted_by_game(session: Session) -> dict[int, dict[str, int]]:
    """Each game's current posted money (sum of its postings), one query for the session."""
    from django.db.models import Sum

    rows = (
        MoneyPosting.objects.filter(game__session=session)
        .values("game_id", "player__name")
        .annotate(total=Sum("amount_minor"))
        .values_list("game_id", "player__name", "total")
    )
    money: dict[int, dict[str, int]] = {}
    for game_id, name, total in rows:
        if total:
            money.setdefault(game_id, {})[name] = int(total)
    return money


@transaction.atomic
def settlement_payment_mark_paid(*, payment: SettlementPayment, paid_by: User | None,
                                 paid: bool = True) -> SettlementPayment:
    """Mark a settlement payment as paid (or, with ``paid=False``, not paid after all):
    a new ``PaymentMark`` row (the history keeps every mark), and the payment's paid columns
    repeat it. The settlement's amounts never change."""
    payment = SettlementPayment.objects.select_for_update().get(pk=payment.pk)
    if not live_settlements().filter(pk=payment.settlement_id).exists():
        raise LedgerError(code="payment_voided")
    if paid == payment.is_paid:
        return payment
    by = _user(paid_by)
    mark = PaymentMark.objects.create(payment=payment, paid=paid, marked_by=by)
    payment.paid_at = mark.marked_at if paid else None
    payment.paid_by = by if paid else None
    payment.save(update_fields=["paid_at", "paid_by"])
    return payment


# -- sessions as records ---------------------------------------------------------------------

@transaction.atomic
def session_import(*, record: dict, imported_by: User | None = None) -> Session:
    """Store a whole evening (``tablestakes.session/1``, as ``export_session`` writes it):
    the table (found or created by name), the session, every game, and the settlement with
    its paid marks if the record has one. All or nothing."""
    cleaning.check_session_record(record)  # shape and text, before any scoring
    if record.get("format") != SESSION_FORMAT:
        raise RecordRefused([f"format: expected {SESSION_FORMAT}"])
    limits.check_record_hands(record)
    try:
        date = datetime.date.fromisoformat(record["date"])
    except (KeyError, TypeError, ValueError):
        raise RecordRefused(["date: expected a date such as 2025-11-21"]) from None
    table_name = record.get("table")
    if not isinstance(table_name, str) or not table_name.strip():
        raise RecordRefused(["table: a table name is required"])
    table = table_named(name=table_name, scorekeeper=_user(imported_by))
    if table is None:
        table = table_create(name=table_name, scorekeepers=[imported_by] if imported_by else [])
    stakes = record.get("stakes") or {}
    session = session_create(
        table=table, date=date, place=record.get("place") or "",
        currency=record.get("currency") or "USD", rate=stakes.get("rate"),
        per_points=stakes.get("per_points", 1), notes=record.get("notes") or "",
        created_by=imported_by,
    )
    players_get_or_create(table=table, names=record.get("players") or [])
    games = record.get("games") or []
    if not isinstance(games, list):
        raise RecordRefused(["games: expected a list of game records"])
    for index, game in enumerate(games, start=1):
        try:
            game_import(session=session, record=game, imported_by=imported_by)
        except RecordRefused as exc:
            raise RecordRefused([
                replace(problem, opening=f"games[{index}]"
                        + (f": {problem.opening}" if problem.opening else ""))
                for problem in exc.details]) from exc
    settled = record.get("settlement")
    if settled:
        _import_settlement(session, settled, imported_by)
    return session


def _import_settlement(session: Session, settled: dict, by: User | None) -> None:
    settlement = session_settle(session=session, settled_by=by)
    exponent = minor_exponent(settlement.currency)
    payments = list(settlement.payments.select_related("payer", "payee"))
    planned = [
        (p.payer.name, p.payee.name, format_minor(p.amount_minor, settlement.currency))
        for p in payments
    ]
    wanted = [(p.get("from"), p.get("to"), p.get("amount")) for p in settled.get("payments", [])]
    if planned != wanted:
        raise RecordRefused([
            "settlement: the record's payments differ from the settlement of its games "
            f"({wanted} vs {planned}, {exponent} decimals)"
        ])
    for payment, data in zip(payments, settled.get("payments", []), strict=True):
        if data.get("paid"):
            settlement_payment_mark_paid(payment=payment, paid_by=by)
