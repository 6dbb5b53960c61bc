"""Storing a whole table from its document (``tablestakes.table/1``, docs/table-export.md).

One transaction, all or nothing. The document's shape is checked first
(``ledger.cleaning.table_record``); then its rows are inserted as they were, kind by kind in
the order of their ids (so the ledger's history keeps its order and every timestamp), in
the order the database's guards allow: players, evenings, games with their seats, hands,
changes and money, and only then the settlements (a settled evening takes no more games),
their payments, paid marks and voids, the book settlements and the share links. History
rows are only ever inserted, never updated (the one update is a payment's paid columns,
which repeat its latest paid mark, as ``settlement_payment_mark_paid`` does).

Then the history is checked as the services would have made it, and the import refused
(nothing stored) with the place of every problem when it is not: each game scores (the
core) to its status and its posted money, every batch sums to zero, the live hands are
numbered 1..n, a replacement names a voided hand of its game and number, a live
settlement's nets are its evening's money now and its payments square them, a payment's
paid columns repeat its latest mark, a voided settlement has no payment left paid.
The standings (a cache) are computed from the games, as the services do.

Accounts are matched by username; an account the server does not have is created without a
password (it cannot log in until an administrator sets one or a password reset is made).
"""

from __future__ import annotations

import datetime
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Sum

