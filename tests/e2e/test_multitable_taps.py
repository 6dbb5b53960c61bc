"""What entering a multi-table hand and an Oklahoma knock costs at 360x740, counted as in
test_taps.py (a tap on a button or field; a key per character typed and per keypad Next;
a scroll when the next thing to tap is off the screen or covered): a captain-7 hand (three
tables: a knock, a gin, a knock), a partnership-6 hand (a knock, a knock, a draw) and an
Oklahoma knock (the up-card, the knocker, two counts). The page is as a save leaves it: the
hand's card at the top of the screen, the keypad down. The counts go to
$SHOTS_DIR/taps-multitable.json."""

from __future__ import annotations

import datetime
import json

import pytest
from playwright.sync_api import expect

from ledger import services

from .helpers import SCALE, SHOTS, login
from .phone_games import play, start
from .test_taps import HEIGHT, WIDTH, Counter, seg

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _at_the_card(page) -> Counter:
    page.locator("#entry").evaluate("el => el.scrollIntoView({block: 'start'})")
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    return Counter(page)


def _table(c: Counter, page, i: int, knocker: str, kind: str, counts: dict[int, str]):
    c.page.set_viewport_size({"width": WIDTH, "height": HEIGHT})  # a tap on a name: keypad down
    c.tap(seg(page, f"t{i}_knocker", knocker))
    if kind != "knock":
        c.tap(seg(page, f"t{i}_kind", kind))
    for n, (pos, value) in enumerate(counts.items()):
        c.type_count(page.locator(f"input[name=t{i}_c{pos}]"), value, by_next=n > 0)


def test_taps_for_captain_7_partnership_6_and_an_oklahoma_knock(browser, live_server, keeper):
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    session = services.session_create(table=table, date=datetime.date(2026, 11, 23),
                                      currency="USD", rate="0.05", created_by=keeper)
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT},
                                  device_scale_factor=SCALE, is_mobile=True, has_touch=True)
    page = context.new_page()
    login(page, live_server.url, "keeper")
    figures, scrolled = {}, {}

    captain = start(session, keeper, "captain7")
    play(captain, keeper, 1)
    page.goto(f"{live_server.url}/games/{captain.pk}/")
    c = _at_the_card(page)
    duels = [[page.locator(f"input[name=t{i}_knocker]").nth(j).get_attribute("value")
              for j in (0, 1)] for i in (1, 2, 3)]
    _table(c, page, 1, duels[0][0], "knock", {0: "4", 1: "21"})
    _table(c, page, 2, duels[1][1], "gin", {0: "30"})
    _table(c, page, 3, duels[2][0], "knock", {0: "2", 1: "15"})
    c.save(page.get_by_role("button", name="Save hand 2"))
    expect(page.locator(".flash")).to_contain_text("Hand 2 recorded")
    figures["captain 7"], scrolled["captain 7"] = c.figures(), c.scrolled

    partners = start(session, keeper, "partnership6")
    play(partners, keeper, 1)
    page.goto(f"{live_server.url}/games/{partners.pk}/")
    c = _at_the_card(page)
    duels = [[page.locator(f"input[name=t{i}_knocker]").nth(j).get_attribute("value")
              for j in (0, 1)] for i in (1, 2, 3)]
    _table(c, page, 1, duels[0][0], "knock", {0: "5", 1: "25"})
    _table(c, page, 2, duels[1][1], "knock", {1: "3", 0: "19"})
    c.page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    c.tap(seg(page, "t3_knocker", "-draw-"))
    c.save(page.get_by_role("button", name="Save hand 2"))
    expect(page.locator(".flash")).to_contain_text("Hand 2 recorded")
    figures["partnership 6"], scrolled["partnership 6"] = c.figures(), c.scrolled

    oklahoma = start(session, keeper, "oklahoma")
    play(oklahoma, keeper, 1)
    page.goto(f"{live_server.url}/games/{oklahoma.pk}/")
    c = _at_the_card(page)
    c.tap(seg(page, "up_rank", "9"))
    c.tap(seg(page, "up_suit", "S"))
    _table(c, page, 1, "Sal", "knock", {0: "6", 1: "27"})
    c.save(page.get_by_role("button", name="Save hand 2"))
    expect(page.locator(".flash")).to_contain_text("Hand 2 recorded: Sal +42")  # spades double
    figures["oklahoma knock"], scrolled["oklahoma knock"] = c.figures(), c.scrolled
    context.close()

    assert captain.hands.count() == partners.hands.count() == oklahoma.hands.count() == 2
    # Before the compact rows and the up-card first (main at 94ae351, counted the same way):
    # captain 7: 8 taps, 10 keys, 2 scrolls; partnership 6: 6, 8, 1; Oklahoma knock: 5, 4, 2.
    # The taps and keys are the hand's own choices and numbers; the scrolls are gone.
    assert figures == {
        "captain 7": {"taps": 8, "keys": 10, "scrolls": 0},
        "partnership 6": {"taps": 6, "keys": 8, "scrolls": 0},
        "oklahoma knock": {"taps": 5, "keys": 4, "scrolls": 0},
    }, (figures, scrolled)
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / "taps-multitable.json").write_text(json.dumps({"figures": figures,
                                                             "scrolled": scrolled}, indent=1))
    print(json.dumps(figures))
    print(json.dumps(scrolled))
