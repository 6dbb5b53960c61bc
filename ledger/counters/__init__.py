"""Counters for the limits per client address and per e-mail address (``ledger.limits``).

A small app of its own (label ``counters``) so that its table and migration stay apart
from the ledger's history. Each counter is one row: its name, its count and the Unix time
its window ends. ``hit`` adds one in a single SQL statement (``INSERT ... ON CONFLICT DO
UPDATE ... RETURNING``, the same on SQLite 3.35+ and PostgreSQL), so any number of
simultaneous requests, in any number of workers, each get a different count: the check
and the count are one atomic step.
"""

from __future__ import annotations

import time

from django.db import OperationalError, connection


def _table() -> str:
    from .models import Counter

    return connection.ops.quote_name(Counter._meta.db_table)


def hit(name: str, window: int, *, now: float | None = None) -> tuple[int, float]:
    """Count one more under ``name`` and return (the count, the Unix time its window ends).

    The window starts at the first hit and lasts ``window`` seconds; the first hit after it
    ended starts a new one at 1."""
    now = time.time() if now is None else now
    table = _table()
    sql = (
        f"INSERT INTO {table} (name, hits, ends) VALUES (%s, 1, %s) "
        f"ON CONFLICT (name) DO UPDATE SET "
        f"hits = CASE WHEN {table}.ends <= %s THEN 1 ELSE {table}.hits + 1 END, "
        f"ends = CASE WHEN {table}.ends <= %s THEN excluded.ends ELSE {table}.ends END "
        f"RETURNING hits, ends"
    )
    params = [name[:200], now + window, now, now]
    row = _execute(sql, params)
    if int(row[0]) == 1:  # a new window: forget the counters whose window ended
        _forget_ended(now)
    return int(row[0]), float(row[1])


def _execute(sql: str, params: list):
    for attempt in range(50):
        try:
            with connection.cursor() as cursor:
                cursor.execute(sql, params)
                return cursor.fetchone()
        # SQLite's shared-cache databases (the tests') answer "database table is locked"
        # at once instead of waiting for the other writer: wait a little and try again.
        except OperationalError as exc:
            if connection.vendor != "sqlite" or "locked" not in str(exc) or attempt == 49:
                raise
            time.sleep(0.01)
    raise AssertionError("unreachable")


def current(name: str, *, now: float | None = None) -> tuple[int, float]:
    """The count under ``name`` in its current window (0 when none), without counting."""
    from .models import Counter

    now = time.time() if now is None else now
    row = Counter.objects.filter(name=name[:200], ends__gt=now).values_list(
        "hits", "ends").first()
    return (int(row[0]), float(row[1])) if row else (0, now)


def _forget_ended(now: float) -> None:
    """Housekeeping after a new window: delete the counters whose window ended (through the
    same waiting as a hit, so that a lock on SQLite's shared-cache databases never turns a
    counted request into an error)."""
    _execute(f"DELETE FROM {_table()} WHERE ends <= %s RETURNING 1", [now])
