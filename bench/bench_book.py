"""Book bench (issue 13): a table of ten years of weekly evenings (520 evenings, 8 games
each, 20 hands a game: 4,160 games, 83,200 hands; issue 42: the budget holds at ten years,
not five, since the pages grow with the evenings), and the time of its book, a player's page
and its standings, each against a bare Django view returning an HTML page of the same size
in the same run. The bare view renders a table of as many bytes through the template engine,
not the page's own bytes: a view answering ready bytes would do no template work at all, and
the pages' template work is what is compared.

The table is built with bulk inserts from results the core computed once per game template
(tests/ledger/book_big.py; tests/ledger/test_book_queries.py checks that it stores what the
services would). Each page and its bare twin are timed in alternating pairs through Django's
test Client behind the same middleware, so the machine's drift falls on both alike. What is
timed is the process's CPU time per request (the test client serves in-process and SQLite
runs in-process, so that is all the work of the request; on a shared machine the wall clock
also counts waiting for a core, printed alongside). The ratio is median(page) /
median(bare) and the budget (3x) holds when both the median ratio and the best-vs-best
ratio are under it. The query count of each page is printed too (a test holds it equal at
26 and 260 evenings).

Run: .venv/bin/python bench/bench_book.py  [samples, default 30]
"""

from __future__ import annotations

import statistics
import sys
import time

import _common

TMP = _common.start_django("tablestakes-bench-book-")

from django.http import HttpResponse  # noqa: E402
from django.template import Context, Template  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import path, reverse  # noqa: E402

from ledger.models import Player  # noqa: E402
from tests.ledger.book_big import build_table  # noqa: E402

EVENINGS, HANDS, BUDGET = 520, 20, 3.0
BARE = Template("<!doctype html><html><body><table>{% for row in rows %}"
                "<tr><td>{{ row.0 }}</td><td>{{ row.1 }}</td><td>{{ row.2 }}</td></tr>"
                "{% endfor %}</table></body></html>")
ROW = ("Thu 7 Jan 21", "+12.35", "-4.05")
BARE_ROWS: dict[str, list[tuple]] = {}


def bare_view(request, name):
    return HttpResponse(BARE.render(Context({"rows": BARE_ROWS[name]})))


urlpatterns = _common.bench_urls(path("bench/bare/<str:name>/", bare_view))


def main() -> int:
    samples = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    _common.serve(__name__)
    user, table, _ = _common.bench_keeper("Ten years", evening=False)
    start = time.perf_counter()
    build_table(table, evenings=EVENINGS, hands=HANDS)
    built = time.perf_counter() - start
    client = Client()
    client.force_login(user)
    ann = Player.objects.get(table=table, name="Ann")
    pages = {
        "book": reverse("ledger:table_book", args=[table.pk]),
        "player page": reverse("ledger:player_detail", args=[ann.pk]),
        "standings": reverse("ledger:table_standings", args=[table.pk]),
    }
    one = len(BARE.render(Context({"rows": [ROW]})).encode()) - \
        len(BARE.render(Context({"rows": []})).encode())
    print(f"book bench: {EVENINGS} evenings x 8 games x {HANDS} hands "
          f"({EVENINGS * 8} games, {EVENINGS * 8 * HANDS} hands), built in {built:.1f} s; "
          f"{samples} pairs per page")
    failed = False
    for name, url in pages.items():
        response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        size = len(response.content)
        BARE_ROWS[name] = [ROW] * max(1, (size - 60) // one)
        bare_url = f"/bench/bare/{name}/"
        bare_size = len(client.get(bare_url).content)
        queries = _common.queries_of(lambda url=url: client.get(url))  # of one GET
        page_cpu, bare_cpu, page_wall, bare_wall = [], [], [], []
        for i in range(samples):
            order = ((url, page_cpu, page_wall), (bare_url, bare_cpu, bare_wall))
            for target, cpu, wall in (order if i % 2 == 0 else order[::-1]):
                c0, w0 = time.process_time(), time.perf_counter()
                client.get(target)
                cpu.append(time.process_time() - c0)
                wall.append(time.perf_counter() - w0)
        pm, bm = statistics.median(page_cpu), statistics.median(bare_cpu)
        ratio, best = pm / bm, min(page_cpu) / min(bare_cpu)
        wall_ratio = statistics.median(page_wall) / statistics.median(bare_wall)
        ok = ratio <= BUDGET and best <= BUDGET
        failed |= not ok
        print(f"  {name:<12} page {size // 1024:4d} KiB, {queries:2d} queries: "
              f"median {pm * 1000:6.1f} ms CPU vs bare ({bare_size // 1024} KiB) "
              f"{bm * 1000:5.1f} ms: {ratio:4.2f}x (best {best:4.2f}x; wall clock "
              f"{wall_ratio:4.2f}x)  {'ok' if ok else 'OVER'}")
    print(f"budget: each page within {BUDGET:g}x the bare view of its size: "
          f"{'held' if not failed else 'NOT held'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
