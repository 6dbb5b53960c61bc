"""Steps of the scorekeeper's flow in the browser, shared by the e2e tests.

Everything goes through the screens (taps on the segmented buttons, typed counts, the
sticky save button); only accounts are made directly, since the app has no sign-up.
"""

from __future__ import annotations

import datetime
import os
import re
import time
from pathlib import Path

from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

# Screenshots to look at are taken only when asked for: SHOTS_DIR=/tmp/shots scripts/test ...
# (a full-page picture at twice the pixels costs more than many of the tests' own steps).
SHOTS_DIR = os.environ.get("SHOTS_DIR", "")
SHOTS = Path(SHOTS_DIR or "/tmp/shots")
#: Device pixels per CSS pixel of the browser tests' phones: 2, as on a phone, when pictures
#: are taken to be looked at; else 1. The checks measure in CSS pixels, which the scale
#: does not change, and Chromium paints a quarter of the pixels (the browser tests took
#: 7% less processor time: 246 against 264 core-s).
SCALE = 2 if SHOTS_DIR else 1

# Every table and every cell within its box; the page itself never scrolls sideways.
FITS = """() => {
  const out = [];
  if (document.documentElement.scrollWidth > window.innerWidth)
    out.push('page ' + document.documentElement.scrollWidth);
  for (const t of document.querySelectorAll('table')) {
    const box = t.closest('.sheet-wrap') || t.parentElement;
    if (t.scrollWidth > box.clientWidth + 1 && !t.classList.contains('wide'))
      out.push((t.closest('section') || {}).id + ' table ' + t.scrollWidth + ' in '
               + box.clientWidth);
    for (const c of t.querySelectorAll('td, th'))
      if (c.scrollWidth > c.clientWidth + 1)
        out.push('cell "' + c.textContent.trim().slice(0, 20) + '" ' + c.scrollWidth + '>'
                 + c.clientWidth);
  }
  // anything drawn past the right edge of the screen (clipped by the page), outside the
  // boxes that scroll sideways on purpose
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.right <= window.innerWidth + 1 || el.closest('.sheet-wrap, dialog'))
      continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.position === 'fixed') continue;
    out.push('edge ' + el.tagName.toLowerCase() + '.' + el.className + ' "'
             + (el.textContent || '').trim().slice(0, 20) + '" right ' + Math.round(r.right));
  }
  // a choice whose chosen words are wider than its box (cut off: "winner deal")
  const ctx = document.createElement('canvas').getContext('2d');
  for (const sel of document.querySelectorAll('select')) {
    const option = sel.options[sel.selectedIndex];
    if (!option || sel.offsetParent === null) continue;
    const style = getComputedStyle(sel);
    ctx.font = style.fontWeight + ' ' + style.fontSize + ' ' + style.fontFamily;
    const room = sel.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
                 - 20;  // the arrow
    const wide = ctx.measureText(option.text).width;
    if (wide > room + 1)
      out.push('select ' + sel.name + ' "' + option.text + '" ' + Math.round(wide) + '>'
               + Math.round(room));
  }
  for (const el of document.querySelectorAll('.score-tile, .payment, .score-strip'))
    if (el.scrollWidth > el.clientWidth + 1)
      out.push(el.className + ' "' + el.textContent.trim().slice(0, 20) + '"');
  return out;
}"""

UNCOVERED = """(el) => {
  const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (r.top < 0 || r.bottom > window.innerHeight) return 'outside ' + r.top + '..' + r.bottom;
  const top = document.elementFromPoint(x, y);
  return (top === el || el.contains(top)) ? 'ok'
    : 'covered by ' + (top && top.outerHTML.slice(0, 80));
}"""


def shot(target: Page | Locator, name: str, *, full_page: bool = True) -> None:
    """A screenshot of a page (the whole page unless ``full_page=False``) or of one element,
    for looking at the screens: $SHOTS_DIR/NAME.png, taken only when SHOTS_DIR is set."""
    if not SHOTS_DIR:
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    if isinstance(target, Page):
        target.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)
    else:
        target.screenshot(path=str(SHOTS / f"{name}.png"))


