"""After Save, the new score in view (issue 21, items 1 and 2): in every variant, at 360x740
and 1280x800, a hand saved through the page leaves the score tiles (or the compact strip) on
the screen and below the sticky top bar, the focus on the next hand's first choice, and the
hand's result in the page's polite live region. Without JavaScript (post, redirect, the
page again) the score is on the first screen too.

With SHOTS=1 each save leaves a screenshot in $SHOTS_DIR (score-in-view-KEY-WIDTH.png)."""

from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import expect

from ledger import services
from ledger.presentation.game_page import hand_spec
from ledger.selectors.games import game_result

from .helpers import login, settled, shot
from .phone_games import NAMES, next_entry, play, start

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 1,
         "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
SHOOT = os.environ.get("SHOTS") == "1"

# Where the score is: the tiles' box and the strip's, the top bar's bottom, each tile's
# number not covered (what is drawn at its middle is the number itself).
WHERE = """() => {
  const bar = document.querySelector('.topbar').getBoundingClientRect().bottom;
  const box = (el) => { if (!el) return null; const r = el.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, shown: r.height > 0 &&
            getComputedStyle(el).display !== 'none'}; };
  const seen = (el) => { const r = el.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!top && (top === el || el.contains(top)); };
  const values = [...document.querySelectorAll('#score .score-value')];
  return {bar, height: window.innerHeight,
          tiles: box(document.querySelector('#score .scoreboard')),
          strip: box(document.querySelector('.score-strip')),
          numbers: values.map(seen),
          active: document.activeElement && document.activeElement.name || null,
          activeType: document.activeElement && document.activeElement.type || null,
          live: (document.getElementById('announce') || {}).textContent || null};
}"""


@pytest.fixture
def session(keeper):
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    for name in NAMES:
        services.player_get_or_create(table=table, name=name)
    return services.session_create(table=table, currency="USD", rate="0.05", created_by=keeper)


def score_in_view(where: dict) -> bool:
    """The tiles whole on the screen below the top bar with their numbers not covered, or
    the strip shown right under the top bar."""
    tiles, strip, bar = where["tiles"], where["strip"], where["bar"]
    whole = (tiles["top"] >= bar - 0.5 and tiles["bottom"] <= where["height"]
             and all(where["numbers"]))
    pinned = strip["shown"] and strip["top"] >= bar - 0.5 and strip["bottom"] <= where["height"]
    return whole or pinned


def fill_next_hand(page, game, i: int) -> int:
    """Type the next hand of ``game`` as a scorekeeper taps it (the hand ``next_entry``
    makes); its number."""
    result = game_result(game)
    entry = next_entry(game, i)
    if game.variant == "cap-it":
        seg(page, "went_out", entry["went_out"]).click()
        for j, name in enumerate(result["players"]):
            if name in entry["points"]:
                page.fill(f"input[name=pts_{j}]", str(entry["points"][name]))
        return len(result["hands"]) + 1
    spec = hand_spec(result, result["next"])
    tables = entry["tables"] if "tables" in entry else [entry]
    if entry.get("upcard"):
        seg(page, "up_rank", entry["upcard"][:-1]).click()
        seg(page, "up_suit", entry["upcard"][-1]).click()
    for t, (duel, table) in enumerate(zip(spec["duels"], tables, strict=True), start=1):
        seg(page, f"t{t}_knocker", table["knocker"]).click()
        for pos, name in enumerate(duel["players"]):
            page.fill(f"input[name=t{t}_c{pos}]", str(table["deadwood"][name]))
    return len(result["hands"]) + 1


def seg(page, field: str, value: str):
    return page.locator(f"label.seg-opt:has(input[name='{field}'][value='{value}'])")


def first_choice(game) -> str:
    """The next hand's first choice: Oklahoma asks its up-card first (it is known before
    the deal), CAP-IT who went out, the others who knocked."""
    return {"cap-it": "went_out", "oklahoma": "up_rank"}.get(game.variant, "t1_knocker")


def save_and_look(page, game, i: int) -> dict:
    number = fill_next_hand(page, game, i)
    noun = "Round" if game.variant == "cap-it" else "Hand"
    page.get_by_role("button", name=re.compile(rf"^Save (hand|round) {number}$")).click()
    expect(page.locator("#entry .flash")).to_contain_text(f"{noun} {number} recorded")
    expect(page.get_by_role("button", name=re.compile(
        rf"^Save (hand|round) {number + 1}$"))).to_be_visible()
    settled(page)  # the strip's observer and the scroll
    where = page.evaluate(WHERE)
    where["number"], where["noun"] = number, noun
    return where


@pytest.mark.parametrize("key", ["gin", "oklahoma", "hollywood", "box", "captain7",
                                 "partnership6", "capit6"])
