"""The Stakes and rules screen on a phone: a finished game's stake corrected, the new money
shown and confirmed, and the change listed on the game page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import expect

from ledger import services

from .helpers import login, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CASE = Path(__file__).resolve().parents[1] / "data" / "gin-standard-game.json"


def test_stake_of_a_finished_game_corrected_and_confirmed(page, live_server, keeper):
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="USD", rate="0.01",
                                       created_by=keeper)
    record = json.loads(CASE.read_text())
    record["players"] = ["Ann", "Bob"]
    text = json.dumps(record).replace('"A"', '"Ann"').replace('"B"', '"Bob"')
    game = services.game_import(session=session, record=json.loads(text), imported_by=keeper)

    base = live_server.url
    login(page, base, "keeper")
    page.goto(f"{base}/games/{game.pk}/")
    page.click("a.btn:has-text('Stakes and rules')")
    expect(page.get_by_role("heading", name="Stakes and rules")).to_be_visible()
    shot(page, "settings")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways ({width}px)"

    page.fill("input[name=rate]", "0.02")
    page.fill("input[name=reason]", "we said two cents")
    page.click("button:has-text('Save changes')")
    expect(page.locator(".confirm-box")).to_contain_text(
        "Ann +2.02 → +4.04, Bob −2.02 → −4.04. Confirm?")
    shot(page, "settings-confirm")
    page.click("button:has-text('Confirm new money')")
    expect(page.locator(".flash")).to_contain_text("Money now: Ann +4.04, Bob −4.04.")
    expect(page.locator("td[data-player=Ann]")).to_have_text("+4.04")
    expect(page.locator("#changes")).to_contain_text("Stake 0.01 → 0.02")
    page.locator("#changes").scroll_into_view_if_needed()
    shot(page, "settings-after")
