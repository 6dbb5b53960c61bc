"""Storing a whole table from its document (``tablestakes.table/1``, docs/table-export.md).

One transaction, all or nothing. The document's shape is checked first
(``ledger.cleaning.table_record``), then the history as the services would have made it,
before anything is stored, with the place of every problem: each game scores (the core, on
the record ``game_record`` builds) to its status and its posted money, every
batch sums to zero and a reversal reverses a post of its own game, the live hands are
numbered 1..n and a replacement names an earlier voided hand of its game and number, an
evening has at most one standing settlement whose nets are its money now with no game in
progress, every settlement's nets sum to zero and its payments square them, a payment's
paid columns repeat its latest mark, a voided settlement has no payment left paid.

Then the rows go in as they were written (``_Replay``): each kind in the order of its ids,
the kinds merged by their time (games, hands, changes, batches with their postings,
settlements with their payments, paid marks, voids), so that the database's guards
(PostgreSQL's triggers) see every row when the services' checks saw it: a settlement
before its void and before the games added after its evening was reopened, a paid mark
before the void. History rows are only ever inserted; the updates are a payment's paid
columns (they repeat its latest paid mark, as ``settlement_payment_mark_paid`` sets them)
and the status of a game that was over when its evening was settled and is in progress
again since (a hand undone after a reopen). The standings (a cache) are computed from the
games' results, as the services do.

Then the report links with their reports and confirmations (who reported what), as they
were: inserted, never updated.

An account of the document that the server has too (the same username) is used only when
mapped (``accounts``, or ``same_accounts``): a username alone does not say it is the same
person. An account the server does not have is created without a password (it cannot log
in until an administrator sets one or a password reset is made).
"""

from __future__ import annotations

import datetime
import heapq
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from ledger import cleaning, limits
from ledger.cleaning.table_record import check_table_document
from ledger.exceptions import LedgerError, RecordRefused
from ledger.models import (
    CONFIRM_PART,
    BatchKind,
    BookSettlement,
    BookSettlementUndo,
    EveningStanding,
    Game,
    GamePlayer,
    GameStanding,
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
    Table,
    TableReport,
)
from ledger.models import GameChange as Change
from ledger.selectors.games import game_record, score

from .base import User, _user
from .posting import _money_of, _status_for
from .standings import standing_rows, store_evenings
from .tables import table_named

CHUNK = 500


def max_players_per_table() -> int:
    """Players one imported table may hold: TABLESTAKES_MAX_PLAYERS_PER_TABLE, the limit of
    every table's players (200 when the setting is not there)."""
    return int(getattr(settings, "TABLESTAKES_MAX_PLAYERS_PER_TABLE", 200))


@dataclass
class TableImported:
    """What ``table_import`` did: the new table and what it had to make up."""

    table: Table
    accounts_created: list[str] = field(default_factory=list)
    keys_renewed: int = 0  # hands whose idempotency key this server already had
    tokens_renewed: int = 0  # share links whose token this server already had
    rows: dict[str, int] = field(default_factory=dict)


def _moment(text: str | None) -> datetime.datetime | None:
    if text is None:
        return None
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


def _amount(text: str | None) -> Decimal | None:
    return None if text is None else Decimal(text)


def _insert(model, rows: list[tuple[int, Any, None]], ids: dict[int, int]) -> None:
    """Insert ``rows`` ((file id, unsaved row, None)) in file-id order, in chunks; ``ids``
    gets each file id's new primary key (ids grow in the same order as the file's)."""
    _insert_linked(model, rows, ids, None)


