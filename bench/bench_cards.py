"""Bench of the card engine (ledger/rules/cards.py), pure Python.

Run: .venv/bin/python bench/bench_cards.py  (or `make bench`). Prints, in microseconds per
call, the median and the worst of:
  - best_arrangement over 100,000 random 10-card hands (seeded);
  - best_arrangement over meld-dense hands (cards from 5 or 6 neighbouring ranks, plus
    hand-built hard hands: long runs through sets, four of a kind with runs through it);
  - the opponent's melds and lay-offs against the knocker's melds (opponent_layoffs), and the
    whole knock worked out from the cards (score_cards: every legal layout of the knocker,
    the opponent's best lay-offs against each), on meld-dense deals with a legal knock.
  - deadwood_count from the card text ("AS 2S 3S ...", as a record gives it): parsing and
    the search, on the random and the meld-dense hands.
Each item is timed 3 times and its best time kept, so that an interruption by the machine
(other processes, the scheduler) is not taken for a slow hand; GC is off while timing.

Budgets (exit 1 when one is over): each median against a same-run baseline, ``reference``
(the item's card codes sorted by their text, in plain Python, about a microsecond), timed
right beside each item, so that a busier or slower machine moves both alike; each budget is
about 1.4x the ratio this bench measured when it was set, so that a 1.5x slower engine fails:
best_arrangement 8.5x random and 17x meld-dense (worst under 2000 us), deadwood_count from
the text 3.9x and 6.1x, opponent_layoffs 11.5x, score_cards 26.5x. On a quiet machine
(issue 42's second round: 5.7-6.2x, 11.6-12.2x, 2.7-2.8x, 4.3-4.4x, 8.2x and 18.7-19.1x in
three runs) that is 4.6, 9.8, 1.8, 2.9, 31 and 78 us. The budgets were microseconds before,
1.4x the medians then (6, 13, 2.3, 3.9, 45 and 110 us), and one run of `make bench` on a
machine busy for a moment measured deadwood_count at 2.62 us where three quiet runs an hour
later gave 1.77-1.81: a budget in microseconds measures the machine as well as the engine.
The deadwood figures are within the issue's target too: 2x OpenSpiel's C++ per hand (1.17
us and 2.38 us where the issue measured them; OpenSpiel is not installed here, so this bench
cannot time it beside ours).
"""

import gc
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from ledger.rules.cards import (  # noqa: E402
    CARDS,
    best_arrangement,
    deadwood_count,
    opponent_layoffs,
    parse_cards,
    score_cards,
)

SEED = 20240601
RANDOM_HANDS = 100_000
DENSE_HANDS = 20_000
DEALS = 3_000
REPEAT = 3
HARD_HANDS = [
    "AS 2S 3S 4S 5S AH 2H 3H 4H 5H",
    "5S 6S 7S 7H 7D 7C 8H 9H 8D 9D",
    "7S 7H 7D 7C 8S 8H 8D 8C 9S 9H",
    "3S 4S 5S 3H 4H 5H 3D 4D 5D 3C",
    "4S 5S 6S 7S 4H 5H 6H 7H 4D 5D",
    "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S",
    "2S 3S 4S 2H 3H 4H 2D 3D 4D 2C",
    "5S 6S 7S 5H 6H 7H 5D 6D 7D 6C",
    "8S 8H 8D 8C 9S 9H 9D 9C 10S 10H",
    "JS QS KS JH QH KH JD QD KD JC",
]


def reference(item):
    """The same-run baseline: the cards of an item sorted by their text, in plain Python
    (a hand's ten codes, a deal's twenty), about a microsecond of the same interpreter."""
    if isinstance(item, str):
        return sorted(item.split())
    if isinstance(item[0], tuple):  # a deal: (knocker, opponent, melds)
        return sorted(map(str, item[0] + item[1]))
    return sorted(map(str, item))


def timed(function, items, repeat=1):
    """Microseconds per call for each item, and the baseline's (``reference``) for the same
    item timed right beside it (best of `repeat` runs each), GC off while timing."""
    clock = time.perf_counter_ns
    out, base = [], []
    gc.disable()
    try:
        for item in items:
            best = best_ref = None
            for _ in range(repeat):
                start = clock()
                function(item)
                took = clock() - start
                start = clock()
                reference(item)
                ref = clock() - start
                if best is None or took < best:
                    best = took
                if best_ref is None or ref < best_ref:
                    best_ref = ref
            out.append(best / 1000)
            base.append(best_ref / 1000)
    finally:
        gc.enable()
    return out, base


OVER: list[str] = []


def report(label, function, items, *, ratio, worst=None):
    """The median against the baseline's median in the same run (``ratio``: its budget)."""
    times, base = timed(function, items, repeat=REPEAT)
    mid, top, ref = statistics.median(times), max(times), statistics.median(base)
    over = mid / ref > ratio or (worst is not None and top > worst)
    verdict = (f"  {mid / ref:5.1f}x the baseline's {ref:.2f} us, budget {ratio:g}x"
               + (f", worst {worst:g} us" if worst else "") + (" OVER" if over else " ok"))
    if over:
        OVER.append(label)
    print(f"{label:<46} n={len(items):>6}  median {mid:7.2f} us  worst {top:7.1f} us{verdict}")
    return times


def dense_deck(rng):
    width = rng.choice((5, 6))
    low = rng.randint(1, 14 - width)
    return [c for c in CARDS if low <= c.rank < low + width]


def main():
    rng = random.Random(SEED)
    started = time.perf_counter()
    print(f"card engine bench (Python {sys.version.split()[0]}), seed {SEED}")

    random_hands = [tuple(rng.sample(CARDS, 10)) for _ in range(RANDOM_HANDS)]
    report("best_arrangement, random 10-card hands", best_arrangement, random_hands,
           ratio=8.5, worst=2000)

    dense = [tuple(rng.sample(dense_deck(rng), 10)) for _ in range(DENSE_HANDS)]
    dense += [parse_cards(text) for text in HARD_HANDS] * 10
    report("best_arrangement, meld-dense 10-card hands", best_arrangement, dense,
           ratio=17, worst=2000)

    texts = [" ".join(map(str, hand)) for hand in random_hands]
    report("deadwood_count from the text, random", deadwood_count, texts, ratio=3.9)
    texts = [" ".join(map(str, hand)) for hand in dense]
    report("deadwood_count from the text, meld-dense", deadwood_count, texts, ratio=6.1)

    deals = []
    while len(deals) < DEALS:
        cards = rng.sample(dense_deck(rng), 20)
        knocker, opponent = tuple(cards[:10]), tuple(cards[10:])
        arrangement = best_arrangement(knocker)
        if 0 < arrangement.deadwood_count <= 10:
            deals.append((knocker, opponent, arrangement.melds))
    report(
        "opponent melds + lay-offs (opponent_layoffs)",
        lambda deal: opponent_layoffs(deal[1], deal[2]),
        deals,
        ratio=11.5,
    )
    report(
        "whole knock from the cards (score_cards)",
        lambda deal: score_cards(deal[0], deal[1]),
        deals,
        ratio=26.5,
    )
    print(f"total {time.perf_counter() - started:.1f} s")
    if OVER:
        print("budget OVER: " + "; ".join(OVER))
        return 1
    print("budget: all ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
