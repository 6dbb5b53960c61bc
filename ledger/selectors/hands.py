"""A game's hands: every hand ever entered, a hand tried without storing it (the core's
verdict), a resent hand known by its key."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from ledger import rules as core
from ledger.models import Game, Hand

from .games import entry_as_stored, game_live_hands, game_record


def preview_hand(game: Game, entry: dict, *, hands: list[Hand] | None = None,
                 entries: list[dict] | None = None) -> dict:
    """The core's verdict on ``entry`` (typed with the players' current names) as the next
    hand of ``game``, without storing anything: ``{"hand": ..., "result": ...}`` with the
    hand as the core scored it, or ``{"problems": [...]}`` with the core's problems (as
    data: where, code, words) when it would refuse it. ``hands``: the live hands, or
    ``entries``: their stored entries, if the caller has them."""
    stored = entries if entries is not None else [
        hand.entry for hand in (game_live_hands(game) if hands is None else hands)]
    record = game_record(game, hands=[*stored, entry_as_stored(game, entry)])
    try:
        result = core.score_record(record)
    except core.RecordError as exc:
        return {"problems": list(exc.details)}
    return {"hand": result["hands"][-1], "result": result}


def game_history(game: Game) -> list[Hand]:
    """Every hand ever entered in the game, voided ones included, in number then entry order,
    with who recorded and who voided each (their names: the accounts' other columns are
    left unread, the hand a correction replaces is known by ``replaces_id``): the game page
    and every Save read it, 300 rows in a long game."""
    unread = ("password", "last_login", "date_joined", "email", "is_superuser", "is_staff")
    return list(
        game.hands.select_related("recorded_by", "voided_by")
        .defer(*(f"{who}__{name}" for who in ("recorded_by", "voided_by") for name in unread))
        .order_by("number", "recorded_at", "id")
    )


def hand_with_key(game: Game, key) -> Hand | None:
    """The hand of ``game`` recorded with idempotency key ``key`` (voided or not), if any:
    a resent hand whose first answer was lost is known by its key."""
    try:
        return Hand.objects.filter(game=game, idempotency_key=key).first()
    except (ValueError, TypeError, ValidationError):
        return None
