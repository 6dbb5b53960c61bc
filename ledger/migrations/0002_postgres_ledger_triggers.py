"""PostgreSQL-only guards for the append-only money ledger.

- A deferred constraint trigger checks at commit that the postings of every batch, and so of
  every game, sum to zero (SQLite has no such triggers: the service checks it there).
- Row triggers refuse UPDATE and DELETE of postings and batches, and any UPDATE of a hand
  other than voiding it, so even raw SQL cannot rewrite the history.
TRUNCATE (used by test database flushes) fires no row triggers.
"""

from django.db import migrations

FORWARD = [
    """
    CREATE OR REPLACE FUNCTION ledger_postings_sum_to_zero() RETURNS trigger AS $$
    DECLARE
        batch_total bigint;
        game_total bigint;
    BEGIN
        SELECT COALESCE(SUM(amount_minor), 0) INTO batch_total
            FROM ledger_moneyposting WHERE batch_id = NEW.batch_id;
        IF batch_total <> 0 THEN
            RAISE EXCEPTION 'postings of batch % sum to % (must be 0)', NEW.batch_id, batch_total
                USING ERRCODE = 'check_violation';
        END IF;
        SELECT COALESCE(SUM(amount_minor), 0) INTO game_total
            FROM ledger_moneyposting WHERE game_id = NEW.game_id;
        IF game_total <> 0 THEN
            RAISE EXCEPTION 'postings of game % sum to % (must be 0)', NEW.game_id, game_total
                USING ERRCODE = 'check_violation';
        END IF;
        RETURN NULL;
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE CONSTRAINT TRIGGER ledger_moneyposting_sum_zero
        AFTER INSERT ON ledger_moneyposting
        DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION ledger_postings_sum_to_zero();
    """,
    """
    CREATE OR REPLACE FUNCTION ledger_refuse_change() RETURNS trigger AS $$
    BEGIN
        RAISE EXCEPTION '% rows are append-only (% refused)', TG_TABLE_NAME, TG_OP
            USING ERRCODE = 'integrity_constraint_violation';
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER ledger_moneyposting_append_only
        BEFORE UPDATE OR DELETE ON ledger_moneyposting
        FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
    """,
    """
    CREATE TRIGGER ledger_postingbatch_append_only
        BEFORE UPDATE OR DELETE ON ledger_postingbatch
        FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
    """,
    """
    CREATE TRIGGER ledger_hand_no_delete
        BEFORE DELETE ON ledger_hand
        FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
    """,
    """
    CREATE OR REPLACE FUNCTION ledger_hand_only_void() RETURNS trigger AS $$
    BEGIN
        IF NEW.game_id <> OLD.game_id OR NEW.number <> OLD.number OR NEW.entry <> OLD.entry
           OR NEW.recorded_at <> OLD.recorded_at
           OR NEW.idempotency_key <> OLD.idempotency_key
           OR NEW.replaces_id IS DISTINCT FROM OLD.replaces_id
           OR NEW.recorded_by_id IS DISTINCT FROM OLD.recorded_by_id
           OR OLD.voided_at IS NOT NULL THEN
            RAISE EXCEPTION 'hand % is append-only: it can only be voided, once', OLD.id
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER ledger_hand_only_void
        BEFORE UPDATE ON ledger_hand
        FOR EACH ROW EXECUTE FUNCTION ledger_hand_only_void();
    """,
]

BACKWARD = [
    "DROP TRIGGER IF EXISTS ledger_hand_only_void ON ledger_hand;",
    "DROP FUNCTION IF EXISTS ledger_hand_only_void();",
    "DROP TRIGGER IF EXISTS ledger_hand_no_delete ON ledger_hand;",
    "DROP TRIGGER IF EXISTS ledger_postingbatch_append_only ON ledger_postingbatch;",
    "DROP TRIGGER IF EXISTS ledger_moneyposting_append_only ON ledger_moneyposting;",
    "DROP FUNCTION IF EXISTS ledger_refuse_change();",
    "DROP TRIGGER IF EXISTS ledger_moneyposting_sum_zero ON ledger_moneyposting;",
    "DROP FUNCTION IF EXISTS ledger_postings_sum_to_zero();",
]


def _run(statements):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        for sql in statements:
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("ledger", "0001_initial")]

    operations = [migrations.RunPython(_run(FORWARD), _run(BACKWARD))]
