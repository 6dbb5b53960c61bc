"""Issue 37, the screen's parts, on a 360x740 phone in Chromium, in English and German (and
French and Russian where a word's length is the point), measured with the boxes the browser
draws (getBoundingClientRect, scrollWidth, as FITS does):

- 37.4: over each count box of a row of several tables, its player's name, whole: the box's
  label was cut to "Punkte vo..." in 80 px, and "Aleksandr..." in English;
- 37.5: a finished game's money in the thousands inside its card, its names whole;
- 37.11: after Save of a captain-7 and a partnership-6 hand the next hand's rows and the
  Save bar on one screen; each table's report state in its row, a mark on each value a
  report filled;
- 37.12: the 52 cards of the picker on one screen between the score strip and the Save bar,
  each at least 44x44;
- 37.14: one <h1> on the home page; Escape out of the Undo question gives the focus back to
  the Tools button it came from.

Screenshots: SHOTS_DIR=... (issue37-*.png)."""

from __future__ import annotations

import datetime
import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import expect

from ledger import services
from ledger.presentation.game_page import hand_spec
from ledger.selectors.games import game_result

from .helpers import FITS, SCALE, settled, shot
from .phone_games import VARIANTS, _setup, finish, next_entry, play

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# long names first: they sit at table 1 and table 2 (the captains, the first side)
LONG = ["Aleksandra", "Maximilian", "Ann", "Bo", "Cy", "Di", "Ed"]
SAVE = {"en": "Save hand {n}", "de": "Spiel {n} speichern"}
RECORDED = {"en": "Hand {n} recorded", "de": "Spiel {n} eingetragen"}


@pytest.fixture
def session(keeper):
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    return services.session_create(table=table, date=datetime.date(2026, 11, 23),
                                   currency="USD", rate="10.00", created_by=keeper)


def _start(session, keeper, key, names=LONG):
    variant, count = VARIANTS[key]
    players = names[:count]
    return services.game_start(session=session, variant=variant, players=players,
                               started_by=keeper, setup=_setup(variant, players))


def _phone(browser, live_server, code, width=360, height=740):
    """A logged-in keeper's browser that asks for ``code``."""
    client = Client()
    client.force_login(get_user_model().objects.get(username="keeper"))
    context = browser.new_context(viewport={"width": width, "height": height},
                                  device_scale_factor=SCALE, is_mobile=width < 500,
                                  has_touch=width < 500, locale=code,
                                  service_workers="block")
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": live_server.url,
                          "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])
    return context, context.new_page()


def _players(page, i: int) -> list[str]:
    radios = page.locator(f"#entry input[name=t{i}_knocker]")
    return [radios.nth(j).get_attribute("value") for j in (0, 1)]


# -- 37.4: whose count each box is --------------------------------------------------------

# What is drawn just over the middle of a box: its words, and whether they are cut (wider
# than their own box, or than the box that clips them).
OVER = """(el) => {
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2;
  for (let y = r.top - 3; y > r.top - 40; y -= 3) {
    let top = document.elementFromPoint(x, y);
    if (!top || top === el.closest('fieldset') || top.closest('legend')) continue;
    while (top && !top.textContent.trim()) top = top.parentElement;
    if (!top) continue;
    let cut = top.scrollWidth > top.clientWidth + 1;
    for (let up = top; up && up !== document.body; up = up.parentElement)
      if (getComputedStyle(up).overflow !== 'visible' && up.scrollWidth > up.clientWidth + 1)
        cut = true;
    return {text: top.innerText.trim(), cut};
  }
  return {text: '', cut: false};
}"""


