"""PostgreSQL-only guards, round three (issue 38): what raw SQL as the app's role could still
write around the services, refused as 0002, 0012 and 0014 refuse the rest (SQLite relies on
the services).

- **A game stays in its evening** (``ledger_game``): its evening (``session_id``), variant
  and currency never change (0012 checked only the evening a game moved *to*, so a game
  could be moved out of a settled evening and written to). An abandoned game stays
  abandoned (``game_abandon`` is final; an undo keeps it abandoned).
- **A game's stake and an abandon have their change record**, checked at commit (a
  deferred constraint trigger; the services write the record after the row): a changed
  ``rate``, ``per_points`` or ``ante`` is what the game's latest stake change of that name
  says (``game_change_stake``), a game that became abandoned has its abandon change.
- **A game player stays at his game** (``ledger_gameplayer``): its game, player, seat and
  role (``played_as``) never change; a changed own ``stake`` is what the latest
  ``stake of <name>`` change says (at commit). A game player is deleted only with a game
  that has no hands, no money batches and no changes (an empty game removed whole).
- **Table reports** (``ledger_tablereport``): what was reported (link, game, hand number,
  table, player, values, time) never changes; ``replaced_at`` and ``withdrawn_at`` are set
  once, not both, never cleared; ``hand_id`` is set once, to a hand of the report's game
  and number. A report is of its link's game, and not dated after its link was revoked.
  It is deleted (and its ``replaces`` cleared) only with a game that has no hands.
- **Hand confirmations** (``ledger_handconfirmation``): only through a confirm link of the
  hand's game, not after the link was revoked; answering again changes ``correct`` and
  moves ``answered_at`` on, nothing else; never deleted.
- **A report link is never un-revoked** (``ledger_reportlink``): once ``revoked_at`` is set
  it never changes; a link's game, part, player, token and creation time never change.
- **A book settlement clears only paid payments** (``ledger_booksettlement``, checked as
  it is inserted: ``book_settle`` writes the paid marks first): its ``cleared`` are
  distinct payments of its table's settlements in its currency, each with a paid mark made
  at the book settlement's time, and its netted ``payments`` give every player what the
  cleared payments give.

Legitimate history passes when written in commit order, as ``table_import`` writes it (the
games with their final stakes, reports and confirmations after their hands).
"""

from django.db import migrations

INTEGRITY = "USING ERRCODE = 'integrity_constraint_violation'"