@transaction.atomic
def table_import(*, document: Any, imported_by: User | None = None, name: str | None = None,
                 keepers: list | None = None, accounts: dict | None = None,
                 same_accounts: bool = False) -> TableImported:
    """Store the table of ``document`` (as ``export_table`` writes it) as a new table.

    ``name`` imports it under another name; ``keepers`` are accounts added to the
    document's scorekeepers (both change what a new export says, nothing else).
    ``accounts`` maps usernames of the document to accounts of this server: an account
    the document names that this server has too (the same username) must be mapped, to
    itself or to another account, or nothing is stored (a username alone does not say
    it is the same person); ``same_accounts`` says each of them is the account of that
    username (moving a server's tables one by one); the others are made without a
    password."""
    check_table_document(document, max_players=max_players_per_table(),
                         max_hands=limits.max_hands_per_game())
    # -- the history as the services would have made it, checked before anything is stored
    sessions_data = document["sessions"]
    games_data = [(s, g) for s in sessions_data for g in s["games"]]
    where_game = {g["id"]: f"sessions[{s_index}].games[{g_index}]"
                  for s_index, s in enumerate(sessions_data)
                  for g_index, g in enumerate(s["games"])}
    names = {p["id"]: p["name"] for p in document["players"]}
    problems: list[str] = []
    sequences = {(s["id"], g["sequence"]) for s, g in games_data}
    if len(sequences) != len(games_data):
        problems.append("sessions: two games of one evening have the same sequence")
    for s, g in games_data:
        if g["currency"] != s["currency"]:
            problems.append(f"{where_game[g['id']]}.currency: {g['currency']} differs from "
                            f"its evening's {s['currency']}")
        seated = [seat["player"] for seat in g["seats"]]
        if len(set(seated)) != len(seated):
            problems.append(f"{where_game[g['id']]}.seats: a player sits twice")
    _check_hands(games_data, where_game, problems)
    _check_batches(games_data, where_game, problems)
    _refuse(problems)
    results = _check_games(games_data, where_game, names, problems)
    _refuse(problems)
    _check_settlements(document, names, problems)
    _refuse(problems)

    # -- the rows -----------------------------------------------------------------------------
    outcome = TableImported(table=None)  # type: ignore[arg-type]
    users = _accounts(document["accounts"], outcome, accounts or {}, same_accounts)
    head = document["table"]
    table_name = cleaning.clean_text(name if name is not None else head["name"],
                                     what=gettext("The table's name"), max_length=100,
                                     required=True)
    keeper_rows = [users[username] for username in head["scorekeepers"]]
    keeper_rows += [k for k in keepers or [] if _user(k) and k not in keeper_rows]
    for keeper in keeper_rows or [None]:
        if table_named(name=table_name, scorekeeper=keeper) is not None:
            who = keeper.get_username() if keeper else "A table nobody keeps"
            raise LedgerError(f"{who} already keeps a table called {table_name!r}: import it "
                              "under another name (--name).")
    table = Table.objects.create(name=table_name, paper_size=head["paper_size"],
                                 created_at=_moment(head["created_at"]))
    table.scorekeepers.set(keeper_rows)
    outcome.table = table
    replay = _Replay(table, users, outcome)
    _insert(Player, [(p["id"], Player(table=table, name=p["name"],
                                       created_at=_moment(p["created_at"]),
                                       archived_at=_moment(p["archived_at"])), None)
                     for p in document["players"]], replay.ids["player"])
    _insert(Session, [(s["id"], Session(
        table=table, date=datetime.date.fromisoformat(s["date"]), place=s["place"],
        currency=s["currency"], rate=_amount(s["rate"]), per_points=s["per_points"],
        notes=s["notes"], created_by=replay.user(s["created_by"]),
        created_at=_moment(s["created_at"])), None) for s in sessions_data],
        replay.ids["session"])
    replay.run(document)

    # the standings (a cache), from the results the games were checked with
    games = {game.pk: game for game in Game.objects.filter(session__table=table)
             .select_related("session").prefetch_related("seats__player")}
    rows = []
    for file_id, result in results.items():
        game = games[replay.ids["game"][file_id]]
        seats = {seat.player.name: seat.player for seat in game.seats.all()}
        rows += standing_rows(GameStanding, game=game, session=game.session, result=result,
                              status=game.status, players=seats)
    GameStanding.objects.bulk_create(rows, batch_size=CHUNK)
    store_evenings(GameStanding, EveningStanding, list(replay.ids["session"].values()))

    _book_settlements(document, table, replay.ids["player"], replay.ids["payment"],
                      users, problems)
    _share_links(document, table, replay.ids["game"], users, outcome)
    _report_links(document, replay.ids, users, outcome, problems)
    _refuse(problems)
    outcome.rows = {kind: len(replay.ids[kind]) for kind in
                    ("player", "session", "game", "hand", "batch", "settlement")}
    return outcome


