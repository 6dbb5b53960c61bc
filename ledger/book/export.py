"""Everything a table has, as one JSON document (``tablestakes.table/1``, docs/table-export.md).

A read: nothing here writes. ``services.table_import`` stores such a document back, row for
row, and exporting the imported table gives the same document again (the ``id`` of every
row is its rank among the table's rows of its kind, in the database's order, so it does
not depend on the server's numbering; references use those ids, accounts their usernames).

Exported: the table (name, paper size, scorekeepers), its players (archived ones too), its
evenings with their games, seats, every hand (voided ones and their replacements), the
game changes, the posting batches and postings, the settlements (voided ones with their
void) with their payments and every paid mark, the book settlements, the share links, and
the report links with who reported what through them (table reports, replaced and withdrawn
ones too, and a two-hand game's hand confirmations).
Not exported: the standings (a cache, rebuilt from the games on import) and passwords.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from decimal import Decimal
from typing import Any

from ledger.models import (
    BookSettlement,
    BookSettlementUndo,
    Game,
    GameChange,
    GamePlayer,
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

TABLE_FORMAT = "tablestakes.table/1"


def stamp(value: datetime.datetime | None) -> str | None:
    """A moment as the document writes it: ISO 8601 in UTC, microseconds kept."""
    if value is None:
        return None
    return value.astimezone(datetime.UTC).isoformat()


def _decimal(value: Decimal | None) -> str | None:
    return None if value is None else format(value, "f")


def table_export(table: Table) -> dict[str, Any]:
    """The table's whole history as a ``tablestakes.table/1`` document. A fixed number of
    queries (one per kind of row), whatever the size of the table."""
    users: dict[int, Any] = {}

    def who(user_id: int | None) -> str | None:
        if user_id is None:
            return None
        return users[user_id].get_username()

    def ranks(rows) -> dict[int, int]:
        return {row.pk: rank for rank, row in enumerate(sorted(rows, key=lambda r: r.pk), 1)}

    players = list(Player.objects.filter(table=table).order_by("pk"))
    sessions = list(Session.objects.filter(table=table).order_by("pk"))
    games = list(Game.objects.filter(session__table=table).order_by("pk"))
    seats = list(GamePlayer.objects.filter(game__session__table=table).order_by("game", "seat"))
    hands = list(Hand.objects.filter(game__session__table=table).order_by("pk"))
    changes = list(GameChange.objects.filter(game__session__table=table).order_by("pk"))
    batches = list(PostingBatch.objects.filter(game__session__table=table).order_by("pk"))
    postings = list(MoneyPosting.objects.filter(game__session__table=table).order_by("pk"))
    settlements = list(SessionSettlement.objects.filter(session__table=table).order_by("pk"))
    payments = list(SettlementPayment.objects.filter(settlement__session__table=table)
                    .order_by("pk"))
    marks = list(PaymentMark.objects.filter(payment__settlement__session__table=table)
                 .order_by("pk"))
    voids = list(SettlementVoid.objects.filter(settlement__session__table=table).order_by("pk"))
    book_settlements = list(BookSettlement.objects.filter(table=table).order_by("pk"))
    undos = {undo.book_settlement_id: undo for undo in
             BookSettlementUndo.objects.filter(book_settlement__table=table)}
    links = list(ShareLink.objects.filter(table=table).order_by("pk"))
    report_links = list(ReportLink.objects.filter(game__session__table=table).order_by("pk"))
    reports = list(TableReport.objects.filter(game__session__table=table).order_by("pk"))
    confirmations = list(HandConfirmation.objects.filter(link__game__session__table=table)
                         .order_by("pk"))

    actor_ids = {table_keeper for table_keeper in
                 table.scorekeepers.values_list("pk", flat=True)}
    for rows, fields in (
        (sessions, ("created_by_id",)), (games, ("started_by_id",)),
        (hands, ("recorded_by_id", "voided_by_id")), (changes, ("changed_by_id",)),
        (batches, ("created_by_id",)), (settlements, ("settled_by_id",)),
        (payments, ("paid_by_id",)), (marks, ("marked_by_id",)), (voids, ("voided_by_id",)),
        (book_settlements, ("settled_by_id",)), (links, ("created_by_id",)),
        (report_links, ("created_by_id",)),
        (list(undos.values()), ("undone_by_id",)),
    ):
        for row in rows:
            actor_ids.update(getattr(row, name) for name in fields)
    actor_ids.discard(None)
    from django.contrib.auth import get_user_model

    users = {user.pk: user for user in get_user_model().objects.filter(pk__in=actor_ids)}

    player_id, session_id, game_id = ranks(players), ranks(sessions), ranks(games)
    hand_id, change_id, batch_id = ranks(hands), ranks(changes), ranks(batches)
    posting_id, settlement_id, payment_id = ranks(postings), ranks(settlements), ranks(payments)
    mark_id, void_id = ranks(marks), ranks(voids)
    report_id, confirmation_id = ranks(reports), ranks(confirmations)
    reports_by_link: dict[int, list] = defaultdict(list)
    for report in reports:
        reports_by_link[report.link_id].append(report)
    confirmations_by_link: dict[int, list] = defaultdict(list)
    for answer in confirmations:
        confirmations_by_link[answer.link_id].append(answer)

    by_game: dict[str, dict[int, list]] = {name: defaultdict(list) for name in
                                           ("seats", "hands", "changes", "batches")}
    for name, rows in (("seats", seats), ("hands", hands), ("changes", changes),
                       ("batches", batches)):
        for row in rows:
            by_game[name][row.game_id].append(row)
    postings_by_batch: dict[int, list] = defaultdict(list)
    for posting in postings:
        postings_by_batch[posting.batch_id].append(posting)
    games_by_session: dict[int, list] = defaultdict(list)
    for game in games:
        games_by_session[game.session_id].append(game)
    settlements_by_session: dict[int, list] = defaultdict(list)
    for settlement in settlements:
        settlements_by_session[settlement.session_id].append(settlement)
    payments_by_settlement: dict[int, list] = defaultdict(list)
    for payment in payments:
        payments_by_settlement[payment.settlement_id].append(payment)
    marks_by_payment: dict[int, list] = defaultdict(list)
    for mark in marks:
        marks_by_payment[mark.payment_id].append(mark)
    void_of = {void.settlement_id: void for void in voids}

    def game_data(game: Game) -> dict:
        return {
            "id": game_id[game.pk],
            "sequence": game.sequence,
            "variant": game.variant,
            "preset": game.preset,
            "rules": game.rules,
            "currency": game.currency,
            "rate": _decimal(game.rate),
            "per_points": game.per_points,
            "ante": _decimal(game.ante),
            "setup": game.setup,
            "status": game.status,
            "started_by": who(game.started_by_id),
            "started_at": stamp(game.started_at),
            "finished_at": stamp(game.finished_at),
            "seats": [{"player": player_id[seat.player_id], "played_as": seat.played_as,
                       "stake": _decimal(seat.stake)} for seat in by_game["seats"][game.pk]],
            "hands": [{
                "id": hand_id[hand.pk],
                "number": hand.number,
                "entry": hand.entry,
                "recorded_by": who(hand.recorded_by_id),
                "recorded_at": stamp(hand.recorded_at),
                "idempotency_key": str(hand.idempotency_key),
                "voided_at": stamp(hand.voided_at),
                "voided_by": who(hand.voided_by_id),
                "void_reason": hand.void_reason,
                "replaces": hand_id[hand.replaces_id] if hand.replaces_id else None,
            } for hand in by_game["hands"][game.pk]],
            "changes": [{
                "id": change_id[change.pk],
                "kind": change.kind,
                "name": change.name,
                "old": change.old,
                "new": change.new,
                "reason": change.reason,
                "after_hand": change.after_hand,
                "money_changed": change.money_changed,
                "changed_by": who(change.changed_by_id),
                "changed_at": stamp(change.changed_at),
            } for change in by_game["changes"][game.pk]],
            "batches": [{
                "id": batch_id[batch.pk],
                "number": batch.number,
                "kind": batch.kind,
                "reverses": batch_id[batch.reverses_id] if batch.reverses_id else None,
                "memo": batch.memo,
                "created_by": who(batch.created_by_id),
                "created_at": stamp(batch.created_at),
                "postings": [{"id": posting_id[posting.pk],
                              "player": player_id[posting.player_id],
                              "amount_minor": posting.amount_minor}
                             for posting in postings_by_batch[batch.pk]],
            } for batch in by_game["batches"][game.pk]],
        }

    def settlement_data(settlement: SessionSettlement) -> dict:
        void = void_of.get(settlement.pk)
        return {
            "id": settlement_id[settlement.pk],
            "currency": settlement.currency,
            "nets": settlement.nets,
            "settled_by": who(settlement.settled_by_id),
            "settled_at": stamp(settlement.settled_at),
            "payments": [{
                "id": payment_id[payment.pk],
                "order": payment.order,
                "payer": player_id[payment.payer_id],
                "payee": player_id[payment.payee_id],
                "amount_minor": payment.amount_minor,
                "paid_at": stamp(payment.paid_at),
                "paid_by": who(payment.paid_by_id),
                "marks": [{"id": mark_id[mark.pk], "paid": mark.paid,
                           "marked_by": who(mark.marked_by_id),
                           "marked_at": stamp(mark.marked_at)}
                          for mark in marks_by_payment[payment.pk]],
            } for payment in payments_by_settlement[settlement.pk]],
            "void": None if void is None else {
                "id": void_id[void.pk],
                "reason": void.reason,
                "voided_by": who(void.voided_by_id),
                "voided_at": stamp(void.voided_at),
            },
        }

    player_of_pk = {player.pk: player for player in players}
    return {
        "format": TABLE_FORMAT,
        "table": {
            "name": table.name,
            "paper_size": table.paper_size,
            "created_at": stamp(table.created_at),
            "scorekeepers": sorted(users[pk].get_username() for pk in
                                   table.scorekeepers.values_list("pk", flat=True)),
        },
        "accounts": [{"username": user.get_username(), "first_name": user.first_name,
                      "last_name": user.last_name}
                     for user in sorted(users.values(), key=lambda u: u.get_username())],
        "players": [{"id": player_id[player.pk], "name": player.name,
                     "created_at": stamp(player.created_at),
                     "archived_at": stamp(player.archived_at)} for player in players],
        "sessions": [{
            "id": session_id[session.pk],
            "date": session.date.isoformat(),
            "place": session.place,
            "currency": session.currency,
            "rate": _decimal(session.rate),
            "per_points": session.per_points,
            "notes": session.notes,
            "created_by": who(session.created_by_id),
            "created_at": stamp(session.created_at),
            "games": [game_data(game) for game in games_by_session[session.pk]],
            "settlements": [settlement_data(settlement)
                            for settlement in settlements_by_session[session.pk]],
        } for session in sessions],
        "book_settlements": [{
            "id": rank,
            "currency": entry.currency,
            "payments": [{"from": _player_rank(player_id, player_of_pk, item.get("from")),
                          "to": _player_rank(player_id, player_of_pk, item.get("to")),
                          "amount_minor": item.get("amount_minor")}
                         for item in entry.payments],
            "cleared": [payment_id[pk] for pk in entry.cleared if pk in payment_id],
            "settled_by": who(entry.settled_by_id),
            "settled_at": stamp(entry.settled_at),
            **({"undone": {
                "restored": [payment_id[pk] for pk in undos[entry.pk].restored
                             if pk in payment_id],
                "undone_by": who(undos[entry.pk].undone_by_id),
                "undone_at": stamp(undos[entry.pk].undone_at),
            }} if entry.pk in undos else {}),
        } for rank, entry in enumerate(book_settlements, start=1)],
        "share_links": [{
            "id": rank,
            "game": game_id[link.game_id] if link.game_id else None,
            "token": link.token,
            "created_by": who(link.created_by_id),
            "created_at": stamp(link.created_at),
            "revoked_at": stamp(link.revoked_at),
        } for rank, link in enumerate(links, start=1)],
        "report_links": [{
            "id": rank,
            "game": game_id[link.game_id],
            "part": link.part,
            "player": link.player,
            "token": link.token,
            "created_by": who(link.created_by_id),
            "created_at": stamp(link.created_at),
            "revoked_at": stamp(link.revoked_at),
            "reports": [{
                "id": report_id[report.pk],
                "number": report.number,
                "table": report.table,
                "player": report.player,
                "values": report.values,
                "reported_at": stamp(report.reported_at),
                "replaces": report_id[report.replaces_id] if report.replaces_id else None,
                "replaced_at": stamp(report.replaced_at),
                "withdrawn_at": stamp(report.withdrawn_at),
                "hand": hand_id[report.hand_id] if report.hand_id else None,
            } for report in reports_by_link[link.pk]],
            "confirmations": [{
                "id": confirmation_id[answer.pk],
                "hand": hand_id[answer.hand_id],
                "player": answer.player,
                "correct": answer.correct,
                "answered_at": stamp(answer.answered_at),
            } for answer in confirmations_by_link[link.pk]],
        } for rank, link in enumerate(report_links, start=1)],
    }


def _player_rank(player_id: dict[int, int], players: dict[int, Player], value) -> int | None:
    """A book settlement stores its netted payments with the players' database ids."""
    try:
        pk = int(value)
    except (TypeError, ValueError):
        return None
    return player_id.get(pk) if pk in players else None