# The page has stopped moving: the scroll position and the page's height the same over
# several animation frames in a row (a smooth scroll, an observer's scroll and a late layout
# all move one of them from one frame to the next).
SETTLED = """(frames) => new Promise((done) => {
  let last = null, still = 0;
  const tick = () => {
    const now = [scrollX, scrollY, document.documentElement.scrollHeight,
                 document.activeElement && document.activeElement.id].join();
    still = now === last ? still + 1 : 0;
    last = now;
    if (still >= frames) done(true); else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})"""


def settled(page: Page, frames: int = 5) -> None:
    """Wait until the page has stopped moving (``SETTLED``): for the scroll a Save or a tap
    starts, instead of a fixed time."""
    page.evaluate(SETTLED, frames)


def login(page: Page, base: str, username: str) -> None:
    """Logged in as ``username`` and on the home page. The session is made the way the log-in
    form makes it (Django's test client logs the user in) and handed to the browser as its
    cookie: a page load and a form post fewer than the form, for the many tests that are
    about what comes after. The log-in form itself: ``login_with_the_form``."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": base,
                               "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])
    page.goto(base + "/")
    # logged in (the account's log-out button), in whatever language the browser asks for
    expect(page.locator(".topbar form.logout button")).to_be_visible()


def login_with_the_form(page: Page, base: str, username: str, password: str = "pw") -> None:
    """Log in through the log-in page, as a person does (and on a server whose database the
    test does not share)."""
    page.goto(base + "/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button:has-text('Log in')")
    expect(page.get_by_role("heading", name="Your tables")).to_be_visible()


def create_table(page: Page, name: str, players: list[str]) -> None:
    page.fill("input[name=name]", name)
    page.fill("textarea[name=players]", "\n".join(players))
    page.click("button:has-text('Create table')")
    expect(page.get_by_role("heading", name=name, exact=True)).to_be_visible()


def start_evening(page: Page, rate: str = "0.01", currency: str = "USD") -> None:
    page.click("summary:has-text('New evening')")
    page.fill("input[name=rate]", rate)
    page.fill("input[name=currency]", currency)
    page.click("button:has-text('Start the evening')")
    expect(page.get_by_role("heading", name="Games")).to_be_visible()


def choose_game(page: Page, label: str, count: int) -> None:
    page.click("a:has-text('New game')")
    page.get_by_role("link", name=f"{label} {count} players", exact=True).click()
    expect(page.get_by_role("button", name="Start the game")).to_be_visible()


def seat(page: Page, slots: dict[str, str]) -> None:
    for field, name in slots.items():
        page.select_option(f"select[name={field}]", name)


def tap(page: Page, field: str, value: str) -> None:
    """Tap a segmented button (the label over a real radio input)."""
    page.locator(f"label.seg-opt:has(input[name='{field}'][value='{value}'])").click()


def start_game(page: Page) -> None:
    page.click("button:has-text('Start the game')")
    expect(page.locator(".entry")).to_be_visible()


def duel(page: Page, table: int, knocker: str | None, counts: dict[int, str],
         kind: str = "knock") -> None:
    """One table of a hand: who knocked (None = draw), knock/gin, the counts by position."""
    tap(page, f"t{table}_knocker", knocker or "-draw-")
    if knocker:
        tap(page, f"t{table}_kind", kind)
    for position, value in counts.items():
        page.fill(f"input[name=t{table}_c{position}]", value)


def save_hand(page: Page, number: int) -> None:
    page.get_by_role("button", name=re.compile(rf"^Save (hand|round) {number}$")).click()
    expect(page.locator(".flash")).to_contain_text(
        re.compile(rf"(Hand|Round) {number} recorded"))


def score(page: Page, key: str) -> str:
    return page.locator(f".score-tile[data-key='{key}'] .score-value").inner_text()


def money(page: Page, player: str) -> str:
    """The player's money as shown, its real minus sign (U+2212) read as "-"."""
    shown = page.locator(f"td.money[data-player='{player}']").first.inner_text()
    assert "-" not in shown, "money on a page has a real minus sign"
    return shown.replace("\u2212", "-")


