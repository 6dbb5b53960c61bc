"""Migration 0020 on PostgreSQL (issue 38.4): raw SQL as the runtime role can no longer move a
game out of its evening (or a seat out of its game), change a game's stake or abandon it
without the change record, rewrite or delete table reports and hand confirmations, un-revoke
a report link, or write a book settlement that clears payments nobody marked paid; the
services' own writes still pass, and an empty game can still be removed whole."""

from __future__ import annotations

import io
import json
import uuid

import pytest
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction

from ledger import services
from ledger.models import (
    BookSettlement,
    Game,
    GamePlayer,
    HandConfirmation,
    MoneyPosting,
    ReportLink,
    TableReport,
)
from ledger.selectors.evenings import session_is_settled
from tests.factories import gin_game
from tests.ledger.conftest import start_empty
from tests.ledger.test_table_reports import captain7, knock

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


def refused(match, statement, *params):
    """``statement`` and the commit check after it are refused with an IntegrityError
    saying ``match``; nothing of it stays."""
    with pytest.raises(IntegrityError, match=match), transaction.atomic():
        sql(statement, *params)
        commit_check()


def accepted(statement, *params):
    with transaction.atomic():
        row = sql(statement, *params)
        commit_check()
    return row


@pytest.fixture
def as_runtime_role():
    """The rest of the test runs as a fresh runtime role (``grant_runtime_role``): SET ROLE
    in the test's transaction, so the role and its grants vanish with the rollback."""
    name = f"ts_runtime_{uuid.uuid4().hex[:12]}"
    sql(f"CREATE ROLE {name}")
    call_command("grant_runtime_role", name, stdout=io.StringIO())
    sql(f"SET ROLE {name}")
    assert sql("SELECT current_user") == (name,)
    yield name
    sql("RESET ROLE")


def evening(keeper, table):
    return services.session_create(table=table, currency="USD", rate="0.01",
                                   created_by=keeper)


# -- a game stays in its evening, a seat at its game ----------------------------------------

def test_a_game_never_leaves_a_settled_evening_nor_a_seat_its_game(
        session, table, keeper, case, as_runtime_role):
    game = services.game_import(session=session, record=case("captain-three"),
                                imported_by=keeper)
    services.session_settle(session=session, settled_by=keeper)
    later = evening(keeper, table)
    other = start_empty(later, keeper, case("captain-three"))
    money = dict(MoneyPosting.objects.filter(game__session=session)
                 .values_list("player__name", "amount_minor"))
    assert money == {"C": -530, "X": 265, "Y": 265}
    # the walk-around of issue 38.4: move the game out, then write to it
    refused("its evening never changes",
            "UPDATE ledger_game SET session_id = %s WHERE id = %s", later.pk, game.pk)
    refused("its evening never changes",  # not between open evenings either
            "UPDATE ledger_game SET session_id = %s WHERE id = %s", evening(keeper, table).pk,
            other.pk)
    refused("variant and currency never change",
            "UPDATE ledger_game SET currency = 'EUR' WHERE id = %s", other.pk)
    seat = GamePlayer.objects.filter(game=game).order_by("seat").first()
    refused("its game never changes",
            "UPDATE ledger_gameplayer SET game_id = %s WHERE id = %s", other.pk, seat.pk)
    refused("player, seat and role never change",
            "UPDATE ledger_gameplayer SET seat = 7 WHERE id = %s",
            GamePlayer.objects.filter(game=other).first().pk)
    refused("never removed", "DELETE FROM ledger_gameplayer WHERE id = %s", seat.pk)
    assert Game.objects.get(pk=game.pk).session_id == session.pk
    assert session_is_settled(session)
    assert dict(MoneyPosting.objects.filter(game__session=session)
                .values_list("player__name", "amount_minor")) == money


def test_an_empty_game_is_still_removed_whole(session, keeper, case, as_runtime_role):
    """What the "delete a game that has no hands" service does: its seats, its report
    links and reports, then the game."""
    game = captain7(session, keeper)
    t1 = services.report_links_get_or_create(game=game, created_by=keeper)[0]
    services.report_submit(link=t1, number=1, values=knock("R1", 5, "B1", 30))
    services.report_submit(link=t1, number=1, values=knock("B1", 3, "R1", 20))  # replaces
    with transaction.atomic():
        GamePlayer.objects.filter(game=game).delete()
        Game.objects.filter(pk=game.pk).delete()  # its links and reports go with it
        commit_check()
    assert not Game.objects.filter(pk=game.pk).exists()
    assert not TableReport.objects.exists() and not ReportLink.objects.exists()