#: The kinds of history rows in the order the services write them within one moment.
KINDS = ("game", "hand", "change", "batch", "settlement", "mark", "void")


class _Replay:
    """Inserts the history rows in the order they were written: each kind in the order of
    its ids, the kinds merged by their time. So the database's guards see every row when
    the services' checks saw it (PostgreSQL refuses a settlement whose evening's money or
    games were different then, a hand in a settled evening, a paid mark after a void...).
    Consecutive rows of one kind go in together (bulk inserts)."""

    def __init__(self, table, users, outcome):
        self.table, self.users, self.outcome = table, users, outcome
        self.ids: dict[str, dict[int, int]] = defaultdict(dict)
        self.provisional: dict[int, tuple[str, Any]] = {}  # game pk -> (status, finished_at)

    def user(self, username: str | None):
        return None if username is None else self.users[username]

    def run(self, document: dict) -> None:
        streams: dict[str, list] = {kind: [] for kind in KINDS}
        settled_after: dict[int, list] = defaultdict(list)  # session id -> settlement times
        for s in document["sessions"]:
            for st in s["settlements"]:
                settled_after[s["id"]].append(_moment(st["settled_at"]))
        taken = _taken_keys([h["idempotency_key"] for s in document["sessions"]
                             for g in s["games"] for h in g["hands"]])
        for s in document["sessions"]:
            for g in s["games"]:
                start = _moment(g["started_at"])
                streams["game"].append((start, g["id"], (s, g)))
                for h in g["hands"]:
                    streams["hand"].append((max(_moment(h["recorded_at"]), start), h["id"],
                                            (g, h, h["idempotency_key"] in taken)))
                for c in g["changes"]:
                    streams["change"].append((max(_moment(c["changed_at"]), start), c["id"],
                                              (g, c)))
                for b in g["batches"]:
                    streams["batch"].append((max(_moment(b["created_at"]), start), b["id"],
                                             (g, b)))
            for st in s["settlements"]:
                when = _moment(st["settled_at"])
                streams["settlement"].append((when, st["id"], (s, st)))
                for p in st["payments"]:
                    for m in p["marks"]:
                        streams["mark"].append((max(_moment(m["marked_at"]), when), m["id"],
                                                (p, m)))
                if st["void"] is not None:
                    v = st["void"]
                    streams["void"].append((max(_moment(v["voided_at"]), when), v["id"],
                                            (st, v)))
        self.settled_after = settled_after
        merged = heapq.merge(*[
            [(when, KINDS.index(kind), file_id, kind, item)
             for when, file_id, item in sorted(rows, key=lambda row: row[1])]
            for kind, rows in streams.items()], key=lambda event: event[:3])
        run_kind, run = None, []
        for _, _, _, kind, item in merged:
            if kind != run_kind or len(run) >= CHUNK:
                if run:
                    getattr(self, f"_{run_kind}s")(run)
                run_kind, run = kind, []
            run.append(item)
        if run:
            getattr(self, f"_{run_kind}s")(run)
        for pk, (status, finished_at) in self.provisional.items():
            Game.objects.filter(pk=pk).update(status=status, finished_at=finished_at)
        for s in document["sessions"]:  # the paid columns repeat the latest mark
            for st in s["settlements"]:
                for p in st["payments"]:
                    if p["paid_at"] is not None:
                        SettlementPayment.objects.filter(pk=self.ids["payment"][p["id"]]) \
                            .update(paid_at=_moment(p["paid_at"]),
                                    paid_by=self.user(p["paid_by"]))

    def _games(self, run) -> None:
        rows = []
        for s, g in run:
            status, finished = g["status"], _moment(g["finished_at"])
            start = _moment(g["started_at"])
            if status == GameStatus.IN_PROGRESS and any(
                    when >= start for when in self.settled_after[s["id"]]):
                # in progress now, but over when its evening was settled (and reopened):
                # stored as over until the end, as the settlement found it
                status, finished = GameStatus.COMPLETE, start
            row = Game(session_id=self.ids["session"][s["id"]], sequence=g["sequence"],
                       variant=g["variant"], preset=g["preset"], rules=g["rules"],
                       rate=_amount(g["rate"]), per_points=g["per_points"],
                       currency=g["currency"], ante=_amount(g["ante"]), setup=g["setup"],
                       status=status, started_by=self.user(g["started_by"]),
                       started_at=start, finished_at=finished)
            rows.append((g["id"], row, None))
        _insert(Game, rows, self.ids["game"])
        for (_, g), (_, row, _) in zip(run, rows, strict=True):
            if row.status != g["status"]:
                self.provisional[row.pk] = (g["status"], _moment(g["finished_at"]))
        GamePlayer.objects.bulk_create([
            GamePlayer(game_id=self.ids["game"][g["id"]],
                       player_id=self.ids["player"][seat["player"]], seat=index,
                       played_as=seat["played_as"], stake=_amount(seat["stake"]))
            for _, g in run for index, seat in enumerate(g["seats"])])

    def _hands(self, run) -> None:
        rows = []
        for g, h, taken in run:
            key = h["idempotency_key"]
            if taken:  # a copy on the server it came from: the copy gets its own keys
                key = str(uuid.uuid4())
                self.outcome.keys_renewed += 1
            rows.append((h["id"], Hand(
                game_id=self.ids["game"][g["id"]], number=h["number"], entry=h["entry"],
                recorded_by=self.user(h["recorded_by"]), recorded_at=_moment(h["recorded_at"]),
                idempotency_key=key, voided_at=_moment(h["voided_at"]),
                voided_by=self.user(h["voided_by"]), void_reason=h["void_reason"]),
                h["replaces"]))
        _insert_linked(Hand, rows, self.ids["hand"], "replaces_id")

    def _changes(self, run) -> None:
        _insert(Change, [(c["id"], Change(
            game_id=self.ids["game"][g["id"]], kind=c["kind"], name=c["name"], old=c["old"],
            new=c["new"], reason=c["reason"], after_hand=c["after_hand"],
            money_changed=c["money_changed"], changed_by=self.user(c["changed_by"]),
            changed_at=_moment(c["changed_at"])), None) for g, c in run], self.ids["change"])

    def _batchs(self, run) -> None:
        _insert_linked(PostingBatch, [(b["id"], PostingBatch(
            game_id=self.ids["game"][g["id"]], number=b["number"], kind=b["kind"],
            memo=b["memo"], created_by=self.user(b["created_by"]),
            created_at=_moment(b["created_at"])), b["reverses"]) for g, b in run],
            self.ids["batch"], "reverses_id")
        _insert(MoneyPosting, [(p["id"], MoneyPosting(
            batch_id=self.ids["batch"][b["id"]], game_id=self.ids["game"][g["id"]],
            player_id=self.ids["player"][p["player"]], amount_minor=p["amount_minor"],
            currency=g["currency"]), None) for g, b in run for p in b["postings"]],
            self.ids["posting"])

    def _settlements(self, run) -> None:
        _insert(SessionSettlement, [(st["id"], SessionSettlement(
            session_id=self.ids["session"][s["id"]], currency=st["currency"], nets=st["nets"],
            settled_by=self.user(st["settled_by"]), settled_at=_moment(st["settled_at"])),
            None) for s, st in run], self.ids["settlement"])
        _insert(SettlementPayment, [(p["id"], SettlementPayment(
            settlement_id=self.ids["settlement"][st["id"]], order=p["order"],
            payer_id=self.ids["player"][p["payer"]], payee_id=self.ids["player"][p["payee"]],
            amount_minor=p["amount_minor"]), None) for _, st in run for p in st["payments"]],
            self.ids["payment"])

    def _marks(self, run) -> None:
        _insert(PaymentMark, [(m["id"], PaymentMark(
            payment_id=self.ids["payment"][p["id"]], paid=m["paid"],
            marked_by=self.user(m["marked_by"]), marked_at=_moment(m["marked_at"])), None)
            for p, m in run], self.ids["mark"])

    def _voids(self, run) -> None:
        _insert(SettlementVoid, [(v["id"], SettlementVoid(
            settlement_id=self.ids["settlement"][st["id"]], reason=v["reason"],
            voided_by=self.user(v["voided_by"]), voided_at=_moment(v["voided_at"])), None)
            for st, v in run], self.ids["void"])


