"""Hands: record the next one (idempotent), correct one, undo the last."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.utils import timezone

from ledger import cleaning, limits
from ledger import rules as core
from ledger.exceptions import (
    GameNotInProgress,
    HandAlreadyRecorded,
    IdempotencyKeyReused,
    LedgerError,
    RecordRefused,
)
from ledger.models import (
    Game,
    GameStatus,
    Hand,
)
from ledger.selectors.games import entry_as_stored, game_record, game_result, score

from .base import (
    User,
    _check_numbers,
    _live_entries,
    _live_hands,
    _live_mark,
    _lock_game,
    _score,
    _user,
    _with_seats,
)
from .posting import (
    _apply_result,
)
from .reports import reports_attach


@dataclass(frozen=True)
class HandOutcome:
    """What ``hand_record``/``hand_correct`` did.

    ``created`` is False when the submission was a repeat of one already recorded (same
    idempotency key): nothing new was stored and ``hand`` is the hand recorded the first time.
    ``result`` is the core's result for the whole game after the hand.
    """

    hand: Hand
    created: bool
    result: dict = field(repr=False)


def _score_kept(record: dict) -> dict:
    """``_score``, through the selectors' ``score``: the game with its new hand is the
    record the next Save's view scores to build its form, and finds scored (issue 42)."""
    try:
        return score(record)
    except core.RecordError as exc:
        raise RecordRefused(list(exc.details)) from exc


# -- hands -----------------------------------------------------------------------------------


@transaction.atomic
def hand_record(*, game: Game, entry: dict, recorded_by: User | None,
                idempotency_key: uuid.UUID | str, number: int | None = None,
                live: list[dict] | None = None) -> HandOutcome:
    """Record the next hand of ``game`` exactly as entered (the hand object of the record).

    Idempotent: a submission whose ``idempotency_key`` was already recorded stores nothing
    and returns that hand with ``created=False`` (a double tap, a retried request). The key
    reused for a different hand raises IdempotencyKeyReused.

    ``number`` is the hand number the scorekeeper's screen showed. If that hand is already
    recorded (another scorekeeper was quicker) this raises HandAlreadyRecorded, so two
    phones entering the same hand store it once. Without ``number`` the hand is appended.

    The whole game is rescored; a RecordRefused names the problem and nothing is stored.
    When the hand ends the game, its money is posted.

    ``live``: the live hands' entries the caller read before (``game_live_entries``, with
    its mark). Under the lock one small query checks they are still the game's; then they
    are not read again (a 300-hand Save read and decoded every entry twice). Anything
    changed since (a hand recorded, corrected, undone), or no mark: read again here.
    """
    key = uuid.UUID(str(idempotency_key))
    game = _with_seats(_lock_game(game))  # everything below is read under the lock
    entry = entry_as_stored(game, entry)  # typed with today's names
    existing = Hand.objects.filter(idempotency_key=key).first()
    if existing is not None:
        if existing.game_id != game.pk or existing.entry != entry:
            raise IdempotencyKeyReused(code="key_reused_reload")
        return HandOutcome(hand=existing, created=False, result=game_result(game))
    mark = getattr(live, "mark", None)
    if mark is not None and mark[0] == mark[2] and _live_mark(game) == mark:
        hands = list(enumerate(live, start=1))  # the caller's read, still the game's
    else:
        hands = _live_entries(game)  # (number, entry): no model instance per hand
    _check_numbers([number for number, _ in hands])
    next_number = len(hands) + 1
    if number is not None and number != next_number:
        if 1 <= number < next_number:
            done = game.hands.select_related("recorded_by").get(
                number=number, voided_at__isnull=True)
            raise HandAlreadyRecorded(number, next_number=next_number,
                                      by=done.recorded_by, at=done.recorded_at,
                                      hand=done)
        raise LedgerError(code="wrong_hand_number", next=next_number, number=number)
    if game.status != GameStatus.IN_PROGRESS:
        raise GameNotInProgress(code="game_takes_no_hands", n=game.sequence, status=game.status)
    limits.check_hand_room(len(hands))  # TABLESTAKES_MAX_HANDS_PER_GAME, draws included
    entry = cleaning.check_hand_entry(entry, next_number)
    result = _score_kept(game_record(game, hands=[*(stored for _, stored in hands), entry]))
    by = _user(recorded_by)
    try:
        with transaction.atomic():
            hand = Hand.objects.create(
                game=game, number=next_number, entry=entry, recorded_by=by,
                idempotency_key=key,
            )
    except IntegrityError:
        raise HandAlreadyRecorded(next_number) from None
    _apply_result(game, result, abandoned=False, by=by, memo=f"hand {next_number}")
    reports_attach(game=game, hand=hand)  # the tables' reports it was made from (issue 23)
    return HandOutcome(hand=hand, created=True, result=result)


