"""Load and fault bench: gunicorn with the production settings on a throwaway PostgreSQL,
20 clients for 60 s entering hands and reading sheets, one worker killed halfway.

What it does, all on 127.0.0.1 and cleaned up afterwards (also on Ctrl-C):

1. starts PostgreSQL from Debian's packages the way ``.ci/run`` does (installed with apt-get
   if missing and we are root; initdb as the postgres user in a temporary directory, a free
   port, fsync off), and creates the database;
2. migrates it, runs collectstatic (the pages need the hashed names) and makes one account,
   table and never-ending gin game per client (``--setup``, in a subprocess);
3. starts gunicorn (``tablestakes.wsgi``, so prod settings; 3 sync workers) on a free port;
4. runs the clients in threads: each logs in through the log-in page, then loops (at most
   ``MAX_ROUNDS`` rounds and ``SECONDS``): posts the next hand with a fresh idempotency key
   (retried with the same key after a dropped connection, at most ``RETRIES`` times), follows
   the redirect to the game page (the sheet), and every fourth round reads the printable
   sheet too. Requests carry ``X-Forwarded-Proto: https``, as the TLS proxy would;
5. at half time sends SIGKILL to one gunicorn worker (the master starts another);
6. stops gunicorn and checks the database (``--verify``): every acknowledged hand (a 302
   after the POST) is stored exactly once, and each game holds exactly its acknowledged hands.

Prints requests/s, p50/p95 of every request and of the hand posts, errors (5xx and
requests that failed after their retries), the dropped connections that were retried, and
the check. Exits 1 if there was an error or a hand was lost or doubled.

    python bench/bench_load.py [--seconds 60] [--clients 20] [--workers 3]

The cluster listens on ``BENCH_PG_PORT`` and gunicorn on ``BENCH_HTTP_PORT`` when they are set,
else on ports the system says are free.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
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
from urllib.parse import urlencode

import _common

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
GUNICORN = Path(PYTHON).parent / "gunicorn"
SECONDS = 60.0
CLIENTS = 20
WORKERS = 3
MAX_ROUNDS = 10_000  # per client: the loop is bounded by count as well as by time
RETRIES = 3
PASSWORD = "bench-pass-2025-x"
TARGET = 100_000  # the games never end, so hands can be entered for the whole run


# -- PostgreSQL ----------------------------------------------------------------------------------

class Postgres:
    """A throwaway cluster in a temporary directory, as .ci/run makes it."""

    def __init__(self, root: Path):
        self.root = root / "pg"
        self.bin: Path | None = None
        self.port = 0
        self.as_postgres = os.geteuid() == 0

    def _run(self, *args: str) -> None:
        command = [*args]
        if self.as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, timeout=120)

    def find_or_install(self) -> bool:
        found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                       key=lambda p: [int(x) for x in re.findall(r"\d+", p.parent.parent.name)])
        if not found and os.geteuid() == 0 and shutil.which("apt-get"):
            print("bench_load: installing Debian postgresql", flush=True)
            env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
            subprocess.run(["apt-get", "update", "-qq"], check=True, env=env, timeout=600)
            subprocess.run(["apt-get", "install", "-y", "-qq", "postgresql"], check=True,
                           env=env, stdout=subprocess.DEVNULL, timeout=900)
            found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
        if not found:
            return False
        self.bin = found[-1].parent
        return True

    def start(self) -> str:
        self.root.mkdir()
        if self.as_postgres:
            os.chmod(self.root.parent, 0o755)
            shutil.chown(self.root, "postgres")
        self.port = _common.port("BENCH_PG_PORT")
        self._run(str(self.bin / "initdb"), "-D", str(self.root / "data"), "-A", "trust",
                  "-U", "postgres", "-E", "UTF8", "--no-sync")
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.root / "data"), "-l",
                  str(self.root / "log"), "-w", "start", "-o",
                  f"-k {self.root} -p {self.port} -c listen_addresses=127.0.0.1 "
                  "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
                  "-c max_connections=100")
        self._run(str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port),
                  "-U", "postgres", "tablestakes")
        return f"postgres://postgres@127.0.0.1:{self.port}/tablestakes"

    def stop(self) -> None:
        if self.bin and (self.root / "data" / "postmaster.pid").exists():
            try:
                self._run(str(self.bin / "pg_ctl"), "-D", str(self.root / "data"), "-m",
                          "fast", "-w", "stop")
            except subprocess.SubprocessError:
                pass


# -- the app's side: data and the check (run in subprocesses with the prod settings) ------------

def django_setup() -> None:
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def setup_data(clients: int) -> None:
    """One account, table, evening and never-ending gin game per client."""
    django_setup()
    from django.contrib.auth import get_user_model

    from ledger import services

    games = []
    for n in range(clients):
        user = get_user_model().objects.create_user(f"bench{n}", password=PASSWORD)
        table = services.table_create(name=f"Bench table {n}", scorekeepers=[user])
        session = services.session_create(table=table, currency="USD", rate="0.01",
                                          created_by=user)
        game = services.game_start(session=session, variant="gin", players=["Ann", "Bob"],
                                   started_by=user, rules={"target": TARGET},
                                   setup={"first_dealer": "Bob"})
        games.append(game.pk)
    print(json.dumps(games))


def verify(acknowledged_file: str) -> None:
    """Every acknowledged key stored once; each game's live hands = its acknowledged ones."""
    django_setup()
    from django.db.models import Count

    from ledger.models import Hand

    acknowledged = json.loads(Path(acknowledged_file).read_text())
    keys = [uuid.UUID(key) for keys in acknowledged.values() for key in keys]
    stored = dict(Hand.objects.filter(idempotency_key__in=keys)
                  .values_list("idempotency_key").annotate(n=Count("id")))
    lost = [key for key in keys if key not in stored]
    doubled = [key for key, n in stored.items() if n != 1]
    per_game = dict(Hand.objects.filter(game_id__in=[int(g) for g in acknowledged],
                                        voided_at__isnull=True)
                    .values_list("game_id").annotate(n=Count("id")))
    mismatched = {game: (len(keys_), per_game.get(int(game), 0))
                  for game, keys_ in acknowledged.items()
                  if per_game.get(int(game), 0) != len(keys_)}
    print(json.dumps({"acknowledged": len(keys), "stored": sum(stored.values()),
                      "lost": len(lost), "doubled": len(doubled),
                      "games_mismatched": mismatched,
                      "live_hands": sum(per_game.values())}))


