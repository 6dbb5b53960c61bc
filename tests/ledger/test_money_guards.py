"""Migration 0014 on PostgreSQL: money history forged by raw SQL as the app's role is refused
(settlements, their payments, voids, settled evenings, share links), and the services'
own paths still pass (settle, mark paid, undo a mark, reopen, settle again, settle the book,
share and revoke)."""

from __future__ import annotations

import datetime
import json

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from ledger import services
from ledger.exceptions import SessionSettled
from ledger.models import (
    MoneyPosting,
    PaymentMark,
    Player,
    SessionSettlement,
    SettlementVoid,
    ShareLink,
)
from ledger.selectors.evenings import session_is_settled, session_settlement, settlement_nets
from tests.refusing import refuses

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


@pytest.fixture(autouse=True)
def only_postgres():
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")


def sql(statement, *params):
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
        return cursor.fetchone() if cursor.description else None


def commit_check():
    """What COMMIT checks: the deferred constraint triggers, now."""
    sql("SET CONSTRAINTS ALL IMMEDIATE")
    sql("SET CONSTRAINTS ALL DEFERRED")


def refused(match, statement, *params, deferred=False):
    """``statement`` (and, with ``deferred``, the commit check after it) is refused with an
    IntegrityError saying ``match``; nothing of it stays."""
    with pytest.raises(IntegrityError, match=match), transaction.atomic():
        sql(statement, *params)
        if deferred:
            commit_check()


def accepted(statement, *params):
    with transaction.atomic():
        row = sql(statement, *params)
        commit_check()
    return row


@pytest.fixture
def played(session, keeper, case):
    """An evening with one finished three-player game: C -5.30, X +2.65, Y +2.65."""
    services.game_import(session=session, record=case("captain-three"), imported_by=keeper)
    return session


@pytest.fixture
def settled(played, keeper):
    return services.session_settle(session=played, settled_by=keeper)


def ids(session):
    return {player.name: player.pk for player in Player.objects.filter(table=session.table)}


def insert_settlement(session, nets, currency="USD"):
    return ("INSERT INTO ledger_sessionsettlement (session_id, currency, nets, settled_at) "
            "VALUES (%s, %s, %s, now()) RETURNING id", session.pk, currency, json.dumps(nets))


def insert_payment(settlement_id, order, payer, payee, amount):
    return ("INSERT INTO ledger_settlementpayment (settlement_id, \"order\", payer_id, "
            "payee_id, amount_minor) VALUES (%s, %s, %s, %s, %s)", settlement_id, order,
            payer, payee, amount)


# -- settlements --------------------------------------------------------------------------

def test_a_settlement_must_match_its_evening(played):
    good = {"C": -530, "X": 265, "Y": 265}
    refused("sum to 10", *insert_settlement(played, {"C": -530, "X": 275, "Y": 265}))
    # zero-sum but not what the games posted
    refused(r"player \d+ \(C\) has a net of -265 but -530 posted",
            *insert_settlement(played, {"C": -265, "X": 265, "Y": 0}), deferred=True)
    refused("its nets name Zed, who did not play",
            *insert_settlement(played, {"C": -530, "X": 265, "Y": 265, "Zed": 0}))
    refused("the evening is in USD", *insert_settlement(played, good, currency="EUR"),
            deferred=True)
    refused("whole minor units", *insert_settlement(played, {"C": -5.3, "X": 2.65, "Y": 2.65}))
    refused("not JSON", "INSERT INTO ledger_sessionsettlement (session_id, currency, nets, "
            "settled_at) VALUES (%s, 'USD', '{C: -530', now())", played.pk)
    assert not SessionSettlement.objects.exists()


def test_a_settlement_without_the_payments_of_its_nets_is_refused_at_commit(played):
    player = ids(played)
    nets = {"C": -530, "X": 265, "Y": 265}
    refused("payments of settlement .* do not reproduce its nets",
            *insert_settlement(played, nets), deferred=True)  # no payments at all
    with pytest.raises(IntegrityError, match="do not reproduce"), transaction.atomic():
        (settlement_id,) = sql(*insert_settlement(played, nets))
        # C's total is right, but X gets everything and Y nothing
        sql(*insert_payment(settlement_id, 1, player["C"], player["X"], 530))
        commit_check()
    with pytest.raises(IntegrityError, match="do not reproduce"), transaction.atomic():
        (settlement_id,) = sql(*insert_settlement(played, nets))
        sql(*insert_payment(settlement_id, 1, player["X"], player["C"], 265))  # backwards
        sql(*insert_payment(settlement_id, 2, player["Y"], player["C"], 265))
        commit_check()
    assert not SessionSettlement.objects.exists()
    # the payments the service would write pass: raw inserts in the service's order are fine
    with transaction.atomic():
        (settlement_id,) = sql(*insert_settlement(played, nets))
        sql(*insert_payment(settlement_id, 1, player["C"], player["X"], 265))
        sql(*insert_payment(settlement_id, 2, player["C"], player["Y"], 265))
        commit_check()
    assert session_is_settled(played)


