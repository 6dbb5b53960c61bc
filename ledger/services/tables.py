"""Tables (a group that plays together), their players, and their evenings (sessions)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from ledger.exceptions import (
    LedgerError,
)
from ledger.models import (
    PaperSize,
    Player,
    Session,
    Table,
)

from .base import (
    User,
    _check_currency,
    _decimal,
    _user,
)

# -- tables, players, sessions ---------------------------------------------------------------

@transaction.atomic
def table_create(*, name: str, scorekeepers: Sequence[User] = (),
                 paper_size: str = PaperSize.AUTO) -> Table:
    """Create a table (a group that plays together) kept by ``scorekeepers``."""
    name = name.strip()
    if not name:
        raise LedgerError("A table needs a name.")
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
    tables = Table.objects.filter(name=name.strip())
    if scorekeeper is None:
        tables = tables.filter(scorekeepers__isnull=True)
    else:
        tables = tables.filter(scorekeepers=scorekeeper)
    return tables.order_by("pk").first()


@transaction.atomic
def player_get_or_create(*, table: Table, name: str) -> Player:
    """The table's player called ``name`` (surrounding spaces ignored), created if new."""
    clean = name.strip() if isinstance(name, str) else ""
    if not clean:
        raise LedgerError("A player needs a name.")
    if len(clean) > Player._meta.get_field("name").max_length:
        raise LedgerError(f"The name {clean[:20]!r}... is too long.")
    player, _ = Player.objects.get_or_create(table=table, name=clean)
    return player


@transaction.atomic
def session_create(*, table: Table, date: datetime.date | None = None, place: str = "",
                   currency: str = "USD", rate: Decimal | str | None = None,
                   per_points: int = 1, notes: str = "",
                   created_by: User | None = None) -> Session:
    """Open an evening at ``table``; ``rate`` per ``per_points`` is its games' default stake."""
    currency = _check_currency(currency, "currency")
    if not isinstance(per_points, int) or per_points <= 0:
        raise LedgerError("per_points must be a whole number above zero.")
    return Session.objects.create(
        table=table, date=date or timezone.localdate(), place=place, currency=currency,
        rate=_decimal(rate, "rate", currency=currency), per_points=per_points, notes=notes,
        created_by=_user(created_by),
    )