# -- a stake or a status changes only with its change record --------------------------------

def test_a_running_games_stake_and_status_change_only_with_their_record(
        session, keeper, as_runtime_role):
    game = gin_game(session, keeper, rate="0.01")
    ann = GamePlayer.objects.get(game=game, player__name="Ann")
    refused("stake changed without its change record",
            "UPDATE ledger_game SET rate = 0.05 WHERE id = %s", game.pk)
    refused("stake changed without its change record",
            "UPDATE ledger_game SET per_points = 5 WHERE id = %s", game.pk)
    refused("the stake of Ann changed without its change record",
            "UPDATE ledger_gameplayer SET stake = 0.05 WHERE id = %s", ann.pk)
    refused("abandoned without its change record",
            "UPDATE ledger_game SET status = 'abandoned', finished_at = now() WHERE id = %s",
            game.pk)
    # the services write the same with their records
    with transaction.atomic():
        services.game_change_stake(game=game, changed_by=keeper, rate="0.05",
                                   player_stakes={"Ann": "0.02"}, reason="agreed")
        commit_check()
    game.refresh_from_db()
    ann.refresh_from_db()
    assert (str(game.rate), str(ann.stake)) == ("0.0500", "0.0200")
    # a record that says something else does not cover it
    refused("stake changed without its change record",
            "UPDATE ledger_game SET rate = 0.07 WHERE id = %s", game.pk)
    with transaction.atomic():
        services.game_abandon(game=game, abandoned_by=keeper, reason="late")
        commit_check()
    refused("was abandoned: that is final",
            "UPDATE ledger_game SET status = 'in_progress', finished_at = NULL WHERE id = %s",
            game.pk)
    assert Game.objects.get(pk=game.pk).status == "abandoned"


# -- table reports, report links, hand confirmations ------------------------------------------

def test_table_reports_stay_as_reported(session, keeper, as_runtime_role):
    game = captain7(session, keeper)
    links = services.report_links_get_or_create(game=game, created_by=keeper)
    first = services.report_submit(link=links[0], number=1, values=knock("R1", 5, "B1", 30))
    parts = [knock("B1", 3, "R1", 20), knock("B2", 2, "R2", 10), {"draw": True}]
    for link, part in zip(links, parts, strict=True):
        services.report_submit(link=link, number=1, values=part)
    with transaction.atomic():
        hand = services.hand_record(game=game, entry={"tables": parts}, recorded_by=keeper,
                                    idempotency_key=uuid.uuid4(), number=1).hand
        commit_check()
    live = TableReport.objects.get(link=links[0], replaced_at__isnull=True)
    assert live.hand_id == hand.pk and live.values == parts[0]
    refused("what was reported never changes",
            "UPDATE ledger_tablereport SET \"values\" = %s WHERE id = %s",
            json.dumps(knock("R1", 0, "B1", 90)), live.pk)
    refused("what was reported never changes",
            "UPDATE ledger_tablereport SET \"table\" = 2 WHERE id = %s", live.pk)
    refused("never taken back",
            "UPDATE ledger_tablereport SET replaced_at = NULL WHERE id = %s", first.pk)
    refused("never both",
            "UPDATE ledger_tablereport SET withdrawn_at = now() WHERE id = %s", first.pk)
    refused("linked once",
            "UPDATE ledger_tablereport SET hand_id = NULL WHERE id = %s", live.pk)
    refused("never deleted", "DELETE FROM ledger_tablereport WHERE id = %s", first.pk)
    other = captain7(services.session_create(table=session.table, currency="USD",
                                             created_by=keeper), keeper)
    refused("its link is not a link of game",
            "INSERT INTO ledger_tablereport (link_id, game_id, number, \"table\", player, "
            "\"values\", reported_at) VALUES (%s, %s, 1, 1, '', '{}', now())",
            links[0].pk, other.pk)
    assert TableReport.objects.get(pk=live.pk).values == parts[0]
    assert TableReport.objects.filter(game=game).count() == 4
    # a report link is never un-revoked, nor moved, nor reported through once revoked
    services.report_links_revoke(game=game)
    refused("is revoked: it never opens again",
            "UPDATE ledger_reportlink SET revoked_at = NULL WHERE id = %s", links[0].pk)
    refused("its link was revoked before it",
            "INSERT INTO ledger_tablereport (link_id, game_id, number, \"table\", player, "
            "\"values\", reported_at) VALUES (%s, %s, 2, 1, '', '{}', now() + interval "
            "'1 minute')", links[0].pk, game.pk)
    fresh = services.report_links_get_or_create(game=other, created_by=keeper)[0]
    refused("never change", "UPDATE ledger_reportlink SET game_id = %s WHERE id = %s",
            game.pk, fresh.pk)
    accepted("UPDATE ledger_reportlink SET revoked_at = now() WHERE id = %s", fresh.pk)


