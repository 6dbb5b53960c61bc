"""Live share page bench: what a player's phone costs the server every 2 s, in a game of 300
hands.

Samples per round: a poll while nothing changed (If-None-Match -> 304, no body), the first
poll right after a hand was recorded (200 with the live part, drawn and gzipped), the same
poll from another phone (the part drawn once is kept in the cache), and the baseline
measured in the same run: a bare Django view behind the same middleware answering the same
bytes (a 304 with no body for the unchanged poll; the changed poll's gzipped body for the
others). Budget (issue 42): the unchanged poll within 3x its bare view; exits 1 if over.
Prints times, the ratios against the baseline, the queries of an unchanged poll and the
bytes on the wire of each answer (body; headers depend on the server).

Then the tables' reports (issue 23), in real time: a captain-7 game with 3 reporting
phones (each polls its report page's live part every 2 s and sends its table's part of
each hand at a random moment), 7 watching phones polling the share page every 2 s, and the
scorekeeper's page polling the current hand's reports every 2 s (as report_keeper.js) and
saving a hand every 20 s (``hand_record`` with the reported parts, as the Save does). It
prints the queries of each kind of poll (unchanged 304 and changed 200), the time from a
report's answer to the scorekeeper's poll that first carries it (the form is filled from
that poll), and the bytes moved per poll (body, and the headers Django sets).

Uses Django's test Client against a temporary SQLite database (migrated here).
Run: .venv/bin/python bench/bench_live.py  [samples, default 40]  [seconds of the reports
part, default 20; the issue's figure is 60; 0 leaves that part out]
"""

from __future__ import annotations

import gzip
import heapq
import random
import statistics
import sys
import time
import uuid
from collections import defaultdict

import _common

TMP = _common.start_django()

from django.contrib.auth.decorators import login_not_required  # noqa: E402
from django.db import connection  # noqa: E402
from django.http import HttpResponse  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.urls import path, reverse  # noqa: E402

from ledger import services  # noqa: E402
from ledger.selectors import table_reports  # noqa: E402

HANDS = 300
#: an unchanged poll within this many times the bare view answering the same bytes
BUDGET = 3.0
BARE_BODY = [b""]


@login_not_required  # as the share page's live part: the phones have no account
def bare_view(request):
    """The same bytes as the app's changed answer (its gzipped body, sent as it is)."""
    response = HttpResponse(BARE_BODY[0])
    response["Content-Encoding"] = "gzip"
    return response


@login_not_required
def bare_304(request):
    """The same bytes as the app's unchanged answer: a 304 with no body."""
    return HttpResponse(status=304)


urlpatterns = _common.bench_urls(path("bench/bare/", bare_view),
                                 path("bench/bare304/", bare_304))


def main() -> None:
    samples = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    _common.serve(__name__)
    user, table, session = _common.bench_keeper()
    game = services.game_import(session=session, record=_common.gin_record(HANDS),
                                imported_by=user)
    link = services.share_link_get_or_create(table=table, game=game, created_by=user)
    url = reverse("ledger:shared_live", args=[link.token])
    phone = Client(HTTP_ACCEPT_ENCODING="gzip")

    first = phone.get(url)
    assert first.status_code == 200
    BARE_BODY[0] = first.content  # the same number of bytes, without the app's work
    etag = first["ETag"]

    def unchanged_poll():
        assert phone.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304

    queries = _common.queries_of(unchanged_poll)

    unchanged: list[float] = []
    changed: list[float] = []
    others: list[float] = []
    bare: list[float] = []
    bare_still: list[float] = []
    sizes = {"unchanged": 0, "changed": 0}
    number = HANDS + 1
    for i in range(samples):
        start = time.perf_counter()
        response = phone.get(url, HTTP_IF_NONE_MATCH=etag)
        unchanged.append(time.perf_counter() - start)
        assert response.status_code == 304
        sizes["unchanged"] = len(response.content)
        start = time.perf_counter()
        got = phone.get("/bench/bare304/")
        assert got.status_code == 304, (got.status_code, got.content[:300])
        bare_still.append(time.perf_counter() - start)

        knocker, other = ("Ann", "Bob") if i % 2 else ("Bob", "Ann")
        services.hand_record(game=game, entry={"knocker": knocker,
                                               "deadwood": {knocker: 4, other: 25}},
                             recorded_by=user, idempotency_key=uuid.uuid4(), number=number)
        number += 1
        start = time.perf_counter()
        response = phone.get(url, HTTP_IF_NONE_MATCH=etag)
        changed.append(time.perf_counter() - start)
        assert response.status_code == 200 and response["Content-Encoding"] == "gzip"
        sizes["changed"] = len(response.content)
        start = time.perf_counter()  # the other phones, asking the same within 2 s
        again = phone.get(url, HTTP_IF_NONE_MATCH=etag)
        others.append(time.perf_counter() - start)
        assert gzip.decompress(again.content) == gzip.decompress(response.content)
        etag = response["ETag"]
        BARE_BODY[0] = response.content  # the bare view answers these very bytes

        start = time.perf_counter()
        got = phone.get("/bench/bare/")
        bare.append(time.perf_counter() - start)
        assert got.status_code == 200 and got.content == BARE_BODY[0]

    def ms(values: list[float]) -> str:
        return f"median {statistics.median(values) * 1000:7.2f} ms"

    base, base_still = statistics.median(bare), statistics.median(bare_still)
    print(f"share page poll, game of {HANDS}-{number - 1} hands ({samples} samples, "
          f"{queries} queries per unchanged poll); each against a bare view answering "
          f"the same bytes, in turns")
    still = statistics.median(unchanged) / base_still
    moved = statistics.median(changed) / base
    other = statistics.median(others) / base
    print(f"  unchanged (304)    {ms(unchanged)}   ratio {still:5.1f}x"
          f"   body {sizes['unchanged']} B")
    print(f"  after a hand (200) {ms(changed)}   ratio {moved:5.1f}x"
          f"   body {sizes['changed']} B gzipped")
    print(f"  the other phones   {ms(others)}   ratio {other:5.1f}x   (drawn once, kept)")
    print(f"  bare view, 304     {ms(bare_still)}   (no body)")
    print(f"  bare view, 200     {ms(bare)}   (body {len(BARE_BODY[0])} B, the same gzip)")
    ok = still <= BUDGET
    print(f"  budget: an unchanged poll within {BUDGET:g}x the bare 304: {still:.1f}x "
          f"{'ok' if ok else 'OVER'}")
    return 0 if ok else 1


