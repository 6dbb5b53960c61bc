"""The game's tools within reach (issue 21, item 4) at 360x740: after 30 hands, from the
end of the page and from the hand form, one tap on the Tools button of the top bar shows
Undo, Stakes and rules, Print and Share, all inside the screen, without a scroll; Share
there shows the link and its QR code right there, in view; Undo there asks its question
and follows the hands saved in place; the page's own tools card shows its link where its
Share button was."""

from __future__ import annotations

import datetime
import re

import pytest
from playwright.sync_api import expect

from ledger import services
from ledger.models import ShareLink

from .helpers import duel, login, settled, shot
from .phone_games import play

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

IN_VIEW = """(el) => {
  const r = el.getBoundingClientRect();
  return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight + 0.5
    && r.left >= 0 && r.right <= window.innerWidth + 0.5
    ? 'ok' : r.top + '..' + r.bottom;
}"""


@pytest.fixture
def long_game(keeper):
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    session = services.session_create(table=table, date=datetime.date(2026, 11, 23),
                                      currency="USD", rate="0.05", created_by=keeper)
    game = services.game_start(session=session, variant="gin", players=["Sal", "Vic"],
                               started_by=keeper, setup={"first_dealer": "Sal"},
                               rules={"target": 100000})
    result = play(game, keeper, 30)
    assert len(result["hands"]) == 30
    return game


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport={"width": 360, "height": 740},
                                  device_scale_factor=1, is_mobile=True, has_touch=True)
    yield context.new_page()
    context.close()


def _tools(page):
    return page.locator("#tools")


def test_after_30_hands_the_tools_are_one_tap_away(phone, live_server, long_game):
    page = phone
    login(page, live_server.url, "keeper")
    page.goto(f"{live_server.url}/games/{long_game.pk}/")
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height > 4 * 740, height  # a long page
    for where in ("end", "form"):
        if where == "end":
            page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        else:
            page.locator("#entry").evaluate("el => el.scrollIntoView({block: 'start'})")
        y = page.evaluate("window.scrollY")
        button = _tools(page).locator("summary")
        assert button.evaluate(IN_VIEW) == "ok"
        button.click()  # the one tap
        panel = _tools(page).locator(".tools-panel")
        expect(panel).to_be_visible()
        items = [panel.get_by_role("link", name="Undo hand 30"),
                 panel.get_by_role("link", name="Stakes and rules"),
                 panel.get_by_role("link", name="Print the sheet"),
                 panel.get_by_role("button", name="Share the game")]
        for item in items:
            assert item.evaluate(IN_VIEW) == "ok", (where, item)
            assert item.evaluate("""(el) => {
              const r = el.getBoundingClientRect();
              const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
              return top === el || el.contains(top);
            }""")  # not covered by anything
            assert item.bounding_box()["height"] >= 44
        assert page.evaluate("window.scrollY") == y  # no scroll
        shot(page, f"tools-{where}-360", full_page=False)
        page.keyboard.press("Escape")
        expect(panel).to_be_hidden()

    # Undo from the menu: the same question, then hand 30 is gone
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight / 2)")
    _tools(page).locator("summary").click()
    _tools(page).get_by_role("link", name="Undo hand 30").click()
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text("Undo hand 30?")
    dialog.get_by_role("button", name="Undo hand 30").click()
    expect(page.locator(".flash")).to_contain_text("Hand 30 undone")
    assert long_game.hands.filter(voided_at=None).count() == 29


def test_a_hand_saved_in_place_moves_the_menus_undo_on(phone, live_server, long_game):
    page = phone
    login(page, live_server.url, "keeper")
    page.goto(f"{live_server.url}/games/{long_game.pk}/")
    duel(page, 1, "Sal", {0: "3", 1: "24"})
    page.get_by_role("button", name="Save hand 31").click()
    expect(page.locator(".flash")).to_contain_text("Hand 31 recorded")
    _tools(page).locator("summary").click()
    expect(_tools(page).get_by_role("link", name="Undo hand 31")).to_be_visible()
    expect(_tools(page).get_by_role("link", name="Undo hand 30")).to_have_count(0)


def test_share_from_the_menu_shows_the_link_and_qr_there(phone, live_server, long_game):
    page = phone
    login(page, live_server.url, "keeper")
    page.goto(f"{live_server.url}/games/{long_game.pk}/")
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    _tools(page).locator("summary").click()
    _tools(page).get_by_role("button", name="Share the game").click()
    link = ShareLink.objects.get(game=long_game)
    qr = _tools(page).locator(".share-qr svg")
    expect(qr).to_be_visible()
    assert qr.evaluate(IN_VIEW) == "ok"
    address = _tools(page).locator("input.copy")
    assert address.evaluate(IN_VIEW) == "ok"
    assert address.input_value().endswith(f"/s/{link.token}/")
    shot(page, "tools-share-360", full_page=False)
    # the page's own card: the same link where its Share button was, on the screen
    services.share_link_revoke(link=link)
    page.goto(f"{live_server.url}/games/{long_game.pk}/")
    share = page.locator("#actions").get_by_role("button", name="Share this game")
    share.scroll_into_view_if_needed()
    share.click()
    expect(page).to_have_url(re.compile(r"#shared-link$"))
    qr = page.locator("#actions .share-qr svg")
    expect(qr).to_be_visible()
    settled(page)
    assert qr.evaluate(IN_VIEW) == "ok"
    assert page.locator("#actions input.copy").evaluate(IN_VIEW) == "ok"
