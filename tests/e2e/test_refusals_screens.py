"""A refused value is said at its field in the phone's language (issue 39: the record refuses
with a code and its facts, the presentation words it where the page shows it): a player's
name kept for the hand form and an amount that could be read two ways, on the table's page
in Chromium at 360x740 in English and German (and 1280 wide). The words fit the screen
(FITS). Screenshots: SHOTS_DIR=... (issue39-refused-<language>-<width>)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ledger import services

from .helpers import FITS, SCALE, login, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SAID = {
    "en": {"amount": "1,234",
           "name": '"-draw-" is kept for the hand form\'s Draw; give the player another name.',
           "rate": 'Stake: "1,234" could mean 1234 or 1.234: write it without the comma, or '
                   "with a point."},
    "de": {"amount": "1.234",
           "name": "\u201e-draw-\u201c ist f\u00fcr \u201eRemis\u201c im Spielformular "
                   "reserviert; gib dem Spieler einen anderen Namen.",
           "rate": "Einsatz: \u201e1.234\u201c kann 1234 oder 1,234 hei\u00dfen: ohne Punkt "
                   "schreiben oder mit Komma."},
}


@pytest.mark.parametrize(("code", "width"), [("en", 360), ("de", 360), ("en", 1280)])
def test_a_refused_value_is_said_at_its_field_in_the_phones_language(browser, live_server,
                                                                     keeper, code, width):
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    services.player_get_or_create(table=table, name="Ann")
    context = browser.new_context(viewport={"width": width, "height": 740},
                                  device_scale_factor=SCALE, is_mobile=width < 800,
                                  has_touch=width < 800, locale=code)
    page = context.new_page()
    try:
        login(page, live_server.url, "keeper")
        page.goto(f"{live_server.url}/tables/{table.pk}/")
        page.fill("input[name=name]", "-draw-")
        page.click("button[name=add_player]")
        expect(page.locator("#id_name_error")).to_have_text(SAID[code]["name"])
        assert table.players.count() == 1  # nothing stored
        assert page.evaluate(FITS) == []
        shot(page, f"issue39-refused-name-{code}-{width}")
        page.click("details.more summary")
        page.fill("input[name=rate]", SAID[code]["amount"])
        page.click("button[name=new_session]")
        expect(page.locator("#id_rate_error")).to_have_text(SAID[code]["rate"])
        assert not table.sessions.exists()
        assert page.evaluate(FITS) == []
        shot(page, f"issue39-refused-rate-{code}-{width}")
    finally:
        context.close()


def test_a_date_out_of_range_is_said_with_the_dates_of_the_phones_language(browser,
                                                                          live_server, keeper):
    """Russian: the refused evening's date and the two bounds, written as Russian writes a
    date (through the one date formatter), at the date's field."""
    import datetime

    from django.utils import timezone, translation

    from ledger.cleaning import EARLIEST_DATE, Field, Refused
    from ledger.cleaning.values import DAYS_AHEAD
    from ledger.presentation.refusals import refusal_words

    table = services.table_create(name="Friday", scorekeepers=[keeper])
    latest = timezone.localdate() + datetime.timedelta(days=DAYS_AHEAD)
    with translation.override("ru"):
        said = refusal_words(Refused(code="date_out_of_range", what=Field("date"),
                                     date=datetime.date(2099, 1, 1), earliest=EARLIEST_DATE,
                                     latest=latest))
    assert said.startswith("Дата: ") and "2099" in said and "2000" in said
    context = browser.new_context(viewport={"width": 360, "height": 740},
                                  device_scale_factor=SCALE, is_mobile=True, has_touch=True,
                                  locale="ru")
    page = context.new_page()
    try:
        login(page, live_server.url, "keeper")
        page.goto(f"{live_server.url}/tables/{table.pk}/")
        page.click("details.more summary")
        page.fill("input[name=date]", "2099-01-01")
        page.fill("input[name=rate]", "0,05")
        page.click("button[name=new_session]")
        expect(page.locator("#id_date_error")).to_have_text(said)
        assert not table.sessions.exists()
        assert page.evaluate(FITS) == []
        shot(page, "issue39-refused-date-ru-360")
    finally:
        context.close()
