"""Reads of the ledger. Services push, selectors pull; none of these write.

The central one is ``game_record``: it rebuilds the JSON game record (docs/game-record.md)
from the stored rows, and every score shown anywhere is ``score_record`` of that record.
Selectors that work on a whole session prefetch, so their number of queries does not grow
with the number of hands or games.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connection
from django.db.models import Prefetch, Sum

from . import rules as core
from .models import (
    Game,
    GameChange,
    GamePlayer,
    GameStatus,
    Hand,
    MoneyPosting,
    Player,
    PostingBatch,
    Session,
    SessionSettlement,
    Table,
)
from .rules.money import Payment, fewest_payments, format_minor, minor_exponent, to_minor

GAME_FORMAT = "tablestakes.game/1"
SESSION_FORMAT = "tablestakes.session/1"


# -- formatting ------------------------------------------------------------------------------

def decimal_text(value: Decimal, currency: str) -> str:
    """A stored stake as the record writes it: the currency's decimals, more only if needed.

    Decimal("0.0100") -> "0.01", Decimal("1") -> "1.00", Decimal("0.0150") -> "0.015".
    """
    exponent = minor_exponent(currency)
    normal = value.normalize()
    if normal.as_tuple().exponent < -exponent:
        return format(normal, "f")
    return format(value.quantize(Decimal(1).scaleb(-exponent)), "f")


def person_name(user) -> str:
    """Who did something, as the screens and the sheets say it: the account's full name,
    else its login; empty for nobody."""
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def dump_json(data: Any) -> str:
    """The canonical JSON text of an export: 2-space indent, UTF-8, key order as built."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def money_to_minor(money: dict[str, str], currency: str) -> dict[str, int]:
    """The core's ``money`` (decimal strings) in integer minor units."""
    return {name: to_minor(amount, currency) for name, amount in money.items()}


# -- games -----------------------------------------------------------------------------------

def _seats(game: Game):
    """The game's seats in order; uses the prefetch cache when there is one."""
    return sorted(game.seats.all(), key=lambda seat: seat.seat)


def game_seats(game: Game):
    """The game's seats (GamePlayer rows with their players) in seat order."""
    return _seats(game)


def game_live_hands(game: Game) -> list[Hand]:
    """The hands that count, in number order (uses the ``live_hands`` prefetch if present)."""
    cached = getattr(game, "live_hands", None)
    if cached is not None:
        return cached
    return list(game.hands.filter(voided_at__isnull=True).order_by("number"))


def game_stakes(game: Game, seats=None) -> dict | None:
    """The record's ``stakes`` object, or None for a game played for nothing."""
    seats = _seats(game) if seats is None else seats
    player_stakes = {
        seat.player.name: decimal_text(seat.stake, game.currency)
        for seat in seats if seat.stake is not None
    }
    if game.rate is None and game.ante is None and not player_stakes:
        return None
    stakes: dict[str, Any] = {}
    if game.rate is not None:
        stakes["rate"] = decimal_text(game.rate, game.currency)
    if game.per_points is not None:
        stakes["per_points"] = game.per_points
    if game.ante is not None:
        stakes["ante"] = decimal_text(game.ante, game.currency)
    stakes["currency"] = game.currency
    if player_stakes:
        stakes["players"] = player_stakes
    return stakes


# -- names as played ------------------------------------------------------------------------
#
# A game stores its hands and setup with each player's name as it was when the game began
# (``GamePlayer.played_as``); the player may be renamed since. Everything read from a game
# speaks the current names (the person is the same, and a table's book across evenings
# needs one name per person): ``game_record`` maps the stored names to the current ones,
# and the services map an entry typed with current names back before storing it, so that
# one game's rows always use one set of names.

def _rename(value, mapping: dict[str, str]):
    return mapping.get(value, value) if isinstance(value, str) else value


def _rename_keys(value, mapping: dict[str, str]):
    if not isinstance(value, dict):
        return value
    return {mapping.get(key, key): item for key, item in value.items()}


def rename_entry(entry, mapping: dict[str, str]):
    """A hand entry with its player names mapped (``knocker``, ``deadwood``, ``cards``,
    ``went_out``, ``points``, ``cut_loser`` and each table's); other fields as they are."""
    if not mapping or not isinstance(entry, dict):
        return entry
    out = {}
    for key, value in entry.items():
        if key in ("knocker", "went_out", "cut_loser"):
            value = _rename(value, mapping)
        elif key in ("deadwood", "cards", "points"):
            value = _rename_keys(value, mapping)
        elif key == "tables" and isinstance(value, list):
            value = [rename_entry(part, mapping) for part in value]
        out[key] = value
    return out


