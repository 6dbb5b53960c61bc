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

import pytest
from playwright.sync_api import expect

from ledger.views.pwa import SHELL
from tests.e2e.helpers import worker_in_control

from .conftest import get

# one worker runs every module that uses the collected static files and the gunicorn server
pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("collected_static")]



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
    worker_in_control(page)
    page.reload()
    expect(page.get_by_role("heading", level=1).first).to_be_visible()
    # (the page's one <h1>, "Your tables"; the server is shared with the other modules
    # here: a game started there adds "Playing now", an <h2>, above it)
    home = page.get_by_role("heading", level=1).all_inner_texts()

    context.set_offline(True)
    page.goto(f"{base}/")  # kept: opens without the connection
    expect(page.get_by_role("heading", level=1)).to_have_text(home)  # every one, in order
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
