"""The hand form with the phone's keypad up (Chromium at 360x420: what is left of a 360x740
screen under the keypad): every count box of every table is reachable and, once focused and
typed in, in view and not under the sticky Save bar, even as the preview under it grows;
the score is shown once on the first screen (tiles at the top, the compact strip only once
they have scrolled away). (A settled evening's Games card with no empty gap: the phone tour,
test_every_screen.py.)"""

from __future__ import annotations

import datetime
import re

import pytest
from playwright.sync_api import expect

from ledger import services

from .helpers import UNCOVERED, login, shot
from .phone_games import play, start

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

KEYPAD_UP = {"width": 360, "height": 420}

# Not covered by the Save bar (nor by the top bar): the whole box, not only its middle.
CLEAR_OF_BARS = """(el) => {
  const r = el.getBoundingClientRect();
  const bar = el.closest('form').querySelector('.savebar').getBoundingClientRect();
  const top = document.querySelector('.topbar').getBoundingClientRect();
  const strip = document.querySelector('.score-strip');
  const stripBottom = strip && getComputedStyle(strip).display !== 'none'
    && getComputedStyle(strip).visibility !== 'hidden'
    ? strip.getBoundingClientRect().bottom : top.bottom;
  const ceiling = Math.max(top.bottom, stripBottom);
  if (r.bottom > bar.top + 0.5) return 'under the Save bar: ' + r.bottom + ' > ' + bar.top;
  if (r.top < ceiling - 0.5) return 'under the top: ' + r.top + ' < ' + ceiling;
  return 'ok';
}"""

# Each answer htmx has put in place (the hand preview), with the values its request sent.
WATCH_SETTLES = """() => {
  window.settled = [];
  document.addEventListener('htmx:afterSettle', (e) => {
    const config = e.detail.requestConfig;
    window.settled.push(config && config.formData ? Object.fromEntries(config.formData) : {});
  });
}"""
SETTLED_WITH = "([name, value]) => window.settled.some((sent) => sent[name] === value)"
NEXT_FRAME = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


@pytest.fixture
def session(keeper):
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    return services.session_create(table=table, date=datetime.date(2026, 11, 23),
                                   currency="USD", rate="0.05", created_by=keeper)


