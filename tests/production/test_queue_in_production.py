"""The game page's queue on a club's server (gunicorn, the production settings, the static
files as collectstatic wrote them, behind the proxy): the page loads offline.js and the
modules it imports by their hashed names only (tablestakes/storage.py), and a hand kept
without a connection is sent when it returns."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import (
    choose_game,
    create_table,
    duel,
    login_with_the_form,
    seat,
    start_evening,
    start_game,
)

# gunicorn behind a proxy: the ``server`` fixture of conftest.py, started once per run
pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("collected_static")]

HASHED = re.compile(r"/static/ledger/(offline|queue/\w+)\.[0-9a-f]{12}\.js$")


def test_the_queue_runs_from_the_hashed_modules(server, page, context,
                                                static_manifest):
    base, _ = server
    problems = []
    page.on("console", lambda message: message.type == "error"
            and problems.append(message.text))
    page.on("pageerror", lambda error: problems.append(str(error)))
    scripts = []
    page.on("request", lambda request: scripts.append(request.url)
            if "/static/ledger/" in request.url and request.url.endswith(".js") else None)

    login_with_the_form(page, base, "keeper")
    create_table(page, "Friday", ["Ann", "Bob"])
    start_evening(page)
    choose_game(page, "Gin", 2)
    seat(page, {"p1": "Ann", "p2": "Bob", "first_dealer": "Bob"})
    start_game(page)
    page.wait_for_load_state("networkidle")
    modules = sorted(url.split("/static/", 1)[1] for url in scripts if HASHED.search(url))
    # offline.js and its nine modules, each by the name collectstatic wrote, none by its
    # plain name
    assert modules == sorted(static_manifest[name] for name in static_manifest
                             if name == "ledger/offline.js"
                             or re.fullmatch(r"ledger/queue/\w+\.js", name)), scripts
    assert len(modules) == 10
    assert not [url for url in scripts if re.search(r"/queue/\w+\.js$", url)], scripts

    context.set_offline(True)
    duel(page, 1, "Ann", {0: "5", 1: "20"})
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#offline-queue .queue-item")).to_have_count(1)
    expect(page.locator("#offline-queue")).to_contain_text("Not sent yet")
    expect(page.get_by_role("button", name="Save hand 2")).to_be_visible()
    context.set_offline(False)
    expect(page.locator(".flash")).to_contain_text("Hand 1 recorded: Ann +15.",
                                                   timeout=15_000)
    expect(page.locator("#offline-queue")).to_be_hidden()
    # what failed for want of the connection (the live preview's requests, which htmx
    # logs as errors) is no problem; any other error or an uncaught exception is
    failed = [text for text in problems if "net::ERR_INTERNET_DISCONNECTED" not in text
              and not text.startswith("htmx:")]
    assert failed == []
