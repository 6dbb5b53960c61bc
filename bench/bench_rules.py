"""Scoring-core benchmark: hands per second through ``score_record`` for every variant, and
the time to score a 300-hand record through ``manage.py score`` (start-up included).

Run: .venv/bin/python bench/bench_rules.py

Budget (issue 42: near today's figure, so that a 1.5x slower core fails; exit 1 when over):
>= 135,000 gin hands/s of CPU time (193,000 measured when it was set, at load 10 on a
shared 2-core machine: 1.43x; the old 50,000 would not have noticed a 2x regression).
The 300-hand record through manage.py is printed, not budgeted (it is mostly Django's
start-up).
"""

from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ledger.rules import score_record  # noqa: E402
from ledger.rules.facts import game_facts  # noqa: E402

GIN_BUDGET = 135_000  # hands/s of CPU time
BIG = {"target": 100_000}  # long games: every generated hand is scored


def duel(rng, pair, oklahoma=False):
    if rng.random() < 0.08:
        return {"draw": True}
    knocker = rng.choice(pair)
    opponent = pair[1] if knocker == pair[0] else pair[0]
    hand = {"knocker": knocker,
            "deadwood": {knocker: rng.randint(0, 10), opponent: rng.randint(0, 60)}}
    if oklahoma:
        hand["upcard"] = rng.choice(["10S", "JH", "KD", "QC"])
    return hand


def gin_record(rng, hands, variant="gin"):
    players = ["Ann", "Bob"]
    return {"variant": variant, "players": players, "rules": BIG,
            "stakes": {"rate": "0.01", "currency": "USD"},
            "setup": {"first_dealer": "Ann"},
            "hands": [duel(rng, players, game_facts(variant, 2).upcard) for _ in range(hands)]}


def box_record(rng, hands):
    players = ["P", "Q", "R"]
    rec = {"variant": "box", "players": players, "rules": BIG, "setup": {},
           "stakes": {"rate": "0.01", "currency": "USD"}, "hands": []}
    box, captain, sitter = players
    for _ in range(hands):
        hand = duel(rng, (box, captain))
        rec["hands"].append(hand)
        if hand.get("draw"):
            continue
        k = hand["deadwood"][hand["knocker"]]
        o = hand["deadwood"][box if hand["knocker"] == captain else captain]
        winner = hand["knocker"] if k == 0 or k < o else (
            box if hand["knocker"] == captain else captain)
        box, captain, sitter = ((box, sitter, captain) if winner == box
                                else (captain, sitter, box))
    return rec


def partnership_record(rng, hands):
    players = ["A", "B", "X", "Y"]
    rec = {"variant": "partnership", "players": players, "rules": BIG,
           "stakes": {"rate": "0.01", "currency": "USD"},
           "setup": {"sides": {"We": ["A", "B"], "They": ["X", "Y"]}}, "hands": []}
    for h in range(hands):
        pairs = [("A", ["X", "Y"][h % 2]), ("B", ["Y", "X"][h % 2])]
        rec["hands"].append({"tables": [duel(rng, p) for p in pairs]})
    return rec


def captain3_record(rng, hands):
    players = ["C", "X", "Y"]
    rec = {"variant": "captain", "players": players, "rules": BIG, "setup": {},
           "stakes": {"rate": "0.01", "currency": "USD"}, "hands": []}
    active, waiting = "X", "Y"
    for _ in range(hands):
        winner = rng.choice(["C", active])
        loser = active if winner == "C" else "C"
        rec["hands"].append({"knocker": winner,
                             "deadwood": {winner: rng.randint(0, 9), loser: rng.randint(10, 60)}})
        if winner == "C":
            active, waiting = waiting, active
    return rec


def captain5_record(rng, hands):
    captains, active, sitter = ["R1", "R2"], ["B1", "B2"], "B3"
    rec = {"variant": "captain", "players": captains + active + [sitter], "rules": BIG,
           "setup": {"captains": list(captains), "opponents": list(active), "sitter": sitter},
           "stakes": {"rate": "0.01", "currency": "USD"}, "hands": []}
    for _ in range(hands):
        captains_win = rng.random() < 0.5
        tables = []
        for i, captain in enumerate(captains):
            winner, loser = (captain, active[i]) if captains_win else (active[i], captain)
            # Distinct margins, so the biggest loser needs no cut.
            tables.append({"knocker": winner,
                           "deadwood": {winner: 1, loser: 12 + 10 * i + rng.randint(0, 9)}})
        rec["hands"].append({"tables": tables})
        if captains_win:
            out = len(active) - 1  # the last table's opponent lost the most
            active[out], sitter = sitter, active[out]
    return rec


def capit_record(rng):
    players = ["A", "B", "C", "D", "E"]
    rounds = []
    for _ in range(5):
        out = rng.choice(players)
        rounds.append({"went_out": out,
                       "points": {p: 0 if p == out else 5 * rng.randint(0, 20)
                                  for p in players}})
    return {"variant": "cap-it", "players": players, "setup": {"first_dealer": "A"},
            "stakes": {"ante": "5.00", "currency": "USD"}, "hands": rounds}


def throughput(name, records):
    """Hands per second of this process's CPU time (not the wall clock: on a shared machine
    the wall clock counts the other processes' turns too), best of two runs."""
    hands = sum(len(r["hands"]) for r in records)
    elapsed = float("inf")
    for _ in range(2):
        start = time.process_time()
        for record in records:
            score_record(record)
        elapsed = min(elapsed, time.process_time() - start)
    print(f"  {name:<12} {hands:>7} hands in {elapsed:6.3f} s = {hands / elapsed:>9,.0f} "
          f"hands/s")
    return hands / elapsed


def main():
    rng = random.Random(20261121)
    print("Scoring core throughput (score_record, whole records):")
    gin_rate = throughput("gin", [gin_record(rng, 100) for _ in range(1000)])
    throughput("oklahoma", [gin_record(rng, 100, "oklahoma") for _ in range(300)])
    throughput("hollywood", [gin_record(rng, 100, "hollywood") for _ in range(300)])
    throughput("box", [box_record(rng, 100) for _ in range(300)])
    throughput("captain 3", [captain3_record(rng, 100) for _ in range(300)])
    throughput("captain 5", [captain5_record(rng, 100) for _ in range(300)])
    throughput("partnership", [partnership_record(rng, 100) for _ in range(300)])
    throughput("cap-it", [capit_record(rng) for _ in range(2000)])
    ok = gin_rate >= GIN_BUDGET
    print(f"  budget: >= {GIN_BUDGET:,} gin hands/s -> {'OK' if ok else 'OVER'}")

    record = gin_record(random.Random(300), 300)
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(record, handle)
    times = []
    for _ in range(7):
        start = time.perf_counter()
        run = subprocess.run([sys.executable, "manage.py", "score", handle.name], cwd=ROOT,
                             capture_output=True)
        times.append(time.perf_counter() - start)
        assert run.returncode == 0, run.stderr
    Path(handle.name).unlink()
    print(f"manage.py score, one 300-hand record (start-up included): median "
          f"{statistics.median(times) * 1000:.0f} ms, worst {max(times) * 1000:.0f} ms "
          f"over {len(times)} runs")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
