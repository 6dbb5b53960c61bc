"""What a live page shows has changed: share pages (and the scorekeeper's open pages) poll
these short texts and reload when one changes."""

from __future__ import annotations

from django.db import connection

from ledger.models import (
    Game,
    GameChange,
    GamePlayer,
    GameStatus,
    Hand,
    PaymentMark,
    Player,
    PostingBatch,
    Session,
    SessionSettlement,
    SettlementPayment,
    SettlementVoid,
    ShareLink,
    Table,
)


def share_link_target(token: str) -> tuple[int | None, int] | None:
    """(game id or None, table id) of the live (not revoked) share link ``token``; None for
    no such link. Plain SQL, as ``game_live_version``: an unchanged poll needs no more than
    this and the version, and the ORM's link with its table and game (three rows joined,
    two models built) was most of such a poll's time."""
    rows = _rows("SELECT l.game_id, l.table_id FROM {link} l"
                 " WHERE l.token = %s AND l.revoked_at IS NULL", token)
    return rows[0] if rows else None


def game_live_version(game_id: int) -> str:
    """A short text that changes whenever anything a game's sheet shows changes: a hand
    recorded, corrected or undone (hands are never deleted: a new one has a higher id, an
    undo stamps ``voided_at``), a rule or stake changed, money posted, the status, a player
    or the table renamed. One query on indexed columns (a row per seat), whatever the
    number of hands. Plain SQL: share pages ask for it every 2 s from every phone, and the
    ORM took 30 times as long to build it as the database to answer it."""
    rows = _rows(
        "SELECT g.status, t.name, s.date, s.place,"
        " (SELECT MAX(h.id) FROM {hand} h WHERE h.game_id = g.id),"
        " (SELECT COUNT(*) FROM {hand} h WHERE h.game_id = g.id AND h.voided_at IS NOT NULL),"
        " (SELECT MAX(c.id) FROM {change} c WHERE c.game_id = g.id),"
        " (SELECT MAX(b.id) FROM {batch} b WHERE b.game_id = g.id),"
        " p.id, p.name"
        " FROM {game} g JOIN {session} s ON s.id = g.session_id"
        " JOIN {table} t ON t.id = s.table_id"
        " LEFT JOIN {seat} gp ON gp.game_id = g.id LEFT JOIN {player} p ON p.id = gp.player_id"
        " WHERE g.id = %s ORDER BY gp.seat", game_id)
    if not rows:
        return "gone"
    return f"g{game_id}|" + "|".join(map(str, rows[0][:8])) + "|" + "|".join(
        f"{row[8]}={row[9]}" for row in rows)


def table_live_version(table_id: int) -> str:
    """The same for a table's list of evenings and games (their status and hands), its
    evenings' settlements (settled, reopened, a payment marked paid), with its name and its
    players' (a rename shows everywhere)."""
    rows = _rows(
        "SELECT t.name,"
        " (SELECT MAX(s.id) FROM {session} s WHERE s.table_id = t.id),"
        " (SELECT MAX(g.id) FROM {game} g JOIN {session} s ON g.session_id = s.id"
        "  WHERE s.table_id = t.id),"
        " (SELECT COUNT(*) FROM {game} g JOIN {session} s ON g.session_id = s.id"
        "  WHERE s.table_id = t.id AND g.status = %s),"
        " (SELECT COUNT(*) FROM {game} g JOIN {session} s ON g.session_id = s.id"
        "  WHERE s.table_id = t.id AND g.status = %s),"
        " (SELECT MAX(h.id) FROM {hand} h JOIN {game} g ON h.game_id = g.id"
        "  JOIN {session} s ON g.session_id = s.id WHERE s.table_id = t.id),"
        " (SELECT COUNT(*) FROM {hand} h JOIN {game} g ON h.game_id = g.id"
        "  JOIN {session} s ON g.session_id = s.id"
        "  WHERE s.table_id = t.id AND h.voided_at IS NOT NULL),"
        " (SELECT MAX(st.id) FROM {settlement} st JOIN {session} s ON st.session_id = s.id"
        "  WHERE s.table_id = t.id),"
        " (SELECT MAX(v.id) FROM {void} v JOIN {settlement} st ON v.settlement_id = st.id"
        "  JOIN {session} s ON st.session_id = s.id WHERE s.table_id = t.id),"
        " (SELECT MAX(m.id) FROM {mark} m JOIN {payment} sp ON m.payment_id = sp.id"
        "  JOIN {settlement} st ON sp.settlement_id = st.id"
        "  JOIN {session} s ON st.session_id = s.id WHERE s.table_id = t.id),"
        " p.id, p.name"
        " FROM {table} t LEFT JOIN {player} p ON p.table_id = t.id"
        " WHERE t.id = %s ORDER BY p.id",
        str(GameStatus.COMPLETE), str(GameStatus.ABANDONED), table_id)
    if not rows:
        return "gone"
    return f"t{table_id}|" + "|".join(map(str, rows[0][:10])) + "|" + "|".join(
        f"{row[10]}={row[11]}" for row in rows)


def _rows(sql: str, *params) -> list[tuple]:
    names = {"hand": Hand, "change": GameChange, "batch": PostingBatch, "game": Game,
             "session": Session, "table": Table, "seat": GamePlayer, "player": Player,
             "settlement": SessionSettlement, "void": SettlementVoid,
             "payment": SettlementPayment, "mark": PaymentMark, "link": ShareLink}
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(sql.format(**{key: quote(model._meta.db_table)
                                     for key, model in names.items()}), params)
        return cursor.fetchall()
