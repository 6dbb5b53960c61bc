"""PostgreSQL-only guards for the settlements, the settled evenings and the share links: raw
SQL as the app's role can no longer write money history the services would refuse (0002
guards the postings, 0012 the rest of the history's rows; SQLite relies on the services).

- **A settlement** (``ledger_sessionsettlement``): its ``nets`` are a JSON object of whole
  minor units naming the evening's players (by their current names, or in seat order after
  a rename, as ``selectors.settlement_nets`` reads them) and sum to zero (checked at once).
  At commit (a deferred constraint trigger), if it stands (no void by then), it is what
  ``session_settle`` makes: in its evening's currency, the evening's only live settlement
  (the evening's row locked as the service locks it), no game of the evening in progress,
  and each player's net the sum of the evening's postings for that player.
- **Its payments reproduce its nets**, checked at commit (on the settlement and on each
  payment): for every player, what the settlement's payments bring in minus what they take
  out is its net. A payment of a voided settlement, or a paid mark on one, is refused
  (``settlement_payment_mark_paid`` refuses both).
- **A settlement void** (``ledger_settlementvoid``) only as ``session_reopen`` makes one: of
  a live settlement (a void of a void is refused by the one-to-one column), with a reason
  that is not blank, and none of its payments marked paid (the payments are locked first,
  so a mark made at the same moment either waits or is seen).
- **A settled evening is frozen:** while it has a live settlement its currency, stake
  (``rate``, ``per_points``), date and table do not change (``session_change`` refuses
  them; reopen the evening first); no posting is inserted into its games (0012 refuses new
  batches; this refuses postings slipped into an old batch).
- **A share link is never un-revoked:** once ``revoked_at`` is set it never changes; a
  link's table, game, token and creation time never change.

Legitimate history passes when written in commit order (each transaction's rows as the
services wrote them), in one transaction or many: the checks look at rows as they stand when
the services would have looked, and a settlement voided in the same transaction is held
only to its nets and payments (so a history inserted table by table, voids after
settlements, passes too). Paid marks go before the void of their settlement.
TRUNCATE fires no row triggers: the runtime role (``manage.py grant_runtime_role``) is
refused TRUNCATE, and only the tables' owner may drop or disable a trigger.
"""

from django.db import migrations