# -- the tables' reports (issue 23) ----------------------------------------------------------

POLL = 2.0        # every page polls every 2 s (live.js, report.js, report_keeper.js)
HAND_EVERY = 20.0  # the scorekeeper saves a hand every 20 s
WATCHERS = 7
CAPTAINS, OPPONENTS = ["R1", "R2", "R3"], ["B1", "B2", "B3"]


def _header_bytes(response) -> int:
    return sum(len(k) + len(str(v)) + 4 for k, v in response.items()) + 17  # + status line


class Poller:
    """One phone's poll: its URL, its ETag, and what each answer cost."""

    def __init__(self, kind: str, client: Client, url: str):
        self.kind, self.client, self.url, self.etag = kind, client, url, None

    def poll(self, stats: dict):
        headers = {"HTTP_IF_NONE_MATCH": self.etag} if self.etag else {}
        start = time.perf_counter()
        with CaptureQueriesContext(connection) as queries:
            response = self.client.get(self.url, **headers)
        took = time.perf_counter() - start
        assert response.status_code in (200, 304), (self.url, response.status_code)
        if response.status_code == 200:
            self.etag = response.get("ETag")
        cell = stats[(self.kind, response.status_code)]
        cell["n"] += 1
        cell["queries"].append(len(queries))
        cell["ms"].append(took * 1000)
        cell["body"].append(len(response.content))
        cell["headers"].append(_header_bytes(response))
        return response


