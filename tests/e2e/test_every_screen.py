"""Every screen a user meets, in Chromium at 360x740 (and 1280 wide): nothing wider than the
phone, no table or cell wider than its box, nothing drawn past the screen's edge (FITS).

The same tour makes the screenshots to look at: ``scripts/shots-screens`` runs it with
SCREENS_SHOTS=1 and puts, for each screen, its first screen and its whole page at 360 px
and the whole page at 1280 px (and the game and evening pages in dark mode) in
/tmp/shots-screens/ (SCREENS_DIR). Without SCREENS_SHOTS only the checks run."""

from __future__ import annotations

import datetime
import functools
import json
import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from ledger import services
from ledger.models import ShareLink
from tests.ledger.book_scenario import build

from .axe import audited, serious_findings
from .helpers import DESKTOP, FITS, GIN, MONDAY, login
from .phone_games import NAMES, VARIANTS, finish, play, start

# Every field to type in is styled like the others: thumb-sized (44 px and more) and the
# width of its field (an unstyled <input type=email> was 150 px wide and 20 px high).
FIELDS_STYLED = """() => {
  const out = [];
  for (const el of document.querySelectorAll('input, select, textarea')) {
    if (['hidden', 'checkbox', 'radio', 'submit'].includes(el.type) || el.offsetParent === null
        || el.closest('.seg-opt, details:not([open])')) continue;
    const r = el.getBoundingClientRect();
    const field = el.closest('.field') || el.parentElement;
    if (r.height < 43.5) out.push(el.name + ' ' + Math.round(r.height) + ' px high');
    if (el.closest('.field') && r.width < field.getBoundingClientRect().width * 0.6)
      out.push(el.name + ' ' + Math.round(r.width) + ' px wide');
  }
  // fields side by side: their boxes on one line, whatever their labels
  for (const grid of document.querySelectorAll('.row2, .grid2, .counts, .row3')) {
    const rows = {};
    for (const child of grid.children) {
      const box = child.querySelector('input:not([type=hidden]):not([type=radio]), select');
      if (!box || box.offsetParent === null || box.closest('details:not([open])')) continue;
      const top = Math.round(child.getBoundingClientRect().top);
      (rows[top] = rows[top] || []).push(box.getBoundingClientRect().top);
    }
    for (const tops of Object.values(rows))
      if (Math.max(...tops) - Math.min(...tops) > 2)
        out.push('boxes not in line in ' + grid.className + ': '
                 + tops.map(Math.round).join(', '));
  }
  return out;
}"""

# Text readable on what is behind it: a contrast of 4.5:1 (3:1 for large text, WCAG AA),
# the background being the nearest one drawn (no image behind text here).
CONTRAST = """() => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const behind = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0.5)) return c.slice(0, 3);
    }
    return rgb(getComputedStyle(document.body).backgroundColor).slice(0, 3);
  };
  const out = [];
  for (const el of document.body.querySelectorAll('*')) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || el.offsetParent === null || el.closest('svg, dialog:not([open])')) continue;
    const s = getComputedStyle(el);
    if (s.visibility === 'hidden' || parseFloat(s.opacity) < 0.9) continue;
    const a = lum(rgb(s.color)), b = lum(behind(el));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const size = parseFloat(s.fontSize), bold = parseInt(s.fontWeight) >= 700;
    const need = (size >= 24 || (bold && size >= 18.66)) ? 3 : 4.5;
    if (ratio < need - 0.05)
      out.push(el.tagName.toLowerCase() + '.' + el.className + ' "'
               + el.textContent.trim().slice(0, 24) + '" ' + ratio.toFixed(2));
  }
  return out;
}"""

# A wide sheet (CAP-IT with six players' columns) scrolls sideways inside its box when it is
# wider than the phone, its first column and its header pinned, and says so (the box's class
# and a hint, shown only while it is wider).
WIDE_SHEET = """() => {
  const t = document.querySelector('#sheet table.sheet');
  const wrap = t.closest('.sheet-wrap');
  const first = t.querySelector('tbody td');
  return {scrolls: wrap.scrollWidth > wrap.clientWidth,
          sticky: getComputedStyle(first).position,
          head: getComputedStyle(t.querySelector('thead th')).position,
          signalled: wrap.classList.contains('scrolls'),
          hint: !!document.querySelector('#sheet .scroll-hint'),
          hintShown: !!document.querySelector('#sheet .scroll-hint:not([hidden])')};
}"""
#: the sheets too wide for a phone, which scroll sideways (the others fit)
SCROLLING = {"capit6"}
PINNED = {"sticky": "sticky", "head": "sticky", "signalled": True, "hint": True}
#: The body's background in each colour scheme (a dark phone that drew the light page would
#: still pass the contrast checks).
BACKGROUND = {"light": "rgb(243, 245, 244)", "dark": "rgb(14, 20, 17)"}

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SHOOT = os.environ.get("SCREENS_SHOTS") == "1"
OUT = Path(os.environ.get("SCREENS_DIR", "/tmp/shots-screens"))
PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 1,
         "is_mobile": True, "has_touch": True}