def _insert_linked(model, rows, ids: dict[int, int], link: str | None) -> None:
    """``_insert`` for rows that refer to an earlier row of their own kind: the reference
    (a file id) becomes that row's new primary key as each chunk goes in."""
    chunk: list[tuple[int, Any]] = []
    pending: set[int] = set()

    def flush():
        model.objects.bulk_create([row for _, row in chunk])
        for file_id, row in chunk:
            ids[file_id] = row.pk
        chunk.clear()
        pending.clear()

    for file_id, row, refers in sorted(rows, key=lambda item: item[0]):
        if (refers is not None and refers in pending) or len(chunk) >= CHUNK:
            flush()
        if refers is not None:
            if refers not in ids:  # a later row: an id order the services never make
                raise RecordRefused([f"{model.__name__} {file_id} refers to "
                                     f"{model.__name__} {refers}, which comes after it"])
            if link:
                setattr(row, link, ids[refers])
        chunk.append((file_id, row))
        pending.add(file_id)
    if chunk:
        flush()


def _check_games(games_data, where_game, names: dict[int, str], problems: list[str]
                 ) -> dict[int, dict]:
    """Each game scores (the core, on the record ``game_record`` builds from its
    rows) to its status and its posted money. Returns each game's result by file id."""
    results = {}
    for _, g in games_data:
        where = where_game[g["id"]]
        game = Game(variant=g["variant"], preset=g["preset"], rules=g["rules"],
                    rate=_amount(g["rate"]), per_points=g["per_points"], ante=_amount(g["ante"]),
                    currency=g["currency"], setup=g["setup"], status=g["status"])
        seats = [GamePlayer(seat=index, player=Player(name=names[seat["player"]]),
                            played_as=seat["played_as"], stake=_amount(seat["stake"]))
                 for index, seat in enumerate(g["seats"])]
        live = [h["entry"] for h in sorted(g["hands"], key=lambda h: h["number"])
                if h["voided_at"] is None]
        try:
            result = score(game_record(game, hands=live, seats=seats))
        except Exception as exc:  # noqa: BLE001 - the core's RecordError: its problems
            details = getattr(exc, "details", None) or [str(exc)]
            problems += [f"{where}: {getattr(d, 'line', d)}" for d in list(details)[:5]]
            continue
        status = _status_for(result, g["status"] == GameStatus.ABANDONED)
        if status != g["status"]:
            problems.append(f"{where}.status: its hands make it {status}, not {g['status']}")
            continue
        posted: dict[str, int] = defaultdict(int)
        for batch in g["batches"]:
            for posting in batch["postings"]:
                posted[names[posting["player"]]] += posting["amount_minor"]
        posted = {name: units for name, units in posted.items() if units}
        expected = _money_of(result, status, g["currency"])
        if posted != expected:
            problems.append(f"{where}.batches: the posted money {posted} differs from the "
                            f"score of its hands {expected}")
            continue
        results[g["id"]] = result
    return results


