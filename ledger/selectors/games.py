"""A game as the core reads it: its record (docs/game-record.md) rebuilt from the stored
rows, in the players' current names (``names``), and the core's result for it; its seats,
its stakes and its posted money."""

from __future__ import annotations

import json
import pickle
import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from django.db.models import Prefetch, Sum, TextField
from django.db.models.functions import Cast

from ledger import rules as core
from ledger.models import Game, GamePlayer, GameStatus, Hand, MoneyPosting
from ledger.rules.money import decimal_text, to_minor
from ledger.rules.names import rename_entry, rename_setup

from .names import names_now

GAME_FORMAT = "tablestakes.game/1"


def game_seats(game: Game):
    """The game's seats (GamePlayer rows with their players) in seat order; uses the
    prefetch cache when there is one, else reads each seat with its player in one query
    (not a query per player: a hand's save read them 15 times)."""
    if "seats" in getattr(game, "_prefetched_objects_cache", {}):
        seats = game.seats.all()
    else:
        seats = game.seats.select_related("player")
    return sorted(seats, key=lambda seat: seat.seat)


def game_live_hands(game: Game) -> list[Hand]:
    """The hands that count, in number order (uses the ``live_hands`` prefetch if present)."""
    cached = getattr(game, "live_hands", None)
    if cached is not None:
        return cached
    return list(game.hands.filter(voided_at__isnull=True).order_by("number"))


class LiveEntries(list):
    """The live hands' entries in number order, with ``mark``: (how many, the highest hand
    id, the highest number) as they were read. A hand recorded, corrected (a new id) or
    undone since changes the mark, so a writer holding the game's lock can tell by one
    small query (``services.base._live_mark``) that the entries read before it are still
    the game's, and not read them all again."""

    mark: tuple[int, int, int] = (0, 0, 0)


def game_live_entries(game: Game) -> LiveEntries:
    """What each hand that counts was entered as (its stored entry), in number order: what
    scoring needs, without a model object per hand (a 300-hand game reads in a fifth of the
    time of its ``Hand`` rows). Its ``mark`` says which state of the game they are."""
    # the entries as their stored JSON text, decoded in one ``json.loads`` of them all:
    # not one decoding call per hand (300 of them cost 2.5 times as much)
    rows = list(game.hands.filter(voided_at__isnull=True).order_by("number")
                .values_list("id", "number", Cast("entry", TextField())))
    entries = LiveEntries(json.loads("[" + ",".join(text for _, _, text in rows) + "]"))
    entries.mark = (len(rows), max((pk for pk, _, _ in rows), default=0),
                    rows[-1][1] if rows else 0)
    return entries


def game_stakes(game: Game, seats=None) -> dict | None:
    """The record's ``stakes`` object, or None for a game played for nothing."""
    seats = game_seats(game) if seats is None else seats
    player_stakes = {
        seat.player.name: decimal_text(seat.stake, game.currency)
        for seat in seats if seat.stake is not None
    }
    if game.rate is None and game.ante is None and game.lump_sum_stake is None \
            and not player_stakes:
        return None
    stakes: dict[str, Any] = {}
    if game.rate is not None:
        stakes["rate"] = decimal_text(game.rate, game.currency)
    if game.per_points is not None:
        stakes["per_points"] = game.per_points
    if game.ante is not None:
        stakes["ante"] = decimal_text(game.ante, game.currency)
    if game.lump_sum_stake is not None:
        stakes["lump_sum_stake"] = decimal_text(game.lump_sum_stake, game.currency)
    stakes["currency"] = game.currency
    if player_stakes:
        stakes["players"] = player_stakes
    return stakes


def entry_as_played(game: Game, entry: dict, seats=None) -> dict:
    """A stored entry of ``game`` in the players' current names."""
    return rename_entry(entry, names_now(game_seats(game) if seats is None else seats))


def entry_as_stored(game: Game, entry: dict, seats=None) -> dict:
    """An entry typed with the current names, in the names ``game`` stores."""
    now = names_now(game_seats(game) if seats is None else seats)
    return rename_entry(entry, {current: stored for stored, current in now.items()})


def game_record(game: Game, *, hands: Iterable[dict] | None = None,
                abandoned: bool | None = None, seats: list | None = None) -> dict:
    """The game record of ``game`` (key order of game-record.md) in the players' current
    names: what export writes and what the core scores. ``hands`` (stored entries),
    ``abandoned`` and ``seats`` (GamePlayer rows) replace the stored ones: services use them
    to score a change before writing it."""
    seats = game_seats(game) if seats is None else seats
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


#: the last records scored in this process (as JSON, its keys sorted: a stored entry read
#: back may have its keys in another order) and their results, pickled (a result is handed
#: out as a new copy each time, so no caller can change another's), most recently used last
_SCORED: OrderedDict[str, bytes] = OrderedDict()
_SCORED_ROOM = 32
_SCORED_LOCK = threading.Lock()


def score(record: dict) -> dict:
    """The core's result for a game record (raises ``RecordError`` with its problems).

    A record scored before in this process is not scored again: the core's result depends
    on nothing but the record (no clock, no database), so the same record has the same
    result. A Save's view scores the game as it stands to build the hand's form, and the
    Save before it (the service, with its new hand) scored that very record: one scoring
    serves both (issue 42). Only records that were scored without a refusal are kept."""
    try:
        key = json.dumps(record, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):  # not a plain record
        return core.score_record(record)
    with _SCORED_LOCK:
        kept = _SCORED.get(key)
        if kept is not None:
            _SCORED.move_to_end(key)
    if kept is not None:
        return pickle.loads(kept)
    result = core.score_record(record)
    try:
        kept = pickle.dumps(result, pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):
        return result
    with _SCORED_LOCK:
        _SCORED[key] = kept
        while len(_SCORED) > _SCORED_ROOM:
            _SCORED.popitem(last=False)
    return result


def game_result(game: Game) -> dict:
    """The core's result for the game as stored (scores, totals, money, next dealer...)."""
    return score(game_record(game))


def accepts_hands(game: Game, result: dict) -> bool:
    """Whether ``game`` takes another hand: the core says the game is neither complete nor
    abandoned (``result["facts"]["accepts_hands"]``) and the stored game is in progress
    (``services.hand_record`` refuses a hand otherwise: ``GameNotInProgress``)."""
    return bool(result["facts"]["accepts_hands"]) and game.status == GameStatus.IN_PROGRESS


def game_posted_money(game: Game) -> dict[str, int]:
    """Each seated player's posted money in minor units (0 until the game's money is posted)."""
    sums = dict(
        MoneyPosting.objects.filter(game=game)
        .values("player__name")
        .annotate(total=Sum("amount_minor"))
        .values_list("player__name", "total")
    )
    return {seat.player.name: int(sums.get(seat.player.name) or 0) for seat in game_seats(game)}


def seats_with_players() -> Prefetch:
    """A game's seats with their players, in one query (a join), not one for the seats and
    one for the players: ``prefetch_related_objects([game], seats_with_players())``."""
    return Prefetch("seats", queryset=GamePlayer.objects.select_related("player"))


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


def money_to_minor(money: dict[str, str], currency: str) -> dict[str, int]:
    """The core's ``money`` (decimal strings) in integer minor units."""
    return {name: to_minor(amount, currency) for name, amount in money.items()}
