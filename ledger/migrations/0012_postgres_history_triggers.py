"""PostgreSQL-only guards for the rest of the ledger's history (0002 guards the money).

What raw SQL can no longer do (the services never do it; SQLite relies on the models'
append-only checks, see ``ledger.models``):

- **Settlements, game changes and paid marks** (``ledger_sessionsettlement``,
  ``ledger_gamechange``, ``ledger_paymentmark``, and the book's ``ledger_settlementvoid``
  and ``ledger_booksettlement``): no UPDATE, no DELETE. (A reopened evening's settlement
  stays; a ``SettlementVoid`` row says it no longer counts.)
- **Settlement payments**: no DELETE; an UPDATE may change only ``paid_at``/``paid_by_id``,
  and only to what the payment's latest paid mark (its own row) says: a paid mark is written
  as a ``ledger_paymentmark`` row first, the columns follow it.
- **Settled sessions are frozen**: no hand, game, seat, game change or posting batch of a
  session that has a live settlement (one without a void) may be inserted or changed.
- **Voids**, the rule: a hand's only change is its void (``voided_at``, ``voided_by_id``,
  ``void_reason``), set once, ``voided_at`` going from empty to a time, with a reason (0002,
  made stricter here, and the check constraint), never changed or cleared; and at commit (a deferred constraint trigger) the void must be one the services
  could have made:
    * a *correction*: a live hand with the same game and number replaces it
      (``replaces_id``), inserted in the same transaction; or
    * an *undo*: it was the last live hand (the live hands stay numbered 1..n without a
      gap), and its game is not left ``complete`` by it (an undo reopens a complete game;
      the game may be complete again at commit only through a hand played in its place).
  Every inserted replacement must name a voided hand of its own game and number. So voiding
  a hand in the middle of a game, or the hand that won a complete game, outside the
  services is refused at once, not found at settle time.
"""

from django.db import migrations

