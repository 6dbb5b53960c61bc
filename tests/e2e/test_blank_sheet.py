"""The blank sheet from the evening's screen on a phone (360x740): the game chosen, the seats
chosen (captains, opponents, the one who sits out), a seat given twice refused at its field
in view, then the PDF with the seats in the order chosen."""

from __future__ import annotations

import io

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from ledger import services

from .helpers import login, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = ["Maximiliana Featherstonehaugh", "Bob", "Carla", "Dev", "Eve", "Finn"]


def test_a_blank_captain_sheet_with_chosen_seats(page, live_server, keeper):
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    for name in NAMES:
        services.player_get_or_create(table=table, name=name)
    session = services.session_create(table=table, currency="USD", rate="0.05",
                                      created_by=keeper)
    page.set_viewport_size({"width": 360, "height": 740})
    base = live_server.url
    login(page, base, "keeper")
    page.goto(f"{base}/sessions/{session.pk}/")
    page.click("summary:has-text('Print a blank sheet')")
    page.select_option("select[name=game]", "captain-5")
    shot(page, "blank-evening-form")
    page.click("button:has-text('Choose the seats')")
    expect(page.get_by_role("heading", name="Blank sheet: Captain play")).to_be_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the seats page scrolls sideways ({width}px)"

    seats = {"c1": "Finn", "c2": "Finn", "o1": "Maximiliana Featherstonehaugh", "o2": "Bob",
             "sitter": "Eve"}
    for field, name in seats.items():
        page.select_option(f"select[name={field}]", name)
    page.click("button:has-text('Print the blank sheet')")
    error = page.locator("#id_c2_error")
    expect(error).to_have_text("Finn already has a seat.")
    error.scroll_into_view_if_needed()
    expect(error).to_be_in_viewport()
    shot(page, "blank-seats-refused")

    page.select_option("select[name=c2]", "Dev")
    with page.expect_response(lambda r: "blank.pdf" in r.url) as answer:
        page.click("button:has-text('Print the blank sheet')")
    assert answer.value.status == 200
    # the same address fetched with the page's session (chromium's viewer keeps the bytes)
    response = page.request.get(answer.value.url)
    assert response.headers["content-type"] == "application/pdf"
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.body())).pages)
    flat = " ".join(text.split()).replace("\u2010 ", "")  # a name hyphenated at a line end
    assert "Captains Finn and Dev" in flat
    assert "Opponents Maximiliana Featherstonehaugh and Bob" in flat
    assert "Sits out first Eve" in flat

    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{base}/sheets/sessions/{session.pk}/blank/?game=partnership-6")
    shot(page, "blank-seats-desktop")
