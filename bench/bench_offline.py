"""Offline and instant Save bench (issue 41's budget): on a phone in Chromium at 360x740 with
its CPU slowed 4x (CDP ``Emulation.setCPUThrottlingRate``, as bench_core_worker.py), the
time from the tap on "Save hand N" to the new totals visible in the page's tiles, scored by
the phone's own core (static/ledger/core/worker.mjs, Pyodide in a Web Worker), in gin games
of 20 and 300 hands, two ways:

- **offline**: the connection cut (the context offline): the hand is checked and scored on
  the phone, kept in its queue, and the tiles show the phone's totals ("not yet saved");
- **instant**: online, the request on its way but the server's answer held back (the route
  never answered): the tiles show the phone's totals before the server says anything.

Measured in the page, on the page's clock: ``performance.now()`` in a ``submit`` listener on
``window`` in the capture phase (it runs before the app's own Save handler, on the
document), to the moment a MutationObserver sees Ann's tile change (its callback runs once
the task that changed it is over: the app's work after the change is in it too), then to
the end of the frame that draws it: the next animation frame, and a task queued from its
callback, which runs once that frame's style, layout and paint are done (the "after next
paint" idiom; a second animation frame would add up to a whole frame of waiting that the
phone does not show). Beside it, in the same page, run and slowdown: **the phone's scoring
time** for that very record (the page's record with the hand added, handed to the core's
``score()`` from the page as the Save does: the copy to the worker, the scoring, the answer
parsed; the median of 5 after one to warm), and **one animation frame** (rAF to rAF, the
median of 30). The core boots at full speed first (its boot is bench_core_worker's figure,
not this one's); only the Save is slowed.

Why it is fair: the budget's parts are measured where the Save happens, at the same
slowdown and load; the scoring time is the same record the Save scores, and the Save's own
work around it (reading the record, making the hand, the queue, the DOM) is what the budget
allows beyond one frame. The hand is typed, then the tap comes LOOK_MS (500 ms) later, the
time a player takes to look at it: the page scores a whole hand once nothing has been
typed for 120 ms (offline.js scoreAhead), so the Save usually finds its answer made and
the figure is mostly the Save's own work and the frame. ``BENCH_LOOK_MS=0`` taps at once
(the Save scores the hand itself, as before the scoring ahead).

On the shared 2-core machine of its first runs (3 samples, load average 4-6): totals
visible 61-69 ms after the tap at 20 hands and 118-136 ms at 300 hands, offline and
instant alike, against a core's scoring of 4-14 ms and a 16.7 ms frame: over budget (3-5x).
The tiles were in the DOM 40-70 ms after the tap (the Save's own work and the next hand's
form) and the frame that drew them on the 300-hand page took another 60-77 ms of style,
layout and paint. Since then the totals are drawn first in a frame of their own (the list,
the next hand's form and the panel a frame later), the sheet is laid out only near the
screen, the page's record is read while the page is idle and sent to the core as its text,
and an instant Save's request leaves after the totals are drawn: 28-47 ms at load 2-3
(1.3-1.8x). Then the hand is scored while the player looks, and the tiles' words and the
list's are made then too (their code ran cold in the Save): in the DOM 8-11 ms after the
tap instead of 26-43, visible 28-32 ms (0.7-1.4x) against 41-82 ms (1.5-2.7x) for the code
before, paired at load 6; in three `make bench` runs at load 1.4-2.4, 19-24 ms at 20 hands
(0.94-1.17x) and 17-29 ms at 300 (0.56-0.91x). Tapped at once (``BENCH_LOOK_MS=0``: the
Save scores the hand itself, as before) it is not held: 33-44 ms at 20 hands (1.7-2.1x) and
42-50 ms at 300 (1.4-1.6x), load 1.3.

Budget (issue 41): totals visible within 1.5x (one frame + scoring time), for each game size
and way (medians); exits 1 when one is over. Uses a temporary SQLite database, Django's live
server thread (static files served by Django) and Debian's Chromium.

    .venv/bin/python bench/bench_offline.py [samples, default 5: the scoring time, the
    budget's own part, varies by a third from one Save to the next]
"""

from __future__ import annotations

import os
import statistics
import sys

import _common

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop in this thread
TMP = _common.start_django("tablestakes-offline-")

from django.urls import reverse  # noqa: E402

from ledger import services  # noqa: E402

CHROMIUM = next((p for p in ("/usr/bin/chromium", "/usr/bin/chromium-headless-shell")
                 if os.path.exists(p)), None)
THROTTLE = 4
BUDGET = 1.5
SIZES = (20, 300)
WAYS = ("offline", "instant")
PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True, "service_workers": "block"}
BOOT_MS = 300_000
urlpatterns = _common.bench_urls()

BOOT = """async () => {
  const client = await import(document.getElementById("core-worker").src);
  return await client.ready();
}"""

# one frame (rAF to rAF, median of 30) and the core's time for the page's record with Ann's
# knock of 4 against 25 added (median of 5 after one to warm)
PARTS = """async () => {
  const frame = () => new Promise((done) => requestAnimationFrame(done));
  const gaps = [];
  let last = await frame();
  for (let i = 0; i < 30; i++) { const t = await frame(); gaps.push(t - last); last = t; }
  const client = await import(document.getElementById("core-worker").src);
  const record = JSON.parse(document.getElementById("game-record").textContent);
  record.hands.push({knocker: "Ann", deadwood: {Ann: 4, Bob: 25}});
  const times = [];
  for (let i = 0; i < 6; i++) {
    const t = performance.now();
    const answer = await client.score(record);
    if (!answer.ok) throw new Error("the core refused the bench's record");
    if (i) times.push(performance.now() - t);
  }
  const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return {frame: median(gaps), score: median(times)};
}"""

