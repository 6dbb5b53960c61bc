"""Issue 23, two-hand games in a browser: the scorekeeper makes the confirm link for Bob,
Bob's phone (its own browser context, no account) shows the saved hand and answers Correct,
and the scorekeeper's open game page shows the answer beside hand 1 within 3 s. Under the
strict content security policy: no console error on either phone."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from ledger import services
from tests.factories import gin_game

from .axe import serious_findings
from .helpers import login, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}


def test_bob_confirms_the_hand_on_his_phone(browser, live_server, keeper):
    table = services.table_create(name="Club", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="USD", rate="0.01",
                                      created_by=keeper)
    game = gin_game(session, keeper)
    contexts = []
    try:
        keeper_ctx = browser.new_context(viewport=PHONE, service_workers="block")
        contexts.append(keeper_ctx)
        scorer = keeper_ctx.new_page()
        login(scorer, live_server.url, "keeper")
        scorer.goto(f"{live_server.url}/games/{game.pk}/")
        scorer.select_option("#confirm-player", "Bob")
        scorer.get_by_role("button", name="Confirm link").click()
        link = game.report_links.get()
        services.hand_record(game=game, entry={"knocker": "Ann",
                                               "deadwood": {"Ann": 5, "Bob": 30}},
                             recorded_by=keeper, idempotency_key=uuid.uuid4())
        bob_ctx = browser.new_context(viewport=PHONE, service_workers="block")
        contexts.append(bob_ctx)
        bob = bob_ctx.new_page()
        errors = []
        bob.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        bob.goto(f"{live_server.url}/c/{link.token}/")
        expect(bob.locator("#confirm-question")).to_have_text(
            "Ann knocks 5 v Bob 30: Ann +25, correct?")
        shot(bob, "confirm-phone-360")
        bob.get_by_role("button", name="Correct", exact=True).click()
        expect(bob.get_by_text("Sent: Bob says correct")).to_be_visible()
        shot(bob, "confirm-phone-answered-360")
        # the scorekeeper's open page shows it within 3 s, without a reload (its poll)
        expect(scorer.locator(".confirm-answers li").first).to_contain_text(
            "Hand 1: Bob says correct", timeout=3000)
        shot(scorer.locator("#reports"), "confirm-keeper-360")
        assert errors == []
    finally:
        for context in contexts:
            context.close()


def test_the_confirm_page_and_card_pass_the_accessibility_audit(browser, live_server, keeper):
    table = services.table_create(name="Club", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="USD", rate="0.01",
                                      created_by=keeper)
    game = gin_game(session, keeper)
    link = services.confirm_link_get_or_create(game=game, player="Bob", created_by=keeper)
    services.hand_record(game=game, entry={"knocker": "Ann",
                                           "deadwood": {"Ann": 5, "Bob": 30}},
                         recorded_by=keeper, idempotency_key=uuid.uuid4())
    services.hand_confirm(link=link, number=1, correct=False)
    context = browser.new_context(viewport=PHONE, service_workers="block", bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/c/{link.token}/")
        assert serious_findings(page) == []
        login(page, live_server.url, "keeper")
        page.goto(f"{live_server.url}/games/{game.pk}/")
        expect(page.locator(".confirm-answers li").first).to_contain_text(
            "Hand 1: Bob says not correct")
        assert serious_findings(page) == []
    finally:
        context.close()
