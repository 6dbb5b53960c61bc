"""Web bench: the time from submitting a hand to the updated view, in games of 300 and 20
hands.

Each sample is what the scorekeeper's phone waits for. On the game page a hand goes through
the phone's queue (static/ledger/offline.js): one POST to /games/N/hands/send/ whose JSON
answer carries the parts of the page that change (the next hand's form, the score, the new
row, the totals, the chart), which the page puts in place: nothing else is asked. For
comparison: the hand form's own htmx POST (the same parts, as HTML), and without JavaScript
the plain POST and the redirected GET of the whole game page. The service rescores the
whole game and stores the hand either way. The baselines, measured in the same run, are bare
Django views behind the same middleware rendering a table through the template engine: one
answering JSON the size of the send's answer (its parts as a string, as the send answers),
one a page the size of the 300-hand game page; each kind is compared with the one of its
own size (the send's answer is about 20 KiB, the page 153 KiB: comparing the send with the
page-sized view flattered it 6x). The answer-sized view also stores what a Save stores, the
same way: before answering it inserts a blob sized so that its commit appends as many bytes
to SQLite's write-ahead log as one Save (measured here, printed with it), in one IMMEDIATE
transaction under the settings' synchronous=FULL, so both pay the same fsync (a bare view
that wrote nothing left the Save's commit, 1 ms on a quiet disk and 12 ms on this loaded
one, on the Save's side alone). Budget (issue 42): at 300 hands, the queue's send with its
parts within 2x the bare view of its size; exits 1 if over. The load average is printed.

Uses Django's test Client against a temporary SQLite database (migrated here).
Run: .venv/bin/python bench/bench_web.py  [samples, default 40]
"""

from __future__ import annotations

import os
import statistics
import sys
import time
import uuid
from pathlib import Path

import _common

TMP = _common.start_django()

from django.db import connection, transaction  # noqa: E402
from django.http import HttpResponse, JsonResponse  # noqa: E402
from django.template import Context, Template  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import path, reverse  # noqa: E402

from ledger import services  # noqa: E402

HANDS = 300
SMALL = 20
BUDGET = 2.0
KINDS = {"send": "send -> parts (phone)", "htmx": "submit -> parts (htmx)",
         "page": "submit + whole page"}
BARE = Template("<!doctype html><html><body><table>{% for row in rows %}"
                "<tr><td>{{ row.0 }}</td><td>{{ row.1 }}</td><td>{{ row.2 }}</td></tr>"
                "{% endfor %}</table></body></html>")
BARE_ROWS: list[tuple] = []
ANSWER_ROWS: list[tuple] = []


def bare_view(request):
    return HttpResponse(BARE.render(Context({"rows": BARE_ROWS})))


#: bytes of the blob the bare answer stores, so that its commit appends as much to the
#: write-ahead log as a Save's (measured in ``main``)
WRITE = {"bytes": 0}


def bare_answer(request):
    """A JSON answer like the send's (the parts as one string), of its size, after storing
    as many bytes as a Save with the same durability: one IMMEDIATE transaction committed
    with the settings' synchronous=FULL on the same database (its fsync of the log)."""
    if WRITE["bytes"]:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("INSERT INTO bench_write (v) VALUES (%s)", [b"x" * WRITE["bytes"]])
    return JsonResponse({"status": "recorded", "created": True, "number": 1,
                         "message": "Hand 1 recorded.",
                         "parts": BARE.render(Context({"rows": ANSWER_ROWS})), "next": 2},
                        status=201)


def wal_bytes() -> int:
    """The size of the database's write-ahead log now."""
    wal = Path(str(connection.settings_dict["NAME"]) + "-wal")
    return wal.stat().st_size if wal.exists() else 0


def appended(call) -> int:
    """Bytes ``call()`` appended to the write-ahead log (the log emptied first, so that no
    checkpoint falls inside)."""
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    before = wal_bytes()
    call()
    return wal_bytes() - before


urlpatterns = _common.bench_urls(path("bench/bare/", bare_view),
                                 path("bench/answer/", bare_answer))


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def submit(client: Client, game, i: int, *, kind: str) -> float:
    """One sample: a hand posted as the phone posts it, until the updated view is back.
    ``send``: the queue's POST of the last hand it holds, asking for the parts (``parts=N``,
    N the hand's number: the page shows all the hands before it), answered in JSON with the
    parts that change; ``htmx``: the form's htmx POST, answered with the same parts as HTML;
    ``page``: the plain POST and its redirected GET of the whole page (what a phone without
    JavaScript waits for)."""
    post_url = reverse("ledger:hand_send" if kind == "send" else "ledger:hand_create",
                       args=[game.pk])
    number = game.hands.filter(voided_at__isnull=True).count() + 1
    headers = {"HX-Request": "true", "HX-Target": "entry"} if kind == "htmx" else {}
    knocker = "Ann" if i % 2 else "Bob"
    data = {"key": str(uuid.uuid4()), "number": number, "t1_knocker": knocker,
            "t1_kind": "knock", "t1_c0" if knocker == "Ann" else "t1_c1": "4",
            "t1_c1" if knocker == "Ann" else "t1_c0": "25"}
    if kind == "send":
        data["parts"] = number
    start = time.perf_counter()
    response = client.post(post_url, data, follow=kind == "page", headers=headers)
    took = time.perf_counter() - start
    if kind == "send":
        answer = response.json()
        assert response.status_code == 201 and answer["next"] == number + 1, answer
        text = answer["parts"]
    else:
        assert response.status_code == 200
        text = response.content.decode()
    assert f"Hand {number} recorded" in text, text[-800:]
    if kind != "page":
        assert f'id="hand-{number}"' in text and "<html" not in text
        assert 'id="sheet"' not in text  # the new row only, not the whole sheet
    return took