#: The tours look at what each screen shows, not at how it reached the phone: no service
#: worker (test_offline.py and tests/production/test_service_worker.py test it). With one,
#: every page of a tour went through its fetch handler and was copied into its cache: 8% of
#: the tours' processor time.
NO_WORKER = {"service_workers": "block"}
START_FORMS = [("gin", 2), ("oklahoma", 2), ("hollywood", 2), ("box", 3), ("captain", 3),
               ("captain", 5), ("captain", 7), ("partnership", 4), ("partnership", 6),
               ("cap-it", 4), ("cap-it", 6)]


@pytest.fixture
def world(django_user_model):
    """A table with an open evening (a running and a finished game of every variant), a
    settled evening, share links, and a second table with a book of four evenings."""
    keeper = django_user_model.objects.create_user("keeper", password="pw")
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    for name in NAMES:
        services.player_get_or_create(table=table, name=name)
    settled = services.session_create(table=table, date=MONDAY - datetime.timedelta(days=7),
                                      currency="USD", rate="0.05", created_by=keeper)
    settled_game = services.game_import(session=settled, record=GIN, imported_by=keeper)
    services.session_settle(session=settled, settled_by=keeper)
    evening = services.session_create(table=table, date=MONDAY, currency="USD", rate="0.05",
                                      created_by=keeper)
    running, over, results = {}, {}, {}
    for key in VARIANTS:
        over[key] = start(evening, keeper, key)
        results[key] = finish(over[key], keeper)
    for key in VARIANTS:
        running[key] = start(evening, keeper, key)
        play(running[key], keeper, 3 if key.startswith("capit") else 6)
    table_link = ShareLink.objects.create(table=table, created_by=keeper)
    game_link = ShareLink.objects.create(table=table, game=over["captain5"], created_by=keeper)
    club = services.table_create(name="Club", scorekeepers=[keeper])
    build(club, keeper)
    return {"keeper": keeper, "table": table, "evening": evening, "settled": settled,
            "settled_game": settled_game, "running": running, "over": over,
            "results": results,
            "table_link": table_link, "game_link": game_link, "club": club}


def screens(world) -> list[tuple[str, str, object]]:
    """(name, path, what to do once there) of every screen, logged in."""
    table, evening, club = world["table"], world["evening"], world["club"]
    ann = club.players.get(name="Ann")
    gin = world["running"]["gin"]
    out = [("home", "/", None), ("table", f"/tables/{table.pk}/", None),
           ("evening", f"/sessions/{evening.pk}/", None),
           ("evening-settled", f"/sessions/{world['settled'].pk}/", None),
           ("game-new", f"/sessions/{evening.pk}/games/new/", None)]
    for variant, count in START_FORMS:
        out.append((f"start-{variant}{count}",
                    f"/sessions/{evening.pk}/games/new/{variant}/{count}/", None))
    out.append(("start-gin2-settings", f"/sessions/{evening.pk}/games/new/gin/2/",
                lambda page: page.click("summary:has-text('Adjust settings')")))
    for key in VARIANTS:
        out.append((f"game-{key}-running", f"/games/{world['running'][key].pk}/", None))
        out.append((f"game-{key}-over", f"/games/{world['over'][key].pk}/", None))
    out += [
        ("game-settled", f"/games/{world['settled_game'].pk}/", None),
        ("correction", f"/games/{gin.pk}/hands/2/fix/", None),
        ("correction-captain5", f"/games/{world['running']['captain5'].pk}/hands/1/fix/",
         None),
        ("undo-dialog", f"/games/{gin.pk}/",
         _open_dialog(re.compile("Undo hand"))),
        ("undo-page", f"/games/{gin.pk}/hands/undo/", None),
        ("settle-dialog", f"/sessions/{club.sessions.order_by('-date').first().pk}/",
         _open_dialog("Settle up")),
        ("revoke-dialog", f"/tables/{table.pk}/",
         _open_dialog("Revoke link")),
        ("settings", f"/games/{gin.pk}/settings/", None),
        ("settings-over", f"/games/{world['over']['captain5'].pk}/settings/", None),
        ("book", f"/tables/{club.pk}/book/", None),
        ("player", f"/players/{ann.pk}/", None),
        ("standings", f"/tables/{club.pk}/standings/", None),
        ("tidy", f"/tables/{club.pk}/tidy/", None),
        ("not-found", "/games/424242/", None),
    ]
    return out


