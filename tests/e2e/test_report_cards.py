"""Issue 23: the card picker on a table's report phone. Table 1 taps both hands' cards (no
counts typed), sends the report, and the scorekeeper receives the counts the core worked out
from the cards; no console error under the strict content security policy."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ledger import services
from ledger.models import TableReport

from .helpers import shot, tap

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
# R1: three melds and 4 of deadwood (4D); B1: no meld, 10 cards of deadwood
R1 = ["AS", "2S", "3S", "5H", "6H", "7H", "9C", "9D", "9H", "4D"]
B1 = ["KS", "QH", "JC", "10D", "8S", "6C", "4S", "2H", "KC", "QD"]


def test_a_table_taps_its_cards_on_the_report_phone(browser, live_server, keeper):
    table = services.table_create(name="Club", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="USD", rate="0.01",
                                      created_by=keeper)
    game = services.game_start(
        session=session, variant="captain",
        players=["R1", "R2", "R3", "B1", "B2", "B3", "B4"], started_by=keeper,
        preset="standard",
        setup={"captains": ["R1", "R2", "R3"], "opponents": ["B1", "B2", "B3"],
               "sitter": "B4"})
    link = services.report_links_get_or_create(game=game, created_by=keeper)[0]
    context = browser.new_context(viewport=PHONE, service_workers="block")
    try:
        page = context.new_page()
        errors = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(f"{live_server.url}/r/{link.token}/")
        tap(page, "t1_knocker", "R1")
        tap(page, "t1_kind", "knock")
        page.locator("details.cards summary").click()
        picker = page.locator("details.cards .picker")
        expect(picker).to_be_visible()
        for card in R1:
            picker.locator(f".deck-card[data-card='{card}']").click()
        picker.locator(".picker-tab[data-pos='1']").click()
        for card in B1:
            picker.locator(f".deck-card[data-card='{card}']").click()
        expect(page.locator("[name=t1_cards0]")).to_have_value(" ".join(R1))
        expect(page.locator("[name=t1_cards1]")).to_have_value(" ".join(B1))
        # a card taken by R1 cannot be tapped for B1
        expect(picker.locator(".deck-card[data-card='AS']")).to_be_disabled()
        shot(page, "report-cards-360")
        page.get_by_role("button", name="Send to the scorekeeper").click()
        expect(page.get_by_text("Sent: table 1's part of hand 1")).to_be_visible()
        report = TableReport.objects.get()
        assert report.values["knocker"] == "R1"
        assert report.values["cards"] == {"R1": " ".join(R1), "B1": " ".join(B1)}
        assert errors == []
    finally:
        context.close()