def _check_settlements(document, names: dict[int, str], problems: list[str]) -> None:
    """At most one standing settlement an evening, whose nets are the evening's money now
    with no game in progress; every settlement's nets sum to zero and its payments square
    them; a payment's paid columns repeat its latest mark; a voided settlement has no
    payment left paid."""
    for s_index, s in enumerate(document["sessions"]):
        live = [st for st in s["settlements"] if st["void"] is None]
        if len(live) > 1:
            problems.append(f"sessions[{s_index}].settlements: {len(live)} settlements stand "
                            "(an evening has at most one; a reopened one has its void)")
        order: dict[int, None] = {}  # the evening's players, by first seat in the first game
        money: dict[int, int] = defaultdict(int)
        for g in sorted(s["games"], key=lambda g: g["sequence"]):
            for seat in g["seats"]:
                order.setdefault(seat["player"])
            for batch in g["batches"]:
                for posting in batch["postings"]:
                    money[posting["player"]] += posting["amount_minor"]
        in_progress = any(g["status"] == GameStatus.IN_PROGRESS for g in s["games"])
        for index, st in enumerate(s["settlements"]):
            where = f"sessions[{s_index}].settlements[{index}]"
            if st["currency"] != s["currency"]:
                problems.append(f"{where}.currency: {st['currency']} is not the evening's "
                                f"{s['currency']}")
            nets = st["nets"]
            if sum(nets.values()) != 0:
                problems.append(f"{where}.nets: they sum to {sum(nets.values())}, not 0")
            by_player = _nets_by_player(nets, list(order), names)
            if st["void"] is None:
                now = {pid: money[pid] for pid in order}
                if in_progress:
                    problems.append(f"{where}: its evening has a game in progress")
                elif by_player != now:
                    problems.append(f"{where}.nets: they are not the money of the evening's "
                                    "games")
            orders = [p["order"] for p in st["payments"]]
            if len(set(orders)) != len(orders):
                problems.append(f"{where}.payments: two payments have the same order")
            balance: dict[int, int] = defaultdict(int)
            for p_index, payment in enumerate(st["payments"]):
                at = f"{where}.payments[{p_index}]"
                if payment["payer"] == payment["payee"]:
                    problems.append(f"{at}: a player pays himself")
                balance[payment["payee"]] += payment["amount_minor"]
                balance[payment["payer"]] -= payment["amount_minor"]
                marks = sorted(payment["marks"], key=lambda m: m["id"])
                last = marks[-1] if marks else None
                paid_at = last["marked_at"] if last and last["paid"] else None
                paid_by = last["marked_by"] if last and last["paid"] else None
                if _moment(payment["paid_at"]) != _moment(paid_at) or \
                        payment["paid_by"] != paid_by:
                    problems.append(f"{at}: paid_at and paid_by must repeat its latest paid "
                                    "mark")
                if st["void"] is not None and payment["paid_at"] is not None:
                    problems.append(f"{at}: a payment of a voided settlement is marked paid "
                                    "(an evening is reopened only once its marks are undone)")
            wanted = {pid: units for pid, units in (by_player or {}).items() if units}
            if by_player is None or {pid: units for pid, units in balance.items()
                                     if units} != wanted:
                problems.append(f"{where}.payments: they do not square its nets")


