"""Issue 38 in a browser: a table's phone whose withdraw form sends hand number '١' (any
number not written with the digits 0-9, or past the column) gets the 400 page that names the
parameter, in the phone's language, at 360 px; the report stays, and the real form still
withdraws it. The server read '١' as hand 1 with int()."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ledger import services
from ledger.models import TableReport

from .helpers import shot, tap
from .test_table_reports import PHONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WORDS = {  # the send button, the 400 page's opening, the withdrawn message
    "en": ("Send to the scorekeeper", "The parameter 'number': write a whole number with the "
                                      "digits 0-9, like 25, not '١'.", "Report withdrawn."),
    "de": ("An den Schreiber senden", "Der Parameter „number“", "Meldung zurückgezogen."),
}


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_forged_withdraw_number_is_a_clear_400(browser, live_server, keeper, language):
    table = services.table_create(name="Club", scorekeepers=[keeper], language=language)
    session = services.session_create(table=table, currency="USD", rate="0.01",
                                      created_by=keeper)
    game = services.game_start(
        session=session, variant="captain",
        players=["R1", "R2", "R3", "B1", "B2", "B3", "B4"], started_by=keeper,
        preset="standard",
        setup={"captains": ["R1", "R2", "R3"], "opponents": ["B1", "B2", "B3"],
               "sitter": "B4"})
    link = services.report_links_get_or_create(game=game, created_by=keeper)[0]
    context = browser.new_context(viewport=PHONE, service_workers="block",
                                  locale="de-DE" if language == "de" else "en-US")
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/r/{link.token}/")
        tap(page, "t1_knocker", "-draw-")
        page.get_by_role("button", name=WORDS[language][0]).click()
        withdraw = page.locator("form[action$='/withdraw/'] button")
        expect(withdraw).to_be_visible()
        assert TableReport.objects.filter(withdrawn_at=None).count() == 1
        page.evaluate("""document.querySelector("form[action$='/withdraw/'] input[name=number]")
                         .value = '\\u0661'""")
        withdraw.click()
        body = page.locator("body")
        expect(body).to_contain_text("number")
        expect(body).to_contain_text("0-9")
        expect(body).to_contain_text("'١'")
        expect(body).to_contain_text(WORDS[language][1])
        shot(page, f"withdraw-400-{language}")
        assert TableReport.objects.filter(withdrawn_at=None).count() == 1
        page.go_back()
        page.reload()
        page.locator("form[action$='/withdraw/'] button").click()
        expect(page.locator("body")).to_contain_text(WORDS[language][2])
        assert TableReport.objects.filter(withdrawn_at=None).count() == 0
    finally:
        context.close()
