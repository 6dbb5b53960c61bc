"""Core-worker bench: the phone's copy of the core (static/ledger/core/worker.mjs, Pyodide in a
Web Worker) in Chromium, at full speed and with the CPU slowed 4x (CDP
``Emulation.setCPUThrottlingRate``), each cold (a new browser context: empty caches).

1. **Boot**: from ``start()`` until the worker has Pyodide running and the core imported.
   Baseline, in the same run and context kind: the same files fetched whole by the page
   (the bytes alone, nothing compiled or run), so the ratio is what Pyodide adds to
   downloading.
2. **First score and then each score** of the 5-player captain sample (tests/data).
3. **Bytes** a phone downloads for the core on first install, and on a release that changed
   only the core: the files as production sends them (Brotli where WhiteNoise compresses,
   at the qualities of tablestakes/staticfiles.py), computed from the files themselves.
4. **Memory**: the WebAssembly memory the worker's Pyodide holds once ready.

On the shared 2-core machine of its first run (3 samples): boot 12.1 s at 1x and 13.0 s at
4x (the same bytes fetched alone: 0.24 s and 1.2 s), first score 32 and 24 ms, then 1.6 and
4.8 ms a score; 30 MiB of WebAssembly memory; 6.10 MB on first install, 62 KB for a release
that changed only the core. The slowdown reaches the worker's own thread (a score takes 3x
as long) but hardly its boot, which is mostly WebAssembly compiling on the browser's
background threads. No budget is held here (issue 41 asks for the figures); the page's
first load with the tag is bench_phone.py's. Uses Django's live server thread and Debian's Chromium.

    .venv/bin/python bench/bench_core_worker.py [samples, default 3]
"""

from __future__ import annotations

import json
import os
import statistics
import sys

import _common

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
TMP = _common.start_django("tablestakes-core-")

from django.urls import reverse  # noqa: E402

from tablestakes.staticfiles import (  # noqa: E402
    BIG,
    PYODIDE,
    PYODIDE_FILES,
    core_config,
    core_zip_bytes,
)

CHROMIUM = next((p for p in ("/usr/bin/chromium", "/usr/bin/chromium-headless-shell")
                 if os.path.exists(p)), None)
THROTTLE = 4
SAMPLE = _common.ROOT / "tests" / "data" / "captain-five-money.json"
urlpatterns = _common.bench_urls()

BOOT = """async ({client, where}) => {
  const core = await import(client);
  const started = performance.now();
  await core.start(where);
  const boot = performance.now() - started;
  const text = %s;
  let t = performance.now();
  const first = await core.score(text);
  const firstMs = performance.now() - t;
  const each = [];
  for (let i = 0; i < 20; i++) {
    t = performance.now();
    await core.score(text);
    each.push(performance.now() - t);
  }
  each.sort((a, b) => a - b);
  return {boot, firstMs, eachMs: each[10], ok: first.ok, memory: core.memoryBytes()};
}"""

FETCH = """async ({urls}) => {
  const started = performance.now();
  await Promise.all(urls.map((url) => fetch(url).then((r) => r.arrayBuffer())));
  return performance.now() - started;
}"""


def sent_bytes(name: str, data: bytes) -> int:
    """What WhiteNoise sends for ``name`` to a browser that takes Brotli."""
    import brotli

    if name.endswith(".zip"):
        return len(data)
    return min(len(data), len(brotli.compress(data, quality=5 if len(data) > BIG else 11)))


def main() -> int:
    samples = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    from playwright.sync_api import sync_playwright
    from pytest_django.live_server_helper import LiveServer

    _common.serve(__name__)
    where = core_config()
    if where is None or CHROMIUM is None:
        print("core worker bench: Pyodide (scripts/bootstrap) or Chromium missing")
        return 1
    server = LiveServer("127.0.0.1:0")
    base = server.url
    where = {key: base + value for key, value in where.items()}
    urls = [where["core"], *(where["pyodide"] + name for name in PYODIDE_FILES)]
    results: dict[str, list[dict]] = {"1x": [], f"{THROTTLE}x": []}
    fetches: dict[str, list[float]] = {"1x": [], f"{THROTTLE}x": []}
    script = BOOT % json.dumps(SAMPLE.read_text(encoding="utf-8"))
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            for _ in range(samples):
                for label, rate in (("1x", 1), (f"{THROTTLE}x", THROTTLE)):
                    for kind in ("fetch", "boot"):
                        context = browser.new_context(service_workers="block")
                        page = context.new_page()
                        page.set_default_timeout(300_000)
                        page.goto(base + reverse("ledger:offline"))
                        cdp = context.new_cdp_session(page)
                        cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
                        if kind == "fetch":
                            fetches[label].append(page.evaluate(FETCH, {"urls": urls}))
                        else:
                            results[label].append(page.evaluate(script, {
                                "client": base + "/static/ledger/core/client.mjs",
                                "where": where}))
                        context.close()
            browser.close()
    finally:
        server.stop()
    print(f"core worker bench ({samples} cold samples each, medians; Chromium {CHROMIUM})")
    for label in results:
        runs = results[label]
        assert all(run["ok"] for run in runs)
        boot = statistics.median(run["boot"] for run in runs)
        fetch = statistics.median(fetches[label])
        print(f"  CPU {label:>3}: boot {boot:7.0f} ms (the same bytes fetched alone: "
              f"{fetch:5.0f} ms; ratio {boot / fetch:5.1f}x), first score "
              f"{statistics.median(run['firstMs'] for run in runs):6.1f} ms, then "
              f"{statistics.median(run['eachMs'] for run in runs):5.1f} ms a score")
    memory = [run["memory"] for run in results["1x"] if run["memory"]]
    if memory:
        print(f"  memory: {statistics.median(memory) / 2**20:.1f} MiB of WebAssembly memory "
              "in the worker once ready")
    files = {name: (PYODIDE / name).read_bytes() for name in PYODIDE_FILES}
    pyodide = sum(sent_bytes(name, data) for name, data in files.items())
    core = sent_bytes("rules.zip", core_zip_bytes())
    worker = sent_bytes("worker.mjs", (_common.ROOT / "static/ledger/core/worker.mjs")
                        .read_bytes())
    print(f"  first install: {(pyodide + core + worker) / 1e6:.2f} MB sent "
          f"(Pyodide {pyodide / 1e6:.2f} MB, core zip {core / 1e3:.0f} KB, worker "
          f"{worker / 1e3:.1f} KB); a release that changed only the core: {core / 1e3:.0f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
