"""The rows of a checked table document, stored kind by kind as ``ROW_KINDS`` declares them
(``selectors.table_rows``): one writer for every kind.

First the kinds stored before the history (players, evenings). Then the history as it was
written: each kind in the order of its ids, the kinds with a moment (``written``) merged by
their time (games, hands, changes, batches, settlements, paid marks, voids), a kind without
one going in with its parent's rows (seats, postings, payments), so that the database's
guards (PostgreSQL's triggers) see every row when the services' checks saw it: a settlement
before its void and before the games added after its evening was reopened, a paid mark
before the void. History rows are only ever inserted; the updates a kind asks for
(``after_history``: a payment's paid columns repeat its latest paid mark, a game over when
its evening was settled and in progress again since gets its status back) are made once
the history is in. Then, after the standings, the last kinds (book settlements, share
links, report links with their reports and confirmations), each once its own check passed.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from typing import Any

from django.db import IntegrityError, transaction

from ledger.exceptions import LedgerError, RecordRefused
from ledger.selectors import table_rows
from ledger.selectors.table_rows import FIRST, HISTORY, LAST, Item, RowKind, children
from ledger.selectors.table_rows import items as items_of

CHUNK = 500


class Reader:
    """What a kind's ``build`` asks: the new rows' keys by the document's ids, the accounts,
    what this server already has; and what the import did (``outcome``)."""

    def __init__(self, document: dict, table, users: dict[str, Any], outcome):
        self.document, self.table, self.users, self.outcome = document, table, users, outcome
        self.ids: dict[str, dict[int, int]] = defaultdict(dict)
        self.updates: dict[str, list[tuple[Any, dict]]] = defaultdict(list)
        self._taken: dict[tuple[str, str], set[str]] = {}
        self._kind: str = ""
        self.every = all_items(document)

    def user(self, username: str | None):
        return None if username is None else self.users[username]

    def after_history(self, row, **columns) -> None:
        """Set ``columns`` of ``row`` once the whole history is in."""
        self.updates[self._kind].append((row, columns))

    def taken(self, kind: str, field: str) -> set[str]:
        """The values of ``field`` of the document's rows of ``kind`` this server has."""
        if (kind, field) not in self._taken:
            model = next(k.model for k in table_rows.ROW_KINDS if k.name == kind)
            values = [item.data[field] for item in self.every[kind]]
            found: set[str] = set()
            for start in range(0, len(values), CHUNK):
                found.update(str(value) for value in model.objects.filter(
                    **{f"{field}__in": values[start:start + CHUNK]})
                    .values_list(field, flat=True))
            self._taken[kind, field] = found
        return self._taken[kind, field]


def all_items(document: dict) -> dict[str, list[Item]]:
    """Every row's object in the document, by kind, in the document's order."""
    found: dict[str, list[Item]] = {kind.name: [] for kind in table_rows.ROW_KINDS}

    def walk(kind: RowKind, parent: Item | None) -> None:
        for item in items_of(kind, parent, document):
            found[kind.name].append(item)
            for child in children(kind):
                walk(child, item)

    for kind in children(None):
        walk(kind, None)
    return found


def store(reader: Reader, phase: str, problems: list[str] | None = None) -> None:
    """Store the document's rows of the kinds of ``phase``."""
    every = reader.every
    if phase == HISTORY:
        _history(reader, every)
        return
    for kind in children(None):
        if kind.phase != phase:
            continue
        if kind.check is not None and problems is not None:
            kind.check(reader.document, problems)
            if problems:
                continue
        _insert_kind(reader, kind, every[kind.name])


def _history(reader: Reader, every: dict[str, list[Item]]) -> None:
    timed = [kind for kind in table_rows.ROW_KINDS if kind.phase == HISTORY and kind.written]
    merged = heapq.merge(*[
        [(kind.written(item), index, item.data["id"], kind, item)
         for item in sorted(every[kind.name], key=lambda item: item.data["id"])]
        for index, kind in enumerate(timed)], key=lambda event: event[:3])
    run_kind, run = None, []
    for _, _, _, kind, item in merged:
        if kind is not run_kind or len(run) >= CHUNK:
            if run:
                _insert_kind(reader, run_kind, run)
            run_kind, run = kind, []
        run.append(item)
    if run:
        _insert_kind(reader, run_kind, run)
    for kind in table_rows.ROW_KINDS:
        for row, columns in reader.updates.pop(kind.name, []):
            kind.model.objects.filter(pk=row.pk).update(**columns)


def _insert_kind(reader: Reader, kind: RowKind, run: list[Item]) -> None:
    """Insert ``run`` (rows of ``kind``), then their rows of the child kinds stored with
    them (of its phase, without a moment of their own)."""
    reader._kind = kind.name
    rows = [(item.data["id"] if kind.numbered else number, kind.build(item, reader),
             item.data[kind.refers] if kind.refers else None)
            for number, item in enumerate(run)]
    ids = reader.ids[kind.name] if kind.numbered else {}
    if kind.clash is None:
        insert_linked(kind.model, rows, ids, kind.link)
    else:
        try:
            with transaction.atomic():
                insert_linked(kind.model, rows, ids, kind.link)
        except IntegrityError:
            raise LedgerError(kind.clash) from None
    for child in children(kind):
        if child.phase == kind.phase and not child.written:
            found = [each for item in run for each in items_of(child, item, reader.document)]
            _insert_kind(reader, child, found)


def insert_linked(model, rows: list[tuple[int, Any, int | None]], ids: dict[int, int],
                  link: str | None) -> None:
    """Insert ``rows`` ((file id, unsaved row, the file id of the earlier row of its kind it
    refers to or None)) in file-id order, in chunks; ``ids`` gets each file id's new
    primary key (ids grow in the same order as the file's), and the reference becomes that
    row's new primary key (column ``link``) as each chunk goes in."""
    chunk: list[tuple[int, Any]] = []
    pending: set[int] = set()

    def flush():
        model.objects.bulk_create([row for _, row in chunk])
        for file_id, row in chunk:
            ids[file_id] = row.pk
        chunk.clear()
        pending.clear()

    for file_id, row, refers in sorted(rows, key=lambda item: item[0]):
        if (refers is not None and refers in pending) or len(chunk) >= CHUNK:
            flush()
        if refers is not None:
            if refers not in ids:  # a later row: an id order the services never make
                raise RecordRefused([f"{model.__name__} {file_id} refers to "
                                     f"{model.__name__} {refers}, which comes after it"])
            if link:
                setattr(row, link, ids[refers])
        chunk.append((file_id, row))
        pending.add(file_id)
    if chunk:
        flush()


__all__ = ["CHUNK", "FIRST", "HISTORY", "LAST", "Reader", "all_items", "insert_linked",
           "store"]
