"""Where a Save's time goes on the phone (not a bench: ``scripts/bench`` skips
``bench/_*.py``): bench_offline's Save on a 20- or 300-hand game at 4x CPU, offline, instant
(the request held) or online (to the server's score, as bench_phone), with a Chrome trace of
the page's main thread: its events summed by name, then each of 1 ms or more in time order.
PROFILE=1 adds the script's self time by function (V8's sampling profiler); CATS sets the
trace's categories (default devtools.timeline), MIN_MS the timeline's cut, EXTRA_JS a
function run in the page before the hand is typed (to try a change without editing files).

    .venv/bin/python bench/_trace_offline.py [hands, default 300] [offline|instant|online]
"""

from __future__ import annotations

import collections
import json
import os
import sys

import bench_offline as b
from django.urls import reverse  # noqa: E402

from ledger import services  # noqa: E402

ONLINE = b._common.SAVE_TO_SERVER_SCORE


def main() -> int:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    way = sys.argv[2] if len(sys.argv) > 2 else "offline"
    from playwright.sync_api import sync_playwright
    from pytest_django.live_server_helper import LiveServer

    b._common.serve(b.__name__)
    user, _table, session = b._common.bench_keeper()
    game = services.game_import(session=session, imported_by=user,
                                record=b._common.gin_record(hands, gins=True))
    server = LiveServer(f"127.0.0.1:{b._common.port('BENCH_HTTP_PORT')}")
    try:
        with sync_playwright() as pw:
            browser, state = b._common.phone_browser(pw, b.CHROMIUM, b.PHONE, server.url)
            context = browser.new_context(storage_state=state, **b.PHONE)
            page = context.new_page()
            page.set_default_timeout(b.BOOT_MS)
            page.goto(server.url + reverse("ledger:game_detail", args=[game.pk]))
            page.evaluate(b.BOOT)
            if way == "offline":
                context.set_offline(True)
            elif way == "online":
                pass
            else:
                page.route("**/hands/send/**", lambda route: None)
            cdp = context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": b.THROTTLE})
            if os.environ.get("EXTRA_JS"):
                page.evaluate(os.environ["EXTRA_JS"])
            b.tap_knock(page, way == "instant")
            browser.start_tracing(page=page, categories=os.environ.get(
                "CATS", "devtools.timeline").split(","))
            cdp.send("Profiler.enable")
            cdp.send("Profiler.setSamplingInterval", {"interval": 200})
            if os.environ.get("PROFILE"):
                cdp.send("Profiler.start")
            took = page.evaluate(ONLINE if way == "online" else b.SAVE)
            profile = (cdp.send("Profiler.stop")["profile"] if os.environ.get("PROFILE")
                       else {"nodes": [], "samples": [], "timeDeltas": []})
            trace = json.loads(browser.stop_tracing())
            browser.close()
    finally:
        server.stop()
    events = trace["traceEvents"]
    main_tid = next(e["tid"] for e in events if e.get("name") == "thread_name"
                    and e["args"]["name"] == "CrRendererMain")
    mine = [e for e in events if e.get("tid") == main_tid and e.get("ph") == "X"]
    total = collections.Counter()
    for e in mine:
        name = e["name"]
        if name == "FunctionCall":
            d = e["args"].get("data", {})
            name = (f"FunctionCall {d.get('functionName') or '?'} "
                    f"{d.get('url', '')[-30:]}:{d.get('lineNumber')}")
        elif name == "EventDispatch":
            name = f"EventDispatch {e['args'].get('data', {}).get('type')}"
        total[name] += e.get("dur", 0) / 1000
    print(json.dumps(took))
    nodes = {n["id"]: n for n in profile["nodes"]}
    gap = collections.Counter()
    deltas = profile["timeDeltas"]
    for sample, dt in zip(profile["samples"], deltas[1:] + [0], strict=False):
        f = nodes[sample]["callFrame"]
        gap[f"{f['functionName'] or '(anon)'} {f['url'][-26:]}:{f['lineNumber'] + 1}"] += dt / 1000
    print("script, self time by function:")
    for name, ms in gap.most_common(30):
        print(f"{ms:8.1f} ms  {name}")
    for name, ms in total.most_common(25):
        print(f"{ms:8.1f} ms  {name}")
    t0 = min(e["ts"] for e in mine)
    print("timeline (events of 1 ms or more, start ms from the first):")
    for e in sorted(mine, key=lambda e: (e["ts"], -e.get("dur", 0))):
        if e.get("dur", 0) < float(os.environ.get("MIN_MS", "1")) * 1000:
            continue
        d = e["args"].get("data", {}) if isinstance(e.get("args"), dict) else {}
        what = d.get("functionName") or d.get("type") or ""
        where = f"{d.get('url', '')[-28:]}:{d.get('lineNumber', '')}" if d.get("url") else ""
        print(f"{(e['ts'] - t0) / 1000:8.1f} {e['dur'] / 1000:7.1f}  {e['name']} {what} {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