FORWARD = [
    # -- a game stays in its evening; abandoned is final -------------------------------------
    f"""
    CREATE OR REPLACE FUNCTION ledger_game_stays() RETURNS trigger AS $$
    BEGIN
        IF NEW.session_id IS DISTINCT FROM OLD.session_id THEN
            RAISE EXCEPTION 'game %: its evening never changes (session % to % refused)',
                OLD.id, OLD.session_id, NEW.session_id {INTEGRITY};
        END IF;
        IF NEW.variant IS DISTINCT FROM OLD.variant
           OR NEW.currency IS DISTINCT FROM OLD.currency THEN
            RAISE EXCEPTION 'game %: its variant and currency never change', OLD.id
                {INTEGRITY};
        END IF;
        IF OLD.status = 'abandoned' AND NEW.status IS DISTINCT FROM OLD.status THEN
            RAISE EXCEPTION 'game % was abandoned: that is final', OLD.id {INTEGRITY};
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER ledger_game_stays
        BEFORE UPDATE ON ledger_game
        FOR EACH ROW EXECUTE FUNCTION ledger_game_stays();
    """,
    # -- the stake a game's latest change of that name gives ----------------------------------
    """
    CREATE OR REPLACE FUNCTION ledger_stake_recorded(p_game bigint, p_name text,
                                                     p_value numeric) RETURNS boolean AS $$
        SELECT COALESCE((SELECT (c.new #>> '{}')::numeric IS NOT DISTINCT FROM p_value
                         FROM ledger_gamechange c
                         WHERE c.game_id = p_game AND c.kind = 'stake' AND c.name = p_name
                         ORDER BY c.id DESC LIMIT 1), false);
    $$ LANGUAGE sql STABLE;
    """,
    f"""
    CREATE OR REPLACE FUNCTION ledger_game_change_recorded() RETURNS trigger AS $$
    DECLARE
        g record;
    BEGIN
        SELECT id, status, rate, per_points, ante INTO g FROM ledger_game WHERE id = NEW.id;
        IF NOT FOUND THEN
            RETURN NULL;
        END IF;
        IF OLD.status IS DISTINCT FROM 'abandoned' AND g.status = 'abandoned'
           AND NOT EXISTS (SELECT 1 FROM ledger_gamechange c
                           WHERE c.game_id = g.id AND c.kind = 'abandon') THEN
            RAISE EXCEPTION 'game %: abandoned without its change record (game_abandon)',
                g.id USING ERRCODE = 'check_violation';
        END IF;
        IF (NEW.rate IS DISTINCT FROM OLD.rate
            AND NOT ledger_stake_recorded(g.id, 'rate', g.rate))
           OR (NEW.per_points IS DISTINCT FROM OLD.per_points
               AND NOT ledger_stake_recorded(g.id, 'per_points', g.per_points))
           OR (NEW.ante IS DISTINCT FROM OLD.ante
               AND NOT ledger_stake_recorded(g.id, 'ante', g.ante)) THEN
            RAISE EXCEPTION 'game %: its stake changed without its change record '
                '(game_change_stake)', g.id USING ERRCODE = 'check_violation';
        END IF;
        RETURN NULL;
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE CONSTRAINT TRIGGER ledger_game_change_recorded
        AFTER UPDATE ON ledger_game
        DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION ledger_game_change_recorded();
    """,
    # -- a game player stays at his game ------------------------------------------------------
    f"""
    CREATE OR REPLACE FUNCTION ledger_gameplayer_stays() RETURNS trigger AS $$
    BEGIN
        IF TG_OP = 'DELETE' THEN
            -- the whole game removed (services.game_delete: the game's row first; the
            -- foreign keys of its hands and money refuse that at commit if it had any)
            IF NOT EXISTS (SELECT 1 FROM ledger_game WHERE id = OLD.game_id) THEN
                RETURN OLD;
            END IF;
            IF EXISTS (SELECT 1 FROM ledger_hand WHERE game_id = OLD.game_id)
               OR EXISTS (SELECT 1 FROM ledger_postingbatch WHERE game_id = OLD.game_id)
               OR EXISTS (SELECT 1 FROM ledger_gamechange WHERE game_id = OLD.game_id) THEN
                RAISE EXCEPTION 'game %: it has hands, money or changes; its players are '
                    'never removed', OLD.game_id {INTEGRITY};
            END IF;
            RETURN OLD;
        END IF;
        IF NEW.game_id IS DISTINCT FROM OLD.game_id THEN
            RAISE EXCEPTION 'game player %: its game never changes (game % to % refused)',
                OLD.id, OLD.game_id, NEW.game_id {INTEGRITY};
        END IF;
        IF NEW.player_id IS DISTINCT FROM OLD.player_id OR NEW.seat IS DISTINCT FROM OLD.seat
           OR NEW.played_as IS DISTINCT FROM OLD.played_as THEN
            RAISE EXCEPTION 'game player %: its player, seat and role never change', OLD.id
                {INTEGRITY};
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER ledger_gameplayer_stays
        BEFORE UPDATE OR DELETE ON ledger_gameplayer
        FOR EACH ROW EXECUTE FUNCTION ledger_gameplayer_stays();
    """,
    """
    CREATE OR REPLACE FUNCTION ledger_gameplayer_stake_recorded() RETURNS trigger AS $$
    DECLARE
        seat record;
    BEGIN
        SELECT gp.game_id, gp.stake, p.name INTO seat FROM ledger_gameplayer gp
            JOIN ledger_player p ON p.id = gp.player_id WHERE gp.id = NEW.id;
        IF FOUND AND NEW.stake IS DISTINCT FROM OLD.stake
           AND NOT ledger_stake_recorded(seat.game_id, 'stake of ' || seat.name, seat.stake)
        THEN
            RAISE EXCEPTION 'game %: the stake of % changed without its change record '
                '(game_change_stake)', seat.game_id, seat.name
                USING ERRCODE = 'check_violation';
        END IF;
        RETURN NULL;
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE CONSTRAINT TRIGGER ledger_gameplayer_stake_recorded
        AFTER UPDATE ON ledger_gameplayer
        DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION ledger_gameplayer_stake_recorded();
    """,
    # -- table reports: what was reported never changes ----------------------------------------
    f"""
    CREATE OR REPLACE FUNCTION ledger_tablereport_of_its_link() RETURNS trigger AS $$
    BEGIN
        IF NOT EXISTS (SELECT 1 FROM ledger_reportlink l
                       WHERE l.id = NEW.link_id AND l.game_id = NEW.game_id) THEN
            RAISE EXCEPTION 'table report: its link is not a link of game %', NEW.game_id
                {INTEGRITY};
        END IF;
        IF EXISTS (SELECT 1 FROM ledger_reportlink l WHERE l.id = NEW.link_id
                   AND l.revoked_at IS NOT NULL AND l.revoked_at < NEW.reported_at) THEN
            RAISE EXCEPTION 'table report: its link was revoked before it (a revoked link '
                'never opens again)' {INTEGRITY};
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER ledger_tablereport_of_its_link
        BEFORE INSERT ON ledger_tablereport
        FOR EACH ROW EXECUTE FUNCTION ledger_tablereport_of_its_link();
    """,
    f"""
    CREATE OR REPLACE FUNCTION ledger_tablereport_stays() RETURNS trigger AS $$
    DECLARE
        has_hands boolean;
    BEGIN
        has_hands := EXISTS (SELECT 1 FROM ledger_hand WHERE game_id = OLD.game_id);
        IF TG_OP = 'DELETE' THEN
            IF has_hands THEN
                RAISE EXCEPTION 'table report %: a report of a game with hands is never '
                    'deleted', OLD.id {INTEGRITY};
            END IF;
            RETURN OLD;
        END IF;
        IF NEW.link_id IS DISTINCT FROM OLD.link_id OR NEW.game_id IS DISTINCT FROM OLD.game_id
           OR NEW.number IS DISTINCT FROM OLD.number OR NEW."table" IS DISTINCT FROM OLD."table"
           OR NEW.player IS DISTINCT FROM OLD.player
           OR NEW."values" IS DISTINCT FROM OLD."values"
           OR NEW.reported_at IS DISTINCT FROM OLD.reported_at
           OR (NEW.replaces_id IS DISTINCT FROM OLD.replaces_id
               AND (NEW.replaces_id IS NOT NULL OR has_hands)) THEN
            RAISE EXCEPTION 'table report %: what was reported never changes', OLD.id
                {INTEGRITY};
        END IF;
        IF (OLD.replaced_at IS NOT NULL AND NEW.replaced_at IS DISTINCT FROM OLD.replaced_at)
           OR (OLD.withdrawn_at IS NOT NULL
               AND NEW.withdrawn_at IS DISTINCT FROM OLD.withdrawn_at)
           OR (NEW.replaced_at IS NOT NULL AND NEW.withdrawn_at IS NOT NULL) THEN
            RAISE EXCEPTION 'table report %: it is replaced or withdrawn once, never both, '
                'never taken back', OLD.id {INTEGRITY};
        END IF;
        IF NEW.hand_id IS DISTINCT FROM OLD.hand_id AND (
               OLD.hand_id IS NOT NULL
               OR NOT EXISTS (SELECT 1 FROM ledger_hand h WHERE h.id = NEW.hand_id
                              AND h.game_id = OLD.game_id AND h.number = OLD.number)) THEN
            RAISE EXCEPTION 'table report %: it is linked once, to a saved hand of its game '
                'and number', OLD.id {INTEGRITY};
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER ledger_tablereport_stays
        BEFORE UPDATE OR DELETE ON ledger_tablereport
        FOR EACH ROW EXECUTE FUNCTION ledger_tablereport_stays();
    """,
    # -- hand confirmations ----------------------------------------------------------------------
    f"""
    CREATE OR REPLACE FUNCTION ledger_handconfirmation_stays() RETURNS trigger AS $$
    BEGIN
        IF TG_OP = 'DELETE' THEN
            RAISE EXCEPTION 'hand confirmation %: never deleted', OLD.id {INTEGRITY};
        END IF;
        IF TG_OP = 'INSERT' THEN
            IF NOT EXISTS (SELECT 1 FROM ledger_reportlink l JOIN ledger_hand h
                               ON h.game_id = l.game_id
                           WHERE l.id = NEW.link_id AND h.id = NEW.hand_id AND l.part = 99)
            THEN
                RAISE EXCEPTION 'hand confirmation: only through a confirm link of the '
                    'hand''s game' {INTEGRITY};
            END IF;
            IF EXISTS (SELECT 1 FROM ledger_reportlink l WHERE l.id = NEW.link_id
                       AND l.revoked_at IS NOT NULL AND l.revoked_at < NEW.answered_at) THEN
                RAISE EXCEPTION 'hand confirmation: its link was revoked before the answer '
                    '(a revoked link never opens again)' {INTEGRITY};
            END IF;
            RETURN NEW;
        END IF;
        IF NEW.link_id IS DISTINCT FROM OLD.link_id OR NEW.hand_id IS DISTINCT FROM OLD.hand_id
           OR NEW.player IS DISTINCT FROM OLD.player
           OR NEW.answered_at < OLD.answered_at THEN
            RAISE EXCEPTION 'hand confirmation %: answering again changes only the answer and '
                'moves its time on', OLD.id {INTEGRITY};
        END IF;
        IF NEW.answered_at IS DISTINCT FROM OLD.answered_at AND EXISTS (
                SELECT 1 FROM ledger_reportlink l WHERE l.id = NEW.link_id
                AND l.revoked_at IS NOT NULL AND l.revoked_at < NEW.answered_at) THEN
            RAISE EXCEPTION 'hand confirmation %: its link was revoked before the answer (a '
                'revoked link never opens again)', OLD.id {INTEGRITY};
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER ledger_handconfirmation_stays
        BEFORE INSERT OR UPDATE OR DELETE ON ledger_handconfirmation
        FOR EACH ROW EXECUTE FUNCTION ledger_handconfirmation_stays();
    """,
    # -- a report link is never un-revoked -------------------------------------------------------
    f"""
    CREATE OR REPLACE FUNCTION ledger_reportlink_stays_revoked() RETURNS trigger AS $$
    BEGIN
        IF OLD.revoked_at IS NOT NULL AND NEW.revoked_at IS DISTINCT FROM OLD.revoked_at THEN
            RAISE EXCEPTION 'report link % is revoked: it never opens again', OLD.id
                {INTEGRITY};
        END IF;
        IF NEW.token IS DISTINCT FROM OLD.token OR NEW.game_id IS DISTINCT FROM OLD.game_id
           OR NEW.part IS DISTINCT FROM OLD.part OR NEW.player IS DISTINCT FROM OLD.player
           OR NEW.created_at IS DISTINCT FROM OLD.created_at THEN
            RAISE EXCEPTION 'report link %: its token, game, part, player and creation never '
                'change (make a new link)', OLD.id {INTEGRITY};
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER ledger_reportlink_stays_revoked
        BEFORE UPDATE ON ledger_reportlink
        FOR EACH ROW EXECUTE FUNCTION ledger_reportlink_stays_revoked();
    """,
    # -- a book settlement clears only paid payments ----------------------------------------------
    f"""
    CREATE OR REPLACE FUNCTION ledger_booksettlement_clears_paid() RETURNS trigger AS $$
    DECLARE
        cleared json;
        netted json;
        ids bigint[];
        bad bigint;
        wrong bigint;
    BEGIN
        BEGIN
            cleared := NEW.cleared::json;
            netted := NEW.payments::json;
        EXCEPTION WHEN others THEN
            RAISE EXCEPTION 'book settlement: cleared and payments must be JSON'
                USING ERRCODE = 'check_violation';
        END;
        IF json_typeof(cleared) IS DISTINCT FROM 'array'
           OR json_typeof(netted) IS DISTINCT FROM 'array'
           OR EXISTS (SELECT 1 FROM json_array_elements(cleared) e
                      WHERE json_typeof(e) <> 'number' OR e::text !~ '^[0-9]{{1,18}}$')
           OR EXISTS (SELECT 1 FROM json_array_elements(netted) e
                      WHERE json_typeof(e) <> 'object'
                         OR (e ->> 'from') !~ '^[0-9]{{1,18}}$'
                         OR (e ->> 'to') !~ '^[0-9]{{1,18}}$'
                         OR (e ->> 'amount_minor') !~ '^[0-9]{{1,18}}$') THEN
            RAISE EXCEPTION 'book settlement: cleared is a list of payment ids, payments a '
                'list of from, to and amount_minor' USING ERRCODE = 'check_violation';
        END IF;
        ids := ARRAY(SELECT e::text::bigint FROM json_array_elements(cleared) e);
        IF cardinality(ids) = 0
           OR cardinality(ids) <> (SELECT count(DISTINCT i) FROM unnest(ids) i) THEN
            RAISE EXCEPTION 'book settlement: it clears no payment, or one twice'
                USING ERRCODE = 'check_violation';
        END IF;
        SELECT i INTO bad FROM unnest(ids) i
            WHERE NOT EXISTS (
                SELECT 1 FROM ledger_settlementpayment p
                JOIN ledger_sessionsettlement s ON s.id = p.settlement_id
                JOIN ledger_session e ON e.id = s.session_id
                WHERE p.id = i AND e.table_id = NEW.table_id AND s.currency = NEW.currency
                AND EXISTS (SELECT 1 FROM ledger_paymentmark m WHERE m.payment_id = p.id
                            AND m.paid AND m.marked_at = NEW.settled_at))
            LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION 'book settlement: payment % is not a payment of table % in % '
                'marked paid as the book was settled (at %)', bad, NEW.table_id,
                NEW.currency, NEW.settled_at {INTEGRITY};
        END IF;
        SELECT coalesce(a.player, b.player) INTO wrong
            FROM (SELECT u.player, sum(u.amount) AS total
                  FROM ledger_settlementpayment p,
                       LATERAL (VALUES (p.payee_id, p.amount_minor),
                                       (p.payer_id, -p.amount_minor)) AS u(player, amount)
                  WHERE p.id = ANY (ids) GROUP BY u.player) a
            FULL JOIN (SELECT u.player, sum(u.amount) AS total
                       FROM json_array_elements(netted) e,
                            LATERAL (VALUES ((e ->> 'to')::bigint,
                                             (e ->> 'amount_minor')::bigint),
                                            ((e ->> 'from')::bigint,
                                             -(e ->> 'amount_minor')::bigint))
                                AS u(player, amount)
                       GROUP BY u.player) b ON b.player = a.player
            WHERE coalesce(a.total, 0) <> coalesce(b.total, 0)
            LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION 'book settlement: its payments do not give player % what the '
                'cleared payments give', wrong USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER ledger_booksettlement_clears_paid
        BEFORE INSERT ON ledger_booksettlement
        FOR EACH ROW EXECUTE FUNCTION ledger_booksettlement_clears_paid();
    """,
]