def rename_setup(setup, mapping: dict[str, str]):
    """A game's setup with its player names mapped (dealer, captains, opponents, sitter,
    the members of each side; side names are not players' and stay)."""
    if not mapping or not isinstance(setup, dict):
        return setup
    out = {}
    for key, value in setup.items():
        if key in ("first_dealer", "sitter"):
            value = _rename(value, mapping)
        elif key in ("captains", "opponents") and isinstance(value, list):
            value = [_rename(name, mapping) for name in value]
        elif key == "sides" and isinstance(value, dict):
            value = {side: [_rename(name, mapping) for name in members]
                     if isinstance(members, list) else members
                     for side, members in value.items()}
        out[key] = value
    return out


def names_now(seats) -> dict[str, str]:
    """Stored name -> current name, for the seats whose player was renamed."""
    return {seat.played_as: seat.player.name for seat in seats
            if seat.played_as and seat.played_as != seat.player.name}


def entry_as_played(game: Game, entry: dict, seats=None) -> dict:
    """A stored entry of ``game`` in the players' current names."""
    return rename_entry(entry, names_now(_seats(game) if seats is None else seats))


def entry_as_stored(game: Game, entry: dict, seats=None) -> dict:
    """An entry typed with the current names, in the names ``game`` stores."""
    now = names_now(_seats(game) if seats is None else seats)
    return rename_entry(entry, {current: stored for stored, current in now.items()})


def game_record(game: Game, *, hands: Iterable[dict] | None = None,
                abandoned: bool | None = None, seats: list | None = None) -> dict:
    """The game record of ``game`` (key order of game-record.md) in the players' current
    names: what export writes and what the core scores. ``hands`` (stored entries),
    ``abandoned`` and ``seats`` (GamePlayer rows) replace the stored ones: services use them
    to score a change before writing it."""
    seats = _seats(game) if seats is None else seats
    mapping = names_now(seats)
    record: dict[str, Any] = {"format": GAME_FORMAT, "variant": game.variant}
    if game.preset:
        record["preset"] = game.preset
    record["rules"] = {name: game.rules[name] for name in sorted(game.rules)}
    record["players"] = [seat.player.name for seat in seats]
    stakes = game_stakes(game, seats)
    if stakes is not None:
        record["stakes"] = stakes
    record["setup"] = rename_setup(game.setup, mapping)
    if abandoned is None:
        abandoned = game.status == GameStatus.ABANDONED
    record["abandoned"] = abandoned
    if hands is None:
        hands = [hand.entry for hand in game_live_hands(game)]
    record["hands"] = [rename_entry(entry, mapping) for entry in hands] if mapping \
        else list(hands)
    return record


def score(record: dict) -> dict:
    """The core's result for a game record (raises ``RecordError`` with its problems)."""
    return core.score_record(record)


def game_result(game: Game) -> dict:
    """The core's result for the game as stored (scores, totals, money, next dealer...)."""
    return core.score_record(game_record(game))


def accepts_hands(game: Game, result: dict) -> bool:
    """Whether ``game`` takes another hand: the core says the game is neither complete nor
    abandoned (``result["facts"]["accepts_hands"]``) and the stored game is in progress
    (``services.hand_record`` refuses a hand otherwise: ``GameNotInProgress``)."""
    return bool(result["facts"]["accepts_hands"]) and game.status == GameStatus.IN_PROGRESS


def preview_hand(game: Game, entry: dict, *, hands: list[Hand] | None = None) -> dict:
    """The core's verdict on ``entry`` (typed with the players' current names) as the next
    hand of ``game``, without storing anything: ``{"hand": ..., "result": ...}`` with the
    hand as the core scored it, or ``{"problems": [...]}`` with the core's problems (as
    data: where, code, words) when it would refuse it. ``hands``: the live hands, if the
    caller has them."""
    stored = [hand.entry for hand in (game_live_hands(game) if hands is None else hands)]
    record = game_record(game, hands=[*stored, entry_as_stored(game, entry)])
    try:
        result = core.score_record(record)
    except core.RecordError as exc:
        return {"problems": list(exc.details)}
    return {"hand": result["hands"][-1], "result": result}


