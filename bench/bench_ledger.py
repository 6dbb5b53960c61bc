"""Benchmark: settling a session of 12 players, 40 games and 2,000 hands.

Standalone (``make bench`` or ``.venv/bin/python bench/bench_ledger.py``): it builds a fresh
temporary SQLite database, imports the games through the services, then times
``session_settle`` and counts its queries. The same is done with 500 hands to show that the
number of queries does not grow with the number of hands (settling rescores every game
from its hands to check the posted money, so the time does grow; the queries must not).
Exits non-zero if the query count grows.
"""

from __future__ import annotations

import sys
import time

import _common

_tmp = _common.start_django(settings=None)  # the environment's settings, else the test ones

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from ledger import services  # noqa: E402
from ledger.models import Hand  # noqa: E402

PLAYERS = ["Ann", "Bob", "Carla", "Dev", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jo", "Kim",
           "Lou"]
GAMES = 40


def gin_game(a: str, b: str, hands: int, seed: int) -> dict:
    """A two-hand gin game of exactly ``hands`` hands that ends on its last one: small
    knocks (1 or 2 points, the winner alternating), a draw, then a gin v 90 that takes the
    leader past 100."""
    entries = []
    for i in range(hands - 2):
        knocker = a if (i + seed) % 2 == 0 else b
        other = b if knocker == a else a
        entries.append({"knocker": knocker, "deadwood": {knocker: 8, other: 9 + (i % 2)}})
    entries.append({"draw": True})
    winner = a if seed % 2 == 0 else b
    loser = b if winner == a else a
    entries.append({"knocker": winner, "deadwood": {winner: 0, loser: 90}})
    return {
        "format": "tablestakes.game/1", "variant": "gin", "preset": "standard",
        "players": [a, b],
        "stakes": {"rate": "0.01", "per_points": 1, "currency": "USD"},
        "setup": {"first_dealer": b}, "hands": entries,
    }


def build_session(table, total_hands: int):
    session = services.session_create(table=table, currency="USD", rate="0.01",
                                      place=f"bench {total_hands}")
    base, extra = divmod(total_hands, GAMES)
    for g in range(GAMES):
        a = PLAYERS[g % len(PLAYERS)]
        b = PLAYERS[(g + 1 + g // len(PLAYERS)) % len(PLAYERS)]
        if a == b:
            b = PLAYERS[(g + 2) % len(PLAYERS)]
        hands = base + (1 if g < extra else 0)
        services.game_import(session=session, record=gin_game(a, b, hands, g))
    return session


def settle(session) -> tuple[float, int, int]:
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        settlement = services.session_settle(session=session, settled_by=None)
        elapsed = time.perf_counter() - started
    return elapsed, len(queries), settlement.payments.count()


def main() -> int:
    call_command("migrate", verbosity=0)
    table = services.table_create(name="Bench table")
    rows = []
    for total in (500, 2000):
        started = time.perf_counter()
        session = build_session(table, total)
        built = time.perf_counter() - started
        hands = Hand.objects.filter(game__session=session).count()
        players = len({seat for g in session.games.all() for seat in
                       g.seats.values_list("player_id", flat=True)})
        elapsed, queries, payments = settle(session)
        rows.append((total, hands, players, built, elapsed, queries, payments))
    print("session_settle on SQLite: 12 players, 40 two-hand gin games")
    print(f"{'hands':>6} {'players':>7} {'import s':>9} {'settle ms':>10} {'queries':>8} "
          f"{'payments':>8}")
    for total, hands, players, built, elapsed, queries, payments in rows:
        assert hands == total, (hands, total)
        print(f"{hands:>6} {players:>7} {built:>9.2f} {elapsed * 1000:>10.1f} {queries:>8} "
              f"{payments:>8}")
    if rows[1][5] > rows[0][5]:
        print(f"FAIL: queries grew from {rows[0][5]} to {rows[1][5]} with the hands")
        return 1
    print(f"OK: {rows[1][5]} queries at 2,000 hands, the same as at 500.")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        connection.close()
        _tmp.cleanup()