def _nets_by_player(nets: dict[str, int], order: list[int], names: dict[int, str]
                    ) -> dict[int, int] | None:
    """A settlement's nets by player (``settlement_nets``: by the current names,
    or in the evening's seat order after a rename), or None when they name others."""
    current = {names[pid]: pid for pid in order}
    if set(nets) <= set(current):
        return {pid: int(nets.get(names[pid], 0)) for pid in order}
    if len(nets) == len(order):
        return {pid: int(units) for pid, units in zip(order, nets.values(), strict=True)}
    return None


def _refuse(problems: list[str]) -> None:
    if problems:
        raise RecordRefused(problems[:20])


def _accounts(accounts: list[dict], outcome: TableImported, mapping: dict,
              same_accounts: bool) -> dict[str, Any]:
    """Each account of the document: the account it is mapped to, or a new one; refused
    (nothing stored) when the server has an account of that username that is not mapped."""
    model = get_user_model()
    names = [account["username"] for account in accounts]
    strangers = sorted(set(mapping) - set(names))
    if strangers:
        raise LedgerError(f"{strangers[0]!r} is not an account of the document (its accounts: "
                          f"{', '.join(names) or 'none'}).")
    found = {user.get_username(): user for user in model.objects.filter(username__in=names)}
    taken = [username for username in names if username in found and username not in mapping]
    if taken and not same_accounts:
        which = (f"an account called {taken[0]}" if len(taken) == 1 else
                 f"accounts called {', '.join(taken[:-1])} and {taken[-1]}")
        raise LedgerError(
            f"This server already has {which}: a username alone does not say it is the "
            "same person. Say whose history goes to which account (--keeper "
            f"{taken[0]}={taken[0]}: to that account; --keeper {taken[0]}=OTHER: to another "
            "one; --same-accounts: each to the account of its name).")
    found = {username: found[username] for username in taken} | {
        username: _user(user) for username, user in mapping.items()}
    for account in accounts:
        if account["username"] not in found:
            user = model.objects.create_user(  # no password: cannot log in until one is set
                username=account["username"], password=None,
                first_name=account["first_name"], last_name=account["last_name"])
            found[account["username"]] = user
            outcome.accounts_created.append(account["username"])
    return found


