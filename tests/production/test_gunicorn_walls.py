"""gunicorn as a club runs it (issue 38): the production settings, gunicorn.conf.py read from
the checkout, and what one anonymous client can make a worker do.

- CVE-2024-7592: this machine's interpreter (3.11.7) has the quadratic cookie unquoting; a
  request of 16 ``Cookie`` lines of 8 KB of ``\\"`` (gunicorn joins them into one 128 KB
  value) held the worker 30 s, until gunicorn killed it. tablestakes/cookies.py puts the
  upstream fix in place at import: it is answered in a few milliseconds.
- gunicorn.conf.py bounds the headers (too many lines: 400) and opens no control socket
  (gunicorn 25.1+ opens one per user, shared by every instance of that user)."""

from __future__ import annotations

import http.client
import http.cookies
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger import checks
from tablestakes import cookies

from .conftest import ROOT, free_port, get, prod_env

COOKIE_LINE = 8000  # bytes of one Cookie line's value: under gunicorn's 8190 a line


def raw_request(port: int, lines: list[str], *, timeout: float = 10) -> tuple[int, float]:
    """Send ``GET /accounts/login/`` with these header lines straight to gunicorn, as if
    through the proxy; the answer's status and the seconds until its first line."""
    head = ["GET /accounts/login/ HTTP/1.1", "Host: 127.0.0.1", "X-Forwarded-Proto: https",
            "X-Forwarded-For: 203.0.113.7", "Connection: close", *lines]
    data = ("\r\n".join(head) + "\r\n\r\n").encode()
    started = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as client:
        client.sendall(data)
        first = b""
        while b"\r\n" not in first:
            chunk = client.recv(4096)
            if not chunk:
                break
            first += chunk
    took = time.perf_counter() - started
    match = re.match(rb"HTTP/1\.[01] (\d{3})", first)
    assert match, first[:200]
    return int(match.group(1)), took