FORWARD = [
    # -- a settlement's nets, per player of its evening -------------------------------------
    """
    CREATE OR REPLACE FUNCTION ledger_settlement_nets(p_session bigint, p_nets text)
        RETURNS TABLE (player_id bigint, net bigint) AS $$
    DECLARE
        obj json;
        keys text[];
        vals bigint[];
        games bigint[];
        seat_players bigint[];
        seat_games bigint[];
        seat_numbers bigint[];
        ids bigint[];
        names text[];
        unknown text;
    BEGIN
        BEGIN
            obj := p_nets::json;
        EXCEPTION WHEN others THEN
            RAISE EXCEPTION 'settlement of session %: nets are not JSON', p_session
                USING ERRCODE = 'check_violation';
        END;
        IF json_typeof(obj) IS DISTINCT FROM 'object' THEN
            RAISE EXCEPTION 'settlement of session %: nets must be an object of name -> '
                'minor units', p_session USING ERRCODE = 'check_violation';
        END IF;
        IF EXISTS (SELECT 1 FROM json_each(obj) e
                   WHERE json_typeof(e.value) <> 'number'
                      OR e.value::text !~ '^-?[0-9]{1,18}$') THEN
            RAISE EXCEPTION 'settlement of session %: every net must be whole minor units',
                p_session USING ERRCODE = 'check_violation';
        END IF;
        SELECT COALESCE(array_agg(e.key ORDER BY e.pos), '{}'),
               COALESCE(array_agg(e.value::text::bigint ORDER BY e.pos), '{}')
            INTO keys, vals
            FROM json_each(obj) WITH ORDINALITY AS e(key, value, pos);
        IF cardinality(keys) <> (SELECT count(DISTINCT k) FROM unnest(keys) k) THEN
            RAISE EXCEPTION 'settlement of session %: a player is named twice in its nets',
                p_session USING ERRCODE = 'check_violation';
        END IF;
        -- the evening's players in order of first seat in the first game
        -- (selectors.session_players). Each table is read alone, by an indexed column, into
        -- arrays, and grouped from those: joined and grouped in one query, a planner that
        -- believes the tables empty (a test database after a rollback, a fresh bulk load)
        -- may walk every seat of every evening in player order for each check.
        SELECT COALESCE(array_agg(g.id ORDER BY g.sequence), '{}') INTO games
            FROM ledger_game g WHERE g.session_id = p_session;
        SELECT COALESCE(array_agg(gp.player_id), '{}'), COALESCE(array_agg(gp.game_id), '{}'),
               COALESCE(array_agg(gp.seat::bigint), '{}')
            INTO seat_players, seat_games, seat_numbers
            FROM ledger_gameplayer gp WHERE gp.game_id = ANY (games);
        SELECT COALESCE(array_agg(f.pid ORDER BY f.first_seat), '{}') INTO ids
            FROM (SELECT s.pid, min(ARRAY[array_position(games, s.gid)::bigint, s.seat])
                      AS first_seat
                  FROM unnest(seat_players, seat_games, seat_numbers) AS s(pid, gid, seat)
                  GROUP BY s.pid) f;
        SELECT COALESCE(array_agg(p.name::text ORDER BY array_position(ids, p.id)), '{}')
            INTO names FROM ledger_player p WHERE p.id = ANY (ids);
        IF keys <@ names THEN  -- by name
            RETURN QUERY
                SELECT ids[i], COALESCE(vals[array_position(keys, names[i])], 0)
                FROM generate_subscripts(ids, 1) i;
        ELSIF cardinality(keys) = cardinality(ids) THEN  -- players renamed since: by seat
            RETURN QUERY SELECT ids[i], vals[i] FROM generate_subscripts(ids, 1) i;
        ELSE
            SELECT k INTO unknown FROM unnest(keys) k WHERE k <> ALL (names) LIMIT 1;
            RAISE EXCEPTION 'settlement of session %: its nets name %, who did not play that '
                'evening', p_session, unknown USING ERRCODE = 'check_violation';
        END IF;
    END;
    $$ LANGUAGE plpgsql STABLE SET plan_cache_mode = force_custom_plan;
    """,
    # -- each player's posted money in an evening (selectors.session_nets) -------------------
    """
    CREATE OR REPLACE FUNCTION ledger_session_posted(p_session bigint)
        RETURNS TABLE (player_id bigint, total bigint) AS $$
    DECLARE
        games bigint[];
        players bigint[];
        amounts bigint[];
    BEGIN
        games := ARRAY(SELECT g.id FROM ledger_game g WHERE g.session_id = p_session);
        SELECT COALESCE(array_agg(m.player_id), '{}'), COALESCE(array_agg(m.amount_minor), '{}')
            INTO players, amounts
            FROM ledger_moneyposting m WHERE m.game_id = ANY (games);
        RETURN QUERY SELECT u.pid, sum(u.amount)::bigint
            FROM unnest(players, amounts) AS u(pid, amount) GROUP BY u.pid;
    END;
    $$ LANGUAGE plpgsql STABLE SET plan_cache_mode = force_custom_plan;
    """,
    # -- a settlement's nets are whole minor units of its evening's players, summing to 0 ----
    """
    CREATE OR REPLACE FUNCTION ledger_settlement_nets_sum_to_zero() RETURNS trigger AS $$
    DECLARE
        total bigint;
    BEGIN
        SELECT COALESCE(sum(n.net), 0) INTO total
            FROM ledger_settlement_nets(NEW.session_id, NEW.nets) n;
        IF total <> 0 THEN
            RAISE EXCEPTION 'settlement of session %: its nets sum to % (must be 0)',
                NEW.session_id, total USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan;
    """,
    """
    CREATE TRIGGER ledger_sessionsettlement_nets_sum_to_zero
        BEFORE INSERT ON ledger_sessionsettlement
        FOR EACH ROW EXECUTE FUNCTION ledger_settlement_nets_sum_to_zero();
    """,
    # -- at commit: a live settlement is what session_settle makes, and the payments of every
    #    settlement reproduce its nets (the payments come row by row) ---------------------------
    """
    CREATE OR REPLACE FUNCTION ledger_settlement_at_commit() RETURNS trigger AS $$
    DECLARE
        target bigint;
        settled record;
        evening record;
        wrong record;
        flow_players bigint[];
        flow_amounts bigint[];
    BEGIN
        IF TG_TABLE_NAME = 'ledger_sessionsettlement' THEN
            target := NEW.id;
        ELSE
            target := NEW.settlement_id;
        END IF;
        SELECT id, session_id, currency, nets INTO settled FROM ledger_sessionsettlement
            WHERE id = target;
        IF NOT FOUND THEN
            RETURN NULL;  -- (the foreign key refuses a payment of no settlement)
        END IF;
        -- A settlement that stands (not voided by now) was made as session_settle makes one.
        -- (One voided in the same transaction no longer counts: a history written table by
        -- table, its voids last, passes.)
        IF TG_TABLE_NAME = 'ledger_sessionsettlement' AND NOT EXISTS (
                SELECT 1 FROM ledger_settlementvoid WHERE settlement_id = settled.id) THEN
            SELECT id, currency INTO evening FROM ledger_session
                WHERE id = settled.session_id FOR UPDATE;  -- as the service locks it
            IF settled.currency IS DISTINCT FROM evening.currency THEN
                RAISE EXCEPTION 'settlement of session %: in %, the evening is in %',
                    settled.session_id, settled.currency, evening.currency
                    USING ERRCODE = 'check_violation';
            END IF;
            IF EXISTS (SELECT 1 FROM ledger_sessionsettlement s
                       WHERE s.session_id = settled.session_id AND s.id <> settled.id
                       AND NOT EXISTS (SELECT 1 FROM ledger_settlementvoid v
                                       WHERE v.settlement_id = s.id)) THEN
                RAISE EXCEPTION 'session % is settled already: reopen it (a settlement void) '
                    'before settling it again', settled.session_id
                    USING ERRCODE = 'integrity_constraint_violation';
            END IF;
            IF EXISTS (SELECT 1 FROM ledger_game WHERE session_id = settled.session_id
                       AND status = 'in_progress') THEN
                RAISE EXCEPTION 'session %: a game is in progress; it cannot be settled',
                    settled.session_id USING ERRCODE = 'check_violation';
            END IF;
            SELECT COALESCE(n.player_id, posted.player_id) AS player_id,
                   COALESCE(n.net, 0) AS net, COALESCE(posted.total, 0) AS posted
                INTO wrong
                FROM ledger_settlement_nets(settled.session_id, settled.nets) n
                FULL JOIN ledger_session_posted(settled.session_id) posted
                    ON posted.player_id = n.player_id
                WHERE COALESCE(n.net, 0) <> COALESCE(posted.total, 0)
                LIMIT 1;
            IF FOUND THEN
                RAISE EXCEPTION 'settlement of session %: player % (%) has a net of % but % '
                    'posted in the evening''s games', settled.session_id, wrong.player_id,
                    (SELECT name FROM ledger_player WHERE id = wrong.player_id), wrong.net,
                    wrong.posted USING ERRCODE = 'check_violation';
            END IF;
        END IF;
        -- what the payments bring in (+) and take out (-), per player (read alone, as above)
        SELECT COALESCE(array_agg(pay.payee_id) || array_agg(pay.payer_id), '{}'),
               COALESCE(array_agg(pay.amount_minor) || array_agg(-pay.amount_minor), '{}')
            INTO flow_players, flow_amounts
            FROM ledger_settlementpayment pay WHERE pay.settlement_id = settled.id;
        SELECT COALESCE(n.player_id, paid.player_id) AS player_id,
               COALESCE(n.net, 0) AS net, COALESCE(paid.total, 0) AS paid
            INTO wrong
            FROM ledger_settlement_nets(settled.session_id, settled.nets) n
            FULL JOIN (SELECT u.pid AS player_id, sum(u.amount) AS total
                       FROM unnest(flow_players, flow_amounts) AS u(pid, amount)
                       GROUP BY u.pid) paid
                ON paid.player_id = n.player_id
            WHERE COALESCE(n.net, 0) <> COALESCE(paid.total, 0)
            LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION 'payments of settlement % do not reproduce its nets: player % '
                '(%) has a net of % but the payments give %', settled.id, wrong.player_id,
                (SELECT name FROM ledger_player WHERE id = wrong.player_id), wrong.net,
                wrong.paid USING ERRCODE = 'check_violation';
        END IF;
        RETURN NULL;
    END;
    $$ LANGUAGE plpgsql SET plan_cache_mode = force_custom_plan;
    """,
    """
    CREATE CONSTRAINT TRIGGER ledger_sessionsettlement_at_commit
        AFTER INSERT ON ledger_sessionsettlement
        DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION ledger_settlement_at_commit();
    """,
    """
    CREATE CONSTRAINT TRIGGER ledger_settlementpayment_reproduce
        AFTER INSERT ON ledger_settlementpayment
        DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION ledger_settlement_at_commit();
    """,
    # -- no payment and no paid mark for a voided settlement --------------------------------
    """
    CREATE OR REPLACE FUNCTION ledger_settlement_not_voided() RETURNS trigger AS $$
    DECLARE
        target bigint;
    BEGIN
        IF TG_TABLE_NAME = 'ledger_paymentmark' THEN
            -- lock the payment as the service does: a void at the same moment waits or is seen
            SELECT settlement_id INTO target FROM ledger_settlementpayment
                WHERE id = NEW.payment_id FOR UPDATE;
        ELSE
            target := NEW.settlement_id;
        END IF;
        IF EXISTS (SELECT 1 FROM ledger_settlementvoid WHERE settlement_id = target) THEN
            RAISE EXCEPTION 'settlement % was voided when its evening was reopened: % refused',
                target, TG_TABLE_NAME USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER ledger_settlementpayment_not_voided
        BEFORE INSERT ON ledger_settlementpayment
        FOR EACH ROW EXECUTE FUNCTION ledger_settlement_not_voided();
    """,
    """
    CREATE TRIGGER ledger_paymentmark_not_voided
        BEFORE INSERT ON ledger_paymentmark
        FOR EACH ROW EXECUTE FUNCTION ledger_settlement_not_voided();
    """,
    # -- a void only as session_reopen makes one ---------------------------------------------
    """
    CREATE OR REPLACE FUNCTION ledger_void_as_reopened() RETURNS trigger AS $$
    DECLARE
        evening bigint;
        paid bigint;
    BEGIN
        SELECT session_id INTO evening FROM ledger_sessionsettlement
            WHERE id = NEW.settlement_id;
        IF NOT FOUND THEN
            RETURN NEW;  -- (the foreign key refuses it)
        END IF;
        PERFORM 1 FROM ledger_session WHERE id = evening FOR UPDATE;
        PERFORM 1 FROM ledger_settlementpayment WHERE settlement_id = NEW.settlement_id
            FOR UPDATE;
        IF btrim(COALESCE(NEW.reason, '')) = '' THEN
            RAISE EXCEPTION 'void of settlement %: say why the evening is reopened',
                NEW.settlement_id USING ERRCODE = 'check_violation';
        END IF;
        SELECT count(*) INTO paid FROM ledger_settlementpayment
            WHERE settlement_id = NEW.settlement_id AND paid_at IS NOT NULL;
        IF paid > 0 THEN
            RAISE EXCEPTION 'void of settlement %: % of its payments are marked paid; undo '
                'those marks first', NEW.settlement_id, paid
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER ledger_settlementvoid_as_reopened
        BEFORE INSERT ON ledger_settlementvoid
        FOR EACH ROW EXECUTE FUNCTION ledger_void_as_reopened();
    """,
    # -- a settled evening is frozen ----------------------------------------------------------
    """
    CREATE OR REPLACE FUNCTION ledger_session_frozen_when_settled() RETURNS trigger AS $$
    BEGIN
        IF (NEW.currency IS DISTINCT FROM OLD.currency OR NEW.rate IS DISTINCT FROM OLD.rate
            OR NEW.per_points IS DISTINCT FROM OLD.per_points
            OR NEW.date IS DISTINCT FROM OLD.date OR NEW.table_id IS DISTINCT FROM OLD.table_id)
           AND EXISTS (SELECT 1 FROM ledger_sessionsettlement s WHERE s.session_id = OLD.id
                       AND NOT EXISTS (SELECT 1 FROM ledger_settlementvoid v
                                       WHERE v.settlement_id = s.id)) THEN
            RAISE EXCEPTION 'session % is settled: its currency, stake, date and table are '
                'frozen (reopen it first)', OLD.id
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER ledger_session_frozen_when_settled
        BEFORE UPDATE ON ledger_session
        FOR EACH ROW EXECUTE FUNCTION ledger_session_frozen_when_settled();
    """,
    """
    CREATE TRIGGER ledger_moneyposting_not_when_settled
        BEFORE INSERT ON ledger_moneyposting
        FOR EACH ROW EXECUTE FUNCTION ledger_refuse_if_settled('game');
    """,
    # -- a share link is never un-revoked ----------------------------------------------------
    """
    CREATE OR REPLACE FUNCTION ledger_sharelink_stays_revoked() RETURNS trigger AS $$
    BEGIN
        IF OLD.revoked_at IS NOT NULL AND NEW.revoked_at IS DISTINCT FROM OLD.revoked_at THEN
            RAISE EXCEPTION 'share link % is revoked: it never opens again', OLD.id
                USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        IF NEW.token IS DISTINCT FROM OLD.token OR NEW.table_id IS DISTINCT FROM OLD.table_id
           OR NEW.game_id IS DISTINCT FROM OLD.game_id
           OR NEW.created_at IS DISTINCT FROM OLD.created_at THEN
            RAISE EXCEPTION 'share link %: its token, table, game and creation never change '
                '(make a new link)', OLD.id USING ERRCODE = 'integrity_constraint_violation';
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER ledger_sharelink_stays_revoked
        BEFORE UPDATE ON ledger_sharelink
        FOR EACH ROW EXECUTE FUNCTION ledger_sharelink_stays_revoked();
    """,
]