@transaction.atomic
def hand_correct(*, hand: Hand, entry: dict, corrected_by: User, reason: str,
                 idempotency_key: uuid.UUID | str | None = None) -> HandOutcome:
    """Correct a recorded hand: the old hand is voided (kept, with ``reason`` and who did
    it) and a new hand with the same number replaces it; every later hand is rescored.

    ``reason`` and ``corrected_by`` are required. Works on finished games too (their money is
    reversed and posted again). With an ``idempotency_key`` a repeat returns the first
    correction with ``created=False``.
    """
    reason = cleaning.clean_text(reason or "", what=cleaning.Field("reason"), max_length=1000)
    if not reason:
        raise LedgerError(code="correction_needs_reason")
    by = _user(corrected_by)
    if by is None:
        raise LedgerError(code="correction_needs_who")
    key = uuid.UUID(str(idempotency_key)) if idempotency_key else uuid.uuid4()
    game = _with_seats(_lock_game(hand.game_id))
    entry = entry_as_stored(game, entry)  # typed with today's names
    existing = Hand.objects.filter(idempotency_key=key).first()
    if existing is not None:
        if existing.replaces_id != hand.pk or existing.entry != entry:
            raise IdempotencyKeyReused(code="key_reused")
        return HandOutcome(hand=existing, created=False, result=game_result(game))
    old = Hand.objects.select_for_update().get(pk=hand.pk)
    if old.voided_at is not None:
        raise HandAlreadyRecorded(old.number, replaced=True, hand=old)
    hands = _live_hands(game)
    _check_numbers(hands)
    entry = cleaning.check_hand_entry(entry, old.number)
    entries = [entry if h.pk == old.pk else h.entry for h in hands]
    abandoned = game.status == GameStatus.ABANDONED
    result = _score(game_record(game, hands=entries, abandoned=abandoned))
    old.voided_at = timezone.now()
    old.voided_by = by
    old.void_reason = reason.strip()[:300]
    old.save(update_fields=["voided_at", "voided_by", "void_reason"])
    new = Hand.objects.create(
        game=game, number=old.number, entry=entry, recorded_by=by, idempotency_key=key,
        replaces=old,
    )
    _apply_result(game, result, abandoned=abandoned, by=by,
                  memo=f"hand {old.number} corrected: {reason}")
    return HandOutcome(hand=new, created=True, result=result)


@transaction.atomic
def hand_undo_last(*, game: Game, undone_by: User | None, reason: str = "undone",
                   number: int | None = None) -> Hand:
    """Void the last live hand of ``game`` (kept in the history) and rescore.

    ``number``, if given, must be the last hand's number (so a stale screen cannot undo a
    hand it did not show). A complete game becomes in progress again and its money is
    reversed. Returns the voided hand.
    """
    game = _with_seats(_lock_game(game))
    hands = _live_hands(game)
    _check_numbers(hands)
    if not hands:
        raise LedgerError(code="nothing_to_undo")
    last = hands[-1]
    if number is not None and number != last.number:
        raise LedgerError(code="wrong_last_hand", last=last.number, number=number)
    abandoned = game.status == GameStatus.ABANDONED
    result = _score(game_record(
        game, hands=[h.entry for h in hands[:-1]], abandoned=abandoned))
    by = _user(undone_by)
    last.voided_at = timezone.now()
    last.voided_by = by
    last.void_reason = (cleaning.clean_text(reason or "", what=cleaning.Field("reason"),
                                            max_length=1000) or "undone")[:300]
    last.save(update_fields=["voided_at", "voided_by", "void_reason"])
    _apply_result(game, result, abandoned=abandoned, by=by, memo=f"hand {last.number} undone")
    return last
