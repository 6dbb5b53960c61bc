"""What every service shares: scoring through the core, checking amounts and
currencies, and locking a session then its game (always in that order)."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Max, prefetch_related_objects

from ledger import cleaning
from ledger import rules as core
from ledger.exceptions import (
    LedgerIntegrityError,
    RecordRefused,
    SessionSettled,
    refusal_problem,
)
from ledger.models import (
    Game,
    Hand,
    Session,
)
from ledger.rules.problems import record_problem
from ledger.selectors.evenings import session_is_settled
from ledger.selectors.games import seats_with_players

User = AbstractBaseUser  # any auth user model instance

#: Marks an argument that was not given (None is a meaningful value for stakes).
UNSET: Any = type("Unset", (), {"__repr__": lambda self: "UNSET"})()

MAX_STAKE = Decimal("99999.9999")

def _score(record: dict) -> dict:
    """The core's result for ``record``; its refusal becomes ``RecordRefused``."""
    try:
        return core.score_record(record)
    except core.RecordError as exc:
        raise RecordRefused(list(exc.details)) from exc


def _user(user: User | None) -> User | None:
    """Anonymous users are stored as nobody."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return user


def _refused(code: str, where: str, text: str, *, field: str | None = None,
             player: str | None = None) -> RecordRefused:
    """A refusal of one problem at ``field`` (default: ``where``, as the line opens)."""
    return RecordRefused([record_problem(code, where, text, field=field, player=player)])


def _decimal(value: Any, where: str, *, currency: str, field: str | None = None,
             player: str | None = None) -> Decimal | None:
    """A positive stake with at most 4 decimals (the column's precision), or None;
    ``field``/``player`` say where a refusal goes (default: ``where``)."""
    if value is None:
        return None

    def bad(text: str) -> RecordRefused:
        return _refused("money_invalid", where, text, field=field, player=player)

    if isinstance(value, float) or isinstance(value, bool):
        raise bad(f"write money as a string such as \"0.05\", not {value!r}")
    # the ASCII digits and one point, as every form reads them: Decimal() alone reads
    # '٠.٠٥', '０.０５', '1_0' and '1e3' too
    if isinstance(value, str) and not cleaning.is_plain_decimal(value.strip()):
        raise bad(f"write money with the digits 0-9 and a point, such as \"0.05\", "
                  f"not {value!r}")
    try:
        amount = Decimal(str(value).strip())
    except InvalidOperation:
        raise bad(f"{value!r} is not an amount") from None
    if not amount.is_finite() or amount <= 0:
        raise bad(f"a stake must be above zero, not {value}")
    if amount.as_tuple().exponent < -4 and amount != amount.quantize(Decimal("0.0001")):
        raise bad(f"{value} has more than 4 decimals")
    if amount > MAX_STAKE:
        raise bad(f"{value} is above the largest stake {MAX_STAKE}")
    return amount


def _check_currency(currency: Any, where: str) -> str:
    try:
        return cleaning.clean_currency(currency, what=where)  # ISO 4217 (the core's CURRENCIES)
    except cleaning.Refused as exc:
        raise RecordRefused([refusal_problem(exc, code="currency_invalid", where=where,
                                             without=f"{where}: ", field=where)]) from None


def _ensure_open(session: Session) -> None:
    if session_is_settled(session):
        raise SessionSettled(code="session_settled_games", date=session.date)


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




def _with_seats(game: Game) -> Game:
    """``game`` (just locked) with its seats and their players read once, in one query,
    for everything the service does with them (the names a hand is stored in, the record
    scored, the money posted): only for services that do not change the seats."""
    prefetch_related_objects([game], seats_with_players())
    return game


def _live_hands(game: Game) -> list[Hand]:
    return list(game.hands.filter(voided_at__isnull=True).order_by("number"))


def _live_entries(game: Game) -> list[tuple[int, dict]]:
    """(number, entry) of each live hand in number order: what scoring needs, without
    building a model instance per hand."""
    return list(game.hands.filter(voided_at__isnull=True).order_by("number")
                .values_list("number", "entry"))


def _live_mark(game: Game) -> tuple[int, int, int]:
    """(how many live hands, their highest id, their highest number): the mark of
    ``selectors.games.game_live_entries``, read by one aggregate instead of every entry."""
    found = game.hands.filter(voided_at__isnull=True).aggregate(
        n=Count("id"), last=Max("id"), top=Max("number"))
    return found["n"], found["last"] or 0, found["top"] or 0


def _check_numbers(hands: list[Hand] | list[int]) -> None:
    numbers = [hand if isinstance(hand, int) else hand.number for hand in hands]
    if numbers != list(range(1, len(hands) + 1)):
        raise LedgerIntegrityError(f"live hands are numbered {numbers}, not 1..{len(hands)}")
