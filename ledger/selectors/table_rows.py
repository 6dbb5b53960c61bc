"""The kinds of row a table document holds (``tablestakes.table/1``, docs/table-export.md),
declared once: ``ROW_KINDS``. A new kind of row is one entry here.

Each ``RowKind`` says where its rows are in the document (its parent's key), which model
holds them, how one row is written (``dump``: its own fields, after its ``id``; its
children's lists follow in the order of ``ROW_KINDS``), how its fields are checked
(``shape``: one of ``cleaning.table_record``'s ``*_fields``) and how it is read back
(``build``: one unsaved row from its object and its parents'), when it was written
(``written``: the import stores the history in that order) and which row of its own kind it
refers to (``refers``). ``selectors.table_export`` walks the list to write a table's
document, ``cleaning.table_record`` to check one, ``services.table_io`` to store it; the
accounts are found from every model's user columns.
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from ledger.cleaning import table_record as shape
from ledger.models import (
    CONFIRM_PART,
    BookSettlement,
    BookSettlementUndo,
    Game,
    GameChange,
    GamePlayer,
    GameStatus,
    Hand,
    HandConfirmation,
    MoneyPosting,
    PaymentMark,
    Player,
    PostingBatch,
    ReportLink,
    Session,
    SessionSettlement,
    SettlementPayment,
    SettlementVoid,
    ShareLink,
    TableReport,
)

#: When a kind's rows are stored: before the history (``FIRST``), in the order they were
#: written (``HISTORY``: the kinds with ``written`` merged by their time; a kind without it
#: goes in with its parent's rows), after the history and the standings (``LAST``).
FIRST, HISTORY, LAST = "first", "history", "last"


def stamp(value: datetime.datetime | None) -> str | None:
    """A moment as the document writes it: ISO 8601 in UTC, microseconds kept."""
    if value is None:
        return None
    return value.astimezone(datetime.UTC).isoformat()


def moment(text: str | None) -> datetime.datetime | None:
    """A moment of the document, read back."""
    if text is None:
        return None
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


def decimal(value: Decimal | None) -> str | None:
    return None if value is None else format(value, "f")


def amount(text: str | None) -> Decimal | None:
    return None if text is None else Decimal(text)


@dataclass(frozen=True)
class Item:
    """One row's object in the document, with its parents' objects (nearest first) and its
    place in its parent's list."""

    data: dict
    up: tuple[dict, ...]
    index: int


@dataclass(frozen=True)
class RowKind:
    name: str  # ``ids[name]`` maps the document's ids of this kind to the new rows
    key: str  # its list (or object) in its parent's object, or in the document
    model: type
    table: str  # the lookup from one of its rows to its table
    dump: Callable[[Any, Any], dict]  # (row, writer) -> its fields, after "id"
    build: Callable[[Item, Any], Any]  # (item, reader) -> the unsaved row
    shape: Any  # its fields' checks (a ``cleaning.table_record.Shape``)
    parent: str | None = None  # the kind whose object holds its rows (None: the document)
    parent_column: str = ""  # the column naming its parent row ("game_id")
    order: tuple[str, ...] = ("pk",)
    numbered: bool = True  # its rows have an "id" (their rank among the table's rows)
    single: bool = False  # at most one per parent: an object or null, not a list
    optional: bool = False  # (single) the key is left out when there is none
    phase: str = HISTORY
    written: Callable[[Item], datetime.datetime] | None = None
    refers: str | None = None  # the field naming an earlier row of its own kind ...
    link: str | None = None  # ... and the column that it becomes
    check: Callable[[dict, list], None] | None = None  # (LAST) the document's problems
    clash: str | None = None  # refusal when the database finds two live rows
    counted: bool = False  # said in import_table's summary
    required: bool = True  # (in the document) False: files from before it have no list


# -- how each kind is written and read back ---------------------------------------------------


def _player(row: Player, w) -> dict:
    return {"name": row.name, "created_at": stamp(row.created_at),
            "archived_at": stamp(row.archived_at)}


