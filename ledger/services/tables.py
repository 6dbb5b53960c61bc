"""Tables (a group that plays together), their players, and their evenings (sessions)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from decimal import Decimal

from django.db import transaction

from ledger import cleaning, limits
from ledger.clock import table_today
from ledger.exceptions import (
    LedgerError,
    SessionSettled,
)
from ledger.models import (
    DEFAULT_TIME_ZONE,
    Language,
    PaperSize,
    Player,
    Session,
    Table,
)
from ledger.selectors.evenings import session_is_settled

from .base import (
    UNSET,
    User,
    _check_currency,
    _decimal,
    _lock_session,
    _user,
)

# -- tables, players, sessions ---------------------------------------------------------------

@transaction.atomic
def table_create(*, name: str, scorekeepers: Sequence[User] = (),
                 paper_size: str = PaperSize.AUTO, language: str = Language.EN,
                 time_zone: str = DEFAULT_TIME_ZONE) -> Table:
    """Create a table (a group that plays together) kept by ``scorekeepers``; its paper and
    share pages speak ``language``, its clock is ``time_zone`` (an IANA name)."""
    name = cleaning.clean_text(name, what=cleaning.Field("table_name"), max_length=100,
                               required=True)
    language = cleaning.clean_language(language, what=cleaning.Field("table_language"))
    time_zone = cleaning.clean_time_zone(time_zone, what=cleaning.Field("table_time_zone"))
    keepers = [user for user in scorekeepers if _user(user)]
    # Names are unique per scorekeeper: another club's "Friday" is none of our business
    # (and saying it exists would tell a stranger so).
    if any(table_named(name=name, scorekeeper=user) for user in keepers or [None]):
        raise LedgerError(code="table_kept_already", name=name)
    table = Table.objects.create(name=name, paper_size=paper_size, language=language,
                                 time_zone=time_zone)
    table.scorekeepers.set(keepers)
    return table


def table_named(*, name: str, scorekeeper: User | None) -> Table | None:
    """The table called ``name`` that ``scorekeeper`` keeps (for None: a table nobody keeps,
    as the command-line imports make without --user)."""
    tables = Table.objects.filter(name=cleaning.clean_text(name, what=cleaning.Field("table_name"),
                                                           max_length=100))
    if scorekeeper is None:
        tables = tables.filter(scorekeepers__isnull=True)
    else:
        tables = tables.filter(scorekeepers=scorekeeper)
    return tables.order_by("pk").first()


@transaction.atomic
def player_get_or_create(*, table: Table, name: str) -> Player:
    """The table's player called ``name`` (cleaned: ``ledger.cleaning.clean_name``), created
    if new; refused when it is another player's name written differently ('ann', 'Ａnn')
    or when the table has TABLESTAKES_MAX_PLAYERS_PER_TABLE players already."""
    return players_get_or_create(table=table, names=[name])[0]


@transaction.atomic
def players_get_or_create(*, table: Table, names: Sequence[str]) -> list[Player]:
    """The table's players called ``names``, in order, the new ones created: all or
    nothing (LedgerError) when a name is another player's written differently, two new
    names are one person's, or the table would have more than
    TABLESTAKES_MAX_PLAYERS_PER_TABLE players.

    The table's players are read once and keyed by ``cleaning.name_key``, so n names cost
    n look-ups, not n times the table's players (an import of 1,500 names took 31 s)."""
    max_length = Player._meta.get_field("name").max_length
    clean = [cleaning.clean_name(name, max_length=max_length, what=cleaning.Field(
        "name_called", {"name": repr(str(name)[:20])})) for name in names]
    # (no lock on the table: the game writers lock the evening first and the book's writers
    # the table first; two requests at once may pass the players' limit by a few)
    existing = {player.name: player for player in Player.objects.filter(table=table)}
    keyed = cleaning.names_by_key(existing)
    new: dict[str, None] = {}  # in order, looked up in one step
    for name in clean:
        if name in existing or name in new:
            continue
        key = cleaning.name_key(name)
        if reserved := cleaning.reserved_name(name, key=key):  # (imports come this way too)
            raise reserved
        twin = keyed.get(key)
        if twin is not None:
            raise cleaning.name_clash(name, twin)
        keyed[key] = name
        new[name] = None
    if new:
        limits.check_table_players(len(existing) + len(new),
                                   cleaning.Field("table_called", {"name": table.name}))
    if new:  # one insert (a name another request added meanwhile is kept), one read
        Player.objects.bulk_create([Player(table=table, name=name) for name in new],
                                   ignore_conflicts=True)
        existing.update((player.name, player)
                        for player in Player.objects.filter(table=table, name__in=list(new)))
    return [existing[name] for name in clean]


#: Names the hand form uses as values among the players' names (Draw, Nobody).
RESERVED_NAMES = tuple(cleaning.RESERVED_NAMES)