from ledger import cleaning, limits, selectors
from ledger.cleaning.table_record import check_table_document
from ledger.exceptions import LedgerError, RecordRefused
from ledger.models import (
    BatchKind,
    BookSettlement,
    EveningStanding,
    Game,
    GamePlayer,
    GameStanding,
    GameStatus,
    Hand,
    MoneyPosting,
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
from ledger.models import GameChange as Change

from .base import User, _user
from .posting import _money_of, _status_for
from .standings import standing_rows, store_evenings
from .tables import table_named

CHUNK = 500


def max_players_per_table() -> int:
    """Players one imported table may hold (TABLESTAKES_MAX_PLAYERS_PER_TABLE, 1000)."""
    return int(getattr(settings, "TABLESTAKES_MAX_PLAYERS_PER_TABLE", 1000))


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
                 keepers: list | None = None) -> TableImported:
    """Store the table of ``document`` (as ``export_table`` writes it) as a new table.

    ``name`` imports it under another name; ``keepers`` are accounts added to the
    document's scorekeepers (both change what a new export says, nothing else)."""
    check_table_document(document, max_players=max_players_per_table(),
                         max_hands=limits.max_hands_per_game())
    outcome = TableImported(table=None)  # type: ignore[arg-type]
    users = _accounts(document["accounts"], outcome)

    def user(username: str | None):
        return None if username is None else users[username]

    head = document["table"]
    table_name = cleaning.clean_text(name if name is not None else head["name"],
                                     what="The table's name", max_length=100, required=True)
    keeper_rows = [users[username] for username in head["scorekeepers"]]
    keeper_rows += [k for k in keepers or [] if _user(k) and k not in keeper_rows]
    for keeper in keeper_rows or [None]:
        if table_named(name=table_name, scorekeeper=keeper) is not None:
            who = keeper.get_username() if keeper else "A table nobody keeps"
            raise LedgerError(f"{who} already keeps a table called {table_name!r}: import it "
                              "under another name (--name). Nothing was stored.")
    table = Table.objects.create(name=table_name, paper_size=head["paper_size"],
                                 created_at=_moment(head["created_at"]))
    table.scorekeepers.set(keeper_rows)
    outcome.table = table

    players: dict[int, int] = {}
    _insert(Player, [(p["id"], Player(table=table, name=p["name"],
                                       created_at=_moment(p["created_at"]),
                                       archived_at=_moment(p["archived_at"])), None)
                     for p in document["players"]], players)
    sessions: dict[int, int] = {}
    _insert(Session, [(s["id"], Session(
        table=table, date=datetime.date.fromisoformat(s["date"]), place=s["place"],
        currency=s["currency"], rate=_amount(s["rate"]), per_points=s["per_points"],
        notes=s["notes"], created_by=user(s["created_by"]),
        created_at=_moment(s["created_at"])), None) for s in document["sessions"]], sessions)

    games_data = [(s, g) for s in document["sessions"] for g in s["games"]]
    problems: list[str] = []
    where_game = {g["id"]: f"sessions[{s_index}].games[{g_index}]"
                  for s_index, s in enumerate(document["sessions"])
                  for g_index, g in enumerate(s["games"])}
    games: dict[int, int] = {}
    _insert(Game, [(g["id"], Game(
        session_id=sessions[s["id"]], sequence=g["sequence"], variant=g["variant"],
        preset=g["preset"], rules=g["rules"], rate=_amount(g["rate"]),
        per_points=g["per_points"], currency=g["currency"], ante=_amount(g["ante"]),
        setup=g["setup"], status=g["status"], started_by=user(g["started_by"]),
        started_at=_moment(g["started_at"]), finished_at=_moment(g["finished_at"])), None)
        for s, g in games_data], games)
    seats = []
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
        seats += [GamePlayer(game_id=games[g["id"]], player_id=players[seat["player"]],
                             seat=index, played_as=seat["played_as"],
                             stake=_amount(seat["stake"]))
                  for index, seat in enumerate(g["seats"])]
    _check_hands(games_data, where_game, problems)
    _check_batches(games_data, where_game, problems)
    _refuse(problems)
    GamePlayer.objects.bulk_create(seats, batch_size=CHUNK)

    hand_rows, hands = [], {}
    taken = _taken_keys([h["idempotency_key"] for _, g in games_data for h in g["hands"]])
    for _, g in games_data:
        for h in g["hands"]:
            key = h["idempotency_key"]
            if key in taken:
                key, outcome.keys_renewed = str(uuid.uuid4()), outcome.keys_renewed + 1
            hand_rows.append((h["id"], Hand(
                game_id=games[g["id"]], number=h["number"], entry=h["entry"],
                recorded_by=user(h["recorded_by"]), recorded_at=_moment(h["recorded_at"]),
                idempotency_key=key, voided_at=_moment(h["voided_at"]),
                voided_by=user(h["voided_by"]), void_reason=h["void_reason"]), h["replaces"]))
    _insert_linked(Hand, hand_rows, hands, "replaces_id")
    _insert(Change, [(c["id"], Change(
        game_id=games[g["id"]], kind=c["kind"], name=c["name"], old=c["old"], new=c["new"],
        reason=c["reason"], after_hand=c["after_hand"], money_changed=c["money_changed"],
        changed_by=user(c["changed_by"]), changed_at=_moment(c["changed_at"])), None)
        for _, g in games_data for c in g["changes"]], {})
    batches: dict[int, int] = {}
    batch_rows = [(b["id"], PostingBatch(
        game_id=games[g["id"]], number=b["number"], kind=b["kind"], memo=b["memo"],
        created_by=user(b["created_by"]), created_at=_moment(b["created_at"])), b["reverses"])
        for _, g in games_data for b in g["batches"]]
    _insert_linked(PostingBatch, batch_rows, batches, "reverses_id")
    _insert(MoneyPosting, [(p["id"], MoneyPosting(
        batch_id=batches[b["id"]], game_id=games[g["id"]], player_id=players[p["player"]],
        amount_minor=p["amount_minor"], currency=g["currency"]), None)
        for _, g in games_data for b in g["batches"] for p in b["postings"]], {})

    _check_games(table, games, where_game, problems)
    _refuse(problems)
    payments = _settlements(document, sessions, players, users, problems)
    _refuse(problems)
    _book_settlements(document, table, players, payments, users, problems)
    _share_links(document, table, games, users, outcome)
    _refuse(problems)
    outcome.rows = {
        "players": len(players), "sessions": len(sessions), "games": len(games),
        "hands": len(hands), "batches": len(batches),
    }
    return outcome


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


def _refuse(problems: list[str]) -> None:
    if problems:
        raise RecordRefused(problems[:20])


def _accounts(accounts: list[dict], outcome: TableImported) -> dict[str, Any]:
    model = get_user_model()
    names = [account["username"] for account in accounts]
    found = {user.get_username(): user for user in model.objects.filter(username__in=names)}
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