def _player_row(item: Item, r) -> Player:
    p = item.data
    return Player(table=r.table, name=p["name"], created_at=moment(p["created_at"]),
                  archived_at=moment(p["archived_at"]))


def _session(row: Session, w) -> dict:
    return {"date": row.date.isoformat(), "place": row.place, "currency": row.currency,
            "rate": decimal(row.rate), "per_points": row.per_points, "notes": row.notes,
            "created_by": w.who(row.created_by_id), "created_at": stamp(row.created_at)}


def _session_row(item: Item, r) -> Session:
    s = item.data
    return Session(table=r.table, date=datetime.date.fromisoformat(s["date"]),
                   place=s["place"], currency=s["currency"], rate=amount(s["rate"]),
                   per_points=s["per_points"], notes=s["notes"],
                   created_by=r.user(s["created_by"]), created_at=moment(s["created_at"]))


def _game(row: Game, w) -> dict:
    return {"sequence": row.sequence, "variant": row.variant, "preset": row.preset,
            "rules": row.rules, "currency": row.currency, "rate": decimal(row.rate),
            "per_points": row.per_points, "ante": decimal(row.ante),
            "lump_sum_stake": decimal(row.lump_sum_stake), "setup": row.setup,
            "status": row.status, "started_by": w.who(row.started_by_id),
            "started_at": stamp(row.started_at), "finished_at": stamp(row.finished_at)}


def _game_row(item: Item, r) -> Game:
    g, s = item.data, item.up[0]
    status, finished, start = g["status"], moment(g["finished_at"]), moment(g["started_at"])
    if status == GameStatus.IN_PROGRESS and any(
            moment(st["settled_at"]) >= start for st in s["settlements"]):
        # in progress now, but over when its evening was settled (and reopened): stored as
        # over until the end of the history, as the settlement found it
        status, finished = GameStatus.COMPLETE, start
    row = Game(session_id=r.ids["session"][s["id"]], sequence=g["sequence"],
               variant=g["variant"], preset=g["preset"], rules=g["rules"],
               rate=amount(g["rate"]), per_points=g["per_points"], currency=g["currency"],
               ante=amount(g["ante"]), lump_sum_stake=amount(g.get("lump_sum_stake")),
               setup=g["setup"], status=status,
               started_by=r.user(g["started_by"]), started_at=start, finished_at=finished)
    if status != g["status"]:
        r.after_history(row, status=g["status"], finished_at=moment(g["finished_at"]))
    return row


def _seat(row: GamePlayer, w) -> dict:
    return {"player": w.ref("player", row.player_id), "played_as": row.played_as,
            "stake": decimal(row.stake)}


def _seat_row(item: Item, r) -> GamePlayer:
    seat, g = item.data, item.up[0]
    return GamePlayer(game_id=r.ids["game"][g["id"]], player_id=r.ids["player"][seat["player"]],
                      seat=item.index, played_as=seat["played_as"], stake=amount(seat["stake"]))


def _hand(row: Hand, w) -> dict:
    return {"number": row.number, "entry": row.entry, "recorded_by": w.who(row.recorded_by_id),
            "recorded_at": stamp(row.recorded_at), "idempotency_key": str(row.idempotency_key),
            "voided_at": stamp(row.voided_at), "voided_by": w.who(row.voided_by_id),
            "void_reason": row.void_reason, "replaces": w.ref("hand", row.replaces_id)}


def _hand_row(item: Item, r) -> Hand:
    h, g = item.data, item.up[0]
    key = h["idempotency_key"]
    if key in r.taken("hand", "idempotency_key"):  # a copy on this server: the copy gets its own
        key = str(uuid.uuid4())
        r.outcome.keys_renewed += 1
    return Hand(game_id=r.ids["game"][g["id"]], number=h["number"], entry=h["entry"],
                recorded_by=r.user(h["recorded_by"]), recorded_at=moment(h["recorded_at"]),
                idempotency_key=key, voided_at=moment(h["voided_at"]),
                voided_by=r.user(h["voided_by"]), void_reason=h["void_reason"])