def phone_checks(world) -> dict:
    """screen -> what the phone tour checks there besides the checks of every screen: each
    game's sheet fits the phone (only CAP-IT 6 scrolls sideways, pinned and saying so; the
    partnership 6 and captain 7 sheets score two sides and fit like the rest); a finished
    game's winner and money stand on the first screen, each player's amount the core's; a
    settled evening and its game offer nothing that changes them; the three presets' words
    stay whole; the error pages say what happened and lead home."""
    checks = {}
    for key in VARIANTS:
        checks[f"game-{key}-running"] = functools.partial(_sheet_fits, key)
        checks[f"game-{key}-over"] = functools.partial(_over_on_first_screen, key,
                                                       world["results"][key])
    settled = world["settled"].date
    checks["game-settled"] = functools.partial(_settled_game, settled)
    checks["evening-settled"] = _settled_evening
    checks["start-gin2"] = _presets_whole
    checks["share-gone"] = functools.partial(_says, heading="This link no longer works")
    checks["not-found"] = functools.partial(_says, heading="Nothing here", link="Your tables")
    return checks


def _count(page, words: str) -> int:
    return page.locator("a, button, summary").filter(has_text=words).count()


def _settled_game(date, page) -> list[str]:
    """The settled evening's game (the GIN record, which Sal wins): no undo, fix, stakes,
    next game or abandon; "Same players again" (which asks before a new evening) is."""
    over = page.locator(".over").inner_text()
    said = f"The evening of {date:%A, %B} {date.day}, {date.year} is settled"
    found = [f"'.over' says {over!r}" for words in ("Sal wins.", said) if words not in over]
    found += [f"offers {words!r}" for words in ("Undo", "Stakes and rules", "Next game",
                                                "Abandon") if _count(page, words)]
    if page.locator("a.fix").count():
        found.append("offers to fix a hand")
    if not page.get_by_role("link", name="Same players again").is_visible():
        found.append("no 'Same players again'")
    return found


def _settled_evening(page) -> list[str]:
    found = [f"offers {words!r}" for words in ("New game", "Settle up") if _count(page, words)]
    # its games' card ends with its last game: no empty row where the actions were
    card = page.locator("section.card", has=page.get_by_role("heading", name="Games"))
    gap = card.evaluate("""(card) => {
      const last = card.lastElementChild.getBoundingClientRect();
      return card.getBoundingClientRect().bottom - last.bottom;
    }""")
    if gap > 17:  # the card's own padding (1rem)
        found.append(f"a gap of {gap} px at the foot of the games' card")
    return found


def desktop_checks() -> dict:
    """screen -> what the desktop tour checks there besides the checks of every screen: a
    captain-7 hand's three tables each on one line (who knocked, how, the two counts)."""
    return {"game-captain7-running": _each_table_one_line}


def _each_table_one_line(page) -> list[str]:
    found = []
    for i in (1, 2, 3):
        bottoms = {round(page.locator(f"#entry [name={name}]").first.evaluate(
            "el => (el.closest('.seg-opt') || el).getBoundingClientRect().bottom"))
            for name in (f"t{i}_knocker", f"t{i}_kind", f"t{i}_c0", f"t{i}_c1")}
        if max(bottoms) - min(bottoms) > 2:
            found.append(f"table {i} on more than one line: {sorted(bottoms)}")
    return found


def _presets_whole(page) -> list[str]:
    """'Standard' wrapped as 'Standar / d' at 360 px: the three presets' words, one line each,
    are as high as each other."""
    heights = {value: page.locator(f"label.seg-opt:has(input[name=preset][value={value}]) span")
               .bounding_box()["height"] for value in ("standard", "classic", "simple")}
    return [] if len(set(heights.values())) == 1 else [f"preset words wrap: {heights}"]