BACKWARD = [
    "DROP TRIGGER IF EXISTS ledger_sharelink_stays_revoked ON ledger_sharelink;",
    "DROP FUNCTION IF EXISTS ledger_sharelink_stays_revoked();",
    "DROP TRIGGER IF EXISTS ledger_moneyposting_not_when_settled ON ledger_moneyposting;",
    "DROP TRIGGER IF EXISTS ledger_session_frozen_when_settled ON ledger_session;",
    "DROP FUNCTION IF EXISTS ledger_session_frozen_when_settled();",
    "DROP TRIGGER IF EXISTS ledger_settlementvoid_as_reopened ON ledger_settlementvoid;",
    "DROP FUNCTION IF EXISTS ledger_void_as_reopened();",
    "DROP TRIGGER IF EXISTS ledger_paymentmark_not_voided ON ledger_paymentmark;",
    "DROP TRIGGER IF EXISTS ledger_settlementpayment_not_voided ON ledger_settlementpayment;",
    "DROP FUNCTION IF EXISTS ledger_settlement_not_voided();",
    "DROP TRIGGER IF EXISTS ledger_settlementpayment_reproduce ON ledger_settlementpayment;",
    "DROP TRIGGER IF EXISTS ledger_sessionsettlement_at_commit ON ledger_sessionsettlement;",
    "DROP FUNCTION IF EXISTS ledger_settlement_at_commit();",
    "DROP TRIGGER IF EXISTS ledger_sessionsettlement_nets_sum_to_zero "
    "ON ledger_sessionsettlement;",
    "DROP FUNCTION IF EXISTS ledger_settlement_nets_sum_to_zero();",
    "DROP FUNCTION IF EXISTS ledger_session_posted(bigint);",
    "DROP FUNCTION IF EXISTS ledger_settlement_nets(bigint, text);",
]


def _run(statements):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        for sql in statements:
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("ledger", "0013_money_in_iso_minor_units")]

    operations = [migrations.RunPython(_run(FORWARD), _run(BACKWARD))]