def _taken_keys(keys: list[str]) -> set[str]:
    taken: set[str] = set()
    for start in range(0, len(keys), CHUNK):
        taken.update(str(key) for key in Hand.objects.filter(
            idempotency_key__in=keys[start:start + CHUNK]).values_list("idempotency_key",
                                                                        flat=True))
    return taken


def _check_hands(games_data, where_game, problems: list[str]) -> None:
    """Live hands numbered 1..n (at most the hands a game may hold); a replacement names a
    voided hand of its own game and number; a hand is replaced at most once."""
    limit = limits.max_hands_per_game()
    for _, g in games_data:
        where = where_game[g["id"]]
        by_id = {h["id"]: h for h in g["hands"]}
        live = sorted(h["number"] for h in g["hands"] if h["voided_at"] is None)
        if live != list(range(1, len(live) + 1)):
            problems.append(f"{where}.hands: the live hands are numbered {live[:10]}, not "
                            f"1 to {len(live)}")
        if len(live) > limit:
            problems.append(f"{where}.hands: {len(live)} live hands; a game holds at most "
                            f"{limit} here (TABLESTAKES_MAX_HANDS_PER_GAME)")
        replaced: set[int] = set()
        for index, hand in enumerate(g["hands"]):
            target = hand["replaces"]
            if target is None:
                continue
            old = by_id.get(target)
            if old is None or old["number"] != hand["number"] or old["voided_at"] is None \
                    or target >= hand["id"] or target in replaced:
                problems.append(f"{where}.hands[{index}].replaces: hand {target} is not an "
                                "earlier voided hand of this game with the same number")
            replaced.add(target)


def _check_batches(games_data, where_game, problems: list[str]) -> None:
    """Every batch sums to zero; a reversal reverses an earlier post of its own game."""
    for _, g in games_data:
        where = where_game[g["id"]]
        kinds = {b["id"]: b["kind"] for b in g["batches"]}
        numbers = [b["number"] for b in g["batches"]]
        if len(set(numbers)) != len(numbers):
            problems.append(f"{where}.batches: two batches have the same number")
        for index, batch in enumerate(g["batches"]):
            at = f"{where}.batches[{index}]"
            total = sum(p["amount_minor"] for p in batch["postings"])
            if total:
                problems.append(f"{at}: its postings sum to {total}, not 0")
            players = [p["player"] for p in batch["postings"]]
            if len(set(players)) != len(players):
                problems.append(f"{at}: a player has two postings")
            seated = {seat["player"] for seat in g["seats"]}
            if set(players) - seated:
                problems.append(f"{at}: money for a player not seated in the game")
            reverses = batch["reverses"]
            if (batch["kind"] == BatchKind.REVERSAL) != (reverses is not None) or (
                    reverses is not None and kinds.get(reverses) != BatchKind.POST):
                problems.append(f"{at}: a reversal reverses a post batch of its own game, "
                                "and only a reversal does")


def _by(users: dict[str, Any], username: str | None):
    return None if username is None else users[username]