@pytest.mark.parametrize("code", ["en", "de", "fr", "ru"])
@pytest.mark.parametrize("width", [360, 1280])
def test_over_each_count_box_its_players_name_whole(browser, live_server, keeper, session,
                                                   code, width):
    game = _start(session, keeper, "captain7")
    play(game, keeper, 1)
    context, page = _phone(browser, live_server, code, width=width,
                           height=740 if width == 360 else 900)
    try:
        page.goto(f"{live_server.url}/games/{game.pk}/")
        page.locator("#entry").evaluate("el => el.scrollIntoView({block: 'start'})")
        settled(page)
        seen = []
        for i in (1, 2, 3):
            for position, name in enumerate(_players(page, i)):
                box = page.locator(f"#entry input[name=t{i}_c{position}]")
                over = box.evaluate(OVER)
                seen.append((name, over))
                assert name in over["text"] and not over["cut"], (i, name, over)
                # a screen reader still hears whose count the box is, in the page's words
                label = page.locator(f"label[for='id_t{i}_c{position}']").inner_text()
                assert name in label, label
        assert {n for n, _ in seen} >= {"Aleksandra", "Maximilian"}
        assert page.evaluate(FITS) == []
        shot(page, f"issue37-count-names-{code}-{width}", full_page=False)
    finally:
        context.close()


# -- 37.5: money in the thousands ------------------------------------------------------------

APART = """() => [...document.querySelectorAll('#money tr')].map((tr) => {
  const th = tr.querySelector('th').getBoundingClientRect();
  const td = tr.querySelector('td').getBoundingClientRect();
  const card = document.querySelector('#over').getBoundingClientRect();
  return {name: tr.querySelector('th').innerText, amount: tr.querySelector('td').innerText,
          apart: th.right <= td.left + 0.5 || th.bottom <= td.top + 0.5,
          inside: td.right <= card.right - 1 && th.left >= card.left,
          whole: tr.querySelector('th').scrollWidth <= tr.querySelector('th').clientWidth + 1
                 && tr.querySelector('td').scrollWidth <= tr.querySelector('td').clientWidth + 1};
})"""


@pytest.mark.parametrize("code", ["en", "de"])
@pytest.mark.parametrize("width", [360, 1280])
def test_money_in_the_thousands_fits_the_game_over_card(browser, live_server, keeper, session,
                                                        code, width):
    game = _start(session, keeper, "box", ["Aleksandra", "Maximilian", "Bo"])
    finish(game, keeper)
    context, page = _phone(browser, live_server, code, width=width)
    try:
        page.goto(f"{live_server.url}/games/{game.pk}/")
        lines = page.evaluate(APART)
        amounts = [line["amount"] for line in lines]
        # the rules' money: the box winner's 115 points a hand at 10.00 a point
        assert sorted(a.replace("\u2212", "-") for a in amounts) == sorted(
            {"en": ["+2,300.00", "-1,150.00", "-1,150.00"],
             "de": ["+2.300,00", "-1.150,00", "-1.150,00"]}[code]), amounts
        for line in lines:
            assert line["apart"] and line["inside"] and line["whole"], line
        assert [line["name"] for line in lines] == ["Aleksandra", "Maximilian", "Bo"]
        assert page.evaluate(FITS) == [] or all(
            p.startswith("sheet table") for p in page.evaluate(FITS)), page.evaluate(FITS)
        if width > 500:  # room for two a line
            tops = page.locator("#money tr").evaluate_all(
                "els => els.map((el) => Math.round(el.getBoundingClientRect().top))")
            assert tops[0] == tops[1] != tops[2], tops
        shot(page, f"issue37-money-{code}-{width}", full_page=False)
    finally:
        context.close()


# -- 37.11: the next hand whole after Save; the reports with their rows ------------------------

# the element's box on the screen: under the top bar and the score strip, above the Save bar
CLEAR = """(el) => {
  const r = el.getBoundingClientRect();
  const bar = document.querySelector('#entry .savebar').getBoundingClientRect();
  const strip = document.querySelector('.score-strip');
  const top = strip && getComputedStyle(strip).display !== 'none'
    ? strip.getBoundingClientRect().bottom : document.querySelector('.topbar')
      .getBoundingClientRect().bottom;
  if (r.height === 0) return 'not shown';
  if (r.top < top - 0.5) return 'above the screen: ' + r.top + ' < ' + top;
  if (r.bottom > bar.top + 0.5) return 'under the Save bar: ' + r.bottom + ' > ' + bar.top;
  return 'ok';
}"""


