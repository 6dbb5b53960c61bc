"""Live share page bench: what a player's phone costs the server every 2 s, in a game of 300
hands.

Samples per round: a poll while nothing changed (If-None-Match -> 304, no body), the first
poll right after a hand was recorded (200 with the live part, drawn and gzipped), the same
poll from another phone (the part drawn once is kept in the cache), and the baseline
measured in the same run: a bare Django view behind the same middleware answering a page
as big as the live part. Prints times, the ratios against the baseline, the queries of an
unchanged poll and the bytes on the wire of each answer (body; headers depend on the server).

Uses Django's test Client against a temporary SQLite database (migrated here).
Run: .venv/bin/python bench/bench_live.py  [samples, default 40]
"""

from __future__ import annotations

import gzip
import statistics
import sys
import time
import uuid

import _common

TMP = _common.start_django()

from django.http import HttpResponse  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import path, reverse  # noqa: E402

from ledger import services  # noqa: E402

HANDS = 300
BARE_BODY = [b""]


def bare_view(request):
    return HttpResponse(BARE_BODY[0])


urlpatterns = _common.bench_urls(path("bench/bare/", bare_view))


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
    sizes = {"unchanged": 0, "changed": 0}
    number = HANDS + 1
    for i in range(samples):
        start = time.perf_counter()
        response = phone.get(url, HTTP_IF_NONE_MATCH=etag)
        unchanged.append(time.perf_counter() - start)
        assert response.status_code == 304
        sizes["unchanged"] = len(response.content)

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

        start = time.perf_counter()
        phone.get("/bench/bare/")
        bare.append(time.perf_counter() - start)

    def ms(values: list[float]) -> str:
        return f"median {statistics.median(values) * 1000:7.2f} ms"

    base = statistics.median(bare)
    print(f"share page poll, game of {HANDS}-{number - 1} hands ({samples} samples, "
          f"{queries} queries per unchanged poll)")
    still, moved = statistics.median(unchanged) / base, statistics.median(changed) / base
    other = statistics.median(others) / base
    print(f"  unchanged (304)    {ms(unchanged)}   ratio {still:5.1f}x"
          f"   body {sizes['unchanged']} B")
    print(f"  after a hand (200) {ms(changed)}   ratio {moved:5.1f}x"
          f"   body {sizes['changed']} B gzipped")
    print(f"  the other phones   {ms(others)}   ratio {other:5.1f}x   (drawn once, kept)")
    print(f"  bare Django view   {ms(bare)}   (body {len(BARE_BODY[0])} B)")


if __name__ == "__main__":
    main()