def game_history(game: Game) -> list[Hand]:
    """Every hand ever entered in the game, voided ones included, in number then entry order."""
    return list(
        game.hands.select_related("recorded_by", "voided_by", "replaces")
        .order_by("number", "recorded_at", "id")
    )


def game_posted_money(game: Game) -> dict[str, int]:
    """Each seated player's posted money in minor units (0 until the game's money is posted)."""
    sums = dict(
        MoneyPosting.objects.filter(game=game)
        .values("player__name")
        .annotate(total=Sum("amount_minor"))
        .values_list("player__name", "total")
    )
    return {seat.player.name: int(sums.get(seat.player.name) or 0) for seat in _seats(game)}


def game_queryset_for_records():
    """Games with everything ``game_record`` needs prefetched (three queries in all)."""
    return Game.objects.select_related("session").prefetch_related(
        "seats__player",
        Prefetch(
            "hands",
            queryset=Hand.objects.filter(voided_at__isnull=True).order_by("number"),
            to_attr="live_hands",
        ),
    )


def game_export(game: Game) -> dict:
    """The record to write for ``export_game`` (identical to ``game_record``)."""
    return game_record(game)


# -- sessions --------------------------------------------------------------------------------

def evening_numbers(table_id: int) -> dict[int, int]:
    """Each evening of the table: which of its date's evenings it is (1, 2...), in the
    order they were made (one query)."""
    numbers: dict[int, int] = {}
    seen: dict = {}
    for pk, day in (Session.objects.filter(table_id=table_id).order_by("date", "id")
                    .values_list("id", "date")):
        seen[day] = seen.get(day, 0) + 1
        numbers[pk] = seen[day]
    return numbers


def set_evening_numbers(sessions) -> None:
    """Give each evening of a list its ``number`` (``Session.number``) without a query each."""
    sessions = list(sessions)
    if not sessions:
        return
    by_table: dict[int, dict[int, int]] = {}
    for session in sessions:
        if session.table_id not in by_table:
            by_table[session.table_id] = evening_numbers(session.table_id)
        session.__dict__["number"] = by_table[session.table_id].get(session.pk, 1)


def evening_label(session) -> str:
    """An evening as the screens name it: "Wednesday 25 November 2026", and "(2)" after
    the second one of the same day."""
    from .words import evening_words

    return evening_words(session.date) + session.number_suffix


def rematch_evening(game: Game) -> Session | None:
    """The evening a rematch of ``game`` goes into: its own while that is not settled, else
    the table's evening of today in the same currency that is still open; None when there is
    none, and the rematch would open a new evening (``services.game_rematch``)."""
    from ledger.clock import table_today

    session = game.session
    if not session_is_settled(session):
        return session
    for candidate in (Session.objects.filter(table_id=session.table_id,
                                             date=table_today(session.table),
                                             currency=session.currency).order_by("-pk")):
        if not session_is_settled(candidate):
            return candidate
    return None


def new_evening_initial(table) -> dict:
    """What the "New evening" form starts from: today, and the place, currency and stake
    of the table's latest evening (latest date, then latest made), still editable; a table
    with no evening yet starts from USD, 1 point and no stake. Today is the table's (its
    time zone's date)."""
    from ledger.clock import table_today

    initial = {"date": table_today(table), "currency": "USD", "per_points": 1}
    last = Session.objects.filter(table=table).order_by("-date", "-id").first()
    if last is not None:
        initial.update(place=last.place, currency=last.currency, per_points=last.per_points)
        if last.rate is not None:
            initial["rate"] = decimal_text(last.rate, last.currency)
    return initial


def session_games(session: Session) -> list[Game]:
    """The session's games in order, prefetched for ``game_record``."""
    return list(game_queryset_for_records().filter(session=session).order_by("sequence"))


def session_players(session: Session, games: list[Game] | None = None) -> list[Player]:
    """Everyone who played in the session, in order of first seat in the first game."""
    games = session_games(session) if games is None else games
    seen: dict[int, Player] = {}
    for game in games:
        for seat in _seats(game):
            seen.setdefault(seat.player_id, seat.player)
    return list(seen.values())


def session_nets(session: Session, games: list[Game] | None = None) -> dict[str, int]:
    """Each player's net over every game of the session, in minor units (posted money:
    finished and abandoned games; a game in progress has no money yet). Sums to zero."""
    games = session_games(session) if games is None else games
    players = session_players(session, games)
    sums = dict(
        MoneyPosting.objects.filter(game__session=session)
        .values("player_id")
        .annotate(total=Sum("amount_minor"))
        .values_list("player_id", "total")
    )
    return {player.name: int(sums.get(player.id) or 0) for player in players}