# the element whole on the screen (the saved hand's line waits in the Save bar)
SHOWN = CLEAR.replace("if (r.bottom > bar.top + 0.5)", "if (r.bottom > window.innerHeight)")


def _type_hand(page, game, i: int) -> None:
    result = game_result(game)
    entry = next_entry(game, i, result=result)
    spec = hand_spec(result, result["next"])
    for t, (duel, table) in enumerate(zip(spec["duels"], entry["tables"], strict=True),
                                      start=1):
        page.locator(f"#entry label.seg-opt:has(input[name='t{t}_knocker']"
                     f"[value='{table['knocker']}'])").click()
        for position, name in enumerate(duel["players"]):
            page.fill(f"#entry input[name=t{t}_c{position}]", str(table["deadwood"][name]))


@pytest.mark.parametrize("code", ["en", "de"])
@pytest.mark.parametrize("key, links", [("captain7", False), ("partnership6", False),
                                        ("captain7", True)])
def test_after_save_the_next_hand_is_whole_on_the_screen(browser, live_server, keeper, session,
                                                         code, key, links):
    game = _start(session, keeper, key)
    if links:  # the tables may report: their states are polled, none has reported yet
        services.report_links_get_or_create(game=game, created_by=keeper)
    context, page = _phone(browser, live_server, code)
    try:
        page.goto(f"{live_server.url}/games/{game.pk}/")
        for number in (1, 2):
            _type_hand(page, game, number - 1)
            page.get_by_role("button", name=SAVE[code].format(n=number)).click()
            expect(page.locator("#entry .flash")).to_contain_text(
                RECORDED[code].format(n=number))
            if links:  # the poll has answered for the new hand
                expect(page.locator("#reports li[data-state=waiting]")).to_have_count(3)
            settled(page)
            shot(page, f"issue37-saved-{key}{'-links' if links else ''}-{code}-{number}",
                 full_page=False)
            # the hand's line, every choice and box of every table, and Save: no scroll
            assert page.locator("#entry .flash").evaluate(SHOWN) == "ok"
            fields = page.locator("#entry .table-row .seg-opt, #entry .table-row input.count")
            assert fields.count() == 3 * 7, fields.count()  # 3 tables: A B draw, knock gin, 2
            for k in range(fields.count()):
                assert fields.nth(k).evaluate(CLEAR) == "ok", (
                    number, k, fields.nth(k).evaluate("e => e.outerHTML.slice(0, 90)"))
            save = page.get_by_role("button", name=SAVE[code].format(n=number + 1))
            box = save.bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= 740, box
            assert page.evaluate(FITS) == [] or all(
                p.startswith("sheet table") for p in page.evaluate(FITS))
        assert game.hands.count() == 2
    finally:
        context.close()


