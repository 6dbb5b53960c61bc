"""The production settings as a club's server runs them: ``tablestakes.settings.prod`` with
the environment it requires, and the static files as ``collectstatic`` writes them for
WhiteNoise's manifest storage (hashed, compressed names) in a temporary STATIC_ROOT, made
once per test run and shared by the modules here, and gunicorn with those files behind a
small TLS proxy's forwarding (``server``), also started once per run. The modules that use
either are one xdist group, so a single worker collects the files and starts the server."""

from __future__ import annotations

import http.client
import http.server
import importlib
import json
import os
import secrets
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from unittest import mock

import pytest

ROOT = Path(__file__).resolve().parents[2]
HOST = "rummy.example.org"


def prod_env(**extra) -> dict:
    """A server's environment: this one without any DJANGO_* or TABLESTAKES_* variable, plus
    what tablestakes.settings.prod requires; ``None`` removes a variable."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("DJANGO_", "TABLESTAKES_"))}
    env.update(DJANGO_SETTINGS_MODULE="tablestakes.settings.prod",
               DJANGO_SECRET_KEY=secrets.token_urlsafe(50), DJANGO_ALLOWED_HOSTS=HOST,
               TABLESTAKES_PROXY_COUNT="1")
    env.update(extra)
    return {key: value for key, value in env.items() if value is not None}


def manage(*args, env: dict, timeout: int = 180) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)


def load_prod(env: dict):
    """tablestakes.settings.prod (and base, which it builds on) imported in this process with
    ``env`` as the whole environment; base is imported again afterwards with the test's own
    environment, also when prod refuses to load (ImproperlyConfigured)."""
    base = importlib.import_module("tablestakes.settings.base")
    try:
        with mock.patch.dict(os.environ, env, clear=True):
            importlib.reload(base)
            return importlib.reload(importlib.import_module("tablestakes.settings.prod"))
    finally:
        importlib.reload(base)


@pytest.fixture(scope="session")
def collected_static(tmp_path_factory) -> Path:
    """STATIC_ROOT after ``collectstatic`` under the production settings. The admin's files
    (Django's own, a third of the time) are left out; everything of the app and of
    django-htmx is there."""
    root = tmp_path_factory.mktemp("staticfiles")
    run = manage("collectstatic", "--noinput", "--ignore", "admin",
                 env=prod_env(DJANGO_STATIC_ROOT=str(root)))
    assert run.returncode == 0, run.stdout + run.stderr
    return root


@pytest.fixture(scope="session")
def static_manifest(collected_static) -> dict[str, str]:
    """WhiteNoise's manifest: source name -> hashed name."""
    return json.loads((collected_static / "staticfiles.json").read_text())["paths"]


# -- gunicorn behind a proxy (see test_service_worker.py) ---------------------------------------

HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "te",
              "trailer", "upgrade", "proxy-authenticate", "proxy-authorization"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Proxy(http.server.BaseHTTPRequestHandler):
    """A TLS proxy's forwarding, without the TLS: each request to gunicorn with the proxy's
    headers, each answer back as it came."""

    protocol_version = "HTTP/1.1"
    upstream: tuple[str, int]

    def forward(self):
        length = int(self.headers.get("Content-Length") or 0)
        payload = self.rfile.read(length) if length else None
        headers = {name: value for name, value in self.headers.items()
                   if name.lower() not in HOP_BY_HOP | {"x-forwarded-proto"}}
        chain = self.headers.get("X-Forwarded-For")
        client = self.client_address[0]
        headers["X-Forwarded-For"] = f"{chain}, {client}" if chain else client
        headers["X-Forwarded-Proto"] = "https"
        upstream = http.client.HTTPConnection(*self.upstream, timeout=30)
        try:
            upstream.request(self.command, self.path, body=payload, headers=headers)
            answer = upstream.getresponse()
            content = answer.read()
        finally:
            upstream.close()
        self.send_response_only(answer.status, answer.reason)
        for name, value in answer.getheaders():
            if name.lower() not in HOP_BY_HOP | {"content-length"}:
                self.send_header(name, value)
        if self.command == "HEAD":
            self.send_header("Content-Length", answer.getheader("Content-Length") or "0")
        else:
            self.send_header("Content-Length", str(len(content)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(content)

    do_GET = do_POST = do_HEAD = forward

    def log_message(self, format, *args):  # quiet: the test says what failed
        pass


def get(port: int, path: str, **headers) -> http.client.HTTPResponse:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", path, headers=headers)
    answer = connection.getresponse()
    answer.read()
    connection.close()
    return answer


@pytest.fixture(scope="session")
def server(collected_static, tmp_path_factory):
    """gunicorn (one worker) with the production settings, and the proxy in front of it;
    yields the proxy's URL and gunicorn's port. Started once for the test run (the modules
    that use it are one xdist group: one worker), stopped at its end."""
    work = tmp_path_factory.mktemp("gunicorn")
    port, proxy_port = free_port(), free_port()
    base = f"http://127.0.0.1:{proxy_port}"
    env = prod_env(DJANGO_ALLOWED_HOSTS="127.0.0.1", DJANGO_STATIC_ROOT=str(collected_static),
                   DATABASE_URL=f"sqlite:///{work / 'db.sqlite3'}",
                   DJANGO_CSRF_TRUSTED_ORIGINS=base, TABLESTAKES_RELEASE=None)
    run = manage("migrate", "--noinput", env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    run = manage("shell", "-c", "from django.contrib.auth import get_user_model; "
                 "get_user_model().objects.create_user('keeper', password='pw')", env=env)
    assert run.returncode == 0, run.stderr
    log = (work / "gunicorn.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "tablestakes.wsgi:application",
         "--bind", f"127.0.0.1:{port}", "--workers", "1", "--timeout", "30"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    Proxy.upstream = ("127.0.0.1", port)
    proxy = http.server.ThreadingHTTPServer(("127.0.0.1", proxy_port), Proxy)
    proxy.daemon_threads = True
    threading.Thread(target=proxy.serve_forever, daemon=True).start()
    try:
        deadline = time.monotonic() + 30
        while True:  # /healthz: what a monitor would ask gunicorn
            assert process.poll() is None, Path(log.name).read_text()
            try:
                if get(port, "/healthz").status == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, Path(log.name).read_text()
            time.sleep(0.2)
        yield base, port
    finally:
        proxy.shutdown()
        proxy.server_close()
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