SAVE = """async () => {
  const tile = document.querySelector(".score-tile[data-key='Ann'] .score-value");
  const before = tile.textContent;
  let tapped = null;
  let changed = null;
  window.addEventListener("submit", () => { tapped = performance.now(); },
                          {capture: true, once: true});
  const seen = new Promise((done) => {
    const observer = new MutationObserver(() => {
      if (tile.textContent === before) return;
      changed = performance.now();
      observer.disconnect();
      done();
    });
    observer.observe(tile, {childList: true, characterData: true, subtree: true});
  });
  const button = document.querySelector("form[data-offline-queue] button[type=submit]");
  button.click();
  await Promise.race([seen, new Promise((_, fail) => setTimeout(
    () => fail(new Error("the totals never changed")), 60000))]);
  // the frame with the change drawn: its animation frame, then a task queued from it,
  // which runs once that frame's style, layout and paint are done ("after next paint")
  await new Promise((done) => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = done;
    channel.port2.postMessage(0);
  }));
  const visible = performance.now();
  return {dom: changed - tapped, visible: visible - tapped, before, after: tile.textContent,
          unsaved: !!document.querySelector(".scoreboard.unsaved")};
}"""


LOOK_MS = int(os.environ.get("BENCH_LOOK_MS", "500"))


def tap_knock(page, online: bool) -> None:
    """Ann knocks 4 against Bob's 25, then the time a player takes to look before the tap."""
    for field, value in (("t1_knocker", "Ann"), ("t1_kind", "knock")):
        page.locator(f"label.seg-opt:has(input[name='{field}'][value='{value}'])").click()
    page.fill("input[name=t1_c0]", "4")
    page.fill("input[name=t1_c1]", "25")
    if online:
        page.wait_for_load_state("networkidle")
    if LOOK_MS:
        page.wait_for_timeout(LOOK_MS)


def one_save(browser, state, url: str, way: str) -> dict:
    context = browser.new_context(storage_state=state, **PHONE)
    held = []
    try:
        page = context.new_page()
        page.set_default_timeout(BOOT_MS)
        page.goto(url, wait_until="load")
        page.evaluate(BOOT)  # at full speed: the boot is not this bench's
        if way == "offline":
            context.set_offline(True)
        else:
            page.route("**/hands/send/**", lambda route: held.append(route))
        cdp = context.new_cdp_session(page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": THROTTLE})
        parts = page.evaluate(PARTS)
        tap_knock(page, way == "instant")
        took = page.evaluate(SAVE)
        if not took["unsaved"]:
            raise SystemExit(f"{way}: the tiles changed but not as the phone's ({took})")
        for _ in range(100):  # the held request reaches this side a moment later
            if way != "instant" or held:
                break
            page.wait_for_timeout(50)
        if way == "instant" and len(held) != 1:
            raise SystemExit(f"instant: {len(held)} requests held, not one")
        return {**parts, **took}
    finally:
        for route in held:
            route.abort()
        context.close()


def main() -> int:
    samples = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    from playwright.sync_api import sync_playwright
    from pytest_django.live_server_helper import LiveServer

    from tablestakes.staticfiles import core_config

    _common.serve(__name__)
    if core_config() is None or CHROMIUM is None:
        print("offline bench: Pyodide (scripts/bootstrap) or Chromium missing")
        return 1
    user, _table, session = _common.bench_keeper()
    games = {n: services.game_import(session=session, imported_by=user,
                                     record=_common.gin_record(n, gins=True)) for n in SIZES}
    server = LiveServer(f"127.0.0.1:{_common.port('BENCH_HTTP_PORT')}")
    runs: dict[tuple[int, str], list[dict]] = {(n, w): [] for n in SIZES for w in WAYS}
    try:
        with sync_playwright() as pw:
            browser, state = _common.phone_browser(pw, CHROMIUM, PHONE, server.url)
            for i in range(samples):
                for n in SIZES:
                    url = server.url + reverse("ledger:game_detail", args=[games[n].pk])
                    for way in WAYS:
                        run = one_save(browser, state, url, way)
                        runs[(n, way)].append(run)
                        print(f"  sample {i + 1}/{samples} {n:3d} hands {way:7s}: visible "
                              f"{run['visible']:5.0f} ms (DOM {run['dom']:5.0f}), score "
                              f"{run['score']:5.0f} ms, frame {run['frame']:4.1f} ms "
                              f"({run['before']} -> {run['after']})", flush=True)
            browser.close()
    finally:
        server.stop()

    load = os.getloadavg()
    print(f"offline and instant Save (Chromium, CPU slowed {THROTTLE}x, 360x740; {samples} "
          f"samples, medians; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f})")
    over = False
    for (n, way), values in runs.items():
        med = {key: statistics.median(v[key] for v in values)
               for key in ("visible", "dom", "score", "frame")}
        allowed = BUDGET * (med["frame"] + med["score"])
        ok = med["visible"] <= allowed
        over |= not ok
        print(f"  {n:3d} hands, {way:7s}: Save -> totals visible {med['visible']:6.0f} ms "
              f"(in the DOM {med['dom']:6.0f}); scoring {med['score']:6.0f} ms + one frame "
              f"{med['frame']:4.1f} ms; budget {allowed:6.0f} ms: ratio "
              f"{med['visible'] / (med['frame'] + med['score']):4.2f}x "
              f"{'ok' if ok else 'OVER BUDGET'}")
    print(f"  budget: totals visible within {BUDGET}x (one frame + scoring time): "
          f"{'OVER' if over else 'ok'}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