def _change(row: GameChange, w) -> dict:
    return {"kind": row.kind, "name": row.name, "old": row.old, "new": row.new,
            "reason": row.reason, "after_hand": row.after_hand,
            "money_changed": row.money_changed, "changed_by": w.who(row.changed_by_id),
            "changed_at": stamp(row.changed_at)}


def _change_row(item: Item, r) -> GameChange:
    c, g = item.data, item.up[0]
    return GameChange(game_id=r.ids["game"][g["id"]], kind=c["kind"], name=c["name"],
                      old=c["old"], new=c["new"], reason=c["reason"],
                      after_hand=c["after_hand"], money_changed=c["money_changed"],
                      changed_by=r.user(c["changed_by"]), changed_at=moment(c["changed_at"]))


def _batch(row: PostingBatch, w) -> dict:
    return {"number": row.number, "kind": row.kind, "reverses": w.ref("batch", row.reverses_id),
            "memo": row.memo, "created_by": w.who(row.created_by_id),
            "created_at": stamp(row.created_at)}


def _batch_row(item: Item, r) -> PostingBatch:
    b, g = item.data, item.up[0]
    return PostingBatch(game_id=r.ids["game"][g["id"]], number=b["number"], kind=b["kind"],
                        memo=b["memo"], created_by=r.user(b["created_by"]),
                        created_at=moment(b["created_at"]))


def _posting(row: MoneyPosting, w) -> dict:
    return {"player": w.ref("player", row.player_id), "amount_minor": row.amount_minor}


def _posting_row(item: Item, r) -> MoneyPosting:
    p, b, g = item.data, item.up[0], item.up[1]
    return MoneyPosting(batch_id=r.ids["batch"][b["id"]], game_id=r.ids["game"][g["id"]],
                        player_id=r.ids["player"][p["player"]],
                        amount_minor=p["amount_minor"], currency=g["currency"])


def _settlement(row: SessionSettlement, w) -> dict:
    return {"currency": row.currency, "nets": row.nets, "settled_by": w.who(row.settled_by_id),
            "settled_at": stamp(row.settled_at)}


def _settlement_row(item: Item, r) -> SessionSettlement:
    st, s = item.data, item.up[0]
    return SessionSettlement(session_id=r.ids["session"][s["id"]], currency=st["currency"],
                             nets=st["nets"], settled_by=r.user(st["settled_by"]),
                             settled_at=moment(st["settled_at"]))


def _payment(row: SettlementPayment, w) -> dict:
    return {"order": row.order, "payer": w.ref("player", row.payer_id),
            "payee": w.ref("player", row.payee_id), "amount_minor": row.amount_minor,
            "paid_at": stamp(row.paid_at), "paid_by": w.who(row.paid_by_id)}


def _payment_row(item: Item, r) -> SettlementPayment:
    p, st = item.data, item.up[0]
    row = SettlementPayment(settlement_id=r.ids["settlement"][st["id"]], order=p["order"],
                            payer_id=r.ids["player"][p["payer"]],
                            payee_id=r.ids["player"][p["payee"]],
                            amount_minor=p["amount_minor"])
    if p["paid_at"] is not None:  # the paid columns repeat the latest mark
        r.after_history(row, paid_at=moment(p["paid_at"]), paid_by=r.user(p["paid_by"]))
    return row


def _mark(row: PaymentMark, w) -> dict:
    return {"paid": row.paid, "marked_by": w.who(row.marked_by_id),
            "marked_at": stamp(row.marked_at)}


def _mark_row(item: Item, r) -> PaymentMark:
    m, p = item.data, item.up[0]
    return PaymentMark(payment_id=r.ids["payment"][p["id"]], paid=m["paid"],
                       marked_by=r.user(m["marked_by"]), marked_at=moment(m["marked_at"]))


def _void(row: SettlementVoid, w) -> dict:
    return {"reason": row.reason, "voided_by": w.who(row.voided_by_id),
            "voided_at": stamp(row.voided_at)}


def _void_row(item: Item, r) -> SettlementVoid:
    v, st = item.data, item.up[0]
    return SettlementVoid(settlement_id=r.ids["settlement"][st["id"]], reason=v["reason"],
                          voided_by=r.user(v["voided_by"]), voided_at=moment(v["voided_at"]))


