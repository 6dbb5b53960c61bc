"""Web bench: the time from submitting a hand to the updated view, in games of 300 and 20
hands.

Each sample is what the scorekeeper's phone waits for. With JavaScript (htmx): the POST of
the hand form, answered with the parts of the page that change (the next hand's form, the
score, the new row, the totals, the chart). Without: the plain POST and the redirected GET of
the whole game page. The service rescores the whole game and stores the hand either way.
The baseline, measured in the same run, is a bare Django view rendering a page the size of
the 300-hand game page through the template engine, behind the same middleware, so the
difference is the app's own work. Budget: at 300 hands, submit -> updated view (htmx) within
2x the bare view.

Uses Django's test Client against a temporary SQLite database (migrated here).
Run: .venv/bin/python bench/bench_web.py  [samples, default 40]
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TMP = tempfile.TemporaryDirectory(prefix="tablestakes-bench-")
os.environ["DATABASE_URL"] = f"sqlite:///{TMP.name}/bench.sqlite3"
os.environ["DJANGO_SETTINGS_MODULE"] = "tablestakes.settings.test"

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, reset_queries  # noqa: E402
from django.http import HttpResponse  # noqa: E402
from django.template import Context, Template  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import include, path, reverse  # noqa: E402

from ledger import services  # noqa: E402

HANDS = 300
SMALL = 20
BUDGET = 2.0
BARE = Template("<!doctype html><html><body><table>{% for row in rows %}"
                "<tr><td>{{ row.0 }}</td><td>{{ row.1 }}</td><td>{{ row.2 }}</td></tr>"
                "{% endfor %}</table></body></html>")
BARE_ROWS: list[tuple] = []


def bare_view(request):
    return HttpResponse(BARE.render(Context({"rows": BARE_ROWS})))


urlpatterns = [
    path("bench/bare/", bare_view),
    path("", include("tablestakes.urls")),
]


def record(hands: int) -> dict:
    entries = []
    for i in range(hands):
        knocker, other = ("Ann", "Bob") if i % 3 else ("Bob", "Ann")
        if i % 17 == 0:
            entries.append({"draw": True})
        elif i % 5 == 0:
            entries.append({"knocker": knocker, "deadwood": {knocker: 0, other: 22}})
        else:
            entries.append({"knocker": knocker, "deadwood": {knocker: i % 10, other: 30}})
    return {"format": "tablestakes.game/1", "variant": "gin", "preset": "standard",
            "rules": {"target": 100_000}, "players": ["Ann", "Bob"],
            "stakes": {"rate": "0.01", "per_points": 1, "currency": "USD"},
            "setup": {"first_dealer": "Ann"}, "abandoned": False, "hands": entries}


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def submit_times(client: Client, game, samples: int, *, htmx: bool) -> list[float]:
    """Each sample: a hand posted as the phone posts it, until the updated view is back.
    ``htmx``: the form's htmx POST, answered with the parts that change (the next form, the
    score, the new row, the totals); otherwise the plain POST and its redirected GET of the
    whole page (what a phone without JavaScript waits for)."""
    post_url = reverse("ledger:hand_create", args=[game.pk])
    number = game.hands.filter(voided_at__isnull=True).count() + 1
    headers = {"HX-Request": "true", "HX-Target": "entry"} if htmx else {}
    times: list[float] = []
    for i in range(samples):
        knocker, other = ("Ann", "Bob") if i % 2 else ("Bob", "Ann")
        data = {"key": str(uuid.uuid4()), "number": number, "t1_knocker": knocker,
                "t1_kind": "knock", "t1_c0" if knocker == "Ann" else "t1_c1": "4",
                "t1_c1" if knocker == "Ann" else "t1_c0": "25"}
        start = time.perf_counter()
        response = client.post(post_url, data, follow=not htmx, headers=headers)
        times.append(time.perf_counter() - start)
        text = response.content.decode()
        assert response.status_code == 200 and f"Hand {number} recorded" in text, text[-800:]
        if htmx:
            assert f'id="hand-{number}"' in text and "<html" not in text
        number += 1
    return times


def main() -> None:
    samples = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    settings.ROOT_URLCONF = __name__
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("bench", password="pw")
    table = services.table_create(name="Bench", scorekeepers=[user])
    session = services.session_create(table=table, rate="0.01", created_by=user)
    games = {n: [services.game_import(session=session, record=record(n), imported_by=user)
                 for _ in range(2)] for n in (HANDS, SMALL)}
    client = Client()
    client.force_login(user)
    sheet_url = reverse("ledger:game_detail", args=[games[HANDS][0].pk])

    page = client.get(sheet_url)
    assert page.status_code == 200
    size = len(page.content)
    row = ("Ann knocks 3 v 30", "1234", "+27")
    one = len(BARE.render(Context({"rows": [row]})).encode()) - len(
        BARE.render(Context({"rows": []})).encode())
    BARE_ROWS[:] = [row] * max(1, (size - 60) // one)
    bare_size = len(client.get("/bench/bare/").content)

    settings.DEBUG = True  # count queries of one sheet GET
    reset_queries()
    client.get(sheet_url)
    queries = len(connection.queries)
    settings.DEBUG = False

    figures = {}
    for n in (HANDS, SMALL):
        figures[n] = {"htmx": submit_times(client, games[n][0], samples, htmx=True),
                      "page": submit_times(client, games[n][1], samples, htmx=False)}

    bare_times: list[float] = []
    for _ in range(samples):
        start = time.perf_counter()
        client.get("/bench/bare/")
        bare_times.append(time.perf_counter() - start)

    def ms(value: float) -> str:
        return f"{value * 1000:7.1f} ms"

    bm, b95 = statistics.median(bare_times), pct(bare_times, 0.95)
    print(f"hand entry -> updated view ({samples} samples each; the {HANDS}-hand page is "
          f"{size // 1024} KiB, {queries} queries per sheet GET)")
    print(f"  bare Django view        median {ms(bm)}   p95 {ms(b95)}   "
          f"(page {bare_size // 1024} KiB, the baseline)")
    for n in (HANDS, SMALL):
        for kind, label in (("htmx", "submit -> parts (htmx)"),
                            ("page", "submit + whole page")):
            times = figures[n][kind]
            med = statistics.median(times)
            print(f"  {n:3d} hands {label:23s} median {ms(med)}   p95 {ms(pct(times, 0.95))}"
                  f"   ratio {med / bm:4.1f}x")
    ratio = statistics.median(figures[HANDS]["htmx"]) / bm
    print(f"  budget: {HANDS} hands, submit -> updated view within {BUDGET:.0f}x the bare view: "
          f"{ratio:.1f}x {'ok' if ratio <= BUDGET else 'OVER BUDGET'}")


if __name__ == "__main__":
    main()
