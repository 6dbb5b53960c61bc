"""The installable app on a club's server: gunicorn with ``tablestakes.settings.prod`` on
127.0.0.1 (the static files from a real ``collectstatic``, WhiteNoise's manifest storage, a
migrated database), behind a small reverse proxy, and Chromium installing the service worker.

HTTPS and the proxy: prod redirects any request that does not come through a TLS proxy to
https and trusts ``X-Forwarded-Proto`` only from a proxy it was told about
(``TABLESTAKES_PROXY_COUNT=1``). So the test runs what a club runs in front of gunicorn, minus
the certificate: a reverse proxy (``Proxy`` below, a thread) that passes ``Host`` through,
sets ``X-Forwarded-Proto: https`` and appends the client's address to ``X-Forwarded-For``, as
nginx's ``proxy_set_header`` lines do. Chromium talks plain http to the proxy at
http://127.0.0.1:PORT, which browsers count as a secure context (service workers register)
and where they keep ``Secure`` cookies; because the browser's Origin is http:// while Django
sees https, that origin is named in ``DJANGO_CSRF_TRUSTED_ORIGINS`` (a real deployment has
https on both sides and needs no such line)."""

from __future__ import annotations

import http.client
import http.server
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from ledger.views.pwa import SHELL

from .conftest import ROOT, manage, prod_env

pytestmark = pytest.mark.e2e

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


@pytest.fixture(scope="module")
def server(collected_static, tmp_path_factory):
    """gunicorn (one worker) with the production settings, and the proxy in front of it;
    yields the proxy's URL and gunicorn's port. Stopped at the end of the module."""
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


def test_gunicorn_redirects_what_did_not_come_through_the_proxy(server):
    base, port = server
    moved = get(port, "/sw.js", Host="127.0.0.1")
    assert moved.status == 301 and moved.getheader("Location") == "https://127.0.0.1/sw.js"
    assert get(port, "/sw.js", Host="127.0.0.1", **{"X-Forwarded-Proto": "https"}).status == 200


def test_the_service_worker_installs_and_pages_open_offline(server, page, context,
                                                            static_manifest):
    base, _ = server
    problems = []
    page.on("console", lambda message: message.type in ("error", "warning")
            and problems.append(message.text))
    page.on("pageerror", lambda error: problems.append(str(error)))

    worker = page.request.get(f"{base}/sw.js")  # fails fast, before waiting for the worker
    assert worker.status == 200, worker.text()[:300]
    page.goto(f"{base}/accounts/login/")
    script = page.evaluate("""async () => {
        const registration = await navigator.serviceWorker.ready;
        return registration.active.scriptURL;
    }""")
    assert script == f"{base}/sw.js"
    kept = page.evaluate("""async () => {
        const names = (await caches.keys()).filter(n => n.startsWith("ts-static-"));
        const cache = await caches.open(names[0]);
        return (await cache.keys()).map(r => new URL(r.url).pathname);
    }""")
    # the hashed names collectstatic wrote, and the offline page
    assert sorted(kept) == sorted([f"/static/{static_manifest[name]}" for name in SHELL]
                                  + ["/offline/"])

    # log in through the proxy (secure cookies, CSRF), the home page is kept for offline use
    page.get_by_label("Username").fill("keeper")
    page.get_by_label("Password").fill("pw")
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(f"{base}/")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    home = page.get_by_role("heading", level=1).inner_text()

    context.set_offline(True)
    page.goto(f"{base}/")  # kept: opens without the connection
    expect(page.get_by_role("heading", level=1)).to_have_text(home)
    expect(page.locator("#offline-banner")).to_be_visible()
    page.goto(f"{base}/accounts/password_change/")  # never opened: the offline page
    expect(page.get_by_role("heading", name="No connection")).to_be_visible()
    context.set_offline(False)

    failed = [text for text in problems if "net::ERR_INTERNET_DISCONNECTED" not in text]
    assert failed == []


def test_a_failing_registration_is_logged_not_swallowed(server, page, context):
    """/sw.js answering 500 (as it did under the manifest storage) shows in the console."""
    base, _ = server
    context.route(f"{base}/sw.js", lambda route: route.fulfill(
        status=500, content_type="text/html", body="<h1>Server Error (500)</h1>"))
    with page.expect_console_message(
            lambda message: message.type == "error"
            and "service worker /sw.js did not install" in message.text, timeout=10_000):
        page.goto(f"{base}/accounts/login/")
    assert page.evaluate("navigator.serviceWorker.getRegistration()") is None
