"""Issue 21 items 9, 11 and 12 in Chromium at 360x740 (and 1280x800): the shared table's
scores and money, the final label, no bare "(2)"; wide tables pinned with a scroll sign;
the standings sorted most first on the first tap, CAP-IT apart and the desktop's width
used. Screenshots: 21-pages-*.png in the shots folder."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from ledger import services

from .helpers import MONDAY, SCALE, login, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DATA = Path(__file__).resolve().parents[1] / "data"
PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": SCALE,
         "is_mobile": True, "has_touch": True}
DESK = {"viewport": {"width": 1280, "height": 800}}
MINUS = "\u2212"


def record(name: str) -> dict:
    return copy.deepcopy(json.loads((DATA / f"{name}.json").read_text()))


@pytest.fixture
def phone(browser):
    context = browser.new_context(**PHONE)
    yield context.new_page()
    context.close()


@pytest.fixture
def desk(browser):
    context = browser.new_context(**DESK)
    yield context.new_page()
    context.close()


@pytest.fixture
def club(keeper):
    """Monday at Rosa's, settled: the standard gin game (A 318 v B 116: A +2.02), CAP-IT's
    pot (A +10.00, B -4.00, C -3.00, D -3.00) and captain play for 5 (abandoned: R1, R2
    +1.80, B1, B2, B3 -1.20); then a second evening that Monday at Rosa's, a gin game in
    play."""
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    first = services.session_create(table=table, date=MONDAY, place="Rosa's",
                                    currency="USD", rate="0.01", created_by=keeper)
    games = [services.game_import(session=first, record=record(name), imported_by=keeper)
             for name in ("gin-standard-game", "cap-it-pot", "captain-five-money")]
    services.session_settle(session=first, settled_by=keeper)
    second = services.session_create(table=table, date=MONDAY, place="Rosa's",
                                     currency="USD", rate="0.01", created_by=keeper)
    playing = record("gin-standard-game")
    playing["hands"] = playing["hands"][:2]
    services.game_import(session=second, record=playing, imported_by=keeper)
    link = services.share_link_get_or_create(table=table, created_by=keeper)
    return {"table": table, "first": first, "second": second, "games": games, "link": link}


def test_the_shared_table_shows_scores_money_and_who_pays(phone, live_server, club):
    phone.goto(f"{live_server.url}/s/{club['link'].token}/")
    monday = phone.locator(f"section[data-session='{club['first'].pk}']")
    expect(monday.locator("h2")).to_have_text("Monday, November 23, 2026 · Rosa's settled")
    lines = monday.locator("li.shared-game")
    expect(lines.nth(0)).to_contain_text("A wins: A 318 · B 116 · 7 hands")
    expect(lines.nth(1)).to_contain_text("A wins: A 70 · B 85 · C 110 · D 100 · 5 rounds")
    expect(lines.nth(2)).to_contain_text("The captains were ahead: Captains 120 · "
                                         "Opponents 0 · 1 hand")
    money = {name: monday.locator(f"td.money[data-player='{name}']").inner_text()
             for name in ("A", "B", "C", "D", "R1", "R2", "B1", "B2", "B3")}
    assert money == {"A": "+12.02", "B": MINUS + "6.02", "C": MINUS + "3.00",
                     "D": MINUS + "3.00", "R1": "+1.80", "R2": "+1.80",
                     "B1": MINUS + "1.20", "B2": MINUS + "1.20", "B3": MINUS + "1.20"}
    # the settlement's payments: each loser's whole net, 15.62 in all
    pays = [" ".join(t.split()) for t in monday.locator("li.payment").all_inner_texts()]
    assert pays == ["B pays A $6.02", "C pays A $3.00", "D pays A $3.00", "B1 pays R1 $1.20",
                    "B2 pays R2 $1.20", "B3 pays R1 $0.60", "B3 pays R2 $0.60"]
    # the second evening that Monday is told apart in words, not by a bare "(2)"
    second = phone.locator(f"section[data-session='{club['second'].pk}']")
    expect(second.locator("h2")).to_have_text(
        "Monday, November 23, 2026, second evening · Rosa's")
    expect(second).to_contain_text("In progress")
    expect(second).to_contain_text("Money so far")
    assert not re.search(r"\(\d\)", phone.locator("main").inner_text())
    shot(phone, "21-pages-shared-table-360", full_page=True)


def test_a_finished_games_shared_page_says_final(phone, live_server, club):
    token = club["link"].token
    phone.goto(f"{live_server.url}/s/{token}/games/{club['games'][0].pk}/")
    expect(phone.locator(".final-mark")).to_have_text("final")
    expect(phone.locator(".live-dot")).to_have_count(0)
    assert "LIVE" not in phone.locator("main").inner_text()
    assert not re.search(r"\(\d\)", phone.locator("main").inner_text())
    shot(phone, "21-pages-shared-final-360", full_page=False)
    phone.goto(f"{live_server.url}/s/{token}/")
    phone.locator(f"section[data-session='{club['second'].pk}'] li.shared-game a").click()
    expect(phone.locator(".live-dot")).to_be_visible()
    expect(phone.locator(".final-mark")).to_have_count(0)


PINNED = """(table) => {
  const cell = table.querySelector('tbody tr td, tbody tr th');
  const wrap = table.closest('.sheet-wrap');
  const hint = wrap.previousElementSibling;
  return {position: getComputedStyle(cell).position,
          overflows: wrap.scrollWidth > wrap.clientWidth,
          hint: !!hint && hint.classList.contains('scroll-hint') && !hint.hidden
                && hint.getBoundingClientRect().height > 0};
}"""


def test_wide_tables_pin_their_first_column_and_say_they_scroll(phone, desk, live_server,
                                                                 club):
    login(phone, live_server.url, "keeper")
    table = club["table"]
    phone.goto(f"{live_server.url}/tables/{table.pk}/book/")
    evenings = phone.locator("table.book-evenings")
    state = evenings.evaluate(PINNED)
    assert state == {"position": "sticky", "overflows": True, "hint": True}
    # scrolled sideways, the evening's date stays in view at the left edge
    evenings.evaluate("(t) => { t.closest('.sheet-wrap').scrollLeft = 400; }")
    first = evenings.locator("tbody td.when").first.bounding_box()
    assert first["x"] < 40
    shot(phone, "21-pages-book-360", full_page=True)
    # the player table fits: no scroll sign
    assert phone.locator("table.book-players").evaluate(PINNED)["hint"] is False
    phone.goto(f"{live_server.url}/tables/{table.pk}/standings/")
    assert phone.locator("table.standings").first.evaluate(PINNED) == {
        "position": "sticky", "overflows": True, "hint": True}
    shot(phone, "21-pages-standings-360", full_page=True)
    # a desktop: the standings use the width, nothing to swipe
    login(desk, live_server.url, "keeper")
    desk.goto(f"{live_server.url}/tables/{table.pk}/standings/")
    wide = desk.locator("table.standings").first
    assert wide.bounding_box()["width"] > 1000
    assert wide.evaluate(PINNED)["overflows"] is False
    expect(desk.locator(".scroll-hint").first).to_be_hidden()
    shot(desk, "21-pages-standings-1280", full_page=True)


def test_standings_sort_most_first_and_keep_capit_apart(phone, live_server, club):
    login(phone, live_server.url, "keeper")
    phone.goto(f"{live_server.url}/tables/{club['table'].pk}/standings/")
    gin = phone.locator("#standings table.standings")
    capit = phone.locator("#capit-standings table.standings")
    # gin: the gin game and captain play; C and D played only CAP-IT
    expect(gin.locator("tbody td.who")).to_have_count(7)
    assert "C" not in gin.locator("tbody td.who").all_inner_texts()
    # CAP-IT apart: its four players, its rounds and penalty points a round
    expect(capit.locator("tbody tr")).to_have_count(4)
    head = [t.strip() for t in capit.locator("thead th").all_inner_texts()]
    assert head[5:] == ["ROUNDS", "ROUNDS WON", "PTS/ROUND"]
    a = capit.locator("tbody tr", has=phone.locator("td.who", has_text=re.compile("^A$")))
    assert a.locator("td").all_inner_texts()[5:] == ["5", "3", "14.0"]
    # one tap on "Gins": most gins first
    gin.locator("thead a", has_text=re.compile("^Gins")).click()
    expect(phone).to_have_url(re.compile(r"sort=-gins"))
    gins = [int(t) for t in phone.locator("#standings table.standings tbody tr td:nth-child(7)")
            .all_inner_texts()]
    assert gins == sorted(gins, reverse=True) and gins[0] > 0
    # a tap on CAP-IT's points a round: fewest first (lower wins)
    capit.locator("thead a", has_text=re.compile("Pts/round", re.I)).click()
    expect(phone).to_have_url(re.compile(r"capit-sort=points_per_hand"))
    points = [float(t) for t in phone.locator(
        "#capit-standings table.standings tbody tr td:nth-child(8)").all_inner_texts()]
    assert points == sorted(points) and points[0] == 14.0
