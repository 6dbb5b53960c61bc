"""Web bench: the time from submitting a hand to the updated view, in games of 300 and 20
hands.

Each sample is what the scorekeeper's phone waits for. On the game page a hand goes through
the phone's queue (static/ledger/offline.js): one POST to /games/N/hands/send/ whose JSON
answer carries the parts of the page that change (the next hand's form, the score, the new
row, the totals, the chart), which the page puts in place: nothing else is asked. For
comparison: the hand form's own htmx POST (the same parts, as HTML), and without JavaScript
the plain POST and the redirected GET of the whole game page. The service rescores the
whole game and stores the hand either way. The baseline, measured in the same run, is a
bare Django view rendering a page the size of the 300-hand game page through the template
engine, behind the same middleware, so the difference is the app's own work. Budget: at 300
hands, submit -> updated view (the queue's send with its parts) within 2x the bare view.

Uses Django's test Client against a temporary SQLite database (migrated here).
Run: .venv/bin/python bench/bench_web.py  [samples, default 40]
"""

from __future__ import annotations

import statistics
import sys
import time
import uuid

import _common

TMP = _common.start_django()

from django.http import HttpResponse  # noqa: E402
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


def bare_view(request):
    return HttpResponse(BARE.render(Context({"rows": BARE_ROWS})))


urlpatterns = _common.bench_urls(path("bench/bare/", bare_view))


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


def bare(client: Client) -> float:
    start = time.perf_counter()
    client.get("/bench/bare/")
    return time.perf_counter() - start


def main() -> None:
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
    row = ("Ann knocks 3 v 30", "1234", "+27")
    one = len(BARE.render(Context({"rows": [row]})).encode()) - len(
        BARE.render(Context({"rows": []})).encode())
    BARE_ROWS[:] = [row] * max(1, (size - 60) // one)
    bare_size = len(client.get("/bench/bare/").content)

    queries = _common.queries_of(lambda: client.get(sheet_url))

    # taken in turns (each kind, then the baseline, sample after sample), so that another
    # load on the machine weighs on all of them alike
    figures = {n: {kind: [] for kind in KINDS} for n in (HANDS, SMALL)}
    bare_times: list[float] = []
    for i in range(samples):
        for n in (HANDS, SMALL):
            for kind in KINDS:
                figures[n][kind].append(submit(client, games[n][kind], i, kind=kind))
        bare_times.append(bare(client))

    def ms(value: float) -> str:
        return f"{value * 1000:7.1f} ms"

    bm, b95 = statistics.median(bare_times), pct(bare_times, 0.95)
    print(f"hand entry -> updated view ({samples} samples each; the {HANDS}-hand page is "
          f"{size // 1024} KiB, {queries} queries per sheet GET)")
    print(f"  bare Django view        median {ms(bm)}   p95 {ms(b95)}   "
          f"(page {bare_size // 1024} KiB, the baseline)")
    for n in (HANDS, SMALL):
        for kind, label in KINDS.items():
            times = figures[n][kind]
            med = statistics.median(times)
            print(f"  {n:3d} hands {label:23s} median {ms(med)}   p95 {ms(pct(times, 0.95))}"
                  f"   ratio {med / bm:4.1f}x")
    ratio = statistics.median(figures[HANDS]["send"]) / bm
    print(f"  budget: {HANDS} hands, send -> parts in place within {BUDGET:.0f}x the bare view: "
          f"{ratio:.1f}x {'ok' if ratio <= BUDGET else 'OVER BUDGET'}")


if __name__ == "__main__":
    main()
