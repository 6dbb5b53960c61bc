"""Several card tables in one screen (issue 21, item 3), at 360x740 with the keypad down:
a captain-7 hand (three tables) and a partnership-6 hand are entered with no scroll (the
page's scrollY does not move, and every field of every table is inside the screen, under
the top bar and above the Save bar, before and after typing); each row says its matchup;
the kinds offered are the core's for the game; and Oklahoma's up-card is asked first, above
the counts. (At 1280 wide each table a line: the desktop tour, test_every_screen.py.)"""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import expect

from ledger import services

from .helpers import login, settled, shot
from .phone_games import play, start

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# the whole box of the element inside the screen: under the top bar (and the score strip
# when it shows), above the form's sticky Save bar
CLEAR = """(el) => {
  const r = el.getBoundingClientRect();
  const bar = document.querySelector('#entry .savebar').getBoundingClientRect();
  const strip = document.querySelector('.score-strip');
  const top = strip && getComputedStyle(strip).display !== 'none'
    ? strip.getBoundingClientRect().bottom : 56;
  if (r.height === 0) return 'not shown';
  if (r.top < top - 0.5) return 'above the screen: ' + r.top + ' < ' + top;
  if (r.bottom > bar.top + 0.5) return 'under the Save bar: ' + r.bottom + ' > ' + bar.top;
  return 'ok';
}"""


@pytest.fixture
def session(keeper):
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    return services.session_create(table=table, date=datetime.date(2026, 11, 23),
                                   currency="USD", rate="0.05", created_by=keeper)


def _phone(browser, width=360, height=740):
    context = browser.new_context(viewport={"width": width, "height": height},
                                  device_scale_factor=1, is_mobile=width < 500,
                                  has_touch=width < 500)
    return context, context.new_page()


def _at_the_card(page, live_server, game):
    page.goto(f"{live_server.url}/games/{game.pk}/")
    # as a save leaves it: the hand's card at the top of the screen
    page.locator("#entry").evaluate("el => el.scrollIntoView({block: 'start'})")
    settled(page)
    return page.evaluate("window.scrollY")


def _players(page, i: int) -> list[str]:
    radios = page.locator(f"#entry input[name=t{i}_knocker]")
    return [radios.nth(j).get_attribute("value") for j in (0, 1)]


def _every_field_clear(page, where: str) -> None:
    names = page.locator("#entry .table-row input[type=text], #entry .table-row .seg-opt")
    assert names.count() > 0
    for k in range(names.count()):
        el = names.nth(k)
        assert el.evaluate(CLEAR) == "ok", (where, k, el.evaluate("e => e.outerHTML.slice(0, 90)"))
    assert page.get_by_role("button", name="Save hand 2").evaluate(CLEAR.replace(
        "bar.top + 0.5", "window.innerHeight + 0.5")) == "ok"


def _tap(page, name: str, value: str) -> None:
    # a tap where the field is on the screen (Playwright would scroll to it first: the
    # page's scrollY is checked after)
    page.locator(f"#entry label.seg-opt:has(input[name='{name}'][value='{value}'])").click()


@pytest.mark.parametrize("key, tables", [
    ("captain7", [("a", "knock", {0: "4", 1: "21"}), ("b", "gin", {0: "30"}),
                  ("a", "knock", {0: "2", 1: "15"})]),
    ("partnership6", [("a", "knock", {0: "5", 1: "25"}), ("b", "knock", {1: "3", 0: "19"}),
                      (None, None, {})]),
])
def test_a_three_table_hand_is_entered_with_no_scroll(browser, live_server, keeper, session,
                                                      key, tables):
    game = start(session, keeper, key)
    play(game, keeper, 1)
    context, page = _phone(browser)
    login(page, live_server.url, "keeper")
    y = _at_the_card(page, live_server, game)
    rows = page.locator("#entry fieldset.table-row")
    expect(rows).to_have_count(3)
    for i in (1, 2, 3):  # each row says who plays whom at its table, and who deals
        a, b = _players(page, i)
        legend = " ".join(rows.nth(i - 1).locator("legend").inner_text().split())
        assert legend.startswith(f"TABLE {i} {a}") or legend.startswith(f"Table {i} {a}"), legend
        assert f"v {b}" in legend and "deals" in legend.lower(), legend
        kinds = page.locator(f"#entry input[name=t{i}_kind]")
        assert [kinds.nth(j).get_attribute("value") for j in range(kinds.count())] == [
            "knock", "gin"]  # no big gin in these games' rules
    _every_field_clear(page, "opened")
    for i, (who, kind, counts) in enumerate(tables, start=1):
        a, b = _players(page, i)
        _tap(page, f"t{i}_knocker", {"a": a, "b": b, None: "-draw-"}[who])
        if kind and kind != "knock":
            _tap(page, f"t{i}_kind", kind)
        for position, value in counts.items():
            box = page.locator(f"#entry input[name=t{i}_c{position}]")
            box.click()
            page.keyboard.type(value)
            assert box.evaluate(CLEAR) == "ok", (i, position)
    expect(page.locator("#hand-preview")).not_to_be_empty()  # the preview has answered
    settled(page)
    shot(page, f"multitable-{key}-360", full_page=False)
    _every_field_clear(page, "typed")
    assert page.evaluate("window.scrollY") == y, "the page scrolled"
    page.get_by_role("button", name="Save hand 2").click()
    expect(page.locator(".flash")).to_contain_text("Hand 2 recorded")
    assert game.hands.count() == 2
    entry = game.hands.get(number=2).entry["tables"]
    assert [t.get("draw", False) for t in entry] == [False, False, who is None]
    context.close()


def test_oklahoma_asks_the_up_card_first(browser, live_server, keeper, session):
    game = start(session, keeper, "oklahoma")
    play(game, keeper, 1)
    context, page = _phone(browser)
    login(page, live_server.url, "keeper")
    _at_the_card(page, live_server, game)
    up = page.locator("#entry fieldset.upcard")
    first = page.locator("#entry form .field").first
    assert first.evaluate("el => !!el.closest('fieldset.upcard')")  # the first field
    up_box = up.bounding_box()
    for name in ("t1_knocker", "t1_c0", "t1_c1"):
        box = page.locator(f"#entry [name={name}]").first.bounding_box()
        assert box["y"] > up_box["y"] + up_box["height"] - 1, name  # below the up-card
    # the up-card, then the knock, from the first screen
    _tap(page, "up_rank", "9")
    _tap(page, "up_suit", "S")
    _tap(page, "t1_knocker", "Sal")
    for position, value in ((0, "6"), (1, "27")):
        box = page.locator(f"#entry input[name=t1_c{position}]")
        box.click()
        page.keyboard.type(value)
        assert box.evaluate(CLEAR) == "ok"  # typed in view (the page may move it there)
    expect(page.locator("#hand-preview")).not_to_be_empty()
    shot(page, "oklahoma-upcard-first-360", full_page=False)
    page.get_by_role("button", name="Save hand 2").click()
    expect(page.locator(".flash")).to_contain_text("Hand 2 recorded: Sal +42")  # spades
    assert game.hands.get(number=2).entry["upcard"] == "9S"
    context.close()