def test_a_withdrawn_report_stays_withdrawn(session, keeper, as_runtime_role):
    game = captain7(session, keeper)
    t1 = services.report_links_get_or_create(game=game, created_by=keeper)[0]
    report = services.report_submit(link=t1, number=1, values=knock("R1", 5, "B1", 30))
    with transaction.atomic():
        assert services.report_withdraw(link=t1, number=1) == 1
        commit_check()
    refused("never taken back",
            "UPDATE ledger_tablereport SET withdrawn_at = NULL WHERE id = %s", report.pk)


def test_hand_confirmations_stay_with_their_hand_and_link(session, keeper, as_runtime_role):
    game = gin_game(session, keeper)
    link = services.confirm_link_get_or_create(game=game, player="Bob", created_by=keeper)
    services.hand_record(game=game, entry=knock("Ann", 5, "Bob", 30), recorded_by=keeper,
                         idempotency_key=uuid.uuid4())
    with transaction.atomic():
        said = services.hand_confirm(link=link, number=1, correct=True)
        services.hand_confirm(link=link, number=1, correct=False)  # he changes his answer
        commit_check()
    refused("never deleted", "DELETE FROM ledger_handconfirmation WHERE id = %s", said.pk)
    refused("changes only the answer",
            "UPDATE ledger_handconfirmation SET player = 'Ann' WHERE id = %s", said.pk)
    refused("changes only the answer",
            "UPDATE ledger_handconfirmation SET correct = true, "
            "answered_at = answered_at - interval '1 hour' WHERE id = %s", said.pk)
    table_link = services.report_links_get_or_create(
        game=captain7(session, keeper), created_by=keeper)[0]
    hand = game.hands.get()
    refused("only through a confirm link of the hand's game",
            "INSERT INTO ledger_handconfirmation (link_id, hand_id, player, correct, "
            "answered_at) VALUES (%s, %s, 'Bob', true, now())", table_link.pk, hand.pk)
    services.report_links_revoke(game=game)
    refused("its link was revoked before the answer",
            "UPDATE ledger_handconfirmation SET correct = true, "
            "answered_at = now() + interval '1 minute' WHERE id = %s", said.pk)
    assert HandConfirmation.objects.get().correct is False


# -- a book settlement clears only payments marked paid ---------------------------------------

def test_a_book_settlement_clears_only_payments_marked_paid(
        session, table, keeper, case, as_runtime_role):
    services.game_import(session=session, record=case("captain-three"), imported_by=keeper)
    settlement = services.session_settle(session=session, settled_by=keeper)
    payments = list(settlement.payments.order_by("order"))
    ids = [p.pk for p in payments]
    netted = [{"from": p.payer_id, "to": p.payee_id, "amount_minor": p.amount_minor}
              for p in payments]
    forged = ("INSERT INTO ledger_booksettlement (table_id, currency, payments, cleared, "
              "settled_at) VALUES (%s, %s, %s, %s, now())")
    refused("marked paid as the book was settled",
            forged, table.pk, "USD", json.dumps(netted), json.dumps(ids))
    refused("it clears no payment", forged, table.pk, "USD", "[]", "[]")
    # one payment marked paid, the book settlement claims both
    services.settlement_payment_mark_paid(payment=payments[0], paid_by=keeper)
    refused("marked paid as the book was settled",
            forged, table.pk, "USD", json.dumps(netted), json.dumps(ids))
    assert not BookSettlement.objects.exists()
    # the service: the paid marks, then the book settlement
    services.settlement_payment_mark_paid(payment=payments[0], paid_by=keeper, paid=False)
    with transaction.atomic():
        book = services.book_settle(table=table, currency="USD", expected=None,
                                    settled_by=keeper)
        commit_check()
    assert sorted(book.cleared) == sorted(ids)
    assert [(p["amount_minor"]) for p in book.payments] == [265, 265]