FORWARD = [
    # -- rows that never change -----------------------------------------------------------
    """
    CREATE TRIGGER ledger_sessionsettlement_append_only
        BEFORE UPDATE OR DELETE ON ledger_sessionsettlement
        FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
    """,
    """
    CREATE TRIGGER ledger_gamechange_append_only
        BEFORE UPDATE OR DELETE ON ledger_gamechange
        FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
    """,
    """
    CREATE TRIGGER ledger_paymentmark_append_only
        BEFORE UPDATE OR DELETE ON ledger_paymentmark
        FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
    """,
    """
    CREATE TRIGGER ledger_settlementvoid_append_only
        BEFORE UPDATE OR DELETE ON ledger_settlementvoid
        FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
    """,
    """
    CREATE TRIGGER ledger_booksettlement_append_only
        BEFORE UPDATE OR DELETE ON ledger_booksettlement
        FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
    """,
    """
    CREATE TRIGGER ledger_settlementpayment_no_delete
        BEFORE DELETE ON ledger_settlementpayment
        FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
    """,
    # -- a payment's paid columns follow its latest mark ------------------------------------
    """
    CREATE OR REPLACE FUNCTION ledger_payment_follows_marks() RETURNS trigger AS $$
    DECLARE
        mark record;
    BEGIN
        IF NEW.id <> OLD.id OR NEW.settlement_id <> OLD.settlement_id
           OR NEW."order" <> OLD."order" OR NEW.payer_id <> OLD.payer_id
           OR NEW.payee_id <> OLD.payee_id OR NEW.amount_minor <> OLD.amount_minor THEN
            RAISE EXCEPTION 'settlement payment % is append-only: only its paid mark changes',
                OLD.id USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        IF NEW.paid_at IS NOT DISTINCT FROM OLD.paid_at
           AND NEW.paid_by_id IS NOT DISTINCT FROM OLD.paid_by_id THEN
            RETURN NEW;
        END IF;
        SELECT paid, marked_at, marked_by_id INTO mark FROM ledger_paymentmark
            WHERE payment_id = OLD.id ORDER BY id DESC LIMIT 1;
        IF NOT FOUND OR (mark.paid AND (NEW.paid_at IS DISTINCT FROM mark.marked_at
                                        OR NEW.paid_by_id IS DISTINCT FROM mark.marked_by_id))
           OR (NOT mark.paid AND (NEW.paid_at IS NOT NULL OR NEW.paid_by_id IS NOT NULL)) THEN
            RAISE EXCEPTION 'settlement payment %: a paid mark is its own row '
                '(ledger_paymentmark); the paid columns only repeat the latest one', OLD.id
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER ledger_settlementpayment_follows_marks
        BEFORE UPDATE ON ledger_settlementpayment
        FOR EACH ROW EXECUTE FUNCTION ledger_payment_follows_marks();
    """,
    # -- a settled session is frozen --------------------------------------------------------
    """
    CREATE OR REPLACE FUNCTION ledger_refuse_if_settled() RETURNS trigger AS $$
    DECLARE
        frozen bigint;
    BEGIN
        IF TG_ARGV[0] = 'session' THEN
            frozen := NEW.session_id;
        ELSE
            SELECT session_id INTO frozen FROM ledger_game WHERE id = NEW.game_id;
        END IF;
        IF EXISTS (SELECT 1 FROM ledger_sessionsettlement s WHERE s.session_id = frozen
                   AND NOT EXISTS (SELECT 1 FROM ledger_settlementvoid v
                                   WHERE v.settlement_id = s.id)) THEN
            RAISE EXCEPTION 'session % is settled: % of its games refused', frozen, TG_OP
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER ledger_hand_not_when_settled
        BEFORE INSERT OR UPDATE ON ledger_hand
        FOR EACH ROW EXECUTE FUNCTION ledger_refuse_if_settled('game');
    """,
    """
    CREATE TRIGGER ledger_game_not_when_settled
        BEFORE INSERT OR UPDATE ON ledger_game
        FOR EACH ROW EXECUTE FUNCTION ledger_refuse_if_settled('session');
    """,
    """
    CREATE TRIGGER ledger_gameplayer_not_when_settled
        BEFORE INSERT OR UPDATE ON ledger_gameplayer
        FOR EACH ROW EXECUTE FUNCTION ledger_refuse_if_settled('game');
    """,
    """
    CREATE TRIGGER ledger_gamechange_not_when_settled
        BEFORE INSERT ON ledger_gamechange
        FOR EACH ROW EXECUTE FUNCTION ledger_refuse_if_settled('game');
    """,
    """
    CREATE TRIGGER ledger_postingbatch_not_when_settled
        BEFORE INSERT ON ledger_postingbatch
        FOR EACH ROW EXECUTE FUNCTION ledger_refuse_if_settled('game');
    """,
    # -- a hand's only change is its void: voided_at from empty to set (0002's rule, and now
    #    an update that does not void the hand is refused too) --------------------------------
    """
    CREATE OR REPLACE FUNCTION ledger_hand_only_void() RETURNS trigger AS $$
    BEGIN
        IF NEW.game_id <> OLD.game_id OR NEW.number <> OLD.number OR NEW.entry <> OLD.entry
           OR NEW.recorded_at <> OLD.recorded_at
           OR NEW.idempotency_key <> OLD.idempotency_key
           OR NEW.replaces_id IS DISTINCT FROM OLD.replaces_id
           OR NEW.recorded_by_id IS DISTINCT FROM OLD.recorded_by_id
           OR OLD.voided_at IS NOT NULL OR NEW.voided_at IS NULL THEN
            RAISE EXCEPTION 'hand % is append-only: it can only be voided, once', OLD.id
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql;
    """,
    # -- a void is a correction or an undo, checked at commit --------------------------------
    """
    CREATE OR REPLACE FUNCTION ledger_hand_history_consistent() RETURNS trigger AS $$
    DECLARE
        live_count bigint;
        live_first bigint;
        live_last bigint;
        game_status text;
    BEGIN
        SELECT count(*), min(number), max(number) INTO live_count, live_first, live_last
            FROM ledger_hand WHERE game_id = NEW.game_id AND voided_at IS NULL;
        IF live_count > 0 AND (live_first <> 1 OR live_last <> live_count) THEN
            RAISE EXCEPTION 'game %: a hand may be voided only by a correction (with its '
                'replacement) or an undo (the last hand); the live hands would be numbered '
                '% to % with gaps', NEW.game_id, live_first, live_last
                USING ERRCODE = 'check_violation';
        END IF;
        IF NEW.replaces_id IS NOT NULL AND NOT EXISTS (
                SELECT 1 FROM ledger_hand prior WHERE prior.id = NEW.replaces_id
                AND prior.game_id = NEW.game_id AND prior.number = NEW.number
                AND prior.voided_at IS NOT NULL) THEN
            RAISE EXCEPTION 'hand %: it replaces hand %, which is not a voided hand of the '
                'same game and number', NEW.id, NEW.replaces_id
                USING ERRCODE = 'check_violation';
        END IF;
        IF NEW.voided_at IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM ledger_hand r WHERE r.replaces_id = NEW.id) THEN
            SELECT status INTO game_status FROM ledger_game WHERE id = NEW.game_id;
            IF game_status = 'complete' AND NOT EXISTS (
                    SELECT 1 FROM ledger_hand h WHERE h.game_id = NEW.game_id
                    AND h.voided_at IS NULL AND h.number >= NEW.number) THEN
                RAISE EXCEPTION 'hand % of game %: undoing a hand of a complete game reopens '
                    'it (status in progress, money reversed); voiding it alone is refused',
                    NEW.id, NEW.game_id USING ERRCODE = 'check_violation';
            END IF;
        END IF;
        RETURN NULL;
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE CONSTRAINT TRIGGER ledger_hand_history_consistent
        AFTER INSERT OR UPDATE ON ledger_hand
        DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION ledger_hand_history_consistent();
    """,
]