def test_a_payment_added_to_a_settlement_later_is_refused(settled):
    player = ids(settled.session)
    refused("do not reproduce", *insert_payment(settled.pk, 9, player["X"], player["Y"], 100),
            deferred=True)
    # even a pair that cancels out for the payer changes what the others get
    with pytest.raises(IntegrityError, match="do not reproduce"), transaction.atomic():
        sql(*insert_payment(settled.pk, 9, player["C"], player["X"], 100))
        sql(*insert_payment(settled.pk, 10, player["Y"], player["C"], 100))
        commit_check()
    assert settled.payments.count() == 2


def test_a_second_live_settlement_and_one_during_a_game_are_refused(settled, keeper, case):
    refused("settled already", *insert_settlement(settled.session,
                                                  {"C": -530, "X": 265, "Y": 265}),
            deferred=True)
    services.session_reopen(session=settled.session, reopened_by=keeper, reason="one more")
    services.game_start(session=settled.session, variant="gin", players=["C", "X"],
                        started_by=keeper, rate="0.01", setup={"first_dealer": "C"})
    refused("a game is in progress", *insert_settlement(settled.session,
                                                        {"C": -530, "X": 265, "Y": 265}),
            deferred=True)


def test_a_reopened_evening_written_table_by_table_in_one_transaction_passes(played):
    """An import that writes the settlements, then the payments, then the voids: the
    settlement voided by commit is held only to its nets and payments."""
    player = ids(played)
    nets = {"C": -530, "X": 265, "Y": 265}

    def history(with_void):
        (first,) = sql(*insert_settlement(played, nets))
        (second,) = sql(*insert_settlement(played, nets))
        for settlement_id in (first, second):
            sql(*insert_payment(settlement_id, 1, player["C"], player["X"], 265))
            sql(*insert_payment(settlement_id, 2, player["C"], player["Y"], 265))
        if with_void:
            sql("INSERT INTO ledger_settlementvoid (settlement_id, reason, voided_at) "
                "VALUES (%s, 'a knock was a gin', now())", first)
        commit_check()

    with pytest.raises(IntegrityError, match="settled already"), transaction.atomic():
        history(with_void=False)
    with transaction.atomic():
        history(with_void=True)
    assert SessionSettlement.objects.filter(session=played).count() == 2
    assert session_settlement(played).pk == max(
        SessionSettlement.objects.values_list("pk", flat=True))


def test_renamed_players_are_read_in_seat_order(played, keeper):
    """A settlement written after a rename under the old names (an import of history in
    commit order) is read by seat, as ``settlement_nets`` reads it."""
    services.player_rename(player=Player.objects.get(table=played.table, name="Y"),
                           name="Yolanda")
    player = ids(played)
    # by seat X is the second: 0 is not what X won
    refused(r"player \d+ \(X\) has a net of 0 but 265 posted",
            *insert_settlement(played, {"C": -530, "X": 0, "Y": 530}), deferred=True)
    with transaction.atomic():
        (settlement_id,) = sql(*insert_settlement(played, {"C": -530, "X": 265, "Y": 265}))
        sql(*insert_payment(settlement_id, 1, player["C"], player["X"], 265))
        sql(*insert_payment(settlement_id, 2, player["C"], player["Yolanda"], 265))
        commit_check()
    assert settlement_nets(SessionSettlement.objects.get()) == {
        "C": -530, "X": 265, "Yolanda": 265}


# -- voids ----------------------------------------------------------------------------------

def test_a_void_only_as_reopening_makes_one(settled, keeper):
    refused("say why", "INSERT INTO ledger_settlementvoid (settlement_id, reason, voided_at) "
            "VALUES (%s, '   ', now())", settled.pk)
    payment = settled.payments.first()
    services.settlement_payment_mark_paid(payment=payment, paid_by=keeper)
    refused("1 of its payments are marked paid",
            "INSERT INTO ledger_settlementvoid (settlement_id, reason, voided_at) "
            "VALUES (%s, 'forged', now())", settled.pk)
    assert session_is_settled(settled.session)
    services.settlement_payment_mark_paid(payment=payment, paid_by=keeper, paid=False)
    accepted("INSERT INTO ledger_settlementvoid (settlement_id, reason, voided_at) "
             "VALUES (%s, 'a knock was a gin', now())", settled.pk)
    # a voided settlement is voided once, and gets no payment and no paid mark
    refused("duplicate key", "INSERT INTO ledger_settlementvoid (settlement_id, reason, "
            "voided_at) VALUES (%s, 'again', now())", settled.pk)
    refused("was voided", "INSERT INTO ledger_paymentmark (payment_id, paid, marked_at) "
            "VALUES (%s, true, now())", payment.pk)
    player = ids(settled.session)
    refused("was voided", *insert_payment(settled.pk, 3, player["C"], player["X"], 1))
    assert PaymentMark.objects.filter(payment=payment).count() == 2


# -- settled evenings -----------------------------------------------------------------------