def reports_bench(seconds: float) -> None:
    """3 reporting phones, 7 watching phones and the scorekeeper's page on a captain-7 game
    for ``seconds`` of wall-clock time."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(username="bench")
    session = services.session_create(table=services.table_create(
        name="Captains", scorekeepers=[user]), rate="0.01", created_by=user)
    game = services.game_start(
        session=session, variant="captain", players=CAPTAINS + OPPONENTS + ["B4"],
        started_by=user, preset="standard",
        setup={"captains": CAPTAINS, "opponents": OPPONENTS, "sitter": "B4"})
    links = services.report_links_get_or_create(game=game, created_by=user)
    share = services.share_link_get_or_create(table=session.table, game=game,
                                              created_by=user)
    keeper = Client(HTTP_ACCEPT_ENCODING="gzip")
    keeper.force_login(user)
    rng = random.Random(23)
    pollers = [Poller("report page", Client(HTTP_ACCEPT_ENCODING="gzip"),
                      reverse("ledger:report_live", args=[link.token])) for link in links]
    pollers += [Poller("share page", Client(HTTP_ACCEPT_ENCODING="gzip"),
                       reverse("ledger:shared_live", args=[share.token]))
                for _ in range(WATCHERS)]
    keeper_poll = Poller("scorekeeper's reports", keeper,
                         reverse("ledger:game_reports", args=[game.pk]))
    pollers.append(keeper_poll)
    stats: dict = defaultdict(lambda: {"n": 0, "queries": [], "ms": [], "body": [],
                                       "headers": []})
    waiting: dict[int, float] = {}   # report id -> when its phone had the answer
    seen: list[float] = []           # report -> the scorekeeper's poll carrying it, seconds
    report_ms: list[float] = []
    save_ms: list[float] = []
    hands = 0

    # the events: (due, order, what, who); every phone starts at its own phase
    events: list = []
    order = 0

    def at(due: float, what: str, who=None):
        nonlocal order
        order += 1
        heapq.heappush(events, (due, order, what, who))

    for poller in pollers:
        at(rng.uniform(0, POLL), "poll", poller)
    t = 0.0
    while t < seconds:  # each hand: every table reports within its first 15 s
        for i, link in enumerate(links):
            at(t + rng.uniform(1, 15), "report", (i + 1, link))
        t += HAND_EVERY
        at(t, "save")

    begin = time.perf_counter()
    while events:
        due, _, what, who = heapq.heappop(events)
        if due > seconds:
            break
        delay = begin + due - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        if what == "poll":
            response = who.poll(stats)
            if who is keeper_poll and response.status_code == 200:
                now = time.perf_counter()
                for part in response.json()["parts"]:
                    if part["id"] in waiting:
                        seen.append(now - waiting.pop(part["id"]))
            at(due + POLL, "poll", who)
        elif what == "report":
            table, link = who
            number = table_reports.report_parts_of(game)["number"]
            pair = table_reports.report_parts_of(game)["tables"][table - 1]
            first = rng.random() < 0.5  # the knocker: the pair's first or second
            low, high = str(rng.randint(0, 10)), str(rng.randint(11, 60))
            data = {"number": str(number), "key": str(uuid.uuid4()),
                    "t1_knocker": pair[0] if first else pair[1], "t1_kind": "knock",
                    "t1_c0": low if first else high, "t1_c1": high if first else low}
            start = time.perf_counter()
            response = Client().post(reverse("ledger:report_page", args=[link.token]), data)
            report_ms.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 302, response.status_code
            latest = game.table_reports.filter(table=table, number=number,
                                               replaced_at__isnull=True).order_by("-id")
            waiting[latest.values_list("id", flat=True).first()] = time.perf_counter()
        else:  # the scorekeeper's Save: the reported parts (a table not reported: a draw)
            parts = table_reports.report_parts_of(game)
            standing = {r.table: r.values for r in game.table_reports.filter(
                number=parts["number"], replaced_at__isnull=True, withdrawn_at__isnull=True)}
            entry = {"tables": [standing.get(i, {"draw": True})
                                for i in range(1, len(parts["tables"]) + 1)]}
            start = time.perf_counter()
            services.hand_record(game=game, entry=entry, recorded_by=user,
                                 idempotency_key=uuid.uuid4(), number=parts["number"])
            save_ms.append((time.perf_counter() - start) * 1000)
            hands += 1
    wall = time.perf_counter() - begin

    polls = sum(cell["n"] for cell in stats.values())
    print(f"\ntables' reports: captain 7, 3 reporting + {WATCHERS} watching phones + the "
          f"scorekeeper's page, each polling every {POLL:.0f} s, a hand saved every "
          f"{HAND_EVERY:.0f} s, {seconds:.0f} s ({wall:.1f} s wall, {polls} polls, "
          f"{len(report_ms)} reports, {hands} hands saved)")
    print(f"  {'poll':24} {'answer':6} {'count':>5} {'queries':>8} {'median ms':>10} "
          f"{'body B':>7} {'headers B':>9}")
    for kind in ("report page", "share page", "scorekeeper's reports"):
        for status in (304, 200):
            cell = stats.get((kind, status))
            if not cell or not cell["n"]:
                continue
            queries = sorted(set(cell["queries"]))
            q = str(queries[0]) if len(queries) == 1 else f"{queries[0]}-{queries[-1]}"
            print(f"  {kind:24} {status:6} {cell['n']:5} {q:>8} "
                  f"{statistics.median(cell['ms']):10.2f} "
                  f"{round(statistics.median(cell['body'])):7} "
                  f"{round(statistics.median(cell['headers'])):9}")
    moved = sum(sum(c["body"]) + sum(c["headers"]) for c in stats.values())
    print(f"  bytes moved by the polls: {moved:,} B in all, {moved / max(polls, 1):.0f} B per "
          f"poll on average, {moved / max(wall, 1e-9) / 1024:.1f} KiB/s for the room")
    if seen:
        print(f"  report -> scorekeeper's form (poll-based): median "
              f"{statistics.median(seen):.2f} s, max {max(seen):.2f} s over {len(seen)} "
              f"reports (every one under 3 s: {max(seen) < 3})")
    if waiting:
        print(f"  {len(waiting)} report(s) not seen before the run ended")
    if report_ms:
        print(f"  a report's post: median {statistics.median(report_ms):.1f} ms; a hand's "
              f"save: median {statistics.median(save_ms or [0]):.1f} ms")


if __name__ == "__main__":
    status = main()
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 20.0
    if seconds > 0:  # 0: the share page's poll alone
        reports_bench(seconds)
    sys.exit(status)