def _says(page, heading: str, link: str | None = None) -> list[str]:
    found = [] if page.get_by_role("heading", name=heading).is_visible() \
        else [f"no heading {heading!r}"]
    if link and not page.get_by_role("link", name=link).is_visible():
        found.append(f"no link {link!r}")
    return found


def _sheet_fits(key: str, page, *, wider: bool = False) -> list[str]:
    """The sheet fits, or (a wide one) scrolls pinned and says so while it is wider than the
    phone, which it must be when ``wider`` (a finished game's sheet, its numbers long)."""
    if key in SCROLLING:
        wide = page.evaluate(WIDE_SHEET)
        pinned = {k: wide[k] for k in PINNED}
        if pinned != PINNED or wide["hintShown"] != wide["scrolls"] \
                or (wider and not wide["scrolls"]):
            return [f"the wide sheet: {wide}"]
        return []
    return [f"{what} on a sheet that fits" for what in ("#sheet .scroll-hint",
                                                        "#sheet table.wide")
            if page.locator(what).count()]


def _over_on_first_screen(key: str, result: dict, page) -> list[str]:
    found = _sheet_fits(key, page, wider=True)
    over = page.locator("#over")
    if "Game over" not in over.inner_text():
        found.append("no 'Game over'")
    winner = result["winner"]
    if isinstance(winner, str) and winner.lower() not in \
            over.locator(".winner").inner_text().lower():
        found.append(f"the winner {winner} not named")
    box = page.locator("#money").bounding_box()
    if box is None or box["y"] + box["height"] > PHONE["viewport"]["height"]:
        found.append(f"the money is not on the first screen: {box}")
    shown = [page.locator(f"#money [data-player='{name}']").inner_text()
             .replace("\u2212", "-").lstrip("+") for name in result["money"]]
    if shown != [str(value).lstrip("+") for value in result["money"].values()]:
        found.append(f"money {shown} is not the core's {result['money']}")
    payments = page.locator("#money .payment").count()
    if result["payments"] and payments != len(result["payments"]):
        found.append(f"{payments} payments shown, the core has {len(result['payments'])}")
    return found


def _open_dialog(link):
    """Tap the link that opens a question in a dialog, and wait for it to be open."""
    def then(page) -> None:
        page.get_by_role("link", name=link).click()
        expect(page.locator("dialog[open]")).to_be_visible()
    return then


def public_screens(world) -> list[tuple[str, str, object]]:
    """Screens without an account: share pages, accounts, error and offline pages."""
    table_link, game_link = world["table_link"], world["game_link"]
    captain5 = world["over"]["captain5"]
    running = world["running"]["capit4"]
    return [
        ("share-table", f"/s/{table_link.token}/", None),
        ("share-game-over", f"/s/{table_link.token}/games/{captain5.pk}/", None),
        ("share-game-running", f"/s/{table_link.token}/games/{running.pk}/", None),
        ("share-one-game", f"/s/{game_link.token}/", None),
        ("share-gone", "/s/not-a-token/", None),
        ("login", "/accounts/login/", None),
        ("signup", "/accounts/signup/", None),
        ("reset", "/accounts/password_reset/", None),
        ("offline", "/offline/", None),
        ("csrf-403", "/accounts/login/", _post_without_token),
    ]


def _post_without_token(page) -> None:
    page.evaluate("document.querySelector('input[name=csrfmiddlewaretoken]').remove()")
    page.fill("input[name=username]", "keeper")
    page.fill("input[name=password]", "pw")
    page.click("button:has-text('Log in')")
    expect(page.get_by_role("heading", name=re.compile("."))).to_be_visible()


def _visit(page, base: str, name: str, path: str, then, *, width: str, scheme: str,
           problems: dict, audit: dict | None = None, check=None) -> None:
    response = page.goto(base + path)
    assert response is not None and response.status < 500, (name, response and response.status)
    if then is not None:
        then(page)
    page.wait_for_load_state("load")
    found = page.evaluate(FITS) + page.evaluate(FIELDS_STYLED) + page.evaluate(CONTRAST)
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    if background != BACKGROUND[scheme]:
        found.append(f"{scheme} page drawn on {background}")
    if check is not None:
        found += check(page)
    if found:
        problems[f"{name}-{width}"] = found[:6]
    if audit is not None:
        findings = serious_findings(page)
        if findings:
            audit[name] = findings
    if SHOOT:
        OUT.mkdir(parents=True, exist_ok=True)
        if width == "360":
            page.screenshot(path=str(OUT / f"{name}-360.png"))
            page.screenshot(path=str(OUT / f"{name}-360-full.png"), full_page=True)
        else:
            page.screenshot(path=str(OUT / f"{name}-{width}.png"), full_page=True)


