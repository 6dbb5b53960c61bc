"""Everything a table has, as one JSON document (``tablestakes.table/1``, docs/table-export.md).

A read: nothing here writes. ``services.table_io`` stores such a document back, row for
row, and exporting the imported table gives the same document again (the ``id`` of every
row is its rank among the table's rows of its kind, in the database's order, so it does
not depend on the server's numbering; references use those ids, accounts their usernames).

The rows are those of every kind ``selectors.table_rows.ROW_KINDS`` declares: the players,
the evenings with their games, seats, every hand (voided ones and their replacements), the
game changes, the posting batches and postings, the settlements (voided ones with their
void) with their payments and every paid mark, the book settlements, the share links, and
the report links with who reported what through them. Before them the table (name, paper
size, scorekeepers) and the accounts that did something in it.
Not exported: the standings (a cache, rebuilt from the games on import) and passwords.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.contrib.auth import get_user_model

from ledger.models import Table

from . import table_rows
from .table_rows import RowKind, children, stamp

TABLE_FORMAT = "tablestakes.table/1"


def user_columns(model) -> list[str]:
    """The columns of ``model`` naming an account (who did what)."""
    user = get_user_model()
    return [field.attname for field in model._meta.concrete_fields
            if field.many_to_one and field.related_model is user]


class _Writer:
    """What a kind's ``dump`` asks: an account's username, a row's id in the document."""

    def __init__(self, users: dict[int, Any], ids: dict[str, dict[int, int]]):
        self.users, self.ids = users, ids

    def who(self, user_id: int | None) -> str | None:
        return None if user_id is None else self.users[user_id].get_username()

    def ref(self, kind: str, pk: int | None) -> int | None:
        return None if pk is None else self.ids[kind][pk]


def table_export(table: Table) -> dict[str, Any]:
    """The table's whole history as a ``tablestakes.table/1`` document. A fixed number of
    queries (one per kind of row), whatever the size of the table."""
    rows = {kind.name: list(kind.model.objects.filter(**{kind.table: table})
                            .order_by(*kind.order)) for kind in table_rows.ROW_KINDS}
    keepers = list(table.scorekeepers.values_list("pk", flat=True))
    actor_ids = set(keepers)
    for kind in table_rows.ROW_KINDS:
        for column in user_columns(kind.model):
            actor_ids.update(getattr(row, column) for row in rows[kind.name])
    actor_ids.discard(None)
    users = {user.pk: user for user in get_user_model().objects.filter(pk__in=actor_ids)}
    ids = {kind.name: {pk: rank for rank, pk in enumerate(sorted(r.pk for r in rows[kind.name]),
                                                          1)}
           for kind in table_rows.ROW_KINDS if kind.numbered}
    writer = _Writer(users, ids)
    of_parent: dict[str, dict[int, list]] = {}
    for kind in table_rows.ROW_KINDS:
        if kind.parent is not None:
            of_parent[kind.name] = defaultdict(list)
            for row in rows[kind.name]:
                of_parent[kind.name][getattr(row, kind.parent_column)].append(row)

    def data(kind: RowKind, row) -> dict:
        out = {"id": ids[kind.name][row.pk]} if kind.numbered else {}
        out.update(kind.dump(row, writer))
        for child in children(kind):
            found = of_parent[child.name][row.pk]
            if not child.single:
                out[child.key] = [data(child, each) for each in found]
            elif found:
                out[child.key] = data(child, found[-1])
            elif not child.optional:
                out[child.key] = None
        return out

    document: dict[str, Any] = {
        "format": TABLE_FORMAT,
        "table": {
            "name": table.name,
            "paper_size": table.paper_size,
            "created_at": stamp(table.created_at),
            "scorekeepers": sorted(users[pk].get_username() for pk in keepers),
        },
        "accounts": [{"username": user.get_username(), "first_name": user.first_name,
                      "last_name": user.last_name}
                     for user in sorted(users.values(), key=lambda u: u.get_username())],
    }
    for kind in children(None):
        document[kind.key] = [data(kind, row) for row in rows[kind.name]]
    return document
