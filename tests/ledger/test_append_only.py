"""The history cannot be rewritten through the ORM (and on PostgreSQL not even with SQL)."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from ledger import services
from ledger.models import (
    GameChange,
    Hand,
    ImmutableError,
    MoneyPosting,
    PaymentMark,
    PostingBatch,
    SessionSettlement,
    SettlementPayment,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(session, keeper, case):
    return services.game_import(session=session, record=case("gin-standard-game"),
                                imported_by=keeper)


def test_hands_cannot_be_edited_or_deleted(finished):
    hand = Hand.objects.filter(game=finished).first()
    hand.entry = {"draw": True}
    with pytest.raises(ImmutableError):
        hand.save()
    with pytest.raises(ImmutableError):
        hand.delete()
    with pytest.raises(ImmutableError):
        Hand.objects.filter(game=finished).update(entry={"draw": True})
    with pytest.raises(ImmutableError):
        Hand.objects.filter(game=finished).delete()


def test_postings_cannot_be_edited_or_deleted(finished):
    posting = MoneyPosting.objects.first()
    posting.amount_minor = 1
    with pytest.raises(ImmutableError):
        posting.save()
    with pytest.raises(ImmutableError):
        posting.delete()
    with pytest.raises(ImmutableError):
        MoneyPosting.objects.update(amount_minor=0)
    with pytest.raises(ImmutableError):
        PostingBatch.objects.all().delete()


@pytest.mark.postgres
def test_postgres_refuses_raw_updates_and_unbalanced_postings(finished):
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("UPDATE ledger_moneyposting SET amount_minor = 1")
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("UPDATE ledger_hand SET entry = '{}'")
    # An unbalanced batch is refused at commit by the deferred constraint trigger.
    player = MoneyPosting.objects.first().player
    with pytest.raises(DatabaseError, match="sum to 5"), transaction.atomic():
        batch = PostingBatch.objects.create(game=finished, number=2, kind="post")
        MoneyPosting.objects.create(batch=batch, game=finished, player=player, amount_minor=5,
                                    currency="USD")
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # what COMMIT would check


# -- settlements, paid marks, game changes and voids -----------------------------------------

@pytest.fixture
def settled(session, keeper, case):
    """A finished game, a stake change recorded on it, and the session settled."""
    game = services.game_import(session=session, record=case("gin-standard-game"),
                                imported_by=keeper)
    services.game_change_stake(game=game, changed_by=keeper, rate="0.02", reason="agreed",
                               confirm=True)
    settlement = services.session_settle(session=session, settled_by=keeper)
    return settlement


def test_paid_marks_are_rows_of_their_own(settled, keeper):
    payment = settled.payments.get()
    services.settlement_payment_mark_paid(payment=payment, paid_by=keeper)
    services.settlement_payment_mark_paid(payment=payment, paid_by=keeper, paid=False)
    services.settlement_payment_mark_paid(payment=payment, paid_by=keeper)
    payment.refresh_from_db()
    assert [mark.paid for mark in payment.marks.all()] == [True, False, True]
    assert payment.is_paid and payment.paid_at == payment.marks.last().marked_at
    assert payment.paid_by == keeper
    mark = payment.marks.first()
    mark.paid = False
    with pytest.raises(ImmutableError):
        mark.save()
    with pytest.raises(ImmutableError):
        mark.delete()
    with pytest.raises(ImmutableError):
        PaymentMark.objects.update(paid=False)


def test_settlements_and_game_changes_cannot_be_edited_or_deleted(settled):
    change = GameChange.objects.get()
    change.reason = "never agreed"
    with pytest.raises(ImmutableError):
        change.save()
    with pytest.raises(ImmutableError):
        GameChange.objects.all().delete()
    settled.nets = {}
    with pytest.raises(ImmutableError):
        settled.save()
    with pytest.raises(ImmutableError):
        SessionSettlement.objects.all().delete()
    with pytest.raises(ImmutableError):
        SettlementPayment.objects.update(amount_minor=1)


def test_a_void_is_set_once_and_never_changed(finished, keeper):
    voided = services.hand_undo_last(game=finished, undone_by=keeper, reason="wrong table")
    voided.void_reason = "another story"
    with pytest.raises(ImmutableError):
        voided.save(update_fields=["void_reason"])
    with pytest.raises(ImmutableError):
        Hand.objects.filter(pk=voided.pk).update(voided_at=None, void_reason="")
    voided.refresh_from_db()
    assert voided.void_reason == "wrong table"


# -- the same on PostgreSQL, against raw SQL -------------------------------------------------

def sql(statement, *params):
    with connection.cursor() as cursor:
        cursor.execute(statement, params)


def commit_check():
    """What COMMIT would check: the deferred constraint triggers, now."""
    sql("SET CONSTRAINTS ALL IMMEDIATE")
    sql("SET CONSTRAINTS ALL DEFERRED")


def refused(match, statement, *params, deferred=False):
    with pytest.raises(DatabaseError, match=match), transaction.atomic():
        sql(statement, *params)
        if deferred:
            commit_check()


@pytest.fixture
def only_postgres():
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")


@pytest.mark.postgres
def test_postgres_refuses_rewriting_settlements_changes_and_marks(only_postgres, settled,
                                                                  keeper):
    payment = settled.payments.get()
    services.settlement_payment_mark_paid(payment=payment, paid_by=keeper)
    for table in ("ledger_sessionsettlement", "ledger_gamechange", "ledger_paymentmark"):
        refused("append-only", f"DELETE FROM {table}")
    refused("append-only", "UPDATE ledger_sessionsettlement SET nets = '{}'")
    refused("append-only", "UPDATE ledger_gamechange SET reason = 'never agreed'")
    refused("append-only", "UPDATE ledger_paymentmark SET paid = false")
    refused("append-only", "DELETE FROM ledger_settlementpayment")
    refused("only its paid mark changes", "UPDATE ledger_settlementpayment SET amount_minor = 1")
    # the paid columns may only repeat the latest mark: clearing them needs a mark first
    refused("paid mark is its own row", "UPDATE ledger_settlementpayment SET paid_at = NULL, "
                                        "paid_by_id = NULL")
    services.settlement_payment_mark_paid(payment=payment, paid_by=keeper, paid=False)
    payment.refresh_from_db()
    assert not payment.is_paid and payment.marks.count() == 2


@pytest.mark.postgres
def test_postgres_freezes_a_settled_session(only_postgres, settled):
    game = settled.session.games.get()
    hand = Hand.objects.filter(game=game).first()
    refused("is settled", "UPDATE ledger_game SET status = 'in_progress' WHERE id = %s",
            game.pk)
    refused("is settled", "UPDATE ledger_hand SET voided_at = now(), void_reason = 'x' "
                          "WHERE id = %s", hand.pk)
    refused("is settled", "INSERT INTO ledger_hand (game_id, number, entry, recorded_at, "
                          "idempotency_key, void_reason) VALUES (%s, 99, '{\"draw\": true}', "
                          "now(), gen_random_uuid(), '')", game.pk)
    refused("is settled", "UPDATE ledger_gameplayer SET stake = 5 WHERE game_id = %s", game.pk)


@pytest.mark.postgres
def test_postgres_refuses_a_void_the_services_would_not_make(only_postgres, finished, keeper):
    middle = Hand.objects.get(game=finished, number=3)
    refused("voided only by a correction", "UPDATE ledger_hand SET voided_at = now(), "
            "void_reason = 'hide it' WHERE id = %s", middle.pk, deferred=True)
    last = Hand.objects.filter(game=finished, voided_at__isnull=True).order_by("number").last()
    # the game is complete: voiding its winning hand alone is refused
    refused("reopens it", "UPDATE ledger_hand SET voided_at = now(), void_reason = 'x' "
                          "WHERE id = %s", last.pk, deferred=True)
    refused("can only be voided, once", "UPDATE ledger_hand SET void_reason = 'x' "
                                        "WHERE id = %s", middle.pk)  # not a void
    services.hand_correct(hand=middle, entry=dict(middle.entry), corrected_by=keeper,
                          reason="typed again")
    refused("can only be voided, once", "UPDATE ledger_hand SET void_reason = 'other' "
                                        "WHERE id = %s", middle.pk)
    refused("can only be voided, once", "UPDATE ledger_hand SET voided_at = NULL "
                                        "WHERE id = %s", middle.pk)
    # a replacement must name a voided hand of its own game and number
    refused("not a voided hand", "INSERT INTO ledger_hand (game_id, number, entry, "
            "recorded_at, idempotency_key, void_reason, replaces_id) VALUES (%s, %s, "
            "'{\"draw\": true}', now(), gen_random_uuid(), '', %s)", finished.pk,
            last.number + 1, last.pk, deferred=True)


@pytest.mark.postgres
def test_postgres_lets_the_services_correct_and_undo(only_postgres, finished, keeper):
    """The services' own voids pass the same checks (a correction in the middle of a
    complete game; an undo that reopens it; the undo of an in-progress game's last hand)."""
    hand = Hand.objects.get(game=finished, number=2)
    services.hand_correct(hand=hand, entry={"knocker": "B", "deadwood": {"A": 15, "B": 0}},
                          corrected_by=keeper, reason="miscounted")
    commit_check()
    services.hand_undo_last(game=finished, undone_by=keeper, reason="not played")
    commit_check()
    services.hand_undo_last(game=finished, undone_by=keeper, reason="not played either")
    commit_check()
    finished.refresh_from_db()
    assert finished.status == "in_progress"


@pytest.mark.postgres
def test_postgres_a_reopened_evening_changes_again_and_its_void_stays(only_postgres, settled,
                                                                     keeper):
    session = settled.session
    services.session_reopen(session=session, reopened_by=keeper, reason="a knock was a gin")
    game = session.games.get()
    hand = Hand.objects.get(game=game, number=1)
    services.hand_correct(hand=hand, entry=dict(hand.entry), corrected_by=keeper,
                          reason="typed again")  # no longer frozen
    commit_check()
    refused("append-only", "DELETE FROM ledger_settlementvoid")
    refused("append-only", "UPDATE ledger_settlementvoid SET reason = 'never mind'")
    services.session_settle(session=session, settled_by=keeper)
    refused("is settled", "UPDATE ledger_game SET status = 'in_progress' WHERE id = %s", game.pk)
