"""Two tabs of the same game on one phone: the queue they share (the browser's storage) is
sent by one tab at a time (static/ledger/queue/lock.js, navigator.locks), so no hand is
sent twice, and the other tab's list follows (the storage event). The state machine itself
is tested without a browser (tests/js/queue.test.mjs); here only what a browser must show."""

from __future__ import annotations

import re
from urllib.parse import parse_qs

import pytest
from playwright.sync_api import expect

from ledger import services
from ledger.models import Hand

from .helpers import duel, login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}


def test_two_tabs_never_send_the_same_hand(browser, live_server, keeper):
    table = services.table_create(name="Tabs", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="USD", rate="0.01",
                                      created_by=keeper)
    gin = services.game_start(session=session, variant="gin", players=["Ann", "Bob"],
                              started_by=keeper, preset="standard",
                              setup={"first_dealer": "Bob"})
    context = browser.new_context(viewport=PHONE, service_workers="block")
    sent = []  # (tab, key) of every hand POSTed

    def counted(tab):
        def handler(route):
            body = route.request.post_data or ""
            key = re.search(r'name="key"\r\n\r\n([0-9a-f-]+)', body)
            sent.append((tab, key.group(1) if key else parse_qs(body).get("key")))
            route.continue_()
        return handler

    first = context.new_page()
    login(first, live_server.url, "keeper")
    first.goto(f"{live_server.url}/games/{gin.pk}/")
    second = context.new_page()
    second.goto(f"{live_server.url}/games/{gin.pk}/")
    for name, page in (("first", first), ("second", second)):
        page.route(re.compile(r".*/hands/send/$"), counted(name))

    context.set_offline(True)
    for number, (knocker, counts) in enumerate(
            [("Ann", {0: "5", 1: "20"}), ("Bob", {0: "10", 1: "3"}), (None, {})], start=1):
        duel(first, 1, knocker, counts)
        first.get_by_role("button", name=f"Save hand {number}").click()
        expect(first.get_by_role("button", name=f"Save hand {number + 1}")).to_be_visible()
    # the other tab lists the same hands (it hears the storage change)
    expect(second.locator("#offline-queue .queue-item")).to_have_count(3)

    context.set_offline(False)  # both tabs hear "online" at once
    expect(first.locator("#offline-queue")).to_be_hidden(timeout=15_000)
    expect(second.locator("#offline-queue")).to_be_hidden(timeout=15_000)
    keys = [key for _, key in sent]
    assert len(keys) == 3 and len(set(keys)) == 3, sent  # each hand sent once, by one tab
    assert [(h.number, h.entry) for h in Hand.objects.filter(game=gin).order_by("number")] == [
        (1, {"knocker": "Ann", "deadwood": {"Ann": 5, "Bob": 20}}),
        (2, {"knocker": "Bob", "deadwood": {"Bob": 3, "Ann": 10}}),
        (3, {"draw": True})]
    context.close()
