"""A streets game in the app at 360x740 and 1280 wide, in English and German (issue 40,
the least a streets game needs): the start page offers it, its start form offers its two
presets, and a streets game imported with its record shows its page (partnership's deal
entry and seating; the streets' own cards are not built yet) and fits the screen."""

from __future__ import annotations

import datetime
import json

import pytest
from playwright.sync_api import expect

from ledger import services
from tests.rules.helpers import DATA

from .helpers import FITS, login, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language, streets", [("en", "Streets"), ("de", "Straßen")])
@pytest.mark.parametrize("width, height", [(360, 740), (1280, 900)])
def test_a_streets_game_in_the_app(browser, live_server, keeper, language, streets,
                                   width, height):
    table = services.table_create(name="Club", scorekeepers=[keeper])
    services.table_set_locale(table=table, language=language)
    session = services.session_create(table=table, date=datetime.date(2026, 11, 23),
                                      currency="USD", rate="0.01", created_by=keeper)
    record = json.loads((DATA / "club" / "streets-game.json").read_text())
    record["hands"] = record["hands"][:4]  # streets 1 and 2 still open
    game = services.game_import(session=session, record=record, imported_by=keeper)
    context = browser.new_context(viewport={"width": width, "height": height},
                                  is_mobile=width < 500, has_touch=width < 500,
                                  locale=language)
    page = context.new_page()
    login(page, live_server.url, keeper.username)
    tag = f"streets-{language}-{width}"
    page.goto(f"{live_server.url}/sessions/{session.pk}/games/new/")
    expect(page.get_by_text(streets, exact=False).first).to_be_visible()
    shot(page, f"{tag}-chooser")
    page.goto(f"{live_server.url}/sessions/{session.pk}/games/new/streets/4/")
    shot(page, f"{tag}-start")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    shot(page, f"{tag}-game")
    assert page.evaluate(FITS) == []
    context.close()
