"""Where a Save's time goes (not a bench: ``scripts/bench`` skips ``bench/_*.py``): the
phone's send of a hand with its parts, on a 300-hand gin game, each step's wall time per
Save (the steps nest: the view's, the service's and the answer's), without cProfile's
overhead, which doubles the small calls' share. The figures of issue 42:

    .venv/bin/python bench/_profile_save.py  [saves, default 30]
"""

from __future__ import annotations

import collections
import sys
import time
import uuid

import _common

TMP = _common.start_django()

from django.db.backends.sqlite3.base import DatabaseWrapper  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

import ledger.rules as core  # noqa: E402
import ledger.services.hands as service  # noqa: E402
import ledger.views.queue as view  # noqa: E402
from ledger import services  # noqa: E402

urlpatterns = _common.bench_urls()
SPENT: dict[str, float] = collections.defaultdict(float)
STEPS = [
    (view, "hand_with_key", "view: the key looked up"),
    (view, "load_live", "view: the live hands read and scored"),
    (view, "next_hand_form", "view: the hand's form"),
    (services, "hand_record", "service: hand_record"),
    (service, "_lock_game", "  the game locked"),
    (service, "_with_seats", "  the seats read"),
    (service, "_live_mark", "  the live hands' mark"),
    (service, "_score_kept", "  the game scored with its new hand"),
    (service, "_apply_result", "  the result stored (standings, money)"),
    (service, "reports_attach", "  the tables' reports"),
    (DatabaseWrapper, "commit", "  the commit"),
    (view, "_parts", "view: the answer's parts"),
    (view, "saved_parts", "  their context"),
    (view, "render_to_string", "  their template"),
    (core, "score_record", "the core's score_record (all callers)"),
]


def timed(owner, name: str, label: str) -> None:
    real = getattr(owner, name)

    def step(*args, **kwargs):
        start = time.perf_counter()
        try:
            return real(*args, **kwargs)
        finally:
            SPENT[label] += time.perf_counter() - start

    setattr(owner, name, step)


def main() -> int:
    saves = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    _common.serve(__name__)
    user, _table, session = _common.bench_keeper()
    game = services.game_import(session=session, imported_by=user,
                                record=_common.gin_record(300, gins=True))
    client = Client()
    client.force_login(user)
    for owner, name, label in STEPS:
        timed(owner, name, label)

    def send(i: int) -> None:
        number = game.hands.filter(voided_at__isnull=True).count() + 1
        knocker = "Ann" if i % 2 else "Bob"
        data = {"key": str(uuid.uuid4()), "number": number, "parts": number,
                "t1_knocker": knocker, "t1_kind": "knock",
                "t1_c0" if knocker == "Ann" else "t1_c1": "4",
                "t1_c1" if knocker == "Ann" else "t1_c0": "25"}
        start = time.perf_counter()
        answer = client.post(reverse("ledger:hand_send", args=[game.pk]), data)
        SPENT["the whole send (test client)"] += time.perf_counter() - start
        assert answer.status_code == 201, answer.content[:300]

    for i in range(3):  # warm
        send(i)
    SPENT.clear()
    for i in range(3, 3 + saves):
        send(i)
    with open("/proc/loadavg") as load:
        print(f"{saves} saves at 300+ hands, ms per save (load {load.read().split()[0]})")
    labels = ["the whole send (test client)", *(label for _, _, label in STEPS)]
    for label in labels:
        print(f"  {SPENT[label] / saves * 1000:7.1f}  {label}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