def _player_rank(w, value) -> int | None:
    """A book settlement stores its netted payments with the players' database ids."""
    try:
        pk = int(value)
    except (TypeError, ValueError):
        return None
    return w.ids["player"].get(pk)


def _book(row: BookSettlement, w) -> dict:
    return {"currency": row.currency,
            "payments": [{"from": _player_rank(w, item.get("from")),
                          "to": _player_rank(w, item.get("to")),
                          "amount_minor": item.get("amount_minor")} for item in row.payments],
            "cleared": [w.ids["payment"][pk] for pk in row.cleared if pk in w.ids["payment"]],
            "settled_by": w.who(row.settled_by_id), "settled_at": stamp(row.settled_at)}


def _book_row(item: Item, r) -> BookSettlement:
    entry, players = item.data, r.ids["player"]
    return BookSettlement(
        table=r.table, currency=entry["currency"],
        payments=[{"from": players[pay["from"]], "to": players[pay["to"]],
                   "amount_minor": pay["amount_minor"]} for pay in entry["payments"]],
        cleared=[r.ids["payment"][fid] for fid in entry["cleared"]],
        settled_by=r.user(entry["settled_by"]), settled_at=moment(entry["settled_at"]))


def _check_books(document: dict, problems: list[str]) -> None:
    known = {p["id"]: p for s in document["sessions"] for st in s["settlements"]
             for p in st["payments"]}
    for index, entry in enumerate(document["book_settlements"]):
        if any(known[fid]["paid_at"] is None and not known[fid]["marks"]
               for fid in entry["cleared"]):
            problems.append(f"book_settlements[{index}].cleared: it clears a payment never "
                            "marked paid")


def _undo(row: BookSettlementUndo, w) -> dict:
    return {"restored": [w.ids["payment"][pk] for pk in row.restored if pk in w.ids["payment"]],
            "undone_by": w.who(row.undone_by_id), "undone_at": stamp(row.undone_at)}


def _undo_row(item: Item, r) -> BookSettlementUndo:
    undo, entry = item.data, item.up[0]
    return BookSettlementUndo(book_settlement_id=r.ids["book_settlement"][entry["id"]],
                              restored=[r.ids["payment"][p] for p in undo["restored"]],
                              undone_by=r.user(undo["undone_by"]),
                              undone_at=moment(undo["undone_at"]))


def _share(row: ShareLink, w) -> dict:
    return {"game": w.ref("game", row.game_id), "token": row.token,
            "created_by": w.who(row.created_by_id), "created_at": stamp(row.created_at),
            "revoked_at": stamp(row.revoked_at)}


def _share_row(item: Item, r) -> ShareLink:
    link = item.data
    row = ShareLink(table=r.table, game_id=r.ids["game"][link["game"]] if link["game"] else None,
                    created_by=r.user(link["created_by"]), created_at=moment(link["created_at"]),
                    revoked_at=moment(link["revoked_at"]))
    if link["token"] in r.taken("share_link", "token"):  # a copy: the copy gets its own
        r.outcome.tokens_renewed += 1
    else:
        row.token = link["token"]
    return row


def _report_link(row: ReportLink, w) -> dict:
    return {"game": w.ref("game", row.game_id), "part": row.part, "player": row.player,
            "token": row.token, "created_by": w.who(row.created_by_id),
            "created_at": stamp(row.created_at), "revoked_at": stamp(row.revoked_at)}


def _report_link_row(item: Item, r) -> ReportLink:
    link = item.data
    row = ReportLink(game_id=r.ids["game"][link["game"]], part=link["part"],
                     player=link["player"], created_by=r.user(link["created_by"]),
                     created_at=moment(link["created_at"]),
                     revoked_at=moment(link["revoked_at"]))
    if link["token"] in r.taken("report_link", "token"):  # a copy: its own tokens
        r.outcome.tokens_renewed += 1
    else:
        row.token = link["token"]
    return row


