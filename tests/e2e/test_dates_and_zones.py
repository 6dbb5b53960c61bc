"""Issue 37.2, 37.9 and 37.14 in the browser at 360x740, in English, German and Russian: the
new evening's date picker comes up with today's date (Django's German "28.11.2026" was
dropped by the picker, the keeper typed the date every week), the evening is named as CLDR
writes it on its page and in its crumbs, and the table's time zone is chosen from a list
with the device's zone first, offered on a button in the page's language."""

from __future__ import annotations

import pytest
from django.utils import translation
from playwright.sync_api import expect

from ledger.clock import table_today
from ledger.models import Table
from ledger.presentation.dates import format_day

from .helpers import FITS, SCALE, login, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

BUTTON = {"en": "Use this device's zone: Europe/Berlin",
          "de": "Zone dieses Geräts nehmen: Europe/Berlin",
          "ru": "Взять пояс этого устройства: Europe/Berlin"}


def create_table(page, name: str, players: list[str]) -> None:
    """The home page's "New table" form, in any language."""
    page.fill("input[name=name]", name)
    page.fill("textarea[name=players]", "\n".join(players))
    page.locator("form:has(textarea[name=players]) button[type=submit]").click()
    expect(page.get_by_role("heading", name=name, exact=True)).to_be_visible()


@pytest.fixture(params=["en", "de", "ru"])
def berlin_phone(request, browser):
    context = browser.new_context(viewport={"width": 360, "height": 740},
                                  device_scale_factor=SCALE, is_mobile=True, has_touch=True,
                                  timezone_id="Europe/Berlin", locale=request.param)
    page = context.new_page()
    page.code = request.param
    yield page
    context.close()


def test_a_new_evening_starts_from_today_and_is_named_the_languages_way(berlin_phone,
                                                                       live_server, keeper):
    page, code = berlin_phone, berlin_phone.code
    login(page, live_server.url, "keeper")
    create_table(page, "Astoria", ["Ann", "Bob"])
    table = Table.objects.get(name="Astoria")
    page.click("details.more > summary.btn-primary")
    # the picker holds the table's today (Django's German "28.11.2026" it dropped)
    assert page.input_value("input[name=date]") == table_today(table).isoformat()
    shot(page, f"words-new-evening-{code}")
    page.fill("input[name=rate]", "0.05")
    page.click("button[name=new_session]")
    with translation.override(code):
        day = format_day(table.sessions.get().date, standing_alone=True)
        short = format_day(table.sessions.get().date, "short", standing_alone=True)
    expect(page.locator("h1.page-title")).to_have_text(day)
    expect(page.locator("nav.crumbs")).to_contain_text(short)
    assert page.evaluate(FITS) == []
    shot(page, f"words-evening-{code}")


def test_the_time_zone_is_chosen_from_a_list_with_the_devices_zone_first(berlin_phone,
                                                                       live_server, keeper):
    page, code = berlin_phone, berlin_phone.code
    login(page, live_server.url, "keeper")
    create_table(page, "Astoria", ["Ann", "Bob"])
    Table.objects.filter(name="Astoria").update(time_zone="UTC")
    page.reload()
    field = page.locator("#locale input[name=time_zone]")
    expect(field).to_have_value("UTC")
    first = page.evaluate("document.getElementById('time-zones').options[0].value")
    assert first == "Europe/Berlin"
    assert page.evaluate("document.getElementById('time-zones').options.length") > 300
    button = page.locator("#locale button", has_text="Europe/Berlin")
    expect(button).to_have_text(BUTTON[code])
    shot(page.locator("#locale"), f"words-zone-{code}")
    button.click()
    expect(field).to_have_value("Europe/Berlin")
    # a name that is no place's zone is refused, with the reason, and the zone kept
    field.fill("localtime")
    page.locator("#locale button[type=submit]").click()
    expect(page.locator("#flash")).to_contain_text("localtime")
    assert Table.objects.get(name="Astoria").time_zone == "UTC"
    assert page.evaluate(FITS) == []
