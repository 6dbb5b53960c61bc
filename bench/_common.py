"""What the Django benches share (not a bench: ``scripts/bench`` skips ``bench/_*.py``).

- ``start_django()``: a fresh temporary SQLite database and Django set up on it; call it
  before importing anything of Django or of the project.
- ``django_setup(database_url)``: the same on a database of the caller's.
- ``bench_urls(...)``: the bench's own views (a bare baseline) beside the app's URLs;
  ``serve(urlconf)`` routes the test client through them and migrates.
- ``bench_keeper()``: an account keeping a table with one evening.
- ``queries_of(call)``: the queries one call makes.
- ``gin_record(hands)``: a two-hand gin record of that many hands that never ends.
- ``port(variable)``: the port named by that environment variable, else one the system
  says is free (so two benches, or two people's, never fight over a fixed number).

A bench imports it as ``import _common`` (the bench's folder is on ``sys.path`` when it runs
as a script).
"""

from __future__ import annotations

import os
import socket
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = "tablestakes.settings.test"


def django_setup(database_url: str | None = None, *, settings: str | None = SETTINGS) -> None:
    """Django set up with the project on the path; ``database_url`` (default: the
    environment's) and ``settings`` (None: the environment's, else the test settings)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    if database_url is not None:
        os.environ["DATABASE_URL"] = database_url
    if settings is not None:
        os.environ["DJANGO_SETTINGS_MODULE"] = settings
    else:
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", SETTINGS)
    import django

    django.setup()


def start_django(prefix: str = "tablestakes-bench-", *, settings: str | None = SETTINGS
                 ) -> tempfile.TemporaryDirectory:
    """Django on a new SQLite database in a temporary folder (removed when the returned
    folder object is collected: keep it for the bench's lifetime)."""
    folder = tempfile.TemporaryDirectory(prefix=prefix)
    django_setup(f"sqlite:///{folder.name}/bench.sqlite3", settings=settings)
    return folder


def bench_urls(*bench_paths) -> list:
    """The bench's own paths first (``django.urls.path(...)``), then every app URL."""
    from django.urls import include, path

    return [*bench_paths, path("", include("tablestakes.urls"))]


def serve(urlconf: str) -> None:
    """The test client answers through ``urlconf`` (a bench module with ``urlpatterns``),
    as production would (DEBUG off), on a migrated database."""
    from django.conf import settings
    from django.core.management import call_command

    settings.ROOT_URLCONF = urlconf
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    call_command("migrate", verbosity=0)


def bench_keeper(table_name: str = "Bench", *, evening: bool = True):
    """(user, table, session): the account 'bench' keeping ``table_name``, with an evening
    in USD at 0.01 a point (None when ``evening`` is false)."""
    from django.contrib.auth import get_user_model

    from ledger import services

    user = get_user_model().objects.create_user("bench", password="pw")
    table = services.table_create(name=table_name, scorekeepers=[user])
    session = (services.session_create(table=table, rate="0.01", created_by=user)
               if evening else None)
    return user, table, session


def queries_of(call: Callable[[], object]) -> int:
    """How many queries ``call()`` makes (DEBUG is on only for it)."""
    from django.conf import settings
    from django.db import connection, reset_queries

    settings.DEBUG = True
    reset_queries()
    try:
        call()
        return len(connection.queries)
    finally:
        settings.DEBUG = False


def gin_record(hands: int, *, gins: bool = False) -> dict:
    """A gin game of ``hands`` hands between Ann and Bob that never reaches its target: every
    17th a draw, the knocker with i % 10 against 30 (``gins``: every 5th a gin, 0
    against 22)."""
    entries = []
    for i in range(hands):
        knocker, other = ("Ann", "Bob") if i % 3 else ("Bob", "Ann")
        if i % 17 == 0:
            entries.append({"draw": True})
        elif gins and i % 5 == 0:
            entries.append({"knocker": knocker, "deadwood": {knocker: 0, other: 22}})
        else:
            entries.append({"knocker": knocker, "deadwood": {knocker: i % 10, other: 30}})
    return {"format": "tablestakes.game/1", "variant": "gin", "preset": "standard",
            "rules": {"target": 100_000}, "players": ["Ann", "Bob"],
            "stakes": {"rate": "0.01", "per_points": 1, "currency": "USD"},
            "setup": {"first_dealer": "Ann"}, "abandoned": False, "hands": entries}


def port(variable: str) -> int:
    """The port in the environment variable ``variable`` (e.g. ``BENCH_HTTP_PORT``), else a
    port free on 127.0.0.1 now, as the system hands one out (bind to port 0)."""
    given = os.environ.get(variable, "").strip()
    if given:
        try:
            number = int(given)
        except ValueError:
            raise SystemExit(f"{variable}={given!r}: a port is a number") from None
        if not 0 < number < 65536:
            raise SystemExit(f"{variable}={given}: a port is between 1 and 65535")
        return number
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def phone_browser(pw, chromium: str, phone: dict, base_url: str,
                  username: str = "bench", password: str = "pw"):
    """Chromium for the phone benches (quiet: no background networking or updates) and the
    storage state of a context logged in as ``username`` through the log-in page."""
    browser = pw.chromium.launch(executable_path=chromium, args=[
        "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"])
    login = browser.new_context(**phone)
    page = login.new_page()
    page.goto(base_url + "/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button:has-text('Log in')")
    page.wait_for_load_state()
    state = login.storage_state()
    login.close()
    return browser, state


# A Save on the game page, in the page (Playwright's evaluate): from the tap on "Save hand N"
# to the server's new score in Ann's tile with a frame drawn (not the phone's own instant
# totals, marked .unsaved), and the wait's parts from the request's resource timing
# (bench_phone.py; bench/_trace_offline.py's online way).
SAVE_TO_SERVER_SCORE = """async () => {
  const tile = document.querySelector(".score-tile[data-key='Ann'] .score-value");
  const before = tile.textContent;
  const button = [...document.querySelectorAll("#entry button")]
    .find((b) => /^\\s*Save (hand|round)/.test(b.textContent));
  const frame = () => new Promise((done) => requestAnimationFrame(done));
  const t0 = performance.now();
  button.click();
  for (;;) {
    await frame();
    const now = document.querySelector(".score-tile[data-key='Ann'] .score-value");
    // the server's score: not the phone's own, shown at once when its core is ready
    // (instant totals, "not yet saved": bench_offline.py's), which the server's replaces
    if (now && now.textContent !== before && !document.querySelector(".scoreboard.unsaved")) {
      break;
    }
    if (performance.now() - t0 > 20000) throw new Error("the score never changed");
  }
  await frame();  // drawn
  const end = performance.now();
  const sent = performance.getEntriesByType("resource")
    .filter((e) => /hands\\/send\\/|bench\\/phone\\/answer\\//.test(e.name)).pop();
  // the parts of the wait: before the request leaves, the server (to the first byte of the
  // answer), the answer's bytes, and the page's work after it came
  return {total: end - t0, before: sent.startTime - t0,
          server: sent.responseStart - sent.requestStart,
          after: end - sent.responseEnd};
}"""
