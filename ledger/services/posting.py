"""A game's money in the ledger: what a result posts, the batch posted now, and
bringing the two in line (reverse the old batch, post the new one; every batch sums to zero)."""

from __future__ import annotations

from django.db.models import Max
from django.utils import timezone

from ledger.exceptions import (
    ConfirmationRequired,
    LedgerIntegrityError,
)
from ledger.models import (
    BatchKind,
    Game,
    GameStatus,
    MoneyPosting,
    Player,
    PostingBatch,
)
from ledger.rules.money import format_minor
from ledger.selectors.games import game_seats, money_to_minor

from .base import (
    User,
)
from .standings import store_standings


def _status_for(result: dict, abandoned: bool) -> str:
    if abandoned:
        return GameStatus.ABANDONED
    return GameStatus.COMPLETE if result.get("complete") else GameStatus.IN_PROGRESS


def _money_of(result: dict, status: str, currency: str) -> dict[str, int]:
    """The money to post for a result: nothing until the game has ended."""
    if status == GameStatus.IN_PROGRESS:
        return {}
    units = money_to_minor(result.get("money") or {}, currency)
    units = {name: amount for name, amount in units.items() if amount}
    if sum(units.values()) != 0:
        raise LedgerIntegrityError(f"the core's money does not sum to zero: {units}")
    return units


def _posted(game: Game) -> tuple[PostingBatch | None, dict[str, int]]:
    """The game's current money batch (a post not yet reversed) and its amounts."""
    batch = (
        PostingBatch.objects.filter(game=game, kind=BatchKind.POST, reversed_by__isnull=True)
        .order_by("-number")
        .first()
    )
    if batch is None:
        return None, {}
    amounts = {
        posting.player.name: posting.amount_minor
        for posting in batch.postings.select_related("player")
    }
    return batch, amounts


def _money_preview(game: Game, result: dict, status: str) -> tuple[dict[str, int], dict[str, int]]:
    """(money posted now, money the result would post) for the game."""
    _, current = _posted(game)
    return current, _money_of(result, status, game.currency)


def _describe_money(names: list[str], old: dict[str, int], new: dict[str, int],
                    currency: str) -> str:
    parts = [
        f"{name} {format_minor(old.get(name, 0), currency)} -> "
        f"{format_minor(new.get(name, 0), currency)}"
        for name in names if old.get(name, 0) != new.get(name, 0)
    ]
    return ", ".join(parts)


def _apply_result(game: Game, result: dict, *, abandoned: bool, by: User | None,
                  memo: str) -> bool:
    """Bring the game's status and posted money in line with ``result``.

    Returns True if the money changed (a reversal and/or a new post batch were written).
    """
    status = _status_for(result, abandoned)
    batch, current = _posted(game)
    target = _money_of(result, status, game.currency)
    changed = current != target
    players = {seat.player.name: seat.player for seat in game_seats(game)}
    if changed:
        number = (game.posting_batches.aggregate(n=Max("number"))["n"] or 0) + 1
        if batch is not None:
            reversal = PostingBatch.objects.create(
                game=game, number=number, kind=BatchKind.REVERSAL, reverses=batch,
                memo=f"reverses batch {batch.number}: {memo}"[:300], created_by=by,
            )
            number += 1
            _post(reversal, players, {name: -amount for name, amount in current.items()})
        if target:
            new = PostingBatch.objects.create(
                game=game, number=number, kind=BatchKind.POST, memo=memo[:300], created_by=by,
            )
            _post(new, players, target)
    was = game.status
    if status != was:
        game.status = status
        game.finished_at = None if status == GameStatus.IN_PROGRESS else timezone.now()
        game.save(update_fields=["status", "finished_at"])
    # the book's figures, from this same result; an evening's sums count ended games only,
    # so a hand of a game that was and is in progress leaves them as they are
    store_standings(game, result, players, evening={was, status} != {GameStatus.IN_PROGRESS})
    return changed


def _post(batch: PostingBatch, players: dict[str, Player], amounts: dict[str, int]) -> None:
    """Write a batch's postings; they must sum to zero (checked here for every database;
    PostgreSQL checks it again at commit with a deferred constraint trigger)."""
    if sum(amounts.values()) != 0:
        raise LedgerIntegrityError(f"postings of batch {batch.number} do not sum to zero")
    unknown = set(amounts) - set(players)
    if unknown:
        raise LedgerIntegrityError(f"money for players not in the game: {sorted(unknown)}")
    MoneyPosting.objects.bulk_create(
        MoneyPosting(
            batch=batch, game=batch.game, player=players[name], amount_minor=amount,
            currency=batch.game.currency,
        )
        for name, amount in amounts.items() if amount
    )


def _check_finished_change(game: Game, result: dict, status: str, *, confirm: bool,
                           what: str) -> None:
    """Refuse a change that would silently alter a finished game's money."""
    if game.status == GameStatus.IN_PROGRESS or confirm:
        return
    old, new = _money_preview(game, result, status)
    if old != new:
        names = [seat.player.name for seat in game_seats(game)]
        raise ConfirmationRequired(
            f"Game {game.sequence} is {game.get_status_display().lower()}: {what} would change "
            f"its money ({_describe_money(names, old, new, game.currency)}). "
            "Confirm to apply it.",
            old_money=old, new_money=new,
        )