def _check_games(table: Table, games: dict[int, int], where_game, problems: list[str]) -> None:
    """Each game scores to its status and its posted money (the core's result of its live
    hands); then its standings are computed from that result, as the services do."""
    file_id = {pk: fid for fid, pk in games.items()}
    posted: dict[int, dict[str, int]] = defaultdict(dict)
    for game_id, name, total in (MoneyPosting.objects.filter(game__session__table=table)
                                 .values("game_id", "player__name")
                                 .annotate(total=Sum("amount_minor"))
                                 .values_list("game_id", "player__name", "total")):
        if total:
            posted[game_id][name] = int(total)
    rows = []
    sessions = {session.pk: session for session in Session.objects.filter(table=table)}
    for game in selectors.game_queryset_for_records().filter(session__table=table):
        where = where_game[file_id[game.pk]]
        try:
            result = selectors.score(selectors.game_record(game))
        except Exception as exc:  # the core's RecordError: the problems as lines
            details = getattr(exc, "details", None) or [str(exc)]
            problems += [f"{where}: {getattr(d, 'line', d)}" for d in list(details)[:5]]
            continue
        abandoned = game.status == GameStatus.ABANDONED
        status = _status_for(result, abandoned)
        if status != game.status:
            problems.append(f"{where}.status: its hands make it {status}, not {game.status}")
            continue
        expected = _money_of(result, status, game.currency)
        if posted.get(game.pk, {}) != expected:
            problems.append(f"{where}.batches: the posted money {posted.get(game.pk, {})} "
                            f"differs from the score of its hands {expected}")
            continue
        seats = {seat.player.name: seat.player for seat in selectors.game_seats(game)}
        rows += standing_rows(GameStanding, game=game, session=sessions[game.session_id],
                              result=result, status=game.status, players=seats)
    if not problems:
        GameStanding.objects.bulk_create(rows, batch_size=CHUNK)
        store_evenings(GameStanding, EveningStanding, list(sessions))


