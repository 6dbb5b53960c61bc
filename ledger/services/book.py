"""Keeping a table's book: reopen a settled evening, settle up the book, tidy the table.

Reopening an evening voids its live settlement with a ``SettlementVoid`` row (who, when,
why); the settlement and its payments stay as they were, only no longer count: every
reader takes the live settlement (``live_settlements``), so the evening's games
can change again and ``session_settle`` settles it anew. An evening whose payments were
already marked paid cannot be reopened until those marks are undone: money that changed
hands under the old settlement would otherwise silently vanish from the book.

Settling up the book (``book_settle``): the book's "who owes whom now" is the fewest
payments (the core's ``fewest_payments``) over every unpaid payment of the live
settlements in one currency. Those netted payments do not map one-to-one onto the
evenings' payments, so they are settled all together: when the players have made them, the
service marks every outstanding settlement payment they stand for paid at one moment and
records a ``BookSettlement`` with the netted payments as made and the ids it cleared. Each
amount stays exact (every underlying payment is paid in full, none is split), and each
evening's page shows its payments paid. The caller passes the ids of the outstanding
payments it showed; if the book changed meanwhile (a payment marked, an evening settled or
reopened) nothing is written and ``BookChanged`` says so.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from ledger import cleaning
from ledger.exceptions import LedgerError
from ledger.models import (
    BookSettlement,
    BookSettlementUndo,
    PaymentMark,
    Player,
    SettlementPayment,
    SettlementVoid,
    Table,
)
from ledger.rules.money import fewest_payments
from ledger.selectors.evenings import live_settlements, session_settlement

from .base import User, _lock_session, _user
from .tables import table_named

REASON_MAX = 300


class BookChanged(LedgerError):
    """The book changed since the page was shown; nothing was written."""


@transaction.atomic
def session_reopen(*, session, reopened_by: User | None, reason: str) -> SettlementVoid:
    """Void the evening's settlement so its games can change and it can be settled anew."""
    reason = cleaning.clean_text(reason or "", what=cleaning.Field("reason"), max_length=1000)
    if not reason:
        raise LedgerError(code="reopen_needs_reason")
    session = _lock_session(session)
    settlement = session_settlement(session)
    if settlement is None:
        raise LedgerError(code="session_not_settled", date=session.date)
    paid = [payment for payment in settlement.payments.all() if payment.is_paid]
    if paid:
        raise LedgerError(code="reopen_payments_paid",
                          payments=[(p.payer.name, p.payee.name) for p in paid])
    return SettlementVoid.objects.create(
        settlement=settlement, reason=reason[:REASON_MAX], voided_by=_user(reopened_by),
    )


@transaction.atomic
def book_settle(*, table: Table, currency: str, expected: list[int] | None,
                settled_by: User | None) -> BookSettlement:
    """Mark every outstanding payment of the book (in ``currency``) paid, as the netted
    payments were made; ``expected`` are the outstanding payment ids the page showed."""
    Table.objects.select_for_update().get(pk=table.pk)  # one book settlement at a time
    outstanding = list(
        SettlementPayment.objects.select_for_update()
        .filter(settlement__in=live_settlements(), settlement__session__table=table,
                settlement__currency=currency, paid_at__isnull=True)
        .select_related("payer", "payee").order_by("pk")
    )
    ids = [payment.pk for payment in outstanding]
    if expected is not None and sorted(expected) != ids:
        raise BookChanged("The book changed since you opened it (a payment was marked or an "
                          "evening settled or reopened). Look at it again.")
    if not outstanding:
        raise LedgerError(code="nothing_outstanding", currency=currency)
    nets: dict[str, int] = {}
    for payment in outstanding:
        nets[str(payment.payee_id)] = nets.get(str(payment.payee_id), 0) + payment.amount_minor
        nets[str(payment.payer_id)] = nets.get(str(payment.payer_id), 0) - payment.amount_minor
    netted = [{"from": int(p.payer), "to": int(p.payee), "amount_minor": p.units}
              for p in fewest_payments(nets)]
    now = timezone.now()
    by = _user(settled_by)
    # each paid mark is its own row; the payments' columns repeat it (see PaymentMark)
    PaymentMark.objects.bulk_create(PaymentMark(payment_id=pk, paid=True, marked_by=by,
                                                marked_at=now) for pk in ids)
    SettlementPayment.objects.filter(pk__in=ids).update(paid_at=now, paid_by=by)
    return BookSettlement.objects.create(
        table=table, currency=currency, payments=netted, cleared=ids, settled_by=by,
        settled_at=now,
    )


@transaction.atomic
def book_settle_undo(*, book_settlement: BookSettlement,
                     undone_by: User | None) -> BookSettlementUndo:
    """Take back a squaring of the book, as a paid mark is undone: every payment it marked
    paid that is still paid by that mark (not marked again since) gets a "not paid"
    ``PaymentMark`` and is outstanding again; a ``BookSettlementUndo`` row records it. The
    book settlement stays in the history. Refused (nothing written) when it was undone
    already or none of its payments is still paid by it."""
    Table.objects.select_for_update().get(pk=book_settlement.table_id)
    book_settlement = BookSettlement.objects.get(pk=book_settlement.pk)
    if BookSettlementUndo.objects.filter(book_settlement=book_settlement).exists():
        raise LedgerError(code="squaring_undone_already")
    payments = list(
        SettlementPayment.objects.select_for_update()
        .filter(pk__in=book_settlement.cleared,
                settlement__in=live_settlements(),
                paid_at=book_settlement.settled_at).order_by("pk")
    )
    if not payments:
        raise LedgerError(code="squaring_nothing_to_undo")
    now = timezone.now()
    by = _user(undone_by)
    ids = [payment.pk for payment in payments]
    PaymentMark.objects.bulk_create(PaymentMark(payment_id=pk, paid=False, marked_by=by,
                                                marked_at=now) for pk in ids)
    SettlementPayment.objects.filter(pk__in=ids).update(paid_at=None, paid_by=None)
    return BookSettlementUndo.objects.create(book_settlement=book_settlement, restored=ids,
                                             undone_by=by, undone_at=now)


# -- tidying ---------------------------------------------------------------------------------

@transaction.atomic
def table_rename(*, table: Table, name: str, renamed_by: User | None) -> Table:
    """Give the table a new name (unique among each of its scorekeepers' tables). Every
    record refers to the table by its row, so history follows the new name."""
    clean = cleaning.clean_text(name or "", what=cleaning.Field("table_name"), required=True,
                                max_length=Table._meta.get_field("name").max_length)
    table = Table.objects.select_for_update().get(pk=table.pk)
    if clean == table.name:
        return table
    for keeper in table.scorekeepers.all():
        other = table_named(name=clean, scorekeeper=keeper)
        if other is not None and other.pk != table.pk:
            raise LedgerError(code="table_name_taken", keeper=keeper.get_username(),
                              name=clean)
    table.name = clean
    table.save(update_fields=["name"])
    return table


@transaction.atomic
def player_archive(*, player: Player, archived_by: User | None,
                   archived: bool = True) -> Player:
    """Archive a player who left (kept in every history and the book, no longer offered
    for new games), or with ``archived=False`` bring him back."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if archived == (player.archived_at is not None):
        return player
    player.archived_at = timezone.now() if archived else None
    player.save(update_fields=["archived_at"])
    return player