# -- HTTP clients --------------------------------------------------------------------------------

class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.times: list[float] = []
        self.hand_times: list[float] = []
        self.login_times: list[float] = []
        self.statuses: dict[int, int] = {}
        self.errors: list[str] = []
        self.dropped = 0  # connections dropped (the killed worker's), retried
        self.acknowledged: dict[str, list[str]] = {}

    def add(self, seconds: float, status: int, kind: str = "") -> None:
        with self.lock:
            if kind == "login":  # (a password hash: slow on purpose, counted apart)
                self.login_times.append(seconds)
            else:
                self.times.append(seconds)
            if kind == "hand":
                self.hand_times.append(seconds)
            self.statuses[status] = self.statuses.get(status, 0) + 1
            if status >= 500:
                self.errors.append(f"HTTP {status}")


class Browser:
    """One scorekeeper's phone: its cookies, the proxy's headers, one connection a request
    (gunicorn's sync workers close each connection)."""

    def __init__(self, port: int, stats: Stats):
        self.port, self.stats, self.cookies = port, stats, {}
        self.origin = f"https://127.0.0.1:{port}"
        self.forwarded_for = "127.0.0.1"  # the client's address as the proxy would add it

    def request(self, method: str, path: str, form: dict | None = None, *, kind: str = ""):
        """(status, headers, body), retried with the very same request when the connection
        drops (a killed worker); None when every try failed."""
        body = urlencode(form, doseq=True) if form is not None else None
        headers = {"Host": f"127.0.0.1:{self.port}", "X-Forwarded-Proto": "https",
                   "X-Forwarded-For": self.forwarded_for, "User-Agent": "bench_load",
                   "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if body is not None:
            headers.update({"Content-Type": "application/x-www-form-urlencoded",
                            "Origin": self.origin, "Referer": self.origin + path})
        for attempt in range(RETRIES + 1):
            started = time.monotonic()
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            try:
                connection.request(method, path, body=body, headers=headers)
                response = connection.getresponse()
                content = response.read()
            except (ConnectionError, http.client.HTTPException, TimeoutError, OSError):
                with self.stats.lock:
                    self.stats.dropped += 1
                time.sleep(0.2 * (attempt + 1))
                continue
            finally:
                connection.close()
            self.stats.add(time.monotonic() - started, response.status, kind)
            if os.environ.get("BENCH_TRACE"):
                print(f"{time.monotonic() - started:7.3f} {response.status} {method} {path}",
                      flush=True)
            for header, value in response.getheaders():
                if header.lower() == "set-cookie":
                    name, _, rest = value.partition("=")
                    self.cookies[name.strip()] = rest.split(";", 1)[0]
            return response.status, dict(response.getheaders()), content
        with self.stats.lock:
            self.stats.errors.append(f"{method} {path}: no answer after {RETRIES} retries")
        return None

    def csrf(self) -> str:
        return self.cookies.get("csrftoken", "")


def client_loop(index: int, game: int, port: int, stats: Stats, deadline: float) -> None:
    browser = Browser(port, stats)
    rng = random.Random(index)
    got = browser.request("GET", "/accounts/login/")
    got = browser.request("POST", "/accounts/login/", {
        "username": f"bench{index}", "password": PASSWORD,
        "csrfmiddlewaretoken": browser.csrf(), "next": f"/games/{game}/"}, kind="login")
    if not got or got[0] != 302:
        with stats.lock:
            stats.errors.append(f"client {index}: log-in failed ({got and got[0]})")
        return
    acknowledged = stats.acknowledged.setdefault(str(game), [])
    rounds = 0
    while time.monotonic() < deadline and rounds < MAX_ROUNDS:
        rounds += 1
        knocker = rng.choice(["Ann", "Bob"])
        counts = {"t1_c0": "", "t1_c1": ""}
        mine, theirs = rng.randint(0, 10), rng.randint(11, 60)
        counts["t1_c0" if knocker == "Ann" else "t1_c1"] = str(mine)
        counts["t1_c1" if knocker == "Ann" else "t1_c0"] = str(theirs)
        key = str(uuid.uuid4())
        form = {"csrfmiddlewaretoken": browser.csrf(), "key": key,
                "number": str(len(acknowledged) + 1), "t1_knocker": knocker,
                "t1_kind": "knock", **counts}
        got = browser.request("POST", f"/games/{game}/hands/", form, kind="hand")
        if got and got[0] == 302:
            acknowledged.append(key)
            browser.request("GET", got[1].get("Location", f"/games/{game}/"))
        elif got:
            message = re.search(rb'role="alert">([^<]*)<', got[2])
            with stats.lock:
                stats.errors.append(f"client {index}: hand refused with HTTP {got[0]}"
                                    + (f": {message.group(1).decode()[:120]}" if message
                                       else ""))
        if rounds % 4 == 0:
            browser.request("GET", f"/sheets/games/{game}.html")


def worker_pids(master: int) -> list[int]:
    try:
        text = Path(f"/proc/{master}/task/{master}/children").read_text()
    except OSError:
        return []
    return [int(pid) for pid in text.split()]


def busy_worker(workers: list[int]) -> int | None:
    """A worker that is running (most likely in the middle of a request), else the first."""
    for _ in range(50):
        for pid in workers:
            try:
                state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except (OSError, IndexError):
                continue
            if state == "R":
                return pid
        time.sleep(0.01)
    return workers[0] if workers else None


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie (0 for none)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=SECONDS)
    parser.add_argument("--clients", type=int, default=CLIENTS)
    parser.add_argument("--workers", type=int, default=WORKERS)
    parser.add_argument("--setup", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--verify", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.setup:
        setup_data(args.clients)
        return 0
    if args.verify:
        verify(args.verify)
        return 0

    tmp = Path(tempfile.mkdtemp(prefix="tablestakes-load-"))
    postgres = Postgres(tmp)
    gunicorn = None
    try:
        if not postgres.find_or_install():
            print("bench_load: skipped: no PostgreSQL (apt-get install postgresql, as root)")
            return 0
        env = {key: value for key, value in os.environ.items()
               if not key.startswith(("DJANGO_", "TABLESTAKES_"))}
        env.update({
            "DATABASE_URL": postgres.start(), "DJANGO_SETTINGS_MODULE":
            "tablestakes.settings.prod", "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1", "DJANGO_STATIC_ROOT": str(tmp / "static"),
            # the bench is the TLS proxy (X-Forwarded-Proto, X-Forwarded-For): one proxy
            "TABLESTAKES_PROXY_COUNT": "1", "DJANGO_LOG_LEVEL": "WARNING",
            "PYTHONPATH": str(ROOT),
        })
        print(f"bench_load: PostgreSQL on 127.0.0.1:{postgres.port}; migrate, collectstatic, "
              f"{args.clients} accounts", flush=True)
        for command in (["migrate", "--noinput", "-v", "0"],
                        ["collectstatic", "--noinput", "-v", "0"]):
            subprocess.run([PYTHON, "manage.py", *command], cwd=ROOT, env=env, check=True,
                           timeout=900)
        games = json.loads(subprocess.run(
            [PYTHON, __file__, "--setup", "--clients", str(args.clients)], cwd=ROOT, env=env,
            check=True, capture_output=True, text=True, timeout=300).stdout)

        port = _common.port("BENCH_HTTP_PORT")
        log = open(tmp / "gunicorn.log", "w")  # noqa: SIM115 - closed with the process
        gunicorn = subprocess.Popen(
            [str(GUNICORN), "tablestakes.wsgi:application", "--bind", f"127.0.0.1:{port}",
             "--workers", str(args.workers), "--timeout", "30", "--graceful-timeout", "5"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        for _ in range(300):  # up to 30 s for the workers to answer
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                time.sleep(0.1)
        else:
            raise SystemExit("bench_load: gunicorn did not start; see " + str(tmp))

        stats = Stats()
        started = time.monotonic()
        deadline = started + args.seconds
        threads = [threading.Thread(target=client_loop, args=(i, game, port, stats, deadline),
                                    daemon=True) for i, game in enumerate(games)]
        for thread in threads:
            thread.start()
        time.sleep(args.seconds / 2)
        workers = worker_pids(gunicorn.pid)
        killed = busy_worker(workers)
        if killed:
            os.kill(killed, signal.SIGKILL)
        for thread in threads:
            thread.join(args.seconds + 90)
        elapsed = time.monotonic() - started
        respawned = [pid for pid in worker_pids(gunicorn.pid) if pid not in workers]
        gunicorn.send_signal(signal.SIGTERM)
        gunicorn.wait(30)

        (tmp / "acknowledged.json").write_text(json.dumps(stats.acknowledged))
        check = json.loads(subprocess.run(
            [PYTHON, __file__, "--verify", str(tmp / "acknowledged.json")], cwd=ROOT, env=env,
            check=True, capture_output=True, text=True, timeout=300).stdout)
    finally:
        if gunicorn is not None and gunicorn.poll() is None:
            gunicorn.kill()
            gunicorn.wait(10)
        postgres.stop()
        shutil.rmtree(tmp, ignore_errors=True)

    ms = 1000
    print(f"load: {args.clients} clients x {args.seconds:.0f} s on gunicorn ({args.workers} "
          f"sync workers, prod settings) + PostgreSQL, all on 127.0.0.1")
    statuses = dict(sorted(stats.statuses.items()))
    print(f"  requests        {len(stats.times) + len(stats.login_times)} in {elapsed:.1f} s = "
          f"{(len(stats.times) + len(stats.login_times)) / elapsed:.1f} requests/s; "
          f"statuses {statuses}")
    print(f"  all requests    p50 {percentile(stats.times, 0.5) * ms:.0f} ms, "
          f"p95 {percentile(stats.times, 0.95) * ms:.0f} ms (log-ins apart: "
          f"{len(stats.login_times)}, p50 {percentile(stats.login_times, 0.5) * ms:.0f} ms)")
    print(f"  hand posts      {len(stats.hand_times)}: p50 "
          f"{percentile(stats.hand_times, 0.5) * ms:.0f} ms, "
          f"p95 {percentile(stats.hand_times, 0.95) * ms:.0f} ms")
    print(f"  worker killed   pid {killed} at {args.seconds / 2:.0f} s (SIGKILL); "
          f"respawned {respawned or 'none seen'}; dropped connections retried: {stats.dropped}")
    print(f"  errors          {len(stats.errors)}" + (f": {stats.errors[:5]}" if stats.errors
                                                      else ""))
    exact = (check["lost"] == 0 and check["doubled"] == 0 and not check["games_mismatched"]
             and check["stored"] == check["acknowledged"])
    print(f"  hands           {check['acknowledged']} acknowledged, {check['stored']} stored "
          f"with their keys, {check['lost']} lost, {check['doubled']} doubled, games "
          f"mismatched {check['games_mismatched'] or 'none'}: every acknowledged hand stored "
          f"exactly once: {'yes' if exact else 'NO'}")
    return 0 if exact and not stats.errors and killed else 1


if __name__ == "__main__":
    sys.exit(main())
