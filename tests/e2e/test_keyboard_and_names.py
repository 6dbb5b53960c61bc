"""Keyboard, screen reader and fingers (issue 21, item 2), in Chromium at 360x740: the skip
link, the question dialog taking and giving back the focus, the card picker's cards named
as people say them, each table's choices named for their table, the standings' aria-sort,
and 44x44 px targets where a finger taps (the picker's 52 cards, the sort headers, the
player links of the book, standings and player tables, Tidy's players)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from ledger import services
from tests.ledger.book_scenario import build

from .helpers import login
from .phone_games import NAMES, play, start

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 1,
         "is_mobile": True, "has_touch": True}
SMALL = """(els) => els.filter((el) => el.offsetParent !== null).map((el) => {
  const r = el.getBoundingClientRect();
  return [el.getAttribute('aria-label') || el.textContent.trim().slice(0, 16),
          Math.round(r.width), Math.round(r.height)];
}).filter(([, w, h]) => w < 43.5 || h < 43.5)"""
ACTIVE = "() => { const a = document.activeElement; return a && (a.id || a.name || a.tagName); }"


@pytest.fixture
def evening(keeper):
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    for name in NAMES:
        services.player_get_or_create(table=table, name=name)
    return services.session_create(table=table, currency="USD", rate="0.05", created_by=keeper)


@pytest.fixture
def page(browser, live_server, keeper):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    login(page, live_server.url, "keeper")
    yield page
    context.close()


def test_the_first_tab_reaches_the_skip_link_and_it_leads_to_the_content(page, live_server,
                                                                        evening, keeper):
    game = start(evening, keeper, "gin")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to the content")
    expect(skip).to_be_focused()
    box = skip.bounding_box()
    assert box["y"] >= 0 and box["height"] >= 44, box  # shown when focused, a finger's size
    page.keyboard.press("Enter")
    assert page.evaluate(ACTIVE) == "main"
    # and on from there: the next Tab is in the content, past the top bar and crumbs
    page.keyboard.press("Tab")
    assert page.evaluate("() => !!document.activeElement.closest('main')")


def test_the_undo_question_opened_by_keyboard_takes_the_focus_and_gives_it_back(
        page, live_server, evening, keeper):
    game = start(evening, keeper, "gin")
    play(game, keeper, 2)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    undo = page.get_by_role("link", name=re.compile("Undo hand 2"))
    undo.focus()
    page.keyboard.press("Enter")
    dialog = page.locator("dialog[open]")
    expect(dialog).to_be_visible()
    assert dialog.evaluate("d => d.contains(document.activeElement)")
    expect(page.get_by_role("dialog", name=re.compile("Undo hand 2"))).to_be_focused()
    page.keyboard.press("Tab")  # on into the question: its reason, then its buttons
    assert dialog.evaluate(
        "d => d.contains(document.activeElement) && d !== document.activeElement")
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(undo).to_be_focused()
    assert game.hands.count() == 2  # only a question: nothing undone


def test_the_card_picker_names_its_cards_and_each_is_a_finger_wide(page, live_server,
                                                                  evening, keeper):
    game = start(evening, keeper, "gin")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.click("summary:has-text('Count from the cards')")
    cards = page.locator(".deck-card")
    expect(cards).to_have_count(52)
    for name in ("Ace of spades", "10 of hearts", "Queen of diamonds", "King of clubs",
                 "7 of spades", "Jack of hearts"):
        expect(page.get_by_role("button", name=name, exact=True)).to_have_count(1)
    expect(page.get_by_role("button", name="AS", exact=True)).to_have_count(0)
    assert cards.evaluate_all(SMALL) == []
    # tapped, a card goes into the field under its short name, as typed
    page.get_by_role("button", name="Ace of spades").click()
    expect(page.locator("textarea[name=t1_cards0]")).to_have_value("AS")


def test_in_a_table_game_each_tables_choices_are_named_for_it(page, live_server, evening,
                                                             keeper):
    game = start(evening, keeper, "captain7")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    for table in (1, 2, 3):
        expect(page.get_by_role("radiogroup", name=f"Who knocked at table {table}?",
                                exact=True)).to_have_count(1)
        expect(page.get_by_role("radiogroup", name=f"How at table {table}?",
                                exact=True)).to_have_count(1)
    expect(page.get_by_role("radiogroup", name="Who knocked?", exact=True)).to_have_count(0)
    # a two-player game keeps the plain words
    gin = start(evening, keeper, "gin")
    page.goto(f"{live_server.url}/games/{gin.pk}/")
    expect(page.get_by_role("radiogroup", name="Who knocked?", exact=True)).to_have_count(1)


def test_standings_headers_say_their_sort_and_table_links_are_a_finger_wide(
        page, live_server, keeper):
    club = services.table_create(name="Club", scorekeepers=[keeper])
    build(club, keeper)
    ann = club.players.get(name="Ann")
    base = f"{live_server.url}/tables/{club.pk}"
    page.goto(f"{base}/standings/")
    headers = page.locator("table.standings thead th")
    sorts = headers.evaluate_all("hs => hs.map(h => h.getAttribute('aria-sort'))")
    # as they open: one column sorts them (the money, most first), the others say none
    assert len(sorts) > 5 and sorted(sorts)[0] in ("ascending", "descending")
    assert sorts.count("none") == len(sorts) - 1, sorts
    page.goto(f"{base}/standings/?sort=-games")
    sorted_by = page.locator("table.standings thead th[aria-sort=descending]")
    expect(sorted_by).to_have_count(1)
    expect(sorted_by).to_contain_text(re.compile("games", re.I))
    expect(page.locator("table.standings thead th[aria-sort=ascending]")).to_have_count(0)
    page.goto(f"{base}/standings/?sort=games")
    expect(page.locator("table.standings thead th[aria-sort=ascending]")).to_have_count(1)
    small = {}
    for name, path, selector in (
            ("standings", f"{base}/standings/", "table.standings th a, table.standings td.who a"),
            ("book", f"{base}/book/", "table.sheet td.who a"),
            ("player", f"{live_server.url}/players/{ann.pk}/", "table.sheet td.who a"),
            ("tidy", f"{base}/tidy/", ".tidy-name")):
        page.goto(path)
        links = page.locator(selector)
        assert links.count() >= 2, name
        found = links.evaluate_all(SMALL)
        if found:
            small[name] = found
    assert small == {}