def crafted_cookie_lines(count: int) -> list[str]:
    """``count`` Cookie lines that gunicorn joins (with commas) into one quoted value of
    backslash escapes: ``a="\\"\\"...`` ... ``\\"\\""``."""
    escapes = '\\"' * (COOKIE_LINE // 2)
    lines = [escapes] * count
    lines[0] = 'a="' + escapes[3:]
    lines[-1] = escapes[:-1] + '"'
    return [f"Cookie: {line}" for line in lines]


@pytest.mark.xdist_group("collected_static")
def test_sixteen_cookie_lines_are_answered_at_once(server):
    """128 KB of crafted cookies: the old unquoting held the worker past gunicorn's 30 s
    timeout (the request is cut at 10 s here); the fixed one answers the log-in page at
    once, and the worker is free for the next request. Not a timing budget: the bound is
    half of the 10 s cut, far above a loaded machine's answer (1.2 s at load 13), far below
    the quadratic unquoting's (past the cut)."""
    _base, port = server
    status, took = raw_request(port, crafted_cookie_lines(16))
    assert status == 200
    assert took < 5.0, f"{took:.2f} s"
    status, took = raw_request(port, ["Cookie: sessionid=none"])
    assert (status, took < 5.0) == (200, True)


@pytest.mark.xdist_group("collected_static")
def test_gunicorn_refuses_too_many_header_lines(server):
    """gunicorn.conf.py: at most 32 header lines (gunicorn's default is 100)."""
    _base, port = server
    ordinary = [f"X-Filler-{n}: {n}" for n in range(20)]
    assert raw_request(port, ordinary)[0] == 200
    too_many = [f"X-Filler-{n}: {n}" for n in range(40)]
    assert raw_request(port, too_many)[0] in (400, 431)


def test_no_control_socket_shared_between_instances(tmp_path):
    """gunicorn 25.1+ makes $XDG_RUNTIME_DIR/gunicorn.ctl (or ~/.gunicorn/gunicorn.ctl) for
    gunicornc: one path for every instance of the user, so a second server took over the
    first one's socket. gunicorn.conf.py turns it off."""
    home, runtime = tmp_path / "home", tmp_path / "run"
    home.mkdir()
    runtime.mkdir(mode=0o700)
    port = free_port()
    env = prod_env(HOME=str(home), XDG_RUNTIME_DIR=str(runtime),
                   DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    log = (tmp_path / "gunicorn.log").open("w")
    process = subprocess.Popen(  # started in the checkout: gunicorn reads gunicorn.conf.py
        [sys.executable, "-m", "gunicorn", "tablestakes.wsgi:application",
         "--bind", f"127.0.0.1:{port}", "--workers", "1"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, (tmp_path / "gunicorn.log").read_text()
            try:
                if get(port, "/healthz").status == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, (tmp_path / "gunicorn.log").read_text()
            time.sleep(0.2)
        time.sleep(0.5)  # the arbiter makes its socket once the workers run
        made = [str(path) for path in (*home.rglob("*"), *runtime.rglob("*"))]
        assert made == []
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


@pytest.mark.xdist_group("collected_static")
def test_slow_clients_hold_no_worker_behind_a_buffering_proxy(server):
    """Why a club's server needs nginx or Caddy (check --deploy's W007 when
    TABLESTAKES_PROXY_COUNT=0): a sync worker reads its request itself, so a client that
    sends its headers slowly holds it (the fixture's gunicorn has one worker: one slow
    client is enough; the club's three took three). The proxy reads each request whole
    before passing it on, as nginx does: four slow clients hold nothing there and the log-in
    page answers at once. Bounded: 2 s of slowness, then every connection is closed."""
    base, port = server
    proxy_port = int(base.rsplit(":", 1)[1])
    slow = []
    try:
        for _ in range(4):
            client = socket.create_connection(("127.0.0.1", proxy_port), timeout=5)
            client.sendall(b"GET /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            slow.append(client)
        for _ in range(3):
            time.sleep(0.5)
            for client in slow:
                client.sendall(b"X-Slow: 1\r\n")
            started = time.perf_counter()
            assert get(proxy_port, "/accounts/login/").status == 200
            assert time.perf_counter() - started < 1.0
        direct = socket.create_connection(("127.0.0.1", port), timeout=5)
        slow.append(direct)
        direct.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        time.sleep(0.3)  # the worker took it and waits for the rest of its headers
        with pytest.raises(TimeoutError):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1.5)
            try:
                connection.request("GET", "/healthz")
                connection.getresponse()
            finally:
                connection.close()
    finally:
        for client in slow:
            client.close()
    deadline = time.monotonic() + 10  # the worker is free again once the slow one is gone
    while get(port, "/healthz").status != 200:
        assert time.monotonic() < deadline
        time.sleep(0.2)


# -- the fix itself ------------------------------------------------------------------------

def old_unquote(str):  # noqa: A002 - CPython 3.11.7's http.cookies._unquote, as it was
    octal, quote = re.compile(r"\\[0-3][0-7][0-7]"), re.compile(r"[\\].")
    if str is None or len(str) < 2 or str[0] != '"' or str[-1] != '"':
        return str
    str = str[1:-1]
    i, n, res = 0, len(str), []
    while 0 <= i < n:
        o_match, q_match = octal.search(str, i), quote.search(str, i)
        if not o_match and not q_match:
            res.append(str[i:])
            break
        j = o_match.start(0) if o_match else -1
        k = q_match.start(0) if q_match else -1
        if q_match and (not o_match or k < j):
            res.append(str[i:k])
            res.append(str[k + 1])
            i = k + 2
        else:
            res.append(str[i:j])
            res.append(chr(int(str[j + 1:j + 4], 8)))
            i = j + 4
    return "".join(res)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet='\\"0123478ab;, \n\xe9', max_size=40))
def test_the_fixed_unquote_reads_every_value_as_the_old_one(text):
    for value in (text, f'"{text}"'):
        assert cookies._unquote(value) == old_unquote(value)


def test_the_fix_is_in_effect_here():
    """Importing the project put it in place (this interpreter's own is the old code, or is
    fixed already: either way the function in effect is linear)."""
    assert not cookies.is_old_code(cookies._unquote)
    assert http.cookies._unquote is cookies._unquote or not cookies.is_old_code(
        cookies.ORIGINAL)
    started = time.perf_counter()
    http.cookies._unquote('"' + '\\"' * 65_000 + '"')
    assert time.perf_counter() - started < 0.5


def test_check_deploy_refuses_the_quadratic_unquoting(monkeypatch):
    assert checks.cookie_parsing_linear() == []
    monkeypatch.setattr(http.cookies, "_unquote", old_unquote)
    [error] = checks.cookie_parsing_linear()
    assert error.id == "ledger.E001" and error.level >= 40
    assert "CVE-2024-7592" in error.msg and "Debian 12's python3.11" in error.hint


@pytest.mark.skipif(not os.access("/usr/bin/python3.11", os.X_OK), reason="no Debian python")
def test_the_probe_judges_interpreters_by_behaviour_not_version():
    """Debian 12's python3.11 says 3.11.2 and is fixed; this machine's 3.11.7 is not."""
    script = str(Path(ROOT, "tablestakes", "cookies.py"))
    debian = subprocess.run(["/usr/bin/python3.11", script], capture_output=True, text=True,
                            timeout=60)
    assert debian.returncode == 0 and "3.11.2" in debian.stdout, debian.stdout
    assert "CVE-2024-7592 fixed" in debian.stdout
