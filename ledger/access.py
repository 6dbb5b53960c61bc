"""Who may see what: a table and everything in it is visible only to its scorekeepers.

Every view that takes an id from the URL goes through these functions, so that a guessed
URL gets the same 404 as a missing object (no hint that it exists).
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.http import Http404

from .models import Game, Session, Table


def tables_for(user) -> QuerySet[Table]:
    """The tables ``user`` keeps score for (none for an anonymous user)."""
    if not user.is_authenticated:
        return Table.objects.none()
    return Table.objects.filter(scorekeepers=user)


def table_for(user, pk) -> Table:
    try:
        return tables_for(user).get(pk=pk)
    except (Table.DoesNotExist, ValueError, TypeError):
        raise Http404("No such table") from None


def session_for(user, pk) -> Session:
    try:
        return Session.objects.select_related("table").get(pk=pk, table__in=tables_for(user))
    except (Session.DoesNotExist, ValueError, TypeError):
        raise Http404("No such session") from None


def game_for(user, pk) -> Game:
    try:
        return Game.objects.select_related("session__table").get(
            pk=pk, session__table__in=tables_for(user))
    except (Game.DoesNotExist, ValueError, TypeError):
        raise Http404("No such game") from None