def bare(client: Client, url: str = "/bench/bare/") -> float:
    start = time.perf_counter()
    response = client.get(url)
    took = time.perf_counter() - start
    assert response.status_code in (200, 201), response.status_code
    return took


def fill(rows: list, size: int, wrap) -> int:
    """``rows`` made as many as makes ``wrap(rows)`` about ``size`` bytes; its size."""
    row = ("Ann knocks 3 v 30", "1234", "+27")
    rows[:] = []
    empty = len(wrap())
    rows[:] = [row]
    one = len(wrap()) - empty
    rows[:] = [row] * max(1, (size - empty) // one)
    return len(wrap())


def main() -> int:
    samples = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    _common.serve(__name__)
    user, _table, session = _common.bench_keeper()
    games = {n: {kind: services.game_import(session=session, imported_by=user,
                                            record=_common.gin_record(n, gins=True))
                 for kind in KINDS}
             for n in (HANDS, SMALL)}
    client = Client()
    client.force_login(user)
    sheet_url = reverse("ledger:game_detail", args=[games[HANDS]["send"].pk])

    page = client.get(sheet_url)
    assert page.status_code == 200
    size = len(page.content)
    bare_size = fill(BARE_ROWS, size, lambda: client.get("/bench/bare/").content)
    # the send's answer at 300 hands, measured on a game of its own (not timed)
    spare = services.game_import(session=session, imported_by=user,
                                 record=_common.gin_record(HANDS, gins=True))
    answers = []
    save_wal = appended(lambda: answers.append(client.post(
        reverse("ledger:hand_send", args=[spare.pk]), {
            "key": str(uuid.uuid4()), "number": HANDS + 1, "parts": HANDS + 1,
            "t1_knocker": "Ann", "t1_kind": "knock", "t1_c0": "4", "t1_c1": "25"})))
    answer = answers[0]
    assert answer.status_code == 201, answer.content[:300]
    answer_size = len(answer.content)
    # the baseline stores a blob that appends as much to the log as that Save did (a page a
    # frame: the blob is a little smaller than the log's growth)
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE bench_write (id INTEGER PRIMARY KEY, v BLOB)")
    WRITE["bytes"] = 1
    frame = appended(lambda: client.get("/bench/answer/"))  # one small row: its frames
    WRITE["bytes"] = max(1, save_wal - frame)
    bare_wal = appended(lambda: client.get("/bench/answer/"))
    if bare_wal > frame:  # once more, scaled by what the first blob appended
        WRITE["bytes"] = max(1, WRITE["bytes"] * (save_wal - frame) // (bare_wal - frame))
        bare_wal = appended(lambda: client.get("/bench/answer/"))
    bare_answer_size = fill(ANSWER_ROWS, answer_size,
                            lambda: client.get("/bench/answer/").content)

    queries = _common.queries_of(lambda: client.get(sheet_url))

    # taken in turns (each kind, then the baseline, sample after sample), so that another
    # load on the machine weighs on all of them alike
    figures = {n: {kind: [] for kind in KINDS} for n in (HANDS, SMALL)}
    bare_times: list[float] = []
    answer_times: list[float] = []
    for i in range(samples):
        for n in (HANDS, SMALL):
            for kind in KINDS:
                figures[n][kind].append(submit(client, games[n][kind], i, kind=kind))
        bare_times.append(bare(client))
        answer_times.append(bare(client, "/bench/answer/"))

    def ms(value: float) -> str:
        return f"{value * 1000:7.1f} ms"

    bm, b95 = statistics.median(bare_times), pct(bare_times, 0.95)
    am, a95 = statistics.median(answer_times), pct(answer_times, 0.95)
    print(f"hand entry -> updated view ({samples} samples each; the {HANDS}-hand page is "
          f"{size // 1024} KiB, {queries} queries per sheet GET; the send's answer "
          f"{answer_size / 1024:.1f} KiB)")
    print(f"  bare view, answer size  median {ms(am)}   p95 {ms(a95)}   "
          f"({bare_answer_size / 1024:.1f} KiB JSON: the baseline of send and htmx;"
          f"\n{'':27}its commit appends {bare_wal / 1024:.1f} KiB to the log, a Save"
          f" {save_wal / 1024:.1f} KiB; load average {os.getloadavg()[0]:.2f})")
    print(f"  bare view, page size    median {ms(bm)}   p95 {ms(b95)}   "
          f"({bare_size // 1024} KiB: the baseline of the whole page)")
    for n in (HANDS, SMALL):
        for kind, label in KINDS.items():
            times = figures[n][kind]
            med = statistics.median(times)
            base = bm if kind == "page" else am
            print(f"  {n:3d} hands {label:23s} median {ms(med)}   p95 {ms(pct(times, 0.95))}"
                  f"   ratio {med / base:4.2f}x")
    ratio = statistics.median(figures[HANDS]["send"]) / am
    ok = ratio <= BUDGET
    print(f"  budget: {HANDS} hands, send -> parts within {BUDGET:.0f}x the bare view of the "
          f"answer's size: {ratio:.2f}x {'ok' if ok else 'OVER BUDGET'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