def next_panel(page: Page) -> str:
    """Who deals and plays next, as the page says it: the panel, and with several tables
    each table's row of the hand form (its matchup is said there, issue 21)."""
    parts = [page.locator("#next").text_content() or ""]
    parts += page.locator("#entry .table-row legend").all_text_contents()
    return " ".join(" ".join(parts).split())

# a desktop browser, the evening's date, and a gin game of three hands (Sal 0 v 40, 2 v 30,
# 0 v 35) as a record to import
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
MONDAY = datetime.date(2026, 11, 23)
GIN = {"format": "tablestakes.game/1", "variant": "gin", "preset": "standard",
       "players": ["Sal", "Vic"], "stakes": {"rate": "0.05", "per_points": 1, "currency": "USD"},
       "setup": {"first_dealer": "Vic"}, "abandoned": False,
       "hands": [{"knocker": "Sal", "deadwood": {"Sal": 0, "Vic": 40}},
                 {"knocker": "Sal", "deadwood": {"Sal": 2, "Vic": 30}},
                 {"knocker": "Sal", "deadwood": {"Sal": 0, "Vic": 35}}]}


WORKER_STATE = """async () => {
  const registration = await navigator.serviceWorker.getRegistration();
  if (!registration) return "not registered";
  const states = ["installing", "waiting", "active"]
    .filter((name) => registration[name]).map((name) => `${name}: ${registration[name].state}`);
  return states.join(", ") || "registered, no worker";
}"""


WORKER_ACTIVE = """async () => {
  const registration = await navigator.serviceWorker.getRegistration();
  return Boolean(registration && registration.active
                 && registration.active.state === "activated");
}"""
CONTROLLED = "() => navigator.serviceWorker.controller !== null"


def worker_in_control(page: Page, timeout: float = 90_000) -> None:
    """Wait until the service worker controls ``page``. Installing it fetches every static
    file of the shell, which on a loaded two-core CI machine has taken more than 30 s.
    A page whose document was made while the worker activated is not claimed by it (its
    ``clients.claim()`` ran before the page existed): like a player's next page, the page
    opened again is. Once in CI (two workers on two cores) a page opened again right after
    the worker activated stayed without it for the whole 90 s while the worker stood
    activated: each reload now has 10 s to be taken, and another reload follows, until
    ``timeout``. When it never takes control, the failure says how far it got and how many
    times the page was opened again."""
    # (functions, not expressions: the page's CSP forbids the eval of an expression)
    deadline = time.monotonic() + timeout / 1000
    reloads = 0
    try:
        page.wait_for_function(WORKER_ACTIVE, timeout=timeout)
        while not page.evaluate(CONTROLLED):
            left = (deadline - time.monotonic()) * 1000
            if left <= 0:
                raise PlaywrightTimeout("the worker took no page")
            page.reload()
            reloads += 1
            try:
                page.wait_for_function(CONTROLLED, timeout=min(10_000, left))
            except PlaywrightTimeout:
                continue
    except Exception as error:
        raise AssertionError(
            f"the service worker did not take control: {page.evaluate(WORKER_STATE)} "
            f"({reloads} reloads)") from error


def wait_for_async(page: Page, function: str, timeout: float = 30_000) -> None:
    """Wait until the page's async ``function`` resolves truthy. Playwright's
    ``wait_for_function`` does not await a promise: an async predicate's promise is truthy at
    once, so such a wait waited for nothing (the core's worker was still starting)."""
    deadline = time.monotonic() + timeout / 1000
    while not page.evaluate(function):
        if time.monotonic() > deadline:
            raise PlaywrightTimeout(f"{function!r} still false after {timeout:.0f} ms")
        page.wait_for_timeout(100)