@pytest.mark.parametrize("size", ["360", "1280"])
def test_after_save_the_score_is_in_view_and_the_focus_on_the_next_hand(
        browser, live_server, keeper, session, key, size):
    game = start(session, keeper, key)
    play(game, keeper, 2)  # a game under way: a sheet, totals, undo below the form
    context = browser.new_context(**(PHONE if size == "360" else DESKTOP))
    page = context.new_page()
    login(page, live_server.url, "keeper")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    # the scorekeeper reaches Save at the bottom of the form, as on the phone
    page.locator("#entry .savebar button[type=submit]").scroll_into_view_if_needed()
    for i in (2, 3):
        where = save_and_look(page, game, i)
        if SHOOT:
            shot(page, f"score-in-view-{key}-{size}", full_page=False)
        assert score_in_view(where), where
        assert where["active"] == first_choice(game) and where["activeType"] == "radio", where
        assert where["live"].strip().startswith(
            f"{where['noun']} {where['number']} recorded"), where
        # the live region is polite and outside the card drawn again after each save
        live = page.locator("#announce")
        assert live.get_attribute("aria-live") == "polite"
        assert live.evaluate("el => !el.closest('#entry')")
    context.close()


def test_without_javascript_the_page_after_save_opens_on_the_score(browser, live_server,
                                                                  keeper, session):
    game = start(session, keeper, "gin")
    play(game, keeper, 2)
    context = browser.new_context(**PHONE, java_script_enabled=False)
    page = context.new_page()
    login(page, live_server.url, "keeper")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    number = fill_next_hand(page, game, 2)
    page.get_by_role("button", name=f"Save hand {number}").click()
    expect(page.locator(".flash")).to_contain_text(f"Hand {number} recorded")
    where = page.evaluate(WHERE)
    tiles = where["tiles"]
    assert tiles["top"] >= where["bar"] and tiles["bottom"] <= where["height"], where
    assert all(where["numbers"]), where
    context.close()


KNOCK = ("Sal", {"t1_c0": "3", "t1_c1": "24"}, "knock")
GIN = ("Sal", {"t1_c1": "30"}, "gin")


def test_keys_and_scrolls_after_save_for_a_knock_and_a_gin(browser, live_server, keeper,
                                                          session):
    """The figures for the note: after a knock and after a gin saved at 360x740, the Tab
    presses from where the save leaves the focus to the next hand's first choice, and the
    scrolls needed to see the new score (0: it is in view)."""
    game = start(session, keeper, "gin")
    play(game, keeper, 2)
    context = browser.new_context(**PHONE)
    page = context.new_page()
    login(page, live_server.url, "keeper")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    figures = {}
    for name, (knocker, counts, kind) in (("knock", KNOCK), ("gin", GIN)):
        number = len(game_result(game)["hands"]) + 1
        seg(page, "t1_knocker", knocker).click()
        if kind == "gin":
            seg(page, "t1_kind", "gin").click()
        for field, value in counts.items():
            page.fill(f"input[name={field}]", value)
        page.get_by_role("button", name=f"Save hand {number}").click()
        expect(page.get_by_role("button", name=f"Save hand {number + 1}")).to_be_visible()
        settled(page)
        where = page.evaluate(WHERE)
        scrolls = 0 if score_in_view(where) else 1
        tabs = 0
        while page.evaluate("() => document.activeElement && document.activeElement.name") \
                != "t1_knocker" and tabs < 40:
            page.keyboard.press("Tab")
            tabs += 1
        figures[name] = {"tabs": tabs, "scrolls to see the score": scrolls}
    context.close()
    print(figures)
    assert figures == {"knock": {"tabs": 0, "scrolls to see the score": 0},
                       "gin": {"tabs": 0, "scrolls to see the score": 0}}, figures


def test_a_hand_kept_offline_goes_on_like_a_saved_one(browser, live_server, keeper, session):
    """No connection: the hand is kept on the phone and the form goes on to the next hand
    as after a save: the score in view, the focus on the next hand's first choice."""
    game = start(session, keeper, "gin")
    play(game, keeper, 2)
    context = browser.new_context(**PHONE)
    page = context.new_page()
    login(page, live_server.url, "keeper")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    context.set_offline(True)
    expect(page.locator("#offline-banner")).to_be_visible()
    number = fill_next_hand(page, game, 2)
    page.get_by_role("button", name=f"Save hand {number}").click()
    expect(page.get_by_role("button", name=f"Save hand {number + 1}")).to_be_visible()
    expect(page.locator("#offline-queue")).to_contain_text("Not sent yet")
    settled(page)
    where = page.evaluate(WHERE)
    assert score_in_view(where), where
    assert where["active"] == "t1_knocker" and where["activeType"] == "radio", where
    context.set_offline(False)
    expect(page.locator("#announce")).to_contain_text(f"Hand {number} recorded",
                                                      timeout=15_000)
    assert game.hands.count() == number
    context.close()
