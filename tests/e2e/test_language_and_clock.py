"""Issue 22 in the browser: a table made on a phone in New York takes the phone's time zone
(static/ledger/timezone.js, under the strict content security policy), the footer's
switcher changes the screens' language, and nothing is cut off at 360x740."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ledger.models import Table

from .helpers import FITS, SCALE, create_table, login, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def new_york_phone(browser, live_server):
    context = browser.new_context(viewport={"width": 360, "height": 740},
                                  device_scale_factor=SCALE, is_mobile=True, has_touch=True,
                                  timezone_id="America/New_York", locale="en-US")
    yield context.new_page()
    context.close()


def test_a_table_takes_the_phones_zone_and_the_footer_switches_language(new_york_phone,
                                                                         live_server,
                                                                         keeper):
    page = new_york_phone
    login(page, live_server.url, "keeper")
    assert page.input_value("input[name=time_zone]") == "America/New_York"
    shot(page, "issue22-home-360")
    assert page.evaluate(FITS) == []
    create_table(page, "Astoria", ["Ann", "Bob"])
    assert Table.objects.get(name="Astoria").time_zone == "America/New_York"
    card = page.locator("#locale")
    expect(card.locator("input[name=time_zone]")).to_have_value("America/New_York")
    expect(card.locator("select[name=language]")).to_have_value("en")
    assert page.evaluate(FITS) == []
    shot(page, "issue22-table-360")
    # the footer's switcher: a plain form, back to the same page in German
    page.select_option("#language-choice", "de")
    page.click(".language-switch button")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_role("heading", name="Astoria", exact=True)).to_be_visible()
    assert page.evaluate(FITS) == []
    shot(page, "issue22-table-360-de")