def _settlements(document, sessions, players, users, problems) -> dict[int, int]:
    """Insert the settlements, payments, paid marks and voids; the payments' new keys."""
    settlement_rows, payment_rows, mark_rows, void_rows = [], [], [], []
    by_id: dict[int, tuple[str, dict, dict]] = {}
    for s_index, s in enumerate(document["sessions"]):
        live = [st for st in s["settlements"] if st["void"] is None]
        if len(live) > 1:
            problems.append(f"sessions[{s_index}].settlements: {len(live)} settlements stand "
                            "(an evening has at most one; a reopened one has its void)")
        for index, st in enumerate(s["settlements"]):
            where = f"sessions[{s_index}].settlements[{index}]"
            by_id[st["id"]] = (where, st, s)
            if st["currency"] != s["currency"]:
                problems.append(f"{where}.currency: {st['currency']} is not the evening's "
                                f"{s['currency']}")
            if sum(st["nets"].values()) != 0:
                problems.append(f"{where}.nets: they sum to {sum(st['nets'].values())}, not 0")
            orders = [p["order"] for p in st["payments"]]
            if len(set(orders)) != len(orders):
                problems.append(f"{where}.payments: two payments have the same order")
            settlement_rows.append((st["id"], SessionSettlement(
                session_id=sessions[s["id"]], currency=st["currency"], nets=st["nets"],
                settled_by=_by(users, st["settled_by"]),
                settled_at=_moment(st["settled_at"])), None))
            for p_index, payment in enumerate(st["payments"]):
                at = f"{where}.payments[{p_index}]"
                if payment["payer"] == payment["payee"]:
                    problems.append(f"{at}: a player pays himself")
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
                payment_rows.append((payment["id"], st["id"], payment))
                mark_rows += [(m["id"], payment["id"], m) for m in marks]
            if st["void"] is not None:
                void_rows.append((st["void"]["id"], st["id"], st["void"]))
    if problems:
        return {}
    settlements: dict[int, int] = {}
    _insert(SessionSettlement, settlement_rows, settlements)
    payments: dict[int, int] = {}
    _insert(SettlementPayment, [(fid, SettlementPayment(
        settlement_id=settlements[sid], order=p["order"], payer_id=players[p["payer"]],
        payee_id=players[p["payee"]], amount_minor=p["amount_minor"]), None)
        for fid, sid, p in payment_rows], payments)
    _insert(PaymentMark, [(fid, PaymentMark(
        payment_id=payments[pid], paid=m["paid"], marked_by=_by(users, m["marked_by"]),
        marked_at=_moment(m["marked_at"])), None) for fid, pid, m in mark_rows], {})
    for fid, _, p in payment_rows:  # the paid columns repeat the latest mark
        if p["paid_at"] is not None:
            SettlementPayment.objects.filter(pk=payments[fid]).update(
                paid_at=_moment(p["paid_at"]), paid_by=_by(users, p["paid_by"]))
    _insert(SettlementVoid, [(fid, SettlementVoid(
        settlement_id=settlements[sid], reason=v["reason"], voided_by=_by(users, v["voided_by"]),
        voided_at=_moment(v["voided_at"])), None) for fid, sid, v in void_rows], {})
    # The money: the payments square the nets; a standing settlement is its evening's money
    # now, with no game left in progress. A fixed number of queries for the whole table.
    table_id = next(iter(Session.objects.filter(pk__in=list(sessions.values()))
                         .values_list("table_id", flat=True)), None)
    table_players = {player.pk: player for player in Player.objects.filter(table_id=table_id)}
    by_name = {player.name: player.pk for player in table_players.values()}
    seated: dict[int, dict[int, Player]] = defaultdict(dict)  # session -> players in order
    for session_id, player_id in (GamePlayer.objects.filter(game__session__table_id=table_id)
                                  .order_by("game__session_id", "game__sequence", "seat")
                                  .values_list("game__session_id", "player_id")):
        seated[session_id].setdefault(player_id, table_players[player_id])
    open_sessions = set(Game.objects.filter(session__table_id=table_id,
                                            status=GameStatus.IN_PROGRESS)
                        .values_list("session_id", flat=True))
    sums: dict[int, dict[int, int]] = defaultdict(dict)
    for session_id, player_id, total in (
            MoneyPosting.objects.filter(game__session__table_id=table_id)
            .values("game__session_id", "player_id").annotate(total=Sum("amount_minor"))
            .values_list("game__session_id", "player_id", "total")):
        sums[session_id][player_id] = int(total or 0)
    file_of = {pk: fid for fid, pk in settlements.items()}
    for settlement in (SessionSettlement.objects.filter(pk__in=settlements.values())
                       .prefetch_related("payments")):
        where, st, _ = by_id[file_of[settlement.pk]]
        players_then = list(seated[settlement.session_id].values())
        if st["void"] is None:
            now = {player.name: sums[settlement.session_id].get(player.pk, 0)
                   for player in players_then}
            if settlement.session_id in open_sessions:
                problems.append(f"{where}: its evening has a game in progress")
            elif selectors.settlement_nets(settlement, players_then) != now:
                problems.append(f"{where}.nets: they are not the money of the evening's games")
        balance: dict[int, int] = defaultdict(int)
        for payment in settlement.payments.all():
            balance[payment.payee_id] += payment.amount_minor
            balance[payment.payer_id] -= payment.amount_minor
        if all(name in by_name for name in st["nets"]):
            wanted = {by_name[name]: units for name, units in st["nets"].items() if units}
            if {pk: units for pk, units in balance.items() if units} != wanted:
                problems.append(f"{where}.payments: they do not square its nets")
        elif sum(abs(v) for v in balance.values()) != sum(abs(v) for v in st["nets"].values()):
            problems.append(f"{where}.payments: they do not square its nets")
    return payments


def _by(users: dict[str, Any], username: str | None):
    return None if username is None else users[username]


def _book_settlements(document, table, players, payments, users, problems) -> None:
    known = {p["id"]: p for s in document["sessions"] for st in s["settlements"]
             for p in st["payments"]}
    rows = []
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
    if not problems:
        _insert(BookSettlement, rows, {})


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
