"""Issue 41 on the keeper's phone, Chromium at 360x740, English and German: with the
connection cut after the game page loaded, the hands kept on the phone are scored by its core
and the page says who deals next, who is in the box, who sits out and who plays whom, as
the server's page says it once the hands are sent (the same words, from the catalogs); the
form's "who played" pickers hold the core's pairs, so that the keeper types the next hand
without choosing them, and the server takes the hands as they were kept (each stored once).
Expected roles are the core's (RULES.md §4 box, §5 captain play): after each hand the
core's ``next``, computed here from the record and the hands typed."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation
from playwright.sync_api import expect

from ledger import services
from ledger.models import Hand
from ledger.selectors.games import game_record
from ledger.selectors.games import score as core_score
from ledger.templatetags.money import points, signed

from .helpers import duel, login, score, shot, wait_for_async
from .phone_games import start

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
BOOT_MS = 90_000

# each table's players as the form names them now (after the pickers), and the draw's value
SEATED = """() => {
  const schema = JSON.parse(document.getElementById('hand-form-fields').textContent);
  return schema.tables.map((t) => [...document.querySelectorAll(
    `input[name='${t.knocker}']`)].map((r) => r.value).filter((v) => v !== t.draw));
}"""


def boot(page, live_server, game, language_words):
    page.goto(live_server.url + reverse("ledger:game_detail", args=[game.pk]))
    expect(page.locator("form[data-offline-queue] button[type=submit]")).to_be_visible()
    client = page.locator("#core-worker").get_attribute("src")
    page.evaluate(f"async () => {{ await (await import({client!r})).start(); }}")
    wait_for_async(page, f"""async () => (await import({client!r})).state() === "ready" """,
                   timeout=BOOT_MS)


def open_phone(browser, live_server, language):
    context = browser.new_context(viewport=PHONE, service_workers="block", locale=language)
    page = context.new_page()
    login(page, live_server.url, "keeper")
    return context, page


def tile_texts(result, language):
    """Each tile as the server writes it (money.py scores: Hollywood's net, signed)."""
    with translation.override(language):
        if result["facts"]["columns"]:
            return {key: signed(result["net"][key]) for key in result["totals"]}
        return {key: points(t["final"]) for key, t in result["totals"].items()}


def play_offline(page, record, i, *, upcard=None):
    """The i-th hand typed with the players the form names now (each table's first knocks
    with a low count); returns the record's hand."""
    pairs = page.evaluate(SEATED)
    parts = []
    for t, (a, b) in enumerate(pairs, start=1):
        low = 2 + (i + t) % 4
        high = low + 2 + t + i  # small: the game goes on
        duel(page, t, a, {0: str(low), 1: str(high)})
        parts.append({"knocker": a, "deadwood": {a: low, b: high}})
    if upcard:
        page.locator(f"label.seg-opt:has(input[name='up_rank'][value='{upcard[:-1]}'])").click()
        page.locator(f"label.seg-opt:has(input[name='up_suit'][value='{upcard[-1]}'])").click()
    if len(parts) > 1:
        entry = {"tables": parts}
    else:
        entry = parts[0] if not upcard else {"upcard": upcard, **parts[0]}
    record["hands"].append(entry)
    page.locator("form[data-offline-queue] button[type=submit]").click()
    return entry


@pytest.fixture
def evening(keeper):
    table = services.table_create(name="Basement", scorekeepers=[keeper])
    return services.session_create(table=table, currency="USD", rate="0.01", created_by=keeper)


ROLE_GAMES = ["box", "captain3", "captain7", "partnership4"]


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("key", ROLE_GAMES)
def test_offline_the_page_says_who_plays_next_as_the_server_does(
        browser, live_server, keeper, evening, key, language):
    game = start(evening, keeper, key)
    context, page = open_phone(browser, live_server, language)
    boot(page, live_server, game, None)
    record = game_record(game)
    context.set_offline(True)

    for i in range(2):
        play_offline(page, record, i)
        result = core_score(record)
        expect(page.locator(".scoreboard.unsaved")).to_have_count(1, timeout=5_000)
        panel = page.locator("#next")
        expect(panel.locator(".next-title")).to_contain_text(str(i + 2), timeout=5_000)
        nxt = result["next"]
        expected_pairs = ([list(t) for t in nxt["tables"]] if nxt.get("tables") else None)
        # the totals are the core's
        shown = {key_: score(page, key_) for key_ in result["totals"]}
        assert shown == tile_texts(result, language)
        # the panel: the next hand's number, no "worked out when sent", who sits out
        expect(panel).to_have_class("next next-rows next-unsaved" if expected_pairs
                                    else "next next-unsaved")
        expect(panel.locator(".next-title")).to_contain_text(str(i + 2))
        expect(panel.locator(".next-unknown-note")).to_be_hidden()
        sitting = [n for n, role in nxt["roles"].items() if role == "sits_out"]
        if sitting:
            expect(panel.locator(".sits b")).to_have_text(", ".join(sitting))
        # the form is for the next hand, its tables seated as the core says
        pairs = page.evaluate(SEATED)
        if expected_pairs:
            assert pairs == expected_pairs
        else:
            expect(panel.locator(".dealer-badge + b")).to_have_text(nxt["dealer"])
            players = [n for n, role in nxt["roles"].items() if role != "sits_out"]
            assert sorted(pairs[0]) == sorted(players)
            expect(panel.locator(".matchup .vs b").first).to_have_text(pairs[0][0])
        phone_panel = panel.inner_text()
        shot(page.locator("#next"), f"offline-roles-{key}-{i + 1}-{language}")
    page.locator("#next").scroll_into_view_if_needed()
    shot(page, f"offline-roles-{key}-{language}", full_page=False)
    if key == "captain7":
        page.set_viewport_size({"width": 1280, "height": 800})
        shot(page, f"offline-roles-{key}-wide-{language}", full_page=False)
        page.set_viewport_size(PHONE)

    # back online: both hands stored once, as kept; the server's panel says the same
    context.set_offline(False)
    expect(page.locator(".scoreboard.unsaved")).to_have_count(0, timeout=20_000)
    expect(page.locator("#offline-queue")).to_be_hidden()
    stored = list(Hand.objects.filter(game=game, voided_at=None).order_by("number")
                  .values_list("entry", flat=True))
    assert stored == record["hands"]
    page.reload()
    shot(page, f"offline-roles-{key}-server-{language}", full_page=True)
    assert page.locator("#next").inner_text() == phone_panel
    assert {k: score(page, k) for k in result["totals"]} == tile_texts(result, language)
    context.close()