@pytest.mark.parametrize("code", ["en", "de"])
def test_a_tables_report_is_said_in_its_row_and_marks_what_it_filled(browser, live_server,
                                                                     keeper, session, code):
    from django.utils import translation

    with translation.override(code):
        from django.utils.translation import gettext
        reported = gettext("reported by %(who)s at %(at)s") % {
            "who": gettext("table %(n)s") % {"n": 1}, "at": ""}
        keeper_words = gettext("changed by the scorekeeper")
    game = _start(session, keeper, "captain7")
    links = services.report_links_get_or_create(game=game, created_by=keeper)
    a, b = hand_spec(game_result(game), game_result(game)["next"])[
        "duels"][0]["players"]
    services.report_submit(link=links[0], number=1,
                           values={"knocker": a, "deadwood": {a: 5, b: 30}})
    context, page = _phone(browser, live_server, code)
    try:
        page.goto(f"{live_server.url}/games/{game.pk}/")
        row = page.locator("#entry fieldset.table-row[data-table='1']")
        state = row.locator("legend .row-report")  # after the table's name: a dot, the time
        # the clock as the language writes it (CLDR): "10:40 PM" in English, "22:40" in German
        clock = r"^\d{1,2}:\d\d\s?[AP]M$" if code == "en" else r"^\d\d:\d\d$"
        expect(state).to_have_text(re.compile(clock), timeout=10_000)
        assert state.get_attribute("title").startswith(reported.strip())
        expect(page.locator("#reports li[data-report-label]").first).to_contain_text(
            reported.strip())
        expect(page.locator("#entry input[name=t1_c1]")).to_have_value("30")
        # the table's three values carry the mark; table 2's (no report) none
        marked = row.locator(".from-report")
        expect(marked).to_have_count(4)  # who knocked, how, the two counts
        assert page.locator("#entry fieldset.table-row[data-table='2'] .from-report").count() == 0
        # table 2 waits: said in the reports' card, no line in its row (three of them would
        # push table 3 under the Save bar)
        assert page.locator("#entry fieldset.table-row[data-table='2'] .row-report").count() == 0
        expect(page.locator("#reports li[data-report-label]").nth(1)).to_have_attribute(
            "data-state", "waiting")
        # the mark is drawn on the box (a dot inside its top right corner)
        mark = page.locator("#entry input[name=t1_c1]").evaluate("""(el) => {
          const field = el.closest('.field'), after = getComputedStyle(field, '::after');
          return [after.content, after.width, after.height]; }""")
        assert mark == ['""', "8px", "8px"], mark
        # the state sits with its row: on its first line, beside the table's name
        name = row.locator(".table-label").bounding_box()
        dot = state.bounding_box()
        assert abs((dot["y"] + dot["height"] / 2) - (name["y"] + name["height"] / 2)) < 4
        assert dot["x"] >= name["x"] + name["width"]
        shot(page, f"issue37-report-row-{code}", full_page=False)
        # the keeper changes a reported count: its mark goes, the row says so
        page.fill("#entry input[name=t1_c1]", "31")
        expect(state).to_have_attribute("data-state", "keeper")  # a hollow dot
        assert state.get_attribute("title") == keeper_words
        expect(marked).to_have_count(3)
        assert not page.locator("#entry input[name=t1_c1]").evaluate(
            "el => el.closest('.field').classList.contains('from-report')")
    finally:
        context.close()


# -- 37.12: the card picker on one screen ----------------------------------------------------

@pytest.mark.parametrize("code", ["en", "de"])
def test_the_52_cards_fit_one_screen_between_the_strip_and_save(browser, live_server, keeper,
                                                                session, code):
    game = _start(session, keeper, "gin")
    play(game, keeper, 1)
    context, page = _phone(browser, live_server, code)
    try:
        page.goto(f"{live_server.url}/games/{game.pk}/")
        picker = page.locator("details.cards[data-cards='1']")
        picker.locator("summary").click()
        expect(picker.locator(".deck-card")).to_have_count(52)
        # the picker's tabs (whose cards) at the top of the screen, under the score strip
        picker.locator(".picker-who").evaluate("el => el.scrollIntoView({block: 'start'})")
        settled(page)
        shot(page, f"issue37-cards-{code}", full_page=False)
        room = page.evaluate("""() => {
          const strip = document.querySelector('.score-strip');
          return {top: getComputedStyle(strip).display === 'none'
                    ? document.querySelector('.topbar').getBoundingClientRect().bottom
                    : strip.getBoundingClientRect().bottom,
                  bottom: document.querySelector('#entry .savebar').getBoundingClientRect().top};
        }""")
        cards = picker.locator(".deck-card").evaluate_all(
            "els => els.map((el) => el.getBoundingClientRect().toJSON())")
        assert min(c["width"] for c in cards) >= 44 and min(c["height"] for c in cards) >= 44
        top = min(c["top"] for c in cards)
        bottom = max(c["bottom"] for c in cards)
        assert top >= room["top"] - 0.5 and bottom <= room["bottom"] + 0.5, (top, bottom, room)
        assert page.evaluate(FITS) == []
        # a card tapped there counts: Aleksandra's first card
        picker.locator(".deck-card[data-card='AS']").click()
        expect(page.locator("[name=t1_cards0]")).to_have_value(re.compile("AS"))
    finally:
        context.close()


