"""Stall bench: does one account's heavy requests, or one guesser, slow the site for
everyone else?

gunicorn with the production settings (3 sync workers, as the README runs it; ``--threads``
for gthread workers) on a throwaway PostgreSQL, set up as ``bench_load.py`` does (its
cluster, client and helpers are reused). A probe measures, one request after the other,
the log-in page (GET, and a POST that logs in: a password hash, slow on purpose) and a hand
post of another scorekeeper, idle for ``--seconds``, then for ``--seconds`` under each
load of ``--scenarios`` (each loop bounded in time and in rounds):

- ``pdf``: one account keeps asking, again and again as soon as the previous round is
  answered, for ten PDFs of its 500-hand game at once and posts a "new table" of 3,000
  player names (36 KB);
- ``flood`` (issue 38, item 5): one account on six connections loops over its 500-hand
  game's XLSX, page, CSV and the table's JSON, and every seventh request posts a 50-name
  table;
- ``guess`` (issue 38, item 2): six connections guess one account's password at the
  audit's pace, 70 guesses in 30 s (``--guess-rate``, guesses a second over all six; 0:
  each as soon as the last is answered), never faster than they are answered, each guess
  from a random address in one of six IPv6 /48s (sent as the proxy's X-Forwarded-For; the
  bench runs with TABLESTAKES_PROXY_COUNT=1).

Each load runs in a process of its own, and the probe alone in the bench's own: an attacker's
client is another machine. Run as threads of one Python process (as the bench first did),
the load's busy threads held the interpreter's lock while the probe timed its request, and
the probe's p95 counted the client's own waiting as the server's (see the commit that made
them processes for the figures).

Prints each p50/p95 idle and under each load and their ratio, and what the loads got
(statuses: 200 a page or a PDF or a wrong password's form, 302 a table made, 429 refused
at once: busy, over the hour's tables, or "wait N seconds", 422 refused: the table for its
size, a PDF stopped at TABLESTAKES_PDF_TIMEOUT), and one PDF's time alone (after the idle
phase). Target: the log-in page's p95 under every load within 2x of idle (``TARGET``);
exits 1 when it is not, or on a 5xx or a failed request. The machine's other load counts
too: run it on a quiet machine.

    python bench/bench_stall.py [--seconds 60] [--workers 3] [--threads 1]
                                [--scenarios pdf,flood,guess] [--guess-rate 2.33]

The cluster listens on ``BENCH_PG_PORT`` and gunicorn on ``BENCH_HTTP_PORT`` when they are set,
else on ports the system says are free.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import _common
import bench_load as load

ROOT = _common.ROOT
PYTHON = sys.executable
SECONDS = 60.0
# the probe's games: it goes on to the next one after PROBE_HANDS hands (the server refuses
# a game's 501st: TABLESTAKES_MAX_HANDS_PER_GAME); at ~3 posts a second, eight games last
# four phases of 300 s
PROBE_GAMES = 8
PROBE_HANDS = 450
WORKERS = 3
PDFS = 10  # at once, by the heavy account
PDF_HANDS = 500
TABLE_NAMES = 3000
TARGET = 2.0  # log-in p95 under load / idle
PASSWORD = load.PASSWORD
SCENARIOS = ("pdf", "flood", "guess")
CONNECTIONS = 6  # the flood's and the guesser's
FLOOD_NAMES = 50
GUESS_RATE = 70 / 30  # the audit's: 70 guesses at one account in 30 s
MAX_ROUNDS = 20_000  # per connection: every loop is bounded by count as well as by time


# -- data (in a subprocess with the prod settings) ----------------------------------------------

def setup_data() -> None:
    """The heavy account with a 500-hand game; the probe account with a game that never
    ends. Prints their ids as JSON."""
    load.django_setup()
    from django.contrib.auth import get_user_model

    from ledger import services

    users = get_user_model().objects
    heavy = users.create_user("heavy", password=PASSWORD)
    table = services.table_create(name="Heavy", scorekeepers=[heavy])
    session = services.session_create(table=table, currency="USD", rate="0.01",
                                      created_by=heavy)
    big = services.game_import(session=session, record=_common.gin_record(PDF_HANDS),
                               imported_by=heavy)
    users.create_user("victim", password=PASSWORD)  # whose password is guessed
    probe = users.create_user("probe", password=PASSWORD)
    table = services.table_create(name="Probe", scorekeepers=[probe])
    session = services.session_create(table=table, currency="USD", rate="0.01",
                                      created_by=probe)
    games = [services.game_start(session=session, variant="gin", players=["Ann", "Bob"],
                                 started_by=probe, rules={"target": load.TARGET},
                                 setup={"first_dealer": "Bob"}) for _ in range(PROBE_GAMES)]
    print(json.dumps({"pdf_game": big.pk, "pdf_table": big.session.table_id,
                      "hand_games": [game.pk for game in games],
                      "pdf_hands": big.hands.count()}))


# -- the probe and the heavy account ----------------------------------------------------------

class Timings:
    def __init__(self):
        self.load_cpu = self.server_cpu = 0.0  # processor seconds: the load's client, gunicorn
        self.lock = threading.Lock()
        self.samples: dict[str, list[float]] = {}
        self.statuses: dict[str, dict[int, int]] = {}
        self.errors: list[str] = []

    def timed(self, kind: str, browser: load.Browser, method: str, path: str,
              form: dict | None = None, expect: tuple[int, ...] = (200, 302)):
        started = time.monotonic()
        got = browser.request(method, path, form)
        seconds = time.monotonic() - started
        with self.lock:
            if got is None:
                self.errors.append(f"{kind}: no answer")
                return None
            self.samples.setdefault(kind, []).append(seconds)
            counts = self.statuses.setdefault(kind, {})
            counts[got[0]] = counts.get(got[0], 0) + 1
            if got[0] >= 500 or got[0] not in expect:
                self.errors.append(f"{kind}: HTTP {got[0]}")
        return got


def log_in(port: int, username: str, timings: Timings, kind: str = "") -> load.Browser:
    browser = load.Browser(port, load.Stats())
    get_kind, post_kind = (f"{kind} GET", f"{kind} POST") if kind else ("setup", "setup")
    timings.timed(get_kind, browser, "GET", "/accounts/login/")
    got = timings.timed(post_kind, browser, "POST", "/accounts/login/", {
        "username": username, "password": PASSWORD, "csrfmiddlewaretoken": browser.csrf(),
        "next": "/"}, expect=(302,))
    if not got or got[0] != 302:
        raise SystemExit(f"bench_stall: {username} could not log in ({got and got[0]})")
    return browser


def probe(port: int, games: list[int], timings: Timings, deadline: float, state: dict) -> None:
    """Log-in page GET and POST with a fresh browser, then a hand post, until ``deadline``."""
    keeper = state.get("keeper") or log_in(port, "probe", Timings())
    state["keeper"] = keeper
    while time.monotonic() < deadline:
        log_in(port, "probe", timings, "log-in")
        number = state.setdefault("hands", 0) + 1
        if number > PROBE_HANDS:  # the next game: a game holds at most 500 hands (limits.py)
            state["game"] = state.get("game", 0) + 1
            state["hands"], number = 0, 1
        game = games[state.get("game", 0)]
        mine, theirs = number % 10, 30
        got = timings.timed("hand post", keeper, "POST", f"/games/{game}/hands/", {
            "csrfmiddlewaretoken": keeper.csrf(), "key": str(uuid.uuid4()),
            "number": str(number), "t1_knocker": "Ann", "t1_kind": "knock",
            "t1_c0": str(mine), "t1_c1": str(theirs)}, expect=(302,))
        if got and got[0] == 302:
            state["hands"] = number
        time.sleep(0.1)


def heavy(port: int, game: int, timings: Timings, deadline: float, state: dict) -> None:
    """Ten PDFs of the 500-hand game at once and a 3,000-name table, round after round
    (eleven connections of one browser, logged in before the phase)."""
    browsers = []
    for _ in range(PDFS + 1):
        browser = load.Browser(port, load.Stats())
        browser.cookies = dict(state["heavy"].cookies)
        browsers.append(browser)
    names = "\n".join(f"Player {i}" for i in range(TABLE_NAMES))  # 36 KB, as in the audit
    rounds = 0
    while time.monotonic() < deadline:
        rounds += 1
        barrier = threading.Barrier(PDFS + 1)

        def pdf(browser, barrier=barrier):
            barrier.wait()
            timings.timed("PDF", browser, "GET", f"/sheets/games/{game}.pdf",
                          expect=(200, 422, 429, 503))  # 422: stopped at its time cap

        def table(browser, rounds=rounds, barrier=barrier):
            barrier.wait()
            timings.timed("3,000-name table", browser, "POST", "/", {
                "csrfmiddlewaretoken": browser.csrf(), "name": f"Huge {rounds}",
                "players": names}, expect=(302, 422))

        threads = [threading.Thread(target=pdf, args=(b,)) for b in browsers[:PDFS]]
        threads.append(threading.Thread(target=table, args=(browsers[PDFS],)))
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)


def flood(port: int, games: dict, timings: Timings, deadline: float, state: dict) -> None:
    """Issue 38, item 5: six connections of one account loop over the 500-hand game's XLSX,
    page, CSV and the table's JSON; every seventh request posts a 50-name table."""
    game, table = games["pdf_game"], games["pdf_table"]
    paths = [f"/games/{game}/hands.csv?_export=xlsx", f"/games/{game}/",
             f"/games/{game}/hands.csv", f"/tables/{table}/export.json"]
    names = "\n".join(f"Guest {i}" for i in range(FLOOD_NAMES))
    counter = iter(range(1, 10**9))
    lock = threading.Lock()

    def connection():
        browser = load.Browser(port, load.Stats())
        browser.cookies = dict(state["heavy"].cookies)
        for round_ in range(MAX_ROUNDS):
            if time.monotonic() >= deadline:
                return
            with lock:
                n = next(counter)
            if n % 7 == 0:
                timings.timed("flood table", browser, "POST", "/", {
                    "csrfmiddlewaretoken": browser.csrf(), "name": f"Flood {n}",
                    "players": names, "language": "en", "time_zone": "UTC"},
                    expect=(302, 422, 429))
            else:
                timings.timed("flood page", browser, "GET", paths[round_ % len(paths)],
                              expect=(200, 429))

    threads = [threading.Thread(target=connection) for _ in range(CONNECTIONS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)


def rotating_address(rng) -> str:
    """A random address in one of six /48s (2001:db8:0::/48 to 2001:db8:5::/48), in a
    random /64 of it: what a guesser with a few IPv6 networks can send from."""
    return (f"2001:db8:{rng.randrange(6):x}:{rng.randrange(65536):x}:"
            f"{rng.randrange(65536):x}:{rng.randrange(65536):x}:"
            f"{rng.randrange(65536):x}:{rng.randrange(1, 65536):x}")


def guess(port: int, games: dict, timings: Timings, deadline: float, state: dict) -> None:
    """Issue 38, item 2: six connections guess the victim's password, together at
    ``state["guess_rate"]`` guesses a second (0: as fast as they are answered), each guess
    from a random address of six /48s."""
    import random

    rate = state.get("guess_rate", GUESS_RATE)
    interval = CONNECTIONS / rate if rate > 0 else 0.0  # per connection

    def connection(seed):
        rng = random.Random(seed)
        browser = load.Browser(port, load.Stats())
        browser.forwarded_for = rotating_address(rng)
        browser.request("GET", "/accounts/login/")
        due = time.monotonic() + interval * seed / CONNECTIONS
        for n in range(MAX_ROUNDS):
            if interval:
                time.sleep(max(0.0, due - time.monotonic()))
                due += interval
            if time.monotonic() >= deadline:
                return
            browser.forwarded_for = rotating_address(rng)
            timings.timed("guess", browser, "POST", "/accounts/login/", {
                "username": "victim", "password": f"guess-{seed}-{n}",
                "csrfmiddlewaretoken": browser.csrf(), "next": "/"}, expect=(200, 429))

    threads = [threading.Thread(target=connection, args=(seed,)) for seed in range(CONNECTIONS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)


LOADS = {"pdf": None, "flood": flood, "guess": guess}  # pdf: heavy() (its own arguments)


def _load_process(target, port: int, first, deadline: float, state: dict, sender) -> None:
    """A load in its own process: its timings go back to the bench through ``sender``."""
    timings = Timings()
    try:
        target(port, first, timings, deadline, state)
    except Exception as exc:  # noqa: BLE001 - reported with the figures
        timings.errors.append(f"load: {exc!r}")
    usage = os.times()
    sender.send((timings.samples, timings.statuses, timings.errors, usage.user + usage.system))
    sender.close()


def server_cpu(gunicorn_pid: int | None) -> float:
    """Processor seconds used so far by gunicorn's master and its live workers (from /proc;
    0 where it cannot be read)."""
    if not gunicorn_pid:
        return 0.0
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(entry.name) == gunicorn_pid or int(fields[1]) == gunicorn_pid:
            total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


def phase(port: int, games: dict, seconds: float, loaded: str | None, state: dict) -> Timings:
    """The probe for ``seconds``, in this process, while ``loaded`` runs in another (forked
    before the probe starts, so that nothing of the probe is running when it is copied)."""
    import multiprocessing

    timings = Timings()
    server_before = server_cpu(state.get("gunicorn_pid"))
    deadline = time.monotonic() + seconds
    process = receiver = None
    if loaded:
        target, first = ((heavy, games["pdf_game"]) if loaded == "pdf"
                         else (LOADS[loaded], games))
        context = multiprocessing.get_context("fork")
        receiver, sender = context.Pipe(duplex=False)
        process = context.Process(target=_load_process, daemon=True,
                                  args=(target, port, first, deadline, state, sender))
        process.start()
        sender.close()
    probe(port, games["hand_games"], timings, deadline, state)
    if process is not None:
        if receiver.poll(seconds + 180):
            samples, statuses, errors, timings.load_cpu = receiver.recv()
            for kind, values in samples.items():
                timings.samples.setdefault(kind, []).extend(values)
            for kind, counts in statuses.items():
                mine = timings.statuses.setdefault(kind, {})
                for status, count in counts.items():
                    mine[status] = mine.get(status, 0) + count
            timings.errors.extend(errors)
        else:
            timings.errors.append(f"{loaded}: the load's process did not answer")
        process.join(30)
        if process.is_alive():
            process.kill()
    timings.server_cpu = server_cpu(state.get("gunicorn_pid")) - server_before
    return timings


DESCRIPTIONS = {
    "pdf": f"one account asks for {PDFS} PDFs of a {PDF_HANDS}-hand game at once and posts a "
           f"{TABLE_NAMES:,}-name table, round after round",
    "flood": f"one account on {CONNECTIONS} connections loops over a {PDF_HANDS}-hand game's "
             f"XLSX, page, CSV and the table's JSON, a {FLOOD_NAMES}-name table every 7th",
    "guess": f"{CONNECTIONS} connections guess one password, each guess from a random "
             f"address of six IPv6 /48s",
}


def loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=SECONDS)
    parser.add_argument("--workers", type=int, default=WORKERS)
    parser.add_argument("--threads", type=int, default=1,
                        help="threads per worker (more than 1: gunicorn's gthread workers)")
    parser.add_argument("--guess-rate", type=float, default=GUESS_RATE,
                        help="guesses a second of the guess load (0: as fast as answered)")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS),
                        help="loads to run, in order, comma-separated: " + ", ".join(SCENARIOS))
    parser.add_argument("--setup", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.setup:
        setup_data()
        return 0
    scenarios = [name.strip() for name in args.scenarios.split(",") if name.strip()]
    if not scenarios or set(scenarios) - set(SCENARIOS):
        parser.error(f"--scenarios: some of {', '.join(SCENARIOS)}")

    tmp = Path(tempfile.mkdtemp(prefix="tablestakes-stall-"))
    postgres = load.Postgres(tmp)
    gunicorn = None
    try:
        if not postgres.find_or_install():
            print("bench_stall: skipped: no PostgreSQL (apt-get install postgresql, as root)")
            return 0
        env = {key: value for key, value in os.environ.items()
               if not key.startswith(("DJANGO_", "TABLESTAKES_"))}
        env.update({
            "DATABASE_URL": postgres.start(), "DJANGO_SETTINGS_MODULE":
            "tablestakes.settings.prod", "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1", "DJANGO_STATIC_ROOT": str(tmp / "static"),
            "DJANGO_CACHE_DIR": str(tmp / "cache"), "DJANGO_LOG_LEVEL": "WARNING",
            "PYTHONPATH": str(ROOT), "TABLESTAKES_LOGIN_FAILURES": "1000",
            # the bench's clients say their address in X-Forwarded-For, as the TLS proxy
            # would add it (127.0.0.1; the guesser's rotate through six IPv6 /48s)
            "TABLESTAKES_PROXY_COUNT": "1",
        })
        print(f"bench_stall: PostgreSQL on 127.0.0.1:{postgres.port}; migrate, collectstatic, "
              f"a {PDF_HANDS}-hand game", flush=True)
        for command in (["migrate", "--noinput", "-v", "0"],
                        ["collectstatic", "--noinput", "-v", "0"]):
            subprocess.run([PYTHON, "manage.py", *command], cwd=ROOT, env=env, check=True,
                           timeout=900)
        games = json.loads(subprocess.run(
            [PYTHON, __file__, "--setup"], cwd=ROOT, env=env, check=True,
            capture_output=True, text=True, timeout=600).stdout)

        port = _common.port("BENCH_HTTP_PORT")
        log = open(tmp / "gunicorn.log", "w")  # noqa: SIM115 - closed with the process
        gunicorn = subprocess.Popen(
            [str(load.GUNICORN), "tablestakes.wsgi:application", "--bind",
             f"127.0.0.1:{port}", "--workers", str(args.workers), "--threads",
             str(args.threads), "--timeout", "30",
             "--graceful-timeout", "5"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        for _ in range(300):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                time.sleep(0.1)
        else:
            raise SystemExit("bench_stall: gunicorn did not start; see " + str(tmp))

        loadavg_before = loadavg()
        state: dict = {"heavy": log_in(port, "heavy", Timings()),
                       "guess_rate": args.guess_rate, "gunicorn_pid": gunicorn.pid}
        phase(port, games, 3, None, state)  # warm the workers up (imports, fonts)
        idle = phase(port, games, args.seconds, None, state)
        alone = Timings()  # one PDF with nothing else asked: the rendering's own time
        alone.timed("PDF", state["heavy"], "GET", f"/sheets/games/{games['pdf_game']}.pdf",
                    expect=(200, 422))
        loaded = {}
        for name in scenarios:
            time.sleep(2)  # what the last load left running ends
            loaded[name] = phase(port, games, args.seconds, name, state)
        time.sleep(1)
        gunicorn.send_signal(signal.SIGTERM)
        gunicorn.wait(30)
        log.close()
        timeouts = (tmp / "gunicorn.log").read_text().count("WORKER TIMEOUT")
    finally:
        if gunicorn is not None and gunicorn.poll() is None:
            gunicorn.kill()
            gunicorn.wait(10)
        postgres.stop()
        shutil.rmtree(tmp, ignore_errors=True)

    ms = 1000
    p95 = load.percentile
    kind_of_worker = (f"{args.workers} sync workers" if args.threads <= 1 else
                      f"{args.workers} gthread workers x {args.threads} threads")
    print(f"stall: gunicorn ({kind_of_worker}, prod settings) + PostgreSQL on 127.0.0.1; "
          f"{args.seconds:.0f} s idle, then {args.seconds:.0f} s under each of: "
          f"{', '.join(scenarios)}; load average before {loadavg_before}, after "
          f"{loadavg()}")
    worst = 0.0
    for name, timings in loaded.items():
        pace = ""
        if name == "guess":
            pace = (f", at most {args.guess_rate:.2f} guesses/s in all" if args.guess_rate > 0
                    else ", each as soon as the last is answered")
        print(f" under {name}: {DESCRIPTIONS[name]}{pace}")
        ratios = {}
        for kind in ("log-in GET", "log-in POST", "hand post"):
            before, during = idle.samples.get(kind, []), timings.samples.get(kind, [])
            ratio = (p95(during, 0.95) / p95(before, 0.95) if before and during
                     else float("inf"))
            ratios[kind] = ratio
            print(f"  {kind:12} idle {len(before):3} x p50 {p95(before, 0.5) * ms:5.0f} ms, "
                  f"p95 {p95(before, 0.95) * ms:5.0f} ms | loaded {len(during):3} x p50 "
                  f"{p95(during, 0.5) * ms:5.0f} ms, p95 {p95(during, 0.95) * ms:5.0f} ms, "
                  f"max {max(during, default=0) * ms:5.0f} ms | p95 ratio {ratio:.2f}")
        for kind in sorted(timings.samples):
            if kind.startswith(("log-in", "hand post")):
                continue
            times = timings.samples[kind]
            print(f"  {kind:17} {len(times):5} requests, statuses "
                  f"{dict(sorted(timings.statuses.get(kind, {}).items()))}, p50 "
                  f"{p95(times, 0.5) * ms:.0f} ms, max {max(times, default=0) * ms:.0f} ms")
        print(f"  processor time  gunicorn {timings.server_cpu:.1f} s (idle phase "
              f"{idle.server_cpu:.1f} s), the load's client {timings.load_cpu:.1f} s, in "
              f"{args.seconds:.0f} s")
        login = max(ratios["log-in GET"], ratios["log-in POST"])
        worst = max(worst, login)
        print(f"  log-in p95 under {name} / idle: {login:.2f} (target <= {TARGET:g})")
    if "pdf" in loaded:
        solo = alone.samples.get("PDF", [0])[0]
        print(f"  one PDF alone    {solo * ms:.0f} ms, status "
              f"{list(alone.statuses.get('PDF', {}))} (TABLESTAKES_PDF_TIMEOUT stops a "
              f"rendering at 20 s: 422)")
    errors = idle.errors + alone.errors + [error for timings in loaded.values()
                                           for error in timings.errors]
    print(f"  errors          {len(errors)}" + (f": {errors[:5]}" if errors else "")
          + f"; gunicorn worker timeouts: {timeouts}")
    ok = worst <= TARGET and not errors
    print(f"  log-in p95 under the worst load / idle: {worst:.2f} (target <= {TARGET:g}): "
          f"{'ok' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
