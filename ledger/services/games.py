"""Games: start one, import one from its record, change its stakes or rules, abandon it,
delete one started by mistake (no hand yet)."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from ledger import cleaning, limits
from ledger.exceptions import (
    ConfirmationRequired,
    GameNotEmpty,
    GameNotInProgress,
    LedgerIntegrityError,
    RecordRefused,
    SessionSettled,
)
from ledger.models import (
    ChangeKind,
    EveningStanding,
    Game,
    GameChange,
    GamePlayer,
    GameStanding,
    GameStatus,
    Hand,
    Player,
    PostingBatch,
    ReportLink,
    Session,
    ShareLink,
    TableReport,
)
from ledger.rules.facts import ante_staked
from ledger.rules.money import decimal_text
from ledger.rules.problems import record_problem
from ledger.rules.settings import CLUB_DEFAULTS
from ledger.selectors.evenings import session_is_settled
from ledger.selectors.games import GAME_FORMAT, game_posted_money, game_record, game_seats

from .base import (
    UNSET,
    User,
    _check_currency,
    _decimal,
    _ensure_open,
    _live_hands,
    _lock_game,
    _lock_session,
    _refused,
    _score,
    _user,
)
from .posting import (
    _apply_result,
    _check_finished_change,
    _describe_money,
    _status_for,
)
from .standings import store_evenings
from .tables import players_get_or_create

log = logging.getLogger(__name__)

# -- games -----------------------------------------------------------------------------------

@transaction.atomic
def game_start(*, session: Session, variant: str, players: Sequence[str | Player],
               started_by: User | None, preset: str = "", rules: Mapping[str, Any] | None = None,
               setup: Mapping[str, Any] | None = None, rate: Any = UNSET,
               per_points: Any = UNSET, ante: Any = None, lump_sum_stake: Any = None,
               player_stakes: Mapping[str, Any] | None = None) -> Game:
    """Start a game in ``session``.

    ``players`` are names (new names become players of the table) or Player rows, in the
    record's order (cut order for box and 3-player captain, seat order for CAP-IT).
    ``rules`` are overrides of the preset; the game keeps the core's fully resolved settings
    as its snapshot. ``rate``/``per_points`` default to the session's stake (not for
    CAP-IT, which takes ``ante``); ``lump_sum_stake`` is a lump-sum game's or a match's
    amount (RULES 3.10); ``player_stakes`` maps names to their own stakes.
    ``setup`` is the record's setup (first_dealer, captains/opponents/sitter, sides...).
    Raises RecordRefused with the core's problems if the game cannot be scored.
    """
    names = [player.name if isinstance(player, Player) else player for player in players]
    if rate is UNSET:
        rate = None if ante_staked(variant) else session.rate
    if per_points is UNSET:
        per_points = session.per_points if rate is not None else None
    stakes: dict[str, Any] = {}
    if rate is not None:
        stakes["rate"] = str(rate) if isinstance(rate, Decimal) else rate
        if per_points is not None:
            stakes["per_points"] = per_points
    if ante is not None:
        stakes["ante"] = str(ante) if isinstance(ante, Decimal) else ante
    if lump_sum_stake is not None:
        stakes["lump_sum_stake"] = (str(lump_sum_stake) if isinstance(lump_sum_stake, Decimal)
                                    else lump_sum_stake)
    if player_stakes:
        stakes["players"] = {
            name: str(value) if isinstance(value, Decimal) else value
            for name, value in player_stakes.items()
        }
    record: dict[str, Any] = {"format": GAME_FORMAT, "variant": variant}
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
    """Store a whole game record (docs/game-record.md) in ``session``: all or nothing.

    The hands are stored as they are in the record (recorded_by empty, marking an import);
    the game's status and money follow from the core's result. ``export_game`` of the new
    game writes the record back (with every rule setting resolved).
    """
    cleaning.check_game_record(record)  # shape and text, before any scoring
    limits.check_record_hands(record)
    if record.get("format", GAME_FORMAT) != GAME_FORMAT:
        raise RecordRefused([f"format: expected {GAME_FORMAT}"])
    return _game_create(session=session, record=record, by=_user(imported_by), imported=True)


def _game_create(*, session: Session, record: dict, by: User | None, imported: bool) -> Game:
    session = _lock_session(session)
    _ensure_open(session)
    result = _score(record)  # validates everything the core knows about

    stakes = record.get("stakes") or {}
    currency = _check_currency(stakes.get("currency", session.currency), "stakes.currency")
    if currency != session.currency:
        raise RecordRefused([
            f"stakes.currency: {currency} differs from the evening's currency "
            f"{session.currency}"
        ])
    hands = record.get("hands") or []
    setup = record.get("setup") or {}
    if not isinstance(setup, dict) or not isinstance(hands, list):
        raise RecordRefused(["setup must be an object and hands a list"])
    sequence = (session.games.aggregate(n=Max("sequence"))["n"] or 0) + 1
    abandoned = bool(record.get("abandoned", False))
    # an abandoned record is stored abandoned from the start: the record says so (a game
    # abandoned here gets its abandon change; PostgreSQL refuses a running game abandoned
    # without one, migration 0020)
    ended = {"status": GameStatus.ABANDONED, "finished_at": timezone.now()} if abandoned else {}
    game = Game.objects.create(
        session=session, sequence=sequence, variant=record["variant"],
        preset=record.get("preset") or "", rules=dict(sorted(result["rules"].items())),
        rate=_decimal(stakes.get("rate"), "stakes.rate", currency=currency),
        per_points=stakes.get("per_points"),
        ante=_decimal(stakes.get("ante"), "stakes.ante", currency=currency),
        lump_sum_stake=_decimal(stakes.get("lump_sum_stake"), "stakes.lump_sum_stake",
                                currency=currency),
        currency=currency, setup=setup, started_by=by, **ended,
    )
    player_stakes = stakes.get("players") or {}
    seated = [(seat, name, player) for seat, (name, player) in enumerate(zip(
        record["players"],
        players_get_or_create(table=session.table, names=record["players"]), strict=True))]
    GamePlayer.objects.bulk_create(
        GamePlayer(
            game=game, seat=seat, player=player, played_as=player.name,
            stake=_decimal(player_stakes.get(name), f"stakes.players.{name}", currency=currency,
                           field="stakes.players", player=name),
        )
        for seat, name, player in seated
    )
    now = timezone.now()
    Hand.objects.bulk_create(
        Hand(game=game, number=number, entry=entry, recorded_by=None if imported else by,
             recorded_at=now)
        for number, entry in enumerate(hands, start=1)
    )
    # Score again from the stored rows: the snapshot must reproduce the record exactly.
    stored = _score(game_record(game, abandoned=abandoned))
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
    reason = cleaning.clean_text(reason or "", what=cleaning.Field("reason"), max_length=300)
    game = _lock_game(game)
    # a club format's setting a game's rules do not list yet (a gin game started without
    # it, RULES 3.10) is known: the core checks its value
    unknown = sorted(set(changes) - set(game.rules) - set(CLUB_DEFAULTS))
    if unknown:
        raise RecordRefused([record_problem("setting_unknown", f"rules.{name}",
                                            "unknown setting") for name in unknown])
    old_rules = dict(game.rules)
    game.rules = {**old_rules, **changes}
    abandoned = game.status == GameStatus.ABANDONED
    result = _score(game_record(game))
    game.rules = dict(sorted(result["rules"].items()))
    status = _status_for(result, abandoned)
    _check_finished_change(game, result, status, confirm=confirm, what="this rule change")
    game.save(update_fields=["rules"])
    changed = _apply_result(game, result, abandoned=abandoned, by=_user(changed_by),
                            memo=f"rules changed: {reason}".strip(": "))
    after = len(_live_hands(game))
    GameChange.objects.bulk_create(
        GameChange(game=game, kind=ChangeKind.RULE, name=name,
                   old=old_rules.get(name, CLUB_DEFAULTS.get(name)),
                   new=game.rules.get(name), reason=reason, after_hand=after,
                   changed_by=_user(changed_by), money_changed=changed)
        for name in sorted(changes) if old_rules.get(name) != game.rules.get(name)
    )
    return result


@transaction.atomic
def game_change_stake(*, game: Game, changed_by: User | None, rate: Any = UNSET,
                      per_points: Any = UNSET, ante: Any = UNSET, lump_sum_stake: Any = UNSET,
                      player_stakes: Mapping[str, Any] | None = None, reason: str = "",
                      confirm: bool = False) -> dict:
    """Correct the stakes of a game: ``rate``, ``per_points``, ``ante``,
    ``lump_sum_stake`` and/or players' own
    stakes (``{"Ann": "0.02"}``; None removes a player's own stake). Recorded as
    GameChange rows and rescored; on a finished game a change of money raises
    ConfirmationRequired unless ``confirm``. Returns the core's new result."""
    reason = cleaning.clean_text(reason or "", what=cleaning.Field("reason"), max_length=300)
    game = _lock_game(game)
    seats = game_seats(game)
    by = _user(changed_by)
    changes: list[tuple[str, Any, Any]] = []

    def text(value):
        return None if value is None else decimal_text(value, game.currency)

    if rate is not UNSET:
        new = _decimal(rate, "rate", currency=game.currency, field="stakes.rate")
        if new != game.rate:
            changes.append(("rate", text(game.rate), text(new)))
            game.rate = new
    if per_points is not UNSET:
        if per_points is not None and (not isinstance(per_points, int) or per_points <= 0
                                       or per_points > cleaning.MAX_PER_POINTS):
            raise _refused("per_points_invalid", "per_points",
                           f"a whole number from 1 to {cleaning.MAX_PER_POINTS}",
                           field="stakes.per_points")
        if per_points != game.per_points:
            changes.append(("per_points", game.per_points, per_points))
            game.per_points = per_points
    if ante is not UNSET:
        new = _decimal(ante, "ante", currency=game.currency, field="stakes.ante")
        if new != game.ante:
            changes.append(("ante", text(game.ante), text(new)))
            game.ante = new
    if lump_sum_stake is not UNSET:
        new = _decimal(lump_sum_stake, "lump_sum_stake", currency=game.currency,
                       field="stakes.lump_sum_stake")
        if new != game.lump_sum_stake:
            changes.append(("lump_sum_stake", text(game.lump_sum_stake), text(new)))
            game.lump_sum_stake = new
    by_name = {seat.player.name: seat for seat in seats}
    changed_seats = []
    for name, value in (player_stakes or {}).items():
        if name not in by_name:
            raise _refused("stake_player_unknown", "stakes.players",
                           f"{name} does not play in this game", player=name)
        seat = by_name[name]
        new = _decimal(value, f"stakes.players.{name}", currency=game.currency,
                       field="stakes.players", player=name)
        if new != seat.stake:
            changes.append((f"stake of {name}", text(seat.stake), text(new)))
            seat.stake = new
            changed_seats.append(seat)
    if not changes:
        return _score(game_record(game, seats=seats))

    abandoned = game.status == GameStatus.ABANDONED
    result = _score(game_record(game, seats=seats))
    status = _status_for(result, abandoned)
    _check_finished_change(game, result, status, confirm=confirm, what="this stake change")
    game.save(update_fields=["rate", "per_points", "ante", "lump_sum_stake"])
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
        raise GameNotInProgress(code="game_not_in_progress", n=game.sequence,
                                status=game.status)
    reason = cleaning.clean_text(reason or "", what=cleaning.Field("reason"), max_length=1000)[:300]
    result = _score(game_record(game, abandoned=True))
    by = _user(abandoned_by)
    changed = _apply_result(game, result, abandoned=True, by=by,
                            memo=f"abandoned: {reason}".strip(": "))
    GameChange.objects.create(
        game=game, kind=ChangeKind.ABANDON, name="status", old=GameStatus.IN_PROGRESS,
        new=GameStatus.ABANDONED, reason=reason, after_hand=len(_live_hands(game)),
        changed_by=by, money_changed=changed,
    )
    return result


@transaction.atomic
def game_delete(*, game: Game, deleted_by: User | None) -> int:
    """Delete a game started by mistake: one with no hand at all (none recorded, none
    undone or corrected), no money, no table report, in an evening not settled; in
    progress or abandoned. Returns its number. Refused with the reason otherwise: a game
    with any of these is history, and history is never deleted.

    What goes, in this order, in one transaction: its rows in the book's cache
    (``GameStanding``; the evening's ``EveningStanding`` sums are rebuilt), its report and
    share links (they have no report), its seats (``GamePlayer``), the game, and its
    ``GameChange`` rows (an abandon, a stake or rule change made before the first hand:
    they describe a game nobody played). Nothing else refers to a game with no hand. The
    games after it keep their numbers (the paper may have them). The players it made stay
    on the table's list. On PostgreSQL, migration 0021 lets a game change be deleted only
    after its game (0012 refused any delete)."""
    session_id = Game.objects.values_list("session_id", flat=True).get(pk=game.pk)
    session = _lock_session(session_id)
    locked = Game.objects.select_for_update().get(pk=game.pk)
    n = locked.sequence
    if session_is_settled(session):
        raise SessionSettled(code="game_in_settled_evening", n=n)
    if Hand.objects.filter(game=locked).exists():
        raise GameNotEmpty(code="game_has_hands", n=n)
    if PostingBatch.objects.filter(game=locked).exists():
        raise GameNotEmpty(code="game_has_money", n=n)
    if TableReport.objects.filter(game=locked).exists():
        raise GameNotEmpty(code="game_has_reports", n=n)
    GameStanding.objects.filter(game=locked).delete()
    store_evenings(GameStanding, EveningStanding, [session.pk])
    ReportLink.objects.filter(game=locked).delete()
    ShareLink.objects.filter(game=locked).delete()
    seats = list(GamePlayer.objects.filter(game=locked).values_list("pk", flat=True))
    changes = GameChange.objects.filter(game=locked)
    ids = list(changes.values_list("pk", flat=True))
    # the game first, then its seats and changes: on PostgreSQL a trigger keeps a game's
    # seats (0020) and its changes (0021) while the game is there; the foreign keys are
    # checked at commit, when all are gone
    Game.objects.filter(pk=locked.pk)._raw_delete(Game.objects.db)
    GamePlayer.objects.filter(pk__in=seats)._raw_delete(GamePlayer.objects.db)
    GameChange.objects.filter(pk__in=ids)._raw_delete(GameChange.objects.db)
    # nothing of the game stays to say who deleted it: the server's log does
    log.info("game %s (game %s of evening %s, %s, %s) deleted by %s", locked.pk, locked.sequence,
             session.pk, locked.variant, locked.status, _user(deleted_by))
    return locked.sequence


def game_change_settings(*, game: Game, changed_by: User | None, reason: str = "",
                         stake: Mapping[str, Any] | None = None,
                         rules: Mapping[str, Any] | None = None,
                         confirm_money: Mapping[str, int] | None = None) -> list[GameChange]:
    """Change a game's stakes (the keyword arguments of ``game_change_stake``) and rule
    settings (``changes`` of ``game_change_rules``) together: both or neither.

    On a finished game whose money the changes would alter, nothing is written and
    ConfirmationRequired carries the money before and after all of them; the change goes
    through once ``confirm_money`` is exactly that money after (so a confirmation given for
    other amounts asks again). Returns the GameChange rows written.
    """
    with transaction.atomic():
        game = _lock_game(game)
        finished = game.status != GameStatus.IN_PROGRESS
        before = game_posted_money(game)
        last = game.changes.order_by("-pk").values_list("pk", flat=True).first() or 0
        if stake:
            game_change_stake(game=game, changed_by=changed_by, reason=reason, confirm=True,
                              **stake)
        if rules:
            game_change_rules(game=game, changes=rules, changed_by=changed_by, reason=reason,
                              confirm=True)
        after = game_posted_money(game)
        if finished and after != before and dict(confirm_money or {}) != after:
            names = [seat.player.name for seat in game_seats(game)]
            raise ConfirmationRequired(
                f"Game {game.sequence} is {game.get_status_display().lower()}: this change "
                f"would change its money ({_describe_money(names, before, after, game.currency)})"
                ". Confirm to apply it.", old_money=before, new_money=after)
        return list(game.changes.filter(pk__gt=last).select_related("changed_by"))