# -- 37.14: one h1; Escape out of the Undo question -----------------------------------------

@pytest.mark.parametrize("code", ["en", "de"])
def test_home_has_one_h1_and_escape_from_undo_returns_to_tools(browser, live_server, keeper,
                                                                session, code):
    game = _start(session, keeper, "gin")
    play(game, keeper, 2)
    context, page = _phone(browser, live_server, code)
    try:
        page.goto(f"{live_server.url}/")
        assert page.locator("h1").count() == 1
        assert page.locator(".playing").count() == 1  # the games being played are there
        page.goto(f"{live_server.url}/games/{game.pk}/")
        tools = page.locator("summary.tools-button")
        tools.click()
        page.locator("#tools a.tools-item[data-dialog]").first.click()
        dialog = page.locator("dialog[open]")
        expect(dialog).to_be_visible()
        page.keyboard.press("Escape")
        expect(dialog).to_have_count(0)
        expect(tools).to_be_focused()
        assert game.hands.count() == 2  # nothing undone
    finally:
        context.close()


def test_a_finished_game_with_cents_keeps_two_players_a_line(browser, live_server, keeper,
                                                             session):
    # small amounts: the money stays compact, two players side by side
    small = services.session_create(table=session.table, date=datetime.date(2026, 11, 24),
                                    currency="USD", rate="0.01", created_by=keeper)
    game = _start(small, keeper, "box", ["Ann", "Bo", "Cy"])
    finish(game, keeper)
    context, page = _phone(browser, live_server, "en")
    try:
        page.goto(f"{live_server.url}/games/{game.pk}/")
        rows = page.locator("#money tr").evaluate_all(
            "els => els.map((el) => Math.round(el.getBoundingClientRect().top))")
        assert rows[0] == rows[1] != rows[2], rows
    finally:
        context.close()


@pytest.mark.parametrize("code", ["en", "de"])
def test_when_every_table_has_reported_the_hand_still_fits_above_save(browser, live_server,
                                                                      keeper, session, code):
    # the usual short names: each row's matchup on one line
    game = _start(session, keeper, "captain7", ["Greta", "Hans", "Ilse", "Jon", "Kai", "Lea",
                                                "Max"])
    links = services.report_links_get_or_create(game=game, created_by=keeper)
    context, page = _phone(browser, live_server, code)
    try:
        page.goto(f"{live_server.url}/games/{game.pk}/")
        _type_hand(page, game, 0)
        page.get_by_role("button", name=SAVE[code].format(n=1)).click()
        expect(page.locator("#entry .flash")).to_contain_text(RECORDED[code].format(n=1))
        expect(page.locator("#reports li[data-state=waiting]")).to_have_count(3)
        settled(page)
        result = game_result(game)
        entry = next_entry(game, 1, result=result)
        for link, table in zip(links, entry["tables"], strict=True):
            services.report_submit(link=link, number=2, values=table)
        expect(page.locator("#entry .row-report")).to_have_count(3, timeout=10_000)
        expect(page.locator("#entry .from-report")).to_have_count(3 * 4)
        settled(page)
        shot(page, f"issue37-reported-all-{code}", full_page=False)
        # the saved hand's line has given its place in the Save bar to the preview
        expect(page.locator("#hand-preview .pv")).to_be_visible()
        fields = page.locator("#entry .table-row .seg-opt, #entry .table-row input.count, "
                              "#entry .row-report")
        assert fields.count() == 3 * 8
        for k in range(fields.count()):
            assert fields.nth(k).evaluate(CLEAR) == "ok", (
                k, fields.nth(k).evaluate("e => e.outerHTML.slice(0, 90)"))
        page.get_by_role("button", name=SAVE[code].format(n=2)).click()
        expect(page.locator("#entry .flash")).to_contain_text(RECORDED[code].format(n=2))
        assert game.hands.count() == 2
    finally:
        context.close()