def _tour(browser, base: str, world, options: dict, width: str, problems: dict,
          scheme: str = "light", only=None, audit: dict | None = None,
          checks: dict | None = None) -> int:
    """Visit the screens (``only`` those named); with ``audit`` axe's serious and critical
    findings go there (the context then lets the audit's script past the CSP); ``checks``:
    screen -> a further check of it (a list of what is wrong). Returns how many screens
    were visited."""
    checks = checks or {}
    context = browser.new_context(**options, **NO_WORKER, color_scheme=scheme,
                                  bypass_csp=audit is not None)
    if audit is not None:
        audited(context)
    page = context.new_page()
    visited = 0
    for name, path, then in public_screens(world):
        if only is None or name in only:
            _visit(page, base, name + ("-dark" if scheme == "dark" else ""), path, then,
                   width=width, scheme=scheme, problems=problems, audit=audit,
                   check=checks.get(name))
            visited += 1
    login(page, base, "keeper")
    for name, path, then in screens(world):
        if only is None or name in only:
            _visit(page, base, name + ("-dark" if scheme == "dark" else ""), path, then,
                   width=width, scheme=scheme, problems=problems, audit=audit,
                   check=checks.get(name))
            visited += 1
    context.close()
    return visited


def test_every_screen_fits_the_phone_and_passes_the_audit(browser, live_server, world):
    """Each screen at 360x740, in one page load: nothing cut off or past the edge, fields
    styled, text readable, no serious or critical finding of the accessibility audit
    (axe-core: tests/e2e/axe.py; test_accessibility.py shows it is not blind), and on the
    pages named in ``phone_checks`` what it says (a game's sheet, a finished game's winner and
    money, a settled evening, the presets, the error pages)."""
    problems: dict = {}
    audit: dict = {}
    visited = _tour(browser, live_server.url, world, PHONE, "360", problems, audit=audit,
                    checks=phone_checks(world))
    assert visited > 50  # the tour's screens, not an empty list
    assert problems == {}
    assert audit == {}, json.dumps(audit, indent=1)


def test_error_pages_fit_the_phone(browser, live_server, django_user_model, monkeypatch):
    """403 and 500, drawn by Django's handlers (a view made to fail here)."""
    from django.core.exceptions import PermissionDenied

    from ledger.views import tables

    django_user_model.objects.create_user("keeper", password="pw")
    problems: dict = {}
    context = browser.new_context(**PHONE)
    page = context.new_page()
    login(page, live_server.url, "keeper")
    for code, error in (("403", PermissionDenied()), ("500", RuntimeError("boom"))):
        def fail(user, error=error):
            raise error
        monkeypatch.setattr(tables, "_games_in_progress", fail)
        response = page.goto(live_server.url + "/")
        assert response.status == int(code)
        expect(page.get_by_role("link", name="Your tables")).to_be_visible()
        found = page.evaluate(FITS)
        if found:
            problems[code] = found
        if SHOOT:
            OUT.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(OUT / f"error-{code}-360.png"), full_page=True)
    context.close()
    assert problems == {}


def test_every_screen_at_desktop_width_and_in_the_dark(browser, live_server, world):
    """The same checks on every screen 1280 wide (and what ``desktop_checks`` says), and on the
    pages of a game (running, over, each kind of sheet), of the evening and of the table on a
    phone set to dark (and two of them 1280 wide): the dark background drawn, every text
    readable on it (and with SCREENS_SHOTS=1 their screenshots)."""
    problems: dict = {}
    _tour(browser, live_server.url, world, DESKTOP, "1280", problems, checks=desktop_checks())
    dark = {"evening", "evening-settled", "home", "table"} | {
        f"game-{key}-{state}" for key in ("gin", "hollywood", "captain5", "capit4",
                                          "partnership6")
        for state in ("running", "over")}
    _tour(browser, live_server.url, world, PHONE, "360", problems, scheme="dark", only=dark)
    _tour(browser, live_server.url, world, DESKTOP, "1280", problems, scheme="dark",
          only={"game-gin-over", "evening"})
    assert problems == {}