def player_name_problem(*, table_id: int, name: str, player: Player | None = None
                        ) -> LedgerError | None:
    """Why ``name`` cannot be the name of ``player`` (None: a new player) at the table (a
    refusal, as data: the presentation words it), or None when it can."""
    if not name:
        return LedgerError(code="player_needs_name")
    if len(name) > Player._meta.get_field("name").max_length:
        return LedgerError(code="player_name_too_long", name=repr(name[:20]))
    if reserved := cleaning.reserved_name(name):
        return reserved
    others = Player.objects.filter(table_id=table_id)
    if player is not None:
        others = others.exclude(pk=player.pk)
    same = next((other for other in others.values_list("name", flat=True)
                 if cleaning.name_key(other) == cleaning.name_key(name)), None)
    if same is not None:
        return LedgerError(code="player_same_name", name=same)
    return None


@transaction.atomic
def player_add(*, table: Table, name: str) -> Player:
    """A new player called ``name`` (cleaned: ``ledger.cleaning.clean_name``) at ``table``
    (the admin's "add player" and its players inline).

    Refused (LedgerError, nothing written) for an empty or too long name, a name kept for
    the hand form, or one that is already another player's at the table, however written."""
    clean = cleaning.clean_name(name, what=cleaning.Field("name"),
                                max_length=Player._meta.get_field("name").max_length)
    problem = player_name_problem(table_id=table.pk, name=clean)
    if problem:
        raise problem
    limits.check_table_players(Player.objects.filter(table=table).count() + 1,
                               cleaning.Field("table_called", {"name": table.name}))
    return Player.objects.create(table=table, name=clean)


@transaction.atomic
def table_set_scorekeepers(*, table: Table, scorekeepers: Sequence[User]) -> Table:
    """Make ``scorekeepers`` (and only them) the keepers of ``table``; anonymous users are
    left out. The admin calls it with the keepers chosen in its widget, plus the staff member
    who saves a new table (without that he could not see it again)."""
    table = Table.objects.select_for_update().get(pk=table.pk)
    table.scorekeepers.set([user for user in scorekeepers if _user(user)])
    return table


@transaction.atomic
def player_rename(*, player: Player, name: str) -> Player:
    """Give ``player`` a new name. Every game, sheet, settlement, CSV and share page of the
    player then shows the new name: the stored hands keep the name as played
    (``GamePlayer.played_as``) and are read in the current one (``game_record``).

    Refused (LedgerError, nothing written) for an empty or too long name, a name kept for
    the hand form, or one that clashes with another player's at the table by capitals or
    spaces."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    clean = cleaning.clean_name(name, what=cleaning.Field("new_name")) \
        if isinstance(name, str) and name.strip() else ""
    problem = player_name_problem(table_id=player.table_id, name=clean, player=player)
    if problem:
        raise problem
    if clean != player.name:
        player.name = clean
        player.save(update_fields=["name"])
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
    place = cleaning.clean_text(place or "", what=cleaning.Field("place"), max_length=200)
    notes = cleaning.clean_text(notes or "", what=cleaning.Field("notes"), max_length=5000,
                                multiline=True)
    date = cleaning.clean_date(date, what=cleaning.Field("date")) if date is not None \
        else table_today(table)
    return Session.objects.create(
        table=table, date=date, place=place, currency=currency,
        rate=_decimal(rate, "rate", currency=currency), per_points=per_points, notes=notes,
        created_by=_user(created_by),
    )


@transaction.atomic
def session_change(*, session: Session, table: Table | None = None,
                   date: datetime.date | None = None, place: str | None = None,
                   notes: str | None = None, currency: str | None = None,
                   rate: Decimal | str | None = UNSET, per_points: int | None = None
                   ) -> Session:
    """Change an evening's date, place or notes (what is given), and, while it has no game,
    its table, currency and default stake (``rate`` None: no default stake).

    Refused (LedgerError, nothing written) for the table, currency or stake once a game
    exists: they feed the games' money; and for those and the date while the evening is
    settled (its settlement was made in that currency on that date: reopen it first; on
    PostgreSQL migration 0014 holds the same rule)."""
    session = _lock_session(session)
    changes: dict = {}
    if date is not None and date != session.date:
        changes["date"] = cleaning.clean_date(date, what=cleaning.Field("date"))
    if place is not None:
        changes["place"] = cleaning.clean_text(place, what=cleaning.Field("place"), max_length=200)
    if notes is not None:
        changes["notes"] = cleaning.clean_text(notes, what=cleaning.Field("notes"), max_length=5000,
                                               multiline=True)
    money: dict = {}
    if table is not None:
        money["table"] = table
    if currency is not None:
        money["currency"] = _check_currency(currency, "currency")
    if rate is not UNSET:
        money["rate"] = _decimal(rate, "rate", currency=money.get("currency",
                                                                  session.currency))
    if per_points is not None:
        money["per_points"] = cleaning.plain_int(per_points, what="per_points", minimum=1,
                                                 maximum=cleaning.MAX_PER_POINTS)
    money = {name: value for name, value in money.items() if getattr(session, name) != value}
    if money and session.games.exists():
        raise LedgerError(code="evening_has_games")
    if (money or "date" in changes) and session_is_settled(session):
        raise SessionSettled(code="session_settled_changes", date=session.date)
    changes |= money
    for name, value in changes.items():
        setattr(session, name, value)
    if changes:
        session.save(update_fields=list(changes))
    return session