BACKWARD = [
    # (ledger_hand_only_void keeps its stricter body: 0002's backward step drops it)
    "DROP TRIGGER IF EXISTS ledger_hand_history_consistent ON ledger_hand;",
    "DROP FUNCTION IF EXISTS ledger_hand_history_consistent();",
    "DROP TRIGGER IF EXISTS ledger_postingbatch_not_when_settled ON ledger_postingbatch;",
    "DROP TRIGGER IF EXISTS ledger_gamechange_not_when_settled ON ledger_gamechange;",
    "DROP TRIGGER IF EXISTS ledger_gameplayer_not_when_settled ON ledger_gameplayer;",
    "DROP TRIGGER IF EXISTS ledger_game_not_when_settled ON ledger_game;",
    "DROP TRIGGER IF EXISTS ledger_hand_not_when_settled ON ledger_hand;",
    "DROP FUNCTION IF EXISTS ledger_refuse_if_settled();",
    "DROP TRIGGER IF EXISTS ledger_settlementpayment_follows_marks ON ledger_settlementpayment;",
    "DROP FUNCTION IF EXISTS ledger_payment_follows_marks();",
    "DROP TRIGGER IF EXISTS ledger_settlementpayment_no_delete ON ledger_settlementpayment;",
    "DROP TRIGGER IF EXISTS ledger_booksettlement_append_only ON ledger_booksettlement;",
    "DROP TRIGGER IF EXISTS ledger_settlementvoid_append_only ON ledger_settlementvoid;",
    "DROP TRIGGER IF EXISTS ledger_paymentmark_append_only ON ledger_paymentmark;",
    "DROP TRIGGER IF EXISTS ledger_gamechange_append_only ON ledger_gamechange;",
    "DROP TRIGGER IF EXISTS ledger_sessionsettlement_append_only ON ledger_sessionsettlement;",
]


def _run(statements):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        for sql in statements:
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("ledger", "0011_paymentmark")]

    operations = [migrations.RunPython(_run(FORWARD), _run(BACKWARD))]