def _check_report_links(document: dict, problems: list[str]) -> None:
    """Each report of its link's game, replacing an earlier report of its link and number,
    kept with a hand of that game and number; a confirmation through a confirm link, of a
    hand of its game."""
    hands = {h["id"]: (g["id"], h["number"]) for s in document["sessions"]
             for g in s["games"] for h in g["hands"]}
    for index, link in enumerate(document.get("report_links", [])):
        where = f"report_links[{index}]"
        of_link = {rep["id"]: rep for rep in link["reports"]}
        for r_index, report in enumerate(link["reports"]):
            at = f"{where}.reports[{r_index}]"
            if report["hand"] is not None and \
                    hands.get(report["hand"]) != (link["game"], report["number"]):
                problems.append(f"{at}.hand: not a hand of the link's game with number "
                                f"{report['number']}")
            old = of_link.get(report["replaces"])
            if report["replaces"] is not None and (
                    old is None or old["number"] != report["number"]
                    or report["replaces"] >= report["id"]):
                problems.append(f"{at}.replaces: not an earlier report of this link for hand "
                                f"{report['number']}")
            if report["replaced_at"] is not None and report["withdrawn_at"] is not None:
                problems.append(f"{at}: a report is replaced or withdrawn, not both")
        for c_index, answer in enumerate(link["confirmations"]):
            at = f"{where}.confirmations[{c_index}]"
            if link["part"] != CONFIRM_PART or hands.get(answer["hand"], (None,))[0] != \
                    link["game"]:
                problems.append(f"{at}: only a confirm link (part {CONFIRM_PART}) confirms, "
                                "a hand of its own game")


def _report(row: TableReport, w) -> dict:
    return {"number": row.number, "table": row.table, "player": row.player,
            "values": row.values, "reported_at": stamp(row.reported_at),
            "replaces": w.ref("report", row.replaces_id), "replaced_at": stamp(row.replaced_at),
            "withdrawn_at": stamp(row.withdrawn_at), "hand": w.ref("hand", row.hand_id)}


def _report_row(item: Item, r) -> TableReport:
    report, link = item.data, item.up[0]
    return TableReport(
        link_id=r.ids["report_link"][link["id"]], game_id=r.ids["game"][link["game"]],
        number=report["number"], table=report["table"], player=report["player"],
        values=report["values"], reported_at=moment(report["reported_at"]),
        replaced_at=moment(report["replaced_at"]), withdrawn_at=moment(report["withdrawn_at"]),
        hand_id=r.ids["hand"][report["hand"]] if report["hand"] is not None else None)


def _confirmation(row: HandConfirmation, w) -> dict:
    return {"hand": w.ref("hand", row.hand_id), "player": row.player, "correct": row.correct,
            "answered_at": stamp(row.answered_at)}


def _confirmation_row(item: Item, r) -> HandConfirmation:
    answer, link = item.data, item.up[0]
    return HandConfirmation(link_id=r.ids["report_link"][link["id"]],
                            hand_id=r.ids["hand"][answer["hand"]], player=answer["player"],
                            correct=answer["correct"],
                            answered_at=moment(answer["answered_at"]))


def _after(field: str, first: str = "started_at", parent: int = 0
           ) -> Callable[[Item], datetime.datetime]:
    """A row's moment ``field``, never before its parent's ``first`` (``up[parent]``)."""
    def written(item: Item) -> datetime.datetime:
        return max(moment(item.data[field]), moment(item.up[parent][first]))
    return written


