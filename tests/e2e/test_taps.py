"""What entering a hand costs at 360x740, counted: taps, keys and scrolls for a knock, a gin,
a draw and a CAP-IT round, from the game page as the previous save left it (saved in place:
the next hand's card at the top of the screen; the first hand from the page as it opens).
Each step checks that the hand is recorded with the core's score, so the count is of
a real entry; the counts go to $SHOTS_DIR/taps.json for comparing layouts.

How it counts: a tap on a button or field; a key for each character typed and for the
keypad's Next between count fields; a scroll when the next thing to tap is off the screen
or covered (by the sticky Save bar or the top bar). While a count field has the focus the
phone's numeric keypad is taken to cover the bottom 280 px (the viewport shrinks to 460)."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from ledger import services

from .helpers import SCALE, SHOTS, login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTH, HEIGHT, KEYPAD = 360, 740, 280

COVERED = """(el) => {
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (y < 0 || y > window.innerHeight || x < 0 || x > window.innerWidth) return true;
  const top = document.elementFromPoint(x, y);
  return !(top && (top === el || el.contains(top) || top.contains(el) ||
                   (el.control && el.control === top)));
}"""


class Counter:
    def __init__(self, page):
        self.page, self.taps, self.keys, self.scrolls = page, 0, 0, 0
        self.scrolled: list[str] = []

    def _reach(self, locator) -> None:
        if locator.evaluate(COVERED):
            self.scrolls += 1
            self.scrolled.append(str(locator))
            locator.evaluate("el => el.scrollIntoView({block: 'center'})")

    def tap(self, locator) -> None:
        self._reach(locator)
        self.taps += 1
        locator.click()

    def type_count(self, locator, text: str, *, by_next: bool) -> None:
        """Into a count field: reached with the keypad's Next (a key) or a tap."""
        if by_next:
            self.keys += 1
            locator.focus()
            if locator.evaluate(COVERED):
                locator.evaluate("el => el.scrollIntoView({block: 'center'})")  # the browser
        else:
            self.tap(locator)
        self.page.set_viewport_size({"width": WIDTH, "height": HEIGHT - KEYPAD})  # keypad up
        locator.fill(text)
        self.keys += len(text)

    def save(self, locator) -> None:
        self.tap(locator)  # with the keypad still up
        self.page.set_viewport_size({"width": WIDTH, "height": HEIGHT})

    def figures(self) -> dict:
        return {"taps": self.taps, "keys": self.keys, "scrolls": self.scrolls}


def seg(page, field: str, value: str):
    return page.locator(f"label.seg-opt:has(input[name='{field}'][value='{value}'])")


def test_taps_and_keys_for_a_knock_a_gin_a_draw_and_a_capit_round(browser, live_server,
                                                                   keeper):
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="USD", rate="0.05",
                                      created_by=keeper)
    gin = services.game_start(session=session, variant="gin", players=["Sal", "Vic"],
                              started_by=keeper, setup={"first_dealer": "Vic"})
    capit = services.game_start(session=session, variant="cap-it",
                                players=["Sal", "Vic", "Ann", "Bo"], started_by=keeper,
                                setup={"first_dealer": "Sal"}, ante="1.00")
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT},
                                  device_scale_factor=SCALE, is_mobile=True, has_touch=True)
    page = context.new_page()
    login(page, live_server.url, "keeper")
    figures = {}

    def open_game(game):
        page.goto(f"{live_server.url}/games/{game.pk}/")
        return Counter(page)

    def go_on():
        """The page as the previous save left it: saved in place, the next hand's card at
        the top of the screen (the saved hand said there), the keypad down."""
        return Counter(page)

    def saved(text: str):
        expect(page.locator(".flash")).to_contain_text(text)

    # A draw (hand 1, the game page as it opens).
    c = open_game(gin)
    c.tap(seg(page, "t1_knocker", "-draw-"))
    c.save(page.get_by_role("button", name="Save hand 1"))
    saved("Hand 1 recorded: Draw.")
    figures["draw"] = c.figures()
    scrolled = {"draw": c.scrolled}

    # A knock (hand 2, on the page the save left): Sal knocks with 3, Vic holds 24: Sal +21.
    c = go_on()
    c.tap(seg(page, "t1_knocker", "Sal"))
    c.type_count(page.locator("input[name=t1_c0]"), "3", by_next=False)
    c.type_count(page.locator("input[name=t1_c1]"), "24", by_next=True)
    c.save(page.get_by_role("button", name="Save hand 2"))
    saved("Hand 2 recorded: Sal +21.")
    figures["knock"] = c.figures()
    scrolled["knock"] = c.scrolled

    # A gin (hand 3): Sal goes gin, Vic holds 30: Sal +55 (30 and the gin bonus 25).
    c = go_on()
    c.tap(seg(page, "t1_knocker", "Sal"))
    c.tap(seg(page, "t1_kind", "gin"))
    c.type_count(page.locator("input[name=t1_c1]"), "30", by_next=False)
    c.save(page.get_by_role("button", name="Save hand 3"))
    saved("Hand 3 recorded: Sal +55.")
    figures["gin"] = c.figures()
    scrolled["gin"] = c.scrolled

    # A CAP-IT round (the second, after the first was saved): Sal went out; Vic 20, Ann 15,
    # Bo 35 left in hand.
    open_game(capit)
    seg(page, "went_out", "-nobody-").click()
    for j, value in enumerate(("5", "10", "15", "20")):
        page.fill(f"input[name=pts_{j}]", value)
    page.get_by_role("button", name="Save round 1").click()
    saved("Round 1 recorded")
    c = go_on()
    c.tap(seg(page, "went_out", "Sal"))
    c.type_count(page.locator("input[name=pts_1]"), "20", by_next=False)
    c.type_count(page.locator("input[name=pts_2]"), "15", by_next=True)
    c.type_count(page.locator("input[name=pts_3]"), "35", by_next=True)
    c.save(page.get_by_role("button", name="Save round 2"))
    saved("Round 2 recorded")
    figures["capit round"] = c.figures()
    scrolled["capit round"] = c.scrolled
    context.close()

    assert gin.hands.count() == 3 and capit.hands.count() == 2
    # Before the in-place save (each save reloaded the page, at its top): knock 3 taps, 4
    # keys, 1 scroll; gin 4/2/1; draw 2/0/0; CAP-IT round 3/8/1. Saved in place, the next
    # hand's card is on the screen as the save leaves it: no scroll.
    assert figures == {
        "draw": {"taps": 2, "keys": 0, "scrolls": 0},
        "knock": {"taps": 3, "keys": 4, "scrolls": 0},
        "gin": {"taps": 4, "keys": 2, "scrolls": 0},
        "capit round": {"taps": 3, "keys": 8, "scrolls": 0},
    }, (figures, scrolled)
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / "taps.json").write_text(json.dumps(figures, indent=1))
    print(json.dumps(figures))
