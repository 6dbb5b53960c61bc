"""PostgreSQL only: a game started by mistake (no hand, no money) can be deleted with its
game changes (``services.game_delete``, issue 37.10).

0012 made ``ledger_gamechange`` append-only: no UPDATE, no DELETE. That refused deleting
the abandon (or a stake agreed before the first hand) of a game nobody played, so such a
game stayed on its evening, the report and the book as "abandoned · 0 hands" forever.

Now a game change may be deleted only once its game is gone (deleted earlier in the same
statement sequence; the foreign key is checked at commit). A game with a hand or money can
never be deleted (its hands and postings are never deleted, 0002, and their foreign keys
hold it), so neither can its changes: the history of every game that was played stays as
it was. UPDATE stays refused. And a game of a settled evening (a live settlement) is not
deleted, even with no hand (the services say "Reopen the evening first").
"""

from django.db import migrations

FORWARD = [
    "DROP TRIGGER IF EXISTS ledger_gamechange_append_only ON ledger_gamechange;",
    """
    CREATE TRIGGER ledger_gamechange_append_only
        BEFORE UPDATE ON ledger_gamechange
        FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
    """,
    """
    CREATE OR REPLACE FUNCTION ledger_gamechange_only_with_its_game() RETURNS trigger AS $$
    BEGIN
        IF EXISTS (SELECT 1 FROM ledger_game WHERE id = OLD.game_id) THEN
            RAISE EXCEPTION '% rows are append-only (% refused while game % stands)',
                TG_TABLE_NAME, TG_OP, OLD.game_id
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN OLD;
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER ledger_gamechange_only_with_its_game
        BEFORE DELETE ON ledger_gamechange
        FOR EACH ROW EXECUTE FUNCTION ledger_gamechange_only_with_its_game();
    """,
    """
    CREATE OR REPLACE FUNCTION ledger_game_delete_not_when_settled() RETURNS trigger AS $$
    BEGIN
        IF EXISTS (SELECT 1 FROM ledger_sessionsettlement s WHERE s.session_id = OLD.session_id
                   AND NOT EXISTS (SELECT 1 FROM ledger_settlementvoid v
                                   WHERE v.settlement_id = s.id)) THEN
            RAISE EXCEPTION 'session % is settled: DELETE of its games refused', OLD.session_id
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN OLD;
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER ledger_game_delete_not_when_settled
        BEFORE DELETE ON ledger_game
        FOR EACH ROW EXECUTE FUNCTION ledger_game_delete_not_when_settled();
    """,
]

BACKWARD = [
    "DROP TRIGGER IF EXISTS ledger_game_delete_not_when_settled ON ledger_game;",
    "DROP FUNCTION IF EXISTS ledger_game_delete_not_when_settled();",
    "DROP TRIGGER IF EXISTS ledger_gamechange_only_with_its_game ON ledger_gamechange;",
    "DROP FUNCTION IF EXISTS ledger_gamechange_only_with_its_game();",
    "DROP TRIGGER IF EXISTS ledger_gamechange_append_only ON ledger_gamechange;",
    """
    CREATE TRIGGER ledger_gamechange_append_only
        BEFORE UPDATE OR DELETE ON ledger_gamechange
        FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
    """,
]


def _run(statements):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        for sql in statements:
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):
    # (0020, the guards' migration, is made alongside: the merger puts this one after it)
    dependencies = [("ledger", "0020_guards_round_three")]

    operations = [migrations.RunPython(_run(FORWARD), _run(BACKWARD))]