def live_settlements():
    """Settlements that stand: not voided by reopening their evening (at most one per
    session). Every reader that asks 'is it settled?' or 'what is owed?' uses these."""
    return SessionSettlement.objects.filter(void__isnull=True)


def session_payment_plan(nets: dict[str, int]) -> list[Payment]:
    """Who pays whom to square ``nets`` (``session_nets``): the payments a settlement of the
    session writes, and what the screens and the report show before it is settled."""
    return fewest_payments(nets)


def session_settlement(session: Session) -> SessionSettlement | None:
    """The session's live settlement with its payments (payer/payee loaded), or None."""
    return (
        live_settlements().filter(session=session)
        .prefetch_related("payments__payer", "payments__payee")
        .order_by("-id")
        .first()
    )


def settlement_nets(settlement: SessionSettlement, players: list[Player] | None = None
                    ) -> dict[str, int]:
    """The settled nets (minor units) in the players' current names. A settlement stores
    its nets by name, in the order of ``session_players`` at the time it was made; a settled
    evening's games no longer change, so that order still holds and names each net's
    player even after a rename."""
    players = session_players(settlement.session) if players is None else players
    nets = {name: int(units) for name, units in settlement.nets.items()}
    current = {player.name for player in players}
    if set(nets) == current or len(players) != len(nets):
        return nets
    return {player.name: units for player, units in zip(players, nets.values(), strict=True)}


def session_is_settled(session: Session) -> bool:
    return live_settlements().filter(session_id=session.pk).exists()


def session_export(session: Session) -> dict:
    """The session record for ``export_session``: the evening with every game's record."""
    games = session_games(session)
    data: dict[str, Any] = {
        "format": SESSION_FORMAT,
        "table": session.table.name,
        "date": session.date.isoformat(),
        "place": session.place,
        "currency": session.currency,
    }
    if session.rate is not None:
        data["stakes"] = {
            "rate": decimal_text(session.rate, session.currency),
            "per_points": session.per_points,
        }
    if session.notes:
        data["notes"] = session.notes
    data["players"] = [player.name for player in session_players(session, games)]
    data["games"] = [game_record(game) for game in games]
    settlement = session_settlement(session)
    if settlement is not None:
        data["settlement"] = {
            "nets": {name: format_minor(units, settlement.currency)
                     for name, units in settlement_nets(settlement).items()},
            "payments": [
                {
                    "from": payment.payer.name,
                    "to": payment.payee.name,
                    "amount": format_minor(payment.amount_minor, settlement.currency),
                    "paid": payment.is_paid,
                }
                for payment in settlement.payments.all()
            ],
        }
    return data


# -- tables ----------------------------------------------------------------------------------

def table_for_user(user) -> list[Table]:
    """The tables this account keeps score for."""
    return list(Table.objects.filter(scorekeepers=user))


def table_user_is_scorekeeper(*, table: Table, user) -> bool:
    return bool(user and user.is_authenticated) and (
        user.is_superuser or table.scorekeepers.filter(pk=user.pk).exists()
    )


# -- what a live page shows has changed (share pages poll these) ---------------------------

def hand_with_key(game: Game, key) -> Hand | None:
    """The hand of ``game`` recorded with idempotency key ``key`` (voided or not), if any:
    a resent hand whose first answer was lost is known by its key."""
    try:
        return Hand.objects.filter(game=game, idempotency_key=key).first()
    except (ValueError, TypeError, ValidationError):
        return None


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
    """The same for a table's list of evenings and games (their status and hands), with
    its name and its players' (a rename shows everywhere)."""
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
        " p.id, p.name"
        " FROM {table} t LEFT JOIN {player} p ON p.table_id = t.id"
        " WHERE t.id = %s ORDER BY p.id",
        str(GameStatus.COMPLETE), str(GameStatus.ABANDONED), table_id)
    if not rows:
        return "gone"
    return f"t{table_id}|" + "|".join(map(str, rows[0][:7])) + "|" + "|".join(
        f"{row[7]}={row[8]}" for row in rows)


def _rows(sql: str, *params) -> list[tuple]:
    names = {"hand": Hand, "change": GameChange, "batch": PostingBatch, "game": Game,
             "session": Session, "table": Table, "seat": GamePlayer, "player": Player}
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(sql.format(**{key: quote(model._meta.db_table)
                                     for key, model in names.items()}), params)
        return cursor.fetchall()