def _book_settlements(document, table, players, payments, users, problems) -> None:
    known = {p["id"]: p for s in document["sessions"] for st in s["settlements"]
             for p in st["payments"]}
    rows, undone = [], []
    for index, entry in enumerate(document["book_settlements"]):
        where = f"book_settlements[{index}]"
        if any(known[fid]["paid_at"] is None and not known[fid]["marks"]
               for fid in entry["cleared"]):
            problems.append(f"{where}.cleared: it clears a payment never marked paid")
        rows.append((entry["id"], BookSettlement(
            table=table, currency=entry["currency"],
            payments=[{"from": players[item["from"]], "to": players[item["to"]],
                       "amount_minor": item["amount_minor"]} for item in entry["payments"]],
            cleared=[payments[fid] for fid in entry["cleared"]],
            settled_by=_by(users, entry["settled_by"]),
            settled_at=_moment(entry["settled_at"])), None))
        if entry.get("undone"):
            undone.append((entry["id"], entry["undone"]))
    if not problems:
        ids: dict[int, int] = {}
        _insert(BookSettlement, rows, ids)
        BookSettlementUndo.objects.bulk_create(BookSettlementUndo(
            book_settlement_id=ids[fid], restored=[payments[p] for p in undo["restored"]],
            undone_by=_by(users, undo["undone_by"]), undone_at=_moment(undo["undone_at"]))
            for fid, undo in undone)


def _share_links(document, table, games, users, outcome) -> None:
    tokens = [link["token"] for link in document["share_links"]]
    taken = set(ShareLink.objects.filter(token__in=tokens).values_list("token", flat=True))
    rows = []
    for link in document["share_links"]:
        token = link["token"]
        if token in taken:  # a copy on the server it came from: the copy gets its own
            token, outcome.tokens_renewed = None, outcome.tokens_renewed + 1
        row = ShareLink(table=table, game_id=games[link["game"]] if link["game"] else None,
                        created_by=_by(users, link["created_by"]),
                        created_at=_moment(link["created_at"]),
                        revoked_at=_moment(link["revoked_at"]))
        if token is not None:
            row.token = token
        rows.append((link["id"], row, None))
    try:
        with transaction.atomic():
            _insert(ShareLink, rows, {})
    except IntegrityError:
        raise LedgerError("share_links: two links to the same table or game are live; at "
                          "most one is. Nothing was stored.") from None


def _report_links(document, ids, users, outcome, problems: list[str]) -> None:
    """The report links with who reported what through them: each report of its link's
    game, replacing an earlier report of its link and number, kept with a hand of that
    game and number; a confirmation through a confirm link, of a hand of its game."""
    links = document.get("report_links", [])  # (none in files from before they were)
    hands = {h["id"]: (g["id"], h["number"]) for s in document["sessions"]
             for g in s["games"] for h in g["hands"]}
    for index, link in enumerate(links):
        where = f"report_links[{index}]"
        of_link = {r["id"]: r for r in link["reports"]}
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
    if problems or not links:
        return
    tokens = [link["token"] for link in links]
    taken = set(ReportLink.objects.filter(token__in=tokens).values_list("token", flat=True))
    rows = []
    for link in links:
        row = ReportLink(game_id=ids["game"][link["game"]], part=link["part"],
                         player=link["player"], created_by=_by(users, link["created_by"]),
                         created_at=_moment(link["created_at"]),
                         revoked_at=_moment(link["revoked_at"]))
        if link["token"] in taken:  # a copy on the server it came from: its own tokens
            outcome.tokens_renewed += 1
        else:
            row.token = link["token"]
        rows.append((link["id"], row, None))
    link_ids: dict[int, int] = {}
    try:
        with transaction.atomic():
            _insert(ReportLink, rows, link_ids)
    except IntegrityError:
        raise LedgerError("report_links: two links of the same game and part are live; at "
                          "most one is. Nothing was stored.") from None
    _insert_linked(TableReport, [(report["id"], TableReport(
        link_id=link_ids[link["id"]], game_id=ids["game"][link["game"]],
        number=report["number"], table=report["table"], player=report["player"],
        values=report["values"], reported_at=_moment(report["reported_at"]),
        replaced_at=_moment(report["replaced_at"]),
        withdrawn_at=_moment(report["withdrawn_at"]),
        hand_id=ids["hand"][report["hand"]] if report["hand"] is not None else None),
        report["replaces"]) for link in links for report in link["reports"]],
        {}, "replaces_id")
    _insert(HandConfirmation, [(answer["id"], HandConfirmation(
        link_id=link_ids[link["id"]], hand_id=ids["hand"][answer["hand"]],
        player=answer["player"], correct=answer["correct"],
        answered_at=_moment(answer["answered_at"])), None)
        for link in links for answer in link["confirmations"]], {})
