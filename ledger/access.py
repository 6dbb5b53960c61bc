"""Who may see what: a table and everything in it is visible only to its scorekeepers.

Every view that takes an id from the URL goes through these functions, so that a guessed
URL gets the same 404 as a missing object (no hint that it exists). The table found sets the
request's clock: its times and "today" are in the table's time zone (``ledger.clock``).
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import Http404

from .cleaning import is_ascii_number
from .clock import use_table_clock
from .models import Game, Session, Table


def tables_for(user) -> QuerySet[Table]:
    """The tables ``user`` keeps score for (none for an anonymous user)."""
    if not user.is_authenticated:
        return Table.objects.none()
    return Table.objects.filter(scorekeepers=user)


def _pk(pk, what: str):
    """An id as the URL or a form gave it: an int, or the ASCII digits 0-9 (the database's
    int() would read '²' as 2 and '١٢' as 12); anything else is not found."""
    if isinstance(pk, int) and not isinstance(pk, bool):
        return pk
    if is_ascii_number(pk):
        return int(pk)
    raise Http404(f"No such {what}")


def table_for(user, pk) -> Table:
    pk = _pk(pk, "table")
    try:
        table = tables_for(user).get(pk=pk)
    except (Table.DoesNotExist, ValueError, TypeError):
        raise Http404("No such table") from None
    use_table_clock(table)
    return table


def session_for(user, pk) -> Session:
    pk = _pk(pk, "session")
    try:
        session = Session.objects.select_related("table").get(pk=pk,
                                                              table__in=tables_for(user))
    except (Session.DoesNotExist, ValueError, TypeError):
        raise Http404("No such session") from None
    use_table_clock(session.table)
    return session


def game_for(user, pk) -> Game:
    pk = _pk(pk, "game")
    try:
        game = Game.objects.select_related("session__table").get(
            pk=pk, session__table__in=tables_for(user))
    except (Game.DoesNotExist, ValueError, TypeError):
        raise Http404("No such game") from None
    use_table_clock(game.session.table)
    return game
