"""Issue 21 in Chromium at 360x740: "Same players again" on a settled evening asks before
opening a new evening, and the day's second evening is told apart. Screenshots: 21-*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ledger import services
from ledger.models import Session

from .helpers import GIN, MONDAY, SCALE, login, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": SCALE,
         "is_mobile": True, "has_touch": True}


@pytest.fixture
def phone(browser):
    context = browser.new_context(**PHONE)
    yield context.new_page()
    context.close()


def test_rematch_on_a_settled_evening_asks_first(phone, live_server, keeper):
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    evening = services.session_create(table=table, date=MONDAY, place="Rosa's",
                                      currency="USD", rate="0.05", created_by=keeper)
    game = services.game_import(session=evening, record=GIN, imported_by=keeper)
    services.session_settle(session=evening, settled_by=keeper)
    login(phone, live_server.url, "keeper")
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    phone.get_by_role("link", name="Same players again").click()
    question = phone.locator("dialog#confirm-rematch")
    expect(question).to_be_visible()
    expect(question).to_contain_text("Open a new evening?")
    expect(question).to_contain_text("The evening of Monday, November 23, 2026 is settled")
    shot(phone, "21-rematch-question-360", full_page=False)
    question.get_by_role("button", name="Not now").click()
    expect(question).to_be_hidden()
    assert Session.objects.filter(table=table).count() == 1
    phone.get_by_role("link", name="Same players again").click()
    question.get_by_role("button", name="Open a new evening").click()
    expect(phone.locator(".flash")).to_contain_text("is settled, so it is game 1 of the "
                                                    "evening of")
    assert Session.objects.filter(table=table).count() == 2
