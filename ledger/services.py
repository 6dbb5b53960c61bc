"""Services: the only code that writes to the ledger.

Every service is one database transaction, takes keyword-only typed arguments, and either
does everything or nothing (a ``LedgerError`` from ``ledger.exceptions`` says why, in words a
scorekeeper can read). Scores and money come only from the scoring core
(``ledger.rules.score_record``) applied to the game record that ``selectors.game_record``
builds from the stored rows: a change is scored first, on the record it would produce, and
written only if the core accepts it.

Writers of a game lock the session row and then the game row (``SELECT ... FOR UPDATE`` on
PostgreSQL), always in that order, so two scorekeepers submitting at once are serialized:
one records the hand, the other gets ``HandAlreadyRecorded``.

Money is posted (``PostingBatch`` + ``MoneyPosting``) only when a game's money changes: when
it ends (complete or abandoned), and again if a correction, undo, stake or rule change alters
it afterwards (the old batch is reversed, a new one posted). Postings are never updated.

Overview (see each docstring):
    table_create, player_get_or_create, session_create
    game_start, game_import, game_change_rules, game_change_stake, game_abandon
    hand_record, hand_correct, hand_undo_last
    session_settle, settlement_payment_mark_paid, session_import
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from . import cleaning, limits, selectors
from . import rules as core
from .exceptions import (
    ConfirmationRequired,
    GameNotInProgress,
    HandAlreadyRecorded,
    IdempotencyKeyReused,
    LedgerError,
    LedgerIntegrityError,
    RecordRefused,
    SessionSettled,
)
from .models import (
    BatchKind,
    ChangeKind,
    Game,
    GameChange,
    GamePlayer,
    GameStatus,
    Hand,
    MoneyPosting,
    PaperSize,
    Player,
    PostingBatch,
    Session,
    SessionSettlement,
    SettlementPayment,
    Table,
)
from .rules.money import fewest_payments, format_minor, minor_exponent

User = AbstractBaseUser  # any auth user model instance

#: Marks an argument that was not given (None is a meaningful value for stakes).
UNSET: Any = type("Unset", (), {"__repr__": lambda self: "UNSET"})()

MAX_STAKE = Decimal("99999.9999")


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

    @property
    def message(self) -> str:
        if self.created:
            return f"Hand {self.hand.number} recorded."
        return f"Hand {self.hand.number} was already recorded; nothing new was stored."


# -- helpers ---------------------------------------------------------------------------------

def _score(record: dict) -> dict:
    """The core's result for ``record``; its refusal becomes ``RecordRefused``."""
    try:
        return core.score_record(record)
    except core.RecordError as exc:
        raise RecordRefused(list(exc.problems)) from exc