def test_a_settled_evening_keeps_its_currency_rate_and_date(settled, keeper, other_keeper):
    session = settled.session
    for column, value in (("currency", "'EUR'"), ("rate", "0.5"), ("per_points", "10"),
                          ("date", "date '2001-01-01'")):
        refused("is settled: its currency, stake, date and table are frozen",
                f"UPDATE ledger_session SET {column} = {value} WHERE id = %s", session.pk)
    other = services.table_create(name="Elsewhere", scorekeepers=[other_keeper])
    refused("frozen", "UPDATE ledger_session SET table_id = %s WHERE id = %s", other.pk,
            session.pk)
    accepted("UPDATE ledger_session SET place = 'the back room' WHERE id = %s", session.pk)
    # nor may a posting slip into one of its old batches
    posting = MoneyPosting.objects.filter(game__session=session).first()
    refused("is settled", "INSERT INTO ledger_moneyposting (batch_id, game_id, player_id, "
            "amount_minor, currency) VALUES (%s, %s, %s, 100, 'USD'), (%s, %s, %s, -100, "
            "'USD')", posting.batch_id, posting.game_id, posting.player_id,
            posting.batch_id, posting.game_id, ids(session)["X"])
    # the service says so before the database has to
    with refuses(SessionSettled, match="Reopen it first"):
        services.session_change(session=session, date=datetime.date(2001, 1, 1))
    services.session_change(session=session, notes="C paid in coins")
    session.refresh_from_db()
    assert session.date == timezone.localdate() and session.notes == "C paid in coins"
    # reopened, its date may change again
    services.session_reopen(session=session, reopened_by=keeper, reason="wrong day")
    services.session_change(session=session, date=datetime.date(2001, 1, 1))
    session.refresh_from_db()
    assert session.date == datetime.date(2001, 1, 1)


# -- share links ----------------------------------------------------------------------------

def test_a_revoked_share_link_stays_revoked(table, keeper):
    link = services.share_link_get_or_create(table=table, created_by=keeper)
    refused("never change", "UPDATE ledger_sharelink SET token = 'guessable' WHERE id = %s",
            link.pk)
    services.share_link_revoke(link=link)
    link.refresh_from_db()
    revoked_at = link.revoked_at
    assert revoked_at is not None
    refused("is revoked: it never opens again",
            "UPDATE ledger_sharelink SET revoked_at = NULL WHERE id = %s", link.pk)
    refused("is revoked", "UPDATE ledger_sharelink SET revoked_at = now() + interval '1 day' "
                          "WHERE id = %s", link.pk)
    link.refresh_from_db()
    assert link.revoked_at == revoked_at
    # a live link may be revoked by SQL (that only closes it), and sharing makes a new one
    fresh = services.share_link_get_or_create(table=table, created_by=keeper)
    accepted("UPDATE ledger_sharelink SET revoked_at = now() WHERE id = %s", fresh.pk)
    assert not ShareLink.objects.filter(table=table, revoked_at__isnull=True).exists()


# -- the services' own paths, committed for real --------------------------------------------

@pytest.mark.django_db(transaction=True)
def test_the_services_settle_pay_reopen_and_settle_again(keeper, case):
    table = services.table_create(name="Committed", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="USD", rate="0.01",
                                      created_by=keeper)
    services.game_import(session=session, record=case("captain-three"), imported_by=keeper)
    settlement = services.session_settle(session=session, settled_by=keeper)  # commits
    payments = list(settlement.payments.order_by("order"))
    assert [(p.payer.name, p.payee.name, p.amount_minor) for p in payments] == [
        ("C", "X", 265), ("C", "Y", 265)]
    services.settlement_payment_mark_paid(payment=payments[0], paid_by=keeper)
    services.settlement_payment_mark_paid(payment=payments[0], paid_by=keeper, paid=False)
    void = services.session_reopen(session=session, reopened_by=keeper, reason="recount")
    assert void.settlement_id == settlement.pk
    again = services.session_settle(session=session, settled_by=keeper)
    book = services.book_settle(table=table, currency="USD", expected=None,
                                settled_by=keeper)
    assert sorted(book.cleared) == sorted(again.payments.values_list("pk", flat=True))
    assert SettlementVoid.objects.count() == 1 and SessionSettlement.objects.count() == 2
    assert PaymentMark.objects.filter(paid=True).count() == 3
    # a forged settlement committed for real: refused at COMMIT, nothing stays
    player = ids(session)
    second = services.session_create(table=table, currency="USD", rate="0.01",
                                     created_by=keeper)
    services.game_import(session=second, record=case("captain-three"), imported_by=keeper)
    with pytest.raises(IntegrityError, match="do not reproduce"), transaction.atomic():
        (forged,) = sql(*insert_settlement(second, {"C": -530, "X": 265, "Y": 265}))
        sql(*insert_payment(forged, 1, player["C"], player["X"], 530))
    assert SessionSettlement.objects.count() == 2
    assert not session_is_settled(second)
    services.session_settle(session=second, settled_by=keeper)
    assert session_is_settled(second)
    link = services.share_link_get_or_create(table=table, created_by=keeper)
    services.share_link_revoke(link=link)
    with pytest.raises(IntegrityError, match="is revoked"), transaction.atomic():
        sql("UPDATE ledger_sharelink SET revoked_at = NULL WHERE id = %s", link.pk)
