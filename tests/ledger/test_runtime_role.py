"""The runtime role (``manage.py grant_runtime_role``) on PostgreSQL: the app connected as a
role that does not own the tables reads and writes as usual, but TRUNCATE, DROP TRIGGER,
ALTER TABLE ... DISABLE TRIGGER and session_replication_role are refused to it."""

from __future__ import annotations

import io
import secrets
import uuid

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection, transaction

from ledger import services
from ledger.models import PaymentMark, SettlementVoid
from ledger.selectors.evenings import session_is_settled

pytestmark = [pytest.mark.postgres]


@pytest.fixture(autouse=True)
def only_postgres():
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")


def sql(statement, *params):
    with connection.cursor() as cursor:
        cursor.execute(statement, params)


@pytest.fixture
def runtime_role():
    """A fresh login role (roles are cluster-wide: a unique name, dropped afterwards) made
    the runtime role by the command; yields (name, password)."""
    name = f"ts_runtime_{uuid.uuid4().hex[:12]}"
    password = secrets.token_urlsafe(16)
    sql(f"CREATE ROLE {name} LOGIN PASSWORD %s", password)
    out = io.StringIO()
    call_command("grant_runtime_role", name, stdout=out)
    assert "no TRUNCATE" in out.getvalue()
    yield name, password
    with connection.cursor() as cursor:
        cursor.execute(f"DROP OWNED BY {name}")  # its grants and default privileges
        cursor.execute(f"DROP ROLE {name}")


def connect_as(role, password):
    settings = connection.settings_dict
    return psycopg.connect(host=settings["HOST"] or None, port=settings["PORT"] or None,
                           dbname=settings["NAME"], user=role, password=password,
                           autocommit=True)


@pytest.mark.django_db(transaction=True)
def test_the_runtime_role_writes_rows_but_cannot_switch_off_the_guards(runtime_role):
    role, password = runtime_role
    with connect_as(role, password) as conn:
        assert conn.execute("SELECT current_user").fetchone()[0] == role
        # everyday DML, with the ids from the sequences
        (table_id,) = conn.execute(
            "INSERT INTO ledger_table (name, paper_size, created_at) "
            "VALUES ('Role test', 'auto', now()) RETURNING id").fetchone()
        conn.execute("UPDATE ledger_table SET name = 'Role test 2' WHERE id = %s", [table_id])
        assert conn.execute("SELECT name FROM ledger_table WHERE id = %s",
                            [table_id]).fetchone() == ("Role test 2",)
        conn.execute("DELETE FROM ledger_table WHERE id = %s", [table_id])
        assert conn.execute("SELECT count(*) FROM ledger_table WHERE id = %s",
                            [table_id]).fetchone() == (0,)
        # what only an owner or a superuser may do
        for statement in (
            "TRUNCATE ledger_moneyposting CASCADE",
            "TRUNCATE ledger_sessionsettlement, ledger_settlementpayment CASCADE",
            "DROP TRIGGER ledger_moneyposting_append_only ON ledger_moneyposting",
            "DROP TRIGGER ledger_sessionsettlement_at_commit ON ledger_sessionsettlement",
            "ALTER TABLE ledger_moneyposting DISABLE TRIGGER ALL",
            "ALTER TABLE ledger_settlementpayment DISABLE TRIGGER "
            "ledger_settlementpayment_reproduce",
            "DROP FUNCTION ledger_refuse_change() CASCADE",
            "ALTER TABLE ledger_sharelink DROP CONSTRAINT sharelink_one_live_table_link",
            "SET session_replication_role = replica",
            "CREATE TABLE ledger_intruder (id int)",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)
    # the triggers are all still there and enabled
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*), count(*) FILTER (WHERE t.tgenabled = 'O') "
                       "FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
                       "WHERE c.relname LIKE 'ledger\\_%%' AND NOT t.tgisinternal")
        total, enabled = cursor.fetchone()
    assert total == enabled >= 27  # 18 of migrations 0002 and 0012, 9 of 0014


@pytest.mark.django_db
def test_the_services_work_as_the_runtime_role(keeper, case):
    """The app's own writes (settle, mark paid, undo, reopen, settle again, share, revoke)
    as the runtime role: SET ROLE in this test's transaction, so the role and its grants
    vanish with the rollback."""
    name = f"ts_runtime_{uuid.uuid4().hex[:12]}"
    sql(f"CREATE ROLE {name}")
    call_command("grant_runtime_role", name, stdout=io.StringIO())
    sql(f"SET ROLE {name}")
    try:
        table = services.table_create(name="As the app", scorekeepers=[keeper])
        session = services.session_create(table=table, currency="USD", rate="0.01",
                                          created_by=keeper)
        services.game_import(session=session, record=case("captain-three"),
                             imported_by=keeper)
        settlement = services.session_settle(session=session, settled_by=keeper)
        payment = settlement.payments.order_by("order").first()
        services.settlement_payment_mark_paid(payment=payment, paid_by=keeper)
        services.settlement_payment_mark_paid(payment=payment, paid_by=keeper, paid=False)
        services.session_reopen(session=session, reopened_by=keeper, reason="recount")
        services.session_settle(session=session, settled_by=keeper)
        link = services.share_link_get_or_create(table=table, created_by=keeper)
        services.share_link_revoke(link=link)
        sql("SET CONSTRAINTS ALL IMMEDIATE")  # what COMMIT checks
        assert session_is_settled(session)
        assert PaymentMark.objects.count() == 2 and SettlementVoid.objects.count() == 1
        with pytest.raises(DatabaseError, match="permission denied"), transaction.atomic():
            sql("TRUNCATE ledger_paymentmark")
    finally:
        sql("RESET ROLE")


@pytest.mark.django_db
def test_the_command_refuses_the_owner_a_superuser_and_a_missing_role():
    with connection.cursor() as cursor:
        cursor.execute("SELECT tableowner FROM pg_tables WHERE tablename = "
                       "'ledger_moneyposting'")
        (owner,) = cursor.fetchone()
    with pytest.raises(CommandError, match="is a superuser|owns the tables"):
        call_command("grant_runtime_role", owner)
    with pytest.raises(CommandError, match="No role ts_nobody_here"):
        call_command("grant_runtime_role", "ts_nobody_here")
    with pytest.raises(CommandError, match="not a plain role name"):
        call_command("grant_runtime_role", 'x"; DROP TABLE ledger_hand; --')
    out = io.StringIO()
    name = f"ts_runtime_{uuid.uuid4().hex[:12]}"
    sql(f"CREATE ROLE {name}")
    call_command("grant_runtime_role", name, "--sql", stdout=out)
    assert f'GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA "public" TO "{name}"' \
        in out.getvalue()
    assert "TRUNCATE" not in out.getvalue().replace("REVOKE ALL", "")