def _user(user: User | None) -> User | None:
    """Anonymous users are stored as nobody."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return user


def _decimal(value: Any, where: str, *, currency: str) -> Decimal | None:
    """A positive stake with at most 4 decimals (the column's precision), or None."""
    if value is None:
        return None
    if isinstance(value, float) or isinstance(value, bool):
        raise RecordRefused([f"{where}: write money as a string such as \"0.05\", not {value!r}"])
    try:
        amount = Decimal(str(value))
    except InvalidOperation:
        raise RecordRefused([f"{where}: {value!r} is not an amount"]) from None
    if not amount.is_finite() or amount <= 0:
        raise RecordRefused([f"{where}: a stake must be above zero, not {value}"])
    if amount.as_tuple().exponent < -4 and amount != amount.quantize(Decimal("0.0001")):
        raise RecordRefused([f"{where}: {value} has more than 4 decimals"])
    if amount > MAX_STAKE:
        raise RecordRefused([f"{where}: {value} is above the largest stake {MAX_STAKE}"])
    return amount


def _check_currency(currency: Any, where: str) -> str:
    try:
        return cleaning.clean_currency(currency, what=where)  # ISO 4217 (ledger.currencies)
    except cleaning.Refused as exc:
        raise RecordRefused([exc.message.rstrip(".")]) from None


def _ensure_open(session: Session) -> None:
    if selectors.session_is_settled(session):
        raise SessionSettled(
            f"The session of {session.date} is settled; its games can no longer change."
        )


def _lock_session(session: Session | int) -> Session:
    pk = session.pk if isinstance(session, Session) else session
    return Session.objects.select_for_update().select_related("table").get(pk=pk)


def _lock_game(game: Game | int) -> Game:
    """Lock the game's session, then the game (always in this order), and check that the
    session is still open. Returns fresh rows."""
    pk = game.pk if isinstance(game, Game) else game
    session_id = Game.objects.values_list("session_id", flat=True).get(pk=pk)
    session = _lock_session(session_id)
    _ensure_open(session)
    locked = Game.objects.select_for_update().get(pk=pk)
    locked.session = session
    return locked


def _seats(game: Game) -> list[GamePlayer]:
    return list(game.seats.select_related("player").order_by("seat"))


def _live_hands(game: Game) -> list[Hand]:
    return list(game.hands.filter(voided_at__isnull=True).order_by("number"))


def _check_numbers(hands: list[Hand]) -> None:
    numbers = [hand.number for hand in hands]
    if numbers != list(range(1, len(hands) + 1)):
        raise LedgerIntegrityError(f"live hands are numbered {numbers}, not 1..{len(hands)}")


def _status_for(result: dict, abandoned: bool) -> str:
    if abandoned:
        return GameStatus.ABANDONED
    return GameStatus.COMPLETE if result.get("complete") else GameStatus.IN_PROGRESS


def _money_of(result: dict, status: str, currency: str) -> dict[str, int]:
    """The money to post for a result: nothing until the game has ended."""
    if status == GameStatus.IN_PROGRESS:
        return {}
    units = selectors.money_to_minor(result.get("money") or {}, currency)
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
    if changed:
        players = {seat.player.name: seat.player for seat in _seats(game)}
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
    if status != game.status:
        game.status = status
        game.finished_at = None if status == GameStatus.IN_PROGRESS else timezone.now()
        game.save(update_fields=["status", "finished_at"])
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
        names = [seat.player.name for seat in _seats(game)]
        raise ConfirmationRequired(
            f"Game {game.sequence} is {game.get_status_display().lower()}: {what} would change "
            f"its money ({_describe_money(names, old, new, game.currency)}). "
            "Confirm to apply it.",
            old_money=old, new_money=new,
        )


# -- tables, players, sessions ---------------------------------------------------------------

@transaction.atomic
def table_create(*, name: str, scorekeepers: Sequence[User] = (),
                 paper_size: str = PaperSize.A4) -> Table:
    """Create a table (a group that plays together) kept by ``scorekeepers``."""
    name = cleaning.clean_text(name, what="The table's name", max_length=100, required=True)
    keepers = [user for user in scorekeepers if _user(user)]
    # Names are unique per scorekeeper: another club's "Friday" is none of our business
    # (and saying it exists would tell a stranger so).
    if any(table_named(name=name, scorekeeper=user) for user in keepers or [None]):
        raise LedgerError(f"You already keep a table called {name!r}.")
    table = Table.objects.create(name=name, paper_size=paper_size)
    table.scorekeepers.set(keepers)
    return table


def table_named(*, name: str, scorekeeper: User | None) -> Table | None:
    """The table called ``name`` that ``scorekeeper`` keeps (for None: a table nobody keeps,
    as the command-line imports make without --user)."""
    tables = Table.objects.filter(name=cleaning.clean_text(name, what="The table's name",
                                                           max_length=100))
    if scorekeeper is None:
        tables = tables.filter(scorekeepers__isnull=True)
    else:
        tables = tables.filter(scorekeepers=scorekeeper)
    return tables.order_by("pk").first()


@transaction.atomic
def player_get_or_create(*, table: Table, name: str) -> Player:
    """The table's player called ``name`` (cleaned: ``ledger.cleaning.clean_name``), created
    if new; refused when it is another player's name written differently ('ann', 'Ａnn')."""
    clean = cleaning.clean_name(name, what=f"The name {str(name)[:20]!r}",
                                max_length=Player._meta.get_field("name").max_length)
    existing = Player.objects.filter(table=table, name=clean).first()
    if existing is not None:
        return existing
    twin = cleaning.same_name(clean, table.players.values_list("name", flat=True))
    if twin is not None:
        raise LedgerError(cleaning.clash_message(clean, twin))
    player, _ = Player.objects.get_or_create(table=table, name=clean)
    return player


@transaction.atomic
def session_create(*, table: Table, date: datetime.date | None = None, place: str = "",
                   currency: str = "USD", rate: Decimal | str | None = None,
                   per_points: int = 1, notes: str = "",
                   created_by: User | None = None) -> Session:
    """Open an evening at ``table``; ``rate`` per ``per_points`` is its games' default stake."""
    currency = _check_currency(currency, "currency")
    per_points = cleaning.plain_int(per_points, what="per_points", minimum=1,
                                    maximum=cleaning.MAX_PER_POINTS)
    place = cleaning.clean_text(place or "", what="The place", max_length=200)
    notes = cleaning.clean_text(notes or "", what="The notes", max_length=5000, multiline=True)
    return Session.objects.create(
        table=table, date=date or timezone.localdate(), place=place, currency=currency,
        rate=_decimal(rate, "rate", currency=currency), per_points=per_points, notes=notes,
        created_by=_user(created_by),
    )


# -- games -----------------------------------------------------------------------------------

@transaction.atomic
def game_start(*, session: Session, variant: str, players: Sequence[str | Player],
               started_by: User | None, preset: str = "", rules: Mapping[str, Any] | None = None,
               setup: Mapping[str, Any] | None = None, rate: Any = UNSET,
               per_points: Any = UNSET, ante: Any = None,
               player_stakes: Mapping[str, Any] | None = None) -> Game:
    """Start a game in ``session``.

    ``players`` are names (new names become players of the table) or Player rows, in the
    record's order (cut order for box and 3-player captain, seat order for CAP-IT).
    ``rules`` are overrides of the preset; the game keeps the core's fully resolved settings
    as its snapshot. ``rate``/``per_points`` default to the session's stake (not for
    CAP-IT, which takes ``ante``); ``player_stakes`` maps names to their own stakes.
    ``setup`` is the record's setup (first_dealer, captains/opponents/sitter, sides...).
    Raises RecordRefused with the core's problems if the game cannot be scored.
    """
    names = [player.name if isinstance(player, Player) else player for player in players]
    if rate is UNSET:
        rate = session.rate if variant != "cap-it" else None
    if per_points is UNSET:
        per_points = session.per_points if rate is not None else None
    stakes: dict[str, Any] = {}
    if rate is not None:
        stakes["rate"] = str(rate) if isinstance(rate, Decimal) else rate
        if per_points is not None:
            stakes["per_points"] = per_points
    if ante is not None:
        stakes["ante"] = str(ante) if isinstance(ante, Decimal) else ante
    if player_stakes:
        stakes["players"] = {
            name: str(value) if isinstance(value, Decimal) else value
            for name, value in player_stakes.items()
        }
    record: dict[str, Any] = {"format": selectors.GAME_FORMAT, "variant": variant}
    if preset:
        record["preset"] = preset
    record["rules"] = dict(rules or {})
    record["players"] = names
    if stakes:
        stakes["currency"] = session.currency
        record["stakes"] = stakes
    record["setup"] = dict(setup or {})
    record["abandoned"] = False
    record["hands"] = []
    return _game_create(session=session, record=record, by=_user(started_by), imported=False)


@transaction.atomic
def game_import(*, session: Session, record: dict, imported_by: User | None = None) -> Game:
    """Store a whole game record (formats/game-record.md) in ``session``: all or nothing.

    The hands are stored as they are in the record (recorded_by empty, marking an import);
    the game's status and money follow from the core's result. ``export_game`` of the new
    game writes the record back (with every rule setting resolved).
    """
    cleaning.check_game_record(record)  # shape and text, before any scoring
    limits.check_record_hands(record)
    if record.get("format", selectors.GAME_FORMAT) != selectors.GAME_FORMAT:
        raise RecordRefused([f"format: expected {selectors.GAME_FORMAT}"])
    return _game_create(session=session, record=record, by=_user(imported_by), imported=True)


def _game_create(*, session: Session, record: dict, by: User | None, imported: bool) -> Game:
    session = _lock_session(session)
    _ensure_open(session)
    result = _score(record)  # validates everything the core knows about

    stakes = record.get("stakes") or {}
    currency = _check_currency(stakes.get("currency", session.currency), "stakes.currency")
    if currency != session.currency:
        raise RecordRefused([
            f"stakes.currency: {currency} differs from the session's currency "
            f"{session.currency}"
        ])
    hands = record.get("hands") or []
    setup = record.get("setup") or {}
    if not isinstance(setup, dict) or not isinstance(hands, list):
        raise RecordRefused(["setup must be an object and hands a list"])
    sequence = (session.games.aggregate(n=Max("sequence"))["n"] or 0) + 1
    game = Game.objects.create(
        session=session, sequence=sequence, variant=record["variant"],
        preset=record.get("preset") or "", rules=dict(sorted(result["rules"].items())),
        rate=_decimal(stakes.get("rate"), "stakes.rate", currency=currency),
        per_points=stakes.get("per_points"),
        ante=_decimal(stakes.get("ante"), "stakes.ante", currency=currency),
        currency=currency, setup=setup, started_by=by,
    )
    player_stakes = stakes.get("players") or {}
    GamePlayer.objects.bulk_create(
        GamePlayer(
            game=game, seat=seat,
            player=player_get_or_create(table=session.table, name=name),
            stake=_decimal(player_stakes.get(name), f"stakes.players.{name}", currency=currency),
        )
        for seat, name in enumerate(record["players"])
    )
    now = timezone.now()
    Hand.objects.bulk_create(
        Hand(game=game, number=number, entry=entry, recorded_by=None if imported else by,
             recorded_at=now)
        for number, entry in enumerate(hands, start=1)
    )
    # Score again from the stored rows: the snapshot must reproduce the record exactly.
    abandoned = bool(record.get("abandoned", False))
    stored = _score(selectors.game_record(game, abandoned=abandoned))
    for key in ("hands", "totals", "complete", "winner", "money"):
        if stored.get(key) != result.get(key):
            raise LedgerIntegrityError(f"the stored game scores differently ({key})")
    _apply_result(game, stored, abandoned=abandoned, by=by,
                  memo="imported" if imported else "game started")
    return game


@transaction.atomic
def game_change_rules(*, game: Game, changes: Mapping[str, Any], changed_by: User | None,
                      reason: str = "", confirm: bool = False) -> dict:
    """Change rule settings of a game (e.g. ``{"target": 150}``) and rescore every hand.

    Each changed setting is recorded as a GameChange. On a finished game a change that
    would alter its money raises ConfirmationRequired unless ``confirm`` is True.
    Returns the core's new result.
    """
    reason = cleaning.clean_text(reason or "", what="The reason", max_length=300)
    game = _lock_game(game)
    unknown = sorted(set(changes) - set(game.rules))
    if unknown:
        raise RecordRefused([f"rules.{name}: unknown setting" for name in unknown])
    old_rules = dict(game.rules)
    game.rules = {**old_rules, **changes}
    abandoned = game.status == GameStatus.ABANDONED
    result = _score(selectors.game_record(game))
    game.rules = dict(sorted(result["rules"].items()))
    status = _status_for(result, abandoned)
    _check_finished_change(game, result, status, confirm=confirm, what="this rule change")
    game.save(update_fields=["rules"])
    changed = _apply_result(game, result, abandoned=abandoned, by=_user(changed_by),
                            memo=f"rules changed: {reason}".strip(": "))
    after = len(_live_hands(game))
    GameChange.objects.bulk_create(
        GameChange(game=game, kind=ChangeKind.RULE, name=name, old=old_rules.get(name),
                   new=game.rules.get(name), reason=reason, after_hand=after,
                   changed_by=_user(changed_by), money_changed=changed)
        for name in sorted(changes) if old_rules.get(name) != game.rules.get(name)
    )
    return result


@transaction.atomic
def game_change_stake(*, game: Game, changed_by: User | None, rate: Any = UNSET,
                      per_points: Any = UNSET, ante: Any = UNSET,
                      player_stakes: Mapping[str, Any] | None = None, reason: str = "",
                      confirm: bool = False) -> dict:
    """Correct the stakes of a game: ``rate``, ``per_points``, ``ante`` and/or players' own
    stakes (``{"Ann": "0.02"}``; None removes a player's own stake). Recorded as
    GameChange rows and rescored; on a finished game a change of money raises
    ConfirmationRequired unless ``confirm``. Returns the core's new result."""
    reason = cleaning.clean_text(reason or "", what="The reason", max_length=300)
    game = _lock_game(game)
    seats = _seats(game)
    by = _user(changed_by)
    changes: list[tuple[str, Any, Any]] = []

    def text(value):
        return None if value is None else selectors.decimal_text(value, game.currency)

    if rate is not UNSET:
        new = _decimal(rate, "rate", currency=game.currency)
        if new != game.rate:
            changes.append(("rate", text(game.rate), text(new)))
            game.rate = new
    if per_points is not UNSET:
        if per_points is not None and (not isinstance(per_points, int) or per_points <= 0
                                       or per_points > cleaning.MAX_PER_POINTS):
            raise RecordRefused([f"per_points: a whole number from 1 to "
                                 f"{cleaning.MAX_PER_POINTS}"])
        if per_points != game.per_points:
            changes.append(("per_points", game.per_points, per_points))
            game.per_points = per_points
    if ante is not UNSET:
        new = _decimal(ante, "ante", currency=game.currency)
        if new != game.ante:
            changes.append(("ante", text(game.ante), text(new)))
            game.ante = new
    by_name = {seat.player.name: seat for seat in seats}
    changed_seats = []
    for name, value in (player_stakes or {}).items():
        if name not in by_name:
            raise RecordRefused([f"stakes.players: {name} does not play in this game"])
        seat = by_name[name]
        new = _decimal(value, f"stakes.players.{name}", currency=game.currency)
        if new != seat.stake:
            changes.append((f"stake of {name}", text(seat.stake), text(new)))
            seat.stake = new
            changed_seats.append(seat)
    if not changes:
        return _score(selectors.game_record(game, seats=seats))

    abandoned = game.status == GameStatus.ABANDONED
    result = _score(selectors.game_record(game, seats=seats))
    status = _status_for(result, abandoned)
    _check_finished_change(game, result, status, confirm=confirm, what="this stake change")
    game.save(update_fields=["rate", "per_points", "ante"])
    for seat in changed_seats:
        seat.save(update_fields=["stake"])
    money_changed = _apply_result(game, result, abandoned=abandoned, by=by,
                                  memo=f"stake changed: {reason}".strip(": "))
    after = len(_live_hands(game))
    GameChange.objects.bulk_create(
        GameChange(game=game, kind=ChangeKind.STAKE, name=name, old=old, new=new,
                   reason=reason, after_hand=after, changed_by=by, money_changed=money_changed)
        for name, old, new in changes
    )
    return result


@transaction.atomic
def game_abandon(*, game: Game, abandoned_by: User | None, reason: str = "") -> dict:
    """Stop a game before its target: it settles on hand points (RULES §6) and its money is
    posted. Refused for a game that is already complete or abandoned."""
    game = _lock_game(game)
    if game.status != GameStatus.IN_PROGRESS:
        raise GameNotInProgress(f"Game {game.sequence} is already {game.get_status_display()}.")
    reason = cleaning.clean_text(reason or "", what="The reason", max_length=1000)[:300]
    result = _score(selectors.game_record(game, abandoned=True))
    by = _user(abandoned_by)
    changed = _apply_result(game, result, abandoned=True, by=by,
                            memo=f"abandoned: {reason}".strip(": "))
    GameChange.objects.create(
        game=game, kind=ChangeKind.ABANDON, name="status", old=GameStatus.IN_PROGRESS,
        new=GameStatus.ABANDONED, reason=reason, after_hand=len(_live_hands(game)),
        changed_by=by, money_changed=changed,
    )
    return result


# -- hands -----------------------------------------------------------------------------------

def _check_entry(entry: Any, number: int) -> dict:
    return cleaning.check_hand_entry(entry, number)  # no unknown fields, no nested junk


@transaction.atomic
def hand_record(*, game: Game, entry: dict, recorded_by: User | None,
                idempotency_key: uuid.UUID | str, number: int | None = None) -> HandOutcome:
    """Record the next hand of ``game`` exactly as entered (the hand object of the record).

    Idempotent: a submission whose ``idempotency_key`` was already recorded stores nothing
    and returns that hand with ``created=False`` (a double tap, a retried request). The key
    reused for a different hand raises IdempotencyKeyReused.

    ``number`` is the hand number the scorekeeper's screen showed. If that hand is already
    recorded (another scorekeeper was quicker) this raises HandAlreadyRecorded, so two
    phones entering the same hand store it once. Without ``number`` the hand is appended.

    The whole game is rescored; a RecordRefused names the problem and nothing is stored.
    When the hand ends the game, its money is posted.
    """
    key = uuid.UUID(str(idempotency_key))
    game = _lock_game(game)
    existing = Hand.objects.filter(idempotency_key=key).first()
    if existing is not None:
        if existing.game_id != game.pk or existing.entry != entry:
            raise IdempotencyKeyReused(
                "This submission key was already used for another hand; reload and try again."
            )
        return HandOutcome(hand=existing, created=False, result=selectors.game_result(game))
    hands = _live_hands(game)
    _check_numbers(hands)
    next_number = len(hands) + 1
    if number is not None and number != next_number:
        if 1 <= number < next_number:
            done = hands[number - 1]
            who = f" by {done.recorded_by}" if done.recorded_by else ""
            raise HandAlreadyRecorded(
                f"Hand {number} is already recorded{who} at "
                f"{timezone.localtime(done.recorded_at):%H:%M}; the next hand is "
                f"{next_number}.",
                hand=done,
            )
        raise LedgerError(f"The next hand of this game is {next_number}, not {number}.")
    if game.status != GameStatus.IN_PROGRESS:
        raise GameNotInProgress(
            f"Game {game.sequence} is {game.get_status_display().lower()}; it takes no more "
            "hands."
        )
    limits.check_hand_room(len(hands))  # TABLESTAKES_MAX_HANDS_PER_GAME, draws included
    entry = _check_entry(entry, next_number)
    result = _score(selectors.game_record(game, hands=[*(h.entry for h in hands), entry]))
    by = _user(recorded_by)
    try:
        with transaction.atomic():
            hand = Hand.objects.create(
                game=game, number=next_number, entry=entry, recorded_by=by,
                idempotency_key=key,
            )
    except IntegrityError:
        raise HandAlreadyRecorded(f"Hand {next_number} is already recorded.") from None
    _apply_result(game, result, abandoned=False, by=by, memo=f"hand {next_number}")
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
    reason = cleaning.clean_text(reason or "", what="The reason", max_length=1000)
    if not reason:
        raise LedgerError("A correction needs a reason.")
    by = _user(corrected_by)
    if by is None:
        raise LedgerError("A correction must say who made it.")
    key = uuid.UUID(str(idempotency_key)) if idempotency_key else uuid.uuid4()
    game = _lock_game(hand.game_id)
    existing = Hand.objects.filter(idempotency_key=key).first()
    if existing is not None:
        if existing.replaces_id != hand.pk or existing.entry != entry:
            raise IdempotencyKeyReused("This submission key was already used for another hand.")
        return HandOutcome(hand=existing, created=False, result=selectors.game_result(game))
    old = Hand.objects.select_for_update().get(pk=hand.pk)
    if old.voided_at is not None:
        raise HandAlreadyRecorded(
            f"Hand {old.number} was already corrected or undone; reload the game.", hand=old
        )
    hands = _live_hands(game)
    _check_numbers(hands)
    entry = _check_entry(entry, old.number)
    entries = [entry if h.pk == old.pk else h.entry for h in hands]
    abandoned = game.status == GameStatus.ABANDONED
    result = _score(selectors.game_record(game, hands=entries, abandoned=abandoned))
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
    game = _lock_game(game)
    hands = _live_hands(game)
    _check_numbers(hands)
    if not hands:
        raise LedgerError("This game has no hand to undo.")
    last = hands[-1]
    if number is not None and number != last.number:
        raise LedgerError(f"The last hand is {last.number}, not {number}; reload the game.")
    abandoned = game.status == GameStatus.ABANDONED
    result = _score(selectors.game_record(
        game, hands=[h.entry for h in hands[:-1]], abandoned=abandoned))
    by = _user(undone_by)
    last.voided_at = timezone.now()
    last.voided_by = by
    last.void_reason = (cleaning.clean_text(reason or "", what="The reason", max_length=1000)
                        or "undone")[:300]
    last.save(update_fields=["voided_at", "voided_by", "void_reason"])
    _apply_result(game, result, abandoned=abandoned, by=by, memo=f"hand {last.number} undone")
    return last


# -- settlement ------------------------------------------------------------------------------

@transaction.atomic
def session_settle(*, session: Session, settled_by: User | None) -> SessionSettlement:
    """Settle the evening: every player's net over all its games (every variant together)
    and the fewest payments that square it (``ledger.rules.money.fewest_payments``).

    Refused while a game is in progress (finish or abandon it first) or if the session is
    already settled. Before settling, every game's posted money is checked against the
    core's score of its hands. After this the session's games can no longer change.
    The number of queries does not depend on the number of hands or games.
    """
    session = _lock_session(session)
    _ensure_open(session)
    games = selectors.session_games(session)
    open_games = [game.sequence for game in games if game.status == GameStatus.IN_PROGRESS]
    if open_games:
        listed = ", ".join(str(n) for n in open_games)
        raise LedgerError(f"Finish or abandon game {listed} before settling the session.")
    nets = selectors.session_nets(session, games)
    per_game = _posted_by_game(session)
    for game in games:
        expected = {name: amount for name, amount in selectors.money_to_minor(
            _score(selectors.game_record(game))["money"], game.currency).items() if amount}
        if per_game.get(game.pk, {}) != expected:
            raise LedgerIntegrityError(
                f"Game {game.sequence}: its posted money differs from the score of its hands."
            )
    if sum(nets.values()) != 0:
        raise LedgerIntegrityError("the session's nets do not sum to zero")
    players = {player.name: player for player in selectors.session_players(session, games)}
    settlement = SessionSettlement.objects.create(
        session=session, currency=session.currency, nets=nets, settled_by=_user(settled_by),
    )
    SettlementPayment.objects.bulk_create(
        SettlementPayment(settlement=settlement, order=order, payer=players[payment.payer],
                          payee=players[payment.payee], amount_minor=payment.units)
        for order, payment in enumerate(fewest_payments(nets), start=1)
    )
    return settlement


def _posted_by_game(session: Session) -> dict[int, dict[str, int]]:
    """Each game's current posted money (sum of its postings), one query for the session."""
    from django.db.models import Sum

    rows = (
        MoneyPosting.objects.filter(game__session=session)
        .values("game_id", "player__name")
        .annotate(total=Sum("amount_minor"))
        .values_list("game_id", "player__name", "total")
    )
    money: dict[int, dict[str, int]] = {}
    for game_id, name, total in rows:
        if total:
            money.setdefault(game_id, {})[name] = int(total)
    return money


@transaction.atomic
def settlement_payment_mark_paid(*, payment: SettlementPayment, paid_by: User | None,
                                 paid: bool = True) -> SettlementPayment:
    """Mark a settlement payment as paid (or, with ``paid=False``, not paid after all).
    Only the paid mark changes; the settlement's amounts never do."""
    payment = SettlementPayment.objects.select_for_update().get(pk=payment.pk)
    if paid == payment.is_paid:
        return payment
    payment.paid_at = timezone.now() if paid else None
    payment.paid_by = _user(paid_by) if paid else None
    payment.save(update_fields=["paid_at", "paid_by"])
    return payment


# -- sessions as records ---------------------------------------------------------------------

@transaction.atomic
def session_import(*, record: dict, imported_by: User | None = None) -> Session:
    """Store a whole evening (``tablestakes.session/1``, as ``export_session`` writes it):
    the table (found or created by name), the session, every game, and the settlement with
    its paid marks if the record has one. All or nothing."""
    cleaning.check_session_record(record)  # shape and text, before any scoring
    if record.get("format") != selectors.SESSION_FORMAT:
        raise RecordRefused([f"format: expected {selectors.SESSION_FORMAT}"])
    limits.check_record_hands(record)
    try:
        date = datetime.date.fromisoformat(record["date"])
    except (KeyError, TypeError, ValueError):
        raise RecordRefused(["date: expected a date such as 2025-11-21"]) from None
    table_name = record.get("table")
    if not isinstance(table_name, str) or not table_name.strip():
        raise RecordRefused(["table: a table name is required"])
    table = table_named(name=table_name, scorekeeper=_user(imported_by))
    if table is None:
        table = table_create(name=table_name, scorekeepers=[imported_by] if imported_by else [])
    stakes = record.get("stakes") or {}
    session = session_create(
        table=table, date=date, place=record.get("place") or "",
        currency=record.get("currency") or "USD", rate=stakes.get("rate"),
        per_points=stakes.get("per_points", 1), notes=record.get("notes") or "",
        created_by=imported_by,
    )
    for name in record.get("players") or []:
        player_get_or_create(table=table, name=name)
    games = record.get("games") or []
    if not isinstance(games, list):
        raise RecordRefused(["games: expected a list of game records"])
    for index, game_record in enumerate(games, start=1):
        try:
            game_import(session=session, record=game_record, imported_by=imported_by)
        except RecordRefused as exc:
            raise RecordRefused([f"games[{index}]: {problem}" for problem in exc.problems]) from exc
    settled = record.get("settlement")
    if settled:
        _import_settlement(session, settled, imported_by)
    return session


def _import_settlement(session: Session, settled: dict, by: User | None) -> None:
    settlement = session_settle(session=session, settled_by=by)
    exponent = minor_exponent(settlement.currency)
    payments = list(settlement.payments.select_related("payer", "payee"))
    planned = [
        (p.payer.name, p.payee.name, format_minor(p.amount_minor, settlement.currency))
        for p in payments
    ]
    wanted = [(p.get("from"), p.get("to"), p.get("amount")) for p in settled.get("payments", [])]
    if planned != wanted:
        raise RecordRefused([
            "settlement: the record's payments differ from the settlement of its games "
            f"({wanted} vs {planned}, {exponent} decimals)"
        ])
    for payment, data in zip(payments, settled.get("payments", []), strict=True):
        if data.get("paid"):
            settlement_payment_mark_paid(payment=payment, paid_by=by)