BACKWARD = [
    "DROP TRIGGER IF EXISTS ledger_booksettlement_clears_paid ON ledger_booksettlement;",
    "DROP FUNCTION IF EXISTS ledger_booksettlement_clears_paid();",
    "DROP TRIGGER IF EXISTS ledger_reportlink_stays_revoked ON ledger_reportlink;",
    "DROP FUNCTION IF EXISTS ledger_reportlink_stays_revoked();",
    "DROP TRIGGER IF EXISTS ledger_handconfirmation_stays ON ledger_handconfirmation;",
    "DROP FUNCTION IF EXISTS ledger_handconfirmation_stays();",
    "DROP TRIGGER IF EXISTS ledger_tablereport_stays ON ledger_tablereport;",
    "DROP FUNCTION IF EXISTS ledger_tablereport_stays();",
    "DROP TRIGGER IF EXISTS ledger_tablereport_of_its_link ON ledger_tablereport;",
    "DROP FUNCTION IF EXISTS ledger_tablereport_of_its_link();",
    "DROP TRIGGER IF EXISTS ledger_gameplayer_stake_recorded ON ledger_gameplayer;",
    "DROP FUNCTION IF EXISTS ledger_gameplayer_stake_recorded();",
    "DROP TRIGGER IF EXISTS ledger_gameplayer_stays ON ledger_gameplayer;",
    "DROP FUNCTION IF EXISTS ledger_gameplayer_stays();",
    "DROP TRIGGER IF EXISTS ledger_game_change_recorded ON ledger_game;",
    "DROP FUNCTION IF EXISTS ledger_game_change_recorded();",
    "DROP FUNCTION IF EXISTS ledger_stake_recorded(bigint, text, numeric);",
    "DROP TRIGGER IF EXISTS ledger_game_stays ON ledger_game;",
    "DROP FUNCTION IF EXISTS ledger_game_stays();",
]


def _run(statements):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        for sql in statements:
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("ledger", "0019_hand_confirmations")]

    operations = [migrations.RunPython(_run(FORWARD), _run(BACKWARD))]