def _page(browser, live_server, viewport):
    context = browser.new_context(viewport=viewport, device_scale_factor=1, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    login(page, live_server.url, "keeper")
    return context, page


@pytest.mark.parametrize("key", ["captain5", "captain7", "partnership6", "capit6"])
def test_every_count_box_is_reachable_and_clear_of_the_save_bar(browser, live_server, session,
                                                               keeper, key):
    game = start(session, keeper, key)
    play(game, keeper, 2)
    context, page = _page(browser, live_server, KEYPAD_UP)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.evaluate(WATCH_SETTLES)
    boxes = page.locator("#entry input.count")
    n = boxes.count()
    assert n == {"captain5": 4, "captain7": 6, "partnership6": 6, "capit6": 6}[key]
    if key == "capit6":  # who went out: the preview then speaks
        page.locator("label.seg-opt:has(input[name='went_out'])").first.click()
    for j in range(1, n // 2 + 1 if key != "capit6" else 1):  # who knocked at every table
        page.locator(f"label.seg-opt:has(input[name='t{j}_knocker'])").first.click()
    for i in range(n):
        box = boxes.nth(i)
        if not box.is_visible() or not box.is_enabled():
            continue  # CAP-IT: who went out has no points to type
        box.click()  # a tap: refused by Playwright if something covers the box
        assert page.evaluate("document.activeElement.name") == box.get_attribute("name")
        assert box.evaluate(CLEAR_OF_BARS) == "ok", (i, box.get_attribute("name"))
        page.keyboard.type(str(20 + i))
        # the preview of what was typed answers and is put in place (the Save bar may grow,
        # its size is observed and the field revealed before the next frame is drawn)
        page.wait_for_function(SETTLED_WITH, arg=[box.get_attribute("name"), str(20 + i)])
        page.evaluate(NEXT_FRAME)
        assert box.evaluate(CLEAR_OF_BARS) == "ok", (i, box.get_attribute("name"), "typed")
        assert box.evaluate(UNCOVERED) == "ok"
    expect(page.locator("#hand-preview")).not_to_be_empty()
    shot(page, f"keypad-{key}", full_page=False)
    # and with focus moved by the keyboard's "next" key (Tab), not by a tap
    page.goto(f"{live_server.url}/games/{game.pk}/")
    boxes.first.focus()
    for i in range(1, n):
        page.evaluate("""(name) => document.querySelector('input[name=' + name + ']').focus()""",
                      boxes.nth(i).get_attribute("name"))
        assert boxes.nth(i).evaluate(CLEAR_OF_BARS) == "ok", (i, "focus")
    context.close()


SCORES_SHOWN = """() => {
  // each score as drawn and visible on the first screen: tiles and strip items
  const seen = [];
  const visible = (el) => {
    const r = el.getBoundingClientRect(), s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < window.innerHeight
      && s.visibility !== 'hidden' && s.display !== 'none'
      && (!el.closest('.score-strip')
          || getComputedStyle(el.closest('.score-strip')).display !== 'none');
  };
  for (const el of document.querySelectorAll('.score-tile .score-name, .strip-item .strip-name'))
    if (visible(el)) seen.push(el.textContent.trim());
  return seen;
}"""


@pytest.mark.parametrize("key", ["gin", "hollywood", "captain5", "capit4", "partnership6"])
def test_the_score_is_shown_once_on_the_first_screen(browser, live_server, session, keeper,
                                                     key):
    game = start(session, keeper, key)
    play(game, keeper, 2)
    context, page = _page(browser, live_server, {"width": 360, "height": 740})
    page.goto(f"{live_server.url}/games/{game.pk}/")
    shown = page.evaluate(SCORES_SHOWN)
    tiles = page.locator(".score-tile .score-name").all_inner_texts()
    assert shown == tiles and len(set(shown)) == len(shown), shown
    # scrolled down to the last table's counts (the keypad up): the strip keeps the score
    page.set_viewport_size(KEYPAD_UP)
    page.locator("#entry input[name$=_c1], #entry input[name^=pts_]").last.focus()
    expect(page.locator("html")).to_have_class(re.compile(r"\bscore-away\b"))
    strip = page.locator(".score-strip")
    expect(strip).to_be_visible()
    assert strip.evaluate("(el) => el.getBoundingClientRect().top") >= 55
    names = page.locator(".strip-item .strip-name").all_inner_texts()
    assert names == tiles
    context.close()


@pytest.mark.parametrize("form", ["correction", "settings", "start"])
def test_the_other_forms_with_a_save_bar_keep_the_field_clear(browser, live_server, session,
                                                              keeper, form):
    """The correction of a captain-7 hand (three tables and the reason), the stakes and
    rules of a game, the start of a 7-player game: each field typed in, keypad up."""
    game = start(session, keeper, "captain7")
    play(game, keeper, 2)
    for name in ("Sal", "Vic", "Ann", "Bo", "Cy", "Di", "Ed"):
        services.player_get_or_create(table=session.table, name=name)
    context, page = _page(browser, live_server, KEYPAD_UP)
    url = {"correction": f"/games/{game.pk}/hands/2/fix/",
           "settings": f"/games/{game.pk}/settings/",
           "start": f"/sessions/{session.pk}/games/new/captain/7/"}[form]
    page.goto(live_server.url + url)
    fields = page.locator("form.has-savebar input[type=text]:visible, "
                          "form.has-savebar input:not([type]):visible")
    n = fields.count()
    assert n >= 5
    for i in range(n):
        field = fields.nth(i)
        field.click()
        assert field.evaluate(CLEAR_OF_BARS) == "ok", (form, i, field.get_attribute("name"))
    context.close()


def test_after_a_hand_saved_in_place_the_score_is_still_shown_once(browser, live_server,
                                                                   session, keeper):
    """The score tiles swapped in place by the saved hand's answer: the strip stays away
    while they are on the screen, and the Save bar of the new form is measured."""
    game = start(session, keeper, "captain5")
    play(game, keeper, 2)
    context, page = _page(browser, live_server, {"width": 360, "height": 740})
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.evaluate("window.notReloaded = true")
    spec = page.locator("#entry fieldset.duel")
    for j in range(1, spec.count() + 1):
        page.locator(f"label.seg-opt:has(input[name='t{j}_knocker'])").first.click()
        page.fill(f"input[name=t{j}_c0]", "3")
        page.fill(f"input[name=t{j}_c1]", str(20 + j))
    page.get_by_role("button", name="Save hand 3").click()
    expect(page.get_by_role("button", name="Save hand 4")).to_be_visible()
    page.evaluate("window.scrollTo(0, 0)")
    expect(page.locator("html")).not_to_have_class(re.compile(r"\bscore-away\b"))
    page.evaluate(NEXT_FRAME)
    shown = page.evaluate(SCORES_SHOWN)
    tiles = page.locator(".score-tile .score-name").all_inner_texts()
    assert shown == tiles, shown
    bar = page.locator("#entry .savebar").evaluate("(el) => el.getBoundingClientRect().height")
    padding = page.evaluate("getComputedStyle(document.documentElement)"
                            ".getPropertyValue('--savebar-h')")
    assert abs(float(padding.replace("px", "")) - bar) <= 1, (padding, bar)
    context.close()
