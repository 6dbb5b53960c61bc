"""Issue 41 on the keeper's phone, Chromium at 360x740, English and German: a game page opened
again without a connection (the service worker's copy of it) with hands already kept in the
phone's queue shows their totals once the phone's core is ready, marked not yet saved, with
no Save needed first; back online each hand is stored once and the server's numbers are the
same. Expected numbers are the rules' (RULES.md §2, two-hand gin, standard preset: a knock of
2 against 20 scores 18 to the knocker, one of 3 against 10 scores 7: Ann 25, Bob 0)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from ledger import services
from ledger.models import Hand
from tests.factories import gin_game

from .helpers import duel, login, score, shot, worker_in_control

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
BOOT_MS = 120_000
WORDS = {
    "en": {"save": "Save hand {}", "unsaved": "not yet saved"},
    "de": {"save": "Spiel {} speichern", "unsaved": "noch nicht gespeichert"},
}
# waits until the page's core has booted (a promise: evaluate awaits it)
READY = """async (client) => { await (await import(client)).ready(); return true; }"""


@pytest.fixture
def gin(keeper):
    table = services.table_create(name="Basement", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="USD", rate="0.01",
                                      created_by=keeper)
    return gin_game(session, keeper, preset="standard")


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_page_opened_again_offline_scores_the_hands_kept(browser, live_server, keeper, gin,
                                                            language):
    words = WORDS[language]
    context = browser.new_context(viewport=PHONE, locale=language)
    page = context.new_page()
    login(page, live_server.url, "keeper")
    url = live_server.url + reverse("ledger:game_detail", args=[gin.pk])
    page.goto(url)
    worker_in_control(page)
    page.reload()  # the page kept by the service worker, the core's files kept as they load
    client = page.locator("#core-worker").get_attribute("src")
    page.set_default_timeout(BOOT_MS)
    assert page.evaluate(READY, client)
    page.set_default_timeout(30_000)

    # two hands kept on the phone with no connection, scored there as they are saved
    context.set_offline(True)
    ann = page.locator(".score-tile[data-key='Ann'] .score-value")
    duel(page, 1, "Ann", {0: "2", 1: "20"})
    page.get_by_role("button", name=words["save"].format(1)).click()
    expect(ann).to_have_text("18", timeout=10_000)
    duel(page, 1, "Ann", {0: "3", 1: "10"})
    page.get_by_role("button", name=words["save"].format(2)).click()
    expect(ann).to_have_text("25", timeout=10_000)

    # the page opened again, still offline: its copy says 0, the phone's core says 25
    page.goto(url)
    expect(page.locator("#offline-banner")).to_be_visible()
    expect(page.get_by_role("button", name=words["save"].format(3))).to_be_visible()
    expect(ann).to_have_text("25", timeout=BOOT_MS)  # once the core has booted
    assert score(page, "Bob") == "0"
    expect(page.locator(".score-strip .strip-item[data-key='Ann'] b")).to_have_text("25")
    expect(page.locator(".scoreboard.unsaved")).to_have_count(1)
    expect(page.locator("#score-pending")).to_contain_text(words["unsaved"])
    expect(page.locator("#next .dealer-badge + b")).to_have_text("Ann")
    page.locator(".scoreboard").scroll_into_view_if_needed()
    shot(page, f"offline-reopened-{language}", full_page=False)
    page.set_viewport_size({"width": 1280, "height": 800})
    shot(page, f"offline-reopened-wide-{language}", full_page=False)
    page.set_viewport_size(PHONE)
    assert Hand.objects.filter(game=gin).count() == 0

    # back online: each hand stored once, the server's numbers the phone's
    context.set_offline(False)
    expect(page.locator(".scoreboard.unsaved")).to_have_count(0, timeout=30_000)
    expect(ann).to_have_text("25")
    assert score(page, "Bob") == "0"
    assert list(Hand.objects.filter(game=gin, voided_at=None).order_by("number")
                .values_list("number", flat=True)) == [1, 2]
    context.close()