#: Every kind of row of a table document, parents before their children; the children's
#: lists follow their parent's fields in this order, and rows written at the same moment
#: are stored in this order.
ROW_KINDS: tuple[RowKind, ...] = (
    RowKind("player", "players", Player, "table", _player, _player_row,
            shape.player_fields, phase=FIRST, counted=True),
    RowKind("session", "sessions", Session, "table", _session, _session_row,
            shape.session_fields, phase=FIRST, counted=True),
    RowKind("game", "games", Game, "session__table", _game, _game_row, shape.game_fields,
            parent="session", parent_column="session_id",
            written=lambda item: moment(item.data["started_at"]), counted=True),
    RowKind("seat", "seats", GamePlayer, "game__session__table", _seat, _seat_row,
            shape.seat_fields, parent="game", parent_column="game_id", order=("game", "seat"),
            numbered=False),
    RowKind("hand", "hands", Hand, "game__session__table", _hand, _hand_row, shape.hand_fields,
            parent="game", parent_column="game_id", written=_after("recorded_at"),
            refers="replaces", link="replaces_id", counted=True),
    RowKind("change", "changes", GameChange, "game__session__table", _change, _change_row,
            shape.change_fields, parent="game", parent_column="game_id",
            written=_after("changed_at")),
    RowKind("batch", "batches", PostingBatch, "game__session__table", _batch, _batch_row,
            shape.batch_fields, parent="game", parent_column="game_id",
            written=_after("created_at"), refers="reverses", link="reverses_id", counted=True),
    RowKind("posting", "postings", MoneyPosting, "game__session__table", _posting,
            _posting_row, shape.posting_fields, parent="batch", parent_column="batch_id"),
    RowKind("settlement", "settlements", SessionSettlement, "session__table", _settlement,
            _settlement_row, shape.settlement_fields, parent="session",
            parent_column="session_id", written=lambda item: moment(item.data["settled_at"]),
            counted=True),
    RowKind("payment", "payments", SettlementPayment, "settlement__session__table", _payment,
            _payment_row, shape.payment_fields, parent="settlement",
            parent_column="settlement_id"),
    RowKind("mark", "marks", PaymentMark, "payment__settlement__session__table", _mark,
            _mark_row, shape.mark_fields, parent="payment", parent_column="payment_id",
            written=_after("marked_at", "settled_at", 1)),
    RowKind("void", "void", SettlementVoid, "settlement__session__table", _void, _void_row,
            shape.void_fields, parent="settlement", parent_column="settlement_id",
            single=True, written=_after("voided_at", "settled_at")),
    RowKind("book_settlement", "book_settlements", BookSettlement, "table", _book, _book_row,
            shape.book_settlement_fields, phase=LAST, check=_check_books),
    RowKind("book_undo", "undone", BookSettlementUndo, "book_settlement__table", _undo,
            _undo_row, shape.book_undo_fields, parent="book_settlement",
            parent_column="book_settlement_id", numbered=False, single=True, optional=True,
            phase=LAST),
    RowKind("share_link", "share_links", ShareLink, "table", _share, _share_row,
            shape.share_link_fields, phase=LAST,
            clash="share_links: two links to the same table or game are live; at most one "
                  "is. Nothing was stored."),
    RowKind("report_link", "report_links", ReportLink, "game__session__table", _report_link,
            _report_link_row, shape.report_link_fields, phase=LAST, check=_check_report_links,
            clash="report_links: two links of the same game and part are live; at most one "
                  "is. Nothing was stored.", required=False),
    RowKind("report", "reports", TableReport, "game__session__table", _report, _report_row,
            shape.report_fields, parent="report_link", parent_column="link_id", phase=LAST,
            refers="replaces", link="replaces_id"),
    RowKind("confirmation", "confirmations", HandConfirmation, "link__game__session__table",
            _confirmation, _confirmation_row, shape.confirmation_fields,
            parent="report_link", parent_column="link_id", phase=LAST),
)


def children(kind: RowKind | None) -> list[RowKind]:
    """The kinds whose rows ``kind``'s objects hold (None: the document's own lists)."""
    name = None if kind is None else kind.name
    return [child for child in ROW_KINDS if child.parent == name]  # (read when called)


def items(kind: RowKind, parent: Item | None, document: dict) -> list[Item]:
    """The objects of ``kind`` in ``parent``'s object (or the document), in its order."""
    holder, up = (document, ()) if parent is None else (parent.data, (parent.data, *parent.up))
    value = holder.get(kind.key)  # (a file from before a kind was has no list of it)
    found = ([] if value is None else [value]) if kind.single else (value or [])
    return [Item(data, up, index) for index, data in enumerate(found)]
