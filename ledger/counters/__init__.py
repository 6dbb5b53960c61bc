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


def now() -> float:
    """The counters' clock (Unix time), which the limits read too."""
    return time.time()


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


def current_many(names: list[str], *, now: float | None = None) -> dict[str, tuple[int, float]]:
    """``current`` of several counters in one query: {name: (count, end)} of those whose
    window has not ended."""
    from .models import Counter

    now = time.time() if now is None else now
    rows = Counter.objects.filter(name__in=[name[:200] for name in names],
                                  ends__gt=now).values_list("name", "hits", "ends")
    return {name: (int(hits), float(ends)) for name, hits, ends in rows}


def _forget_ended(now: float) -> None:
    """Housekeeping after a new window: delete the counters whose window ended (through the
    same waiting as a hit, so that a lock on SQLite's shared-cache databases never turns a
    counted request into an error)."""
    _execute(f"DELETE FROM {_table()} WHERE ends <= %s RETURNING 1", [now])


# -- turns and slots: a row whose ``ends`` is a time something may not happen before -------
#
# The same table holds two more kinds of row. A *turn* (``claim``/``hold``): the log-in's
# growing delay for one username; ``ends`` is the time its next attempt may be made. A *slot*
# (``slot_take``/``slot_give_back``): one heavy request of one account under way; ``ends``
# is when it expires if its worker was killed before giving it back. Both are taken in one
# statement (``ON CONFLICT ... DO UPDATE ... WHERE`` the row's time has passed, ``RETURNING``
# a row only when it was taken), so two workers asking at once never both get it.


def claim(name: str, seconds: float, *, now: float | None = None) -> tuple[bool, float]:
    """Take the turn ``name`` when its time has come (no row, or its ``ends`` has passed),
    the next one ``seconds`` from now: (True, that time). Else (False, the time the turn
    comes), nothing changed."""
    now = time.time() if now is None else now
    table = _table()
    row = _execute(
        f"INSERT INTO {table} (name, hits, ends) VALUES (%s, 1, %s) "
        f"ON CONFLICT (name) DO UPDATE SET hits = {table}.hits + 1, ends = excluded.ends "
        f"WHERE {table}.ends <= %s RETURNING hits, ends",
        [name[:200], now + seconds, now])
    if row is not None:
        return True, float(row[1])
    hits, ends = current(name, now=now)
    return False, ends


def hold(name: str, until: float) -> None:
    """The turn ``name`` comes at ``until`` at the earliest (whatever it was)."""
    table = _table()
    _execute(
        f"INSERT INTO {table} (name, hits, ends) VALUES (%s, 1, %s) "
        f"ON CONFLICT (name) DO UPDATE SET hits = {table}.hits + 1, "
        f"ends = CASE WHEN {table}.ends > excluded.ends THEN {table}.ends "
        f"ELSE excluded.ends END RETURNING hits",
        [name[:200], until])


def forget(*names: str) -> None:
    """Remove these counters (a success clears a count)."""
    from .models import Counter

    Counter.objects.filter(name__in=[name[:200] for name in names]).delete()


def slot_take(names: list[str], seconds: float, *,
              now: float | None = None) -> tuple[str, float] | None:
    """The first free slot of ``names`` (no row, or an expired one), held for ``seconds``
    at most: (its name, its expiry, which ``slot_give_back`` needs); None when every one is
    taken."""
    now = time.time() if now is None else now
    table = _table()
    held = current_many(names, now=now)
    for name in names:
        if name[:200] in held:
            continue
        row = _execute(
            f"INSERT INTO {table} (name, hits, ends) VALUES (%s, 1, %s) "
            f"ON CONFLICT (name) DO UPDATE SET hits = 1, ends = excluded.ends "
            f"WHERE {table}.ends <= %s RETURNING ends",
            [name[:200], now + seconds, now])
        if row is not None:
            return name[:200], float(row[0])
    # every one taken: each counts one more request refused while it is (slot_rest_if_asked)
    _execute(f"UPDATE {table} SET hits = hits + 1 WHERE name IN "
             f"({', '.join(['%s'] * len(names))}) AND ends > %s RETURNING 1",
             [name[:200] for name in names] + [now])
    return None


def slot_rest_if_asked(slot: tuple[str, float], until: float) -> bool:
    """When another request was refused the slot while it was taken (``slot_take`` counted
    it), the slot stays taken until ``until`` (if it is still that one) and True; else
    nothing changes and False."""
    name, ends = slot
    return _execute(f"UPDATE {_table()} SET ends = %s WHERE name = %s AND ends = %s "
                    f"AND hits > 1 RETURNING 1", [until, name, ends]) is not None


def slot_give_back(slot: tuple[str, float]) -> None:
    """The slot ``slot_take`` gave is free again (only if it is still that one: a slot that
    expired and was taken by another request meanwhile stays taken)."""
    name, ends = slot
    _execute(f"DELETE FROM {_table()} WHERE name = %s AND ends = %s RETURNING 1", [name, ends])
