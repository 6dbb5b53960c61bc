"""Issue 41 on the keeper's phone, Chromium at 360x740, English and German: back online, the
hands kept offline are sent, each stored once, and the page ends up agreeing with the
server (nothing logged); the phone's totals stay up while the hands go, one by one, until
the server's come. The server's result is the truth: when it differs from the phone's (here
the game's gin bonus was changed on the server while the phone was offline), the page shows
the server's numbers and the difference is logged on the console. Expected numbers are the
rules' (RULES.md §2, standard preset: a gin scores the other's deadwood plus the gin bonus,
25; 20 once the server's rules say so)."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from ledger import services
from ledger.models import Hand
from tests.factories import gin_game

from .helpers import duel, score, shot
from .test_offline_roles import boot, open_phone

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PREFIX = "Tablestakes: the server's result differs from the phone's: "


@pytest.fixture
def gin(keeper):
    table = services.table_create(name="Basement", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="USD", rate="0.01",
                                      created_by=keeper)
    return gin_game(session, keeper, preset="standard")


def logged(page) -> list:
    said = []
    page.on("console", lambda m: said.append(m.text) if m.text.startswith(PREFIX) else None)
    return said


def save(page):
    page.locator("form[data-offline-queue] button[type=submit]").click()


@pytest.mark.parametrize("language", ["en", "de"])
def test_back_online_each_hand_is_stored_once_and_the_page_agrees(
        browser, live_server, keeper, gin, language):
    context, page = open_phone(browser, live_server, language)
    said = logged(page)
    boot(page, live_server, gin, None)
    context.set_offline(True)
    duel(page, 1, "Ann", {0: "2", 1: "20"})   # Ann 18
    save(page)
    expect(page.locator("#next .next-title")).to_contain_text("2", timeout=5_000)
    duel(page, 1, "Bob", {0: "30", 1: "5"})   # Bob 25
    save(page)
    expect(page.locator(".score-tile[data-key='Bob'] .score-value")).to_have_text("25",
                                                                                   timeout=5_000)
    # while the two go, the tiles stay the phone's (never the page's old 0 and 0)
    page.evaluate("""() => { window.seen = []; new MutationObserver(() => window.seen.push(
      document.querySelector(".score-tile[data-key='Ann'] .score-value").textContent))
      .observe(document.getElementById("score"), {subtree: true, childList: true,
                                                  characterData: true}); }""")
    context.set_offline(False)
    expect(page.locator("#offline-queue")).to_be_hidden(timeout=20_000)
    expect(page.locator(".scoreboard.unsaved")).to_have_count(0)
    assert "0" not in page.evaluate("window.seen")
    assert list(Hand.objects.filter(game=gin, voided_at=None).order_by("number")
                .values_list("number", "entry")) == [
        (1, {"knocker": "Ann", "deadwood": {"Ann": 2, "Bob": 20}}),
        (2, {"knocker": "Bob", "deadwood": {"Ann": 30, "Bob": 5}})]
    assert (score(page, "Ann"), score(page, "Bob")) == ("18", "25")
    assert said == []
    page.reload()
    assert (score(page, "Ann"), score(page, "Bob")) == ("18", "25")
    context.close()


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_servers_result_wins_and_the_difference_is_logged(
        browser, live_server, keeper, gin, language):
    context, page = open_phone(browser, live_server, language)
    said = logged(page)
    boot(page, live_server, gin, None)
    context.set_offline(True)
    duel(page, 1, "Ann", {0: "0", 1: "20"}, kind="gin")   # 20 + the gin bonus of 25
    save(page)
    expect(page.locator(".score-tile[data-key='Ann'] .score-value")).to_have_text("45",
                                                                                   timeout=5_000)
    # meanwhile the server's rules change (another phone, the settings screen)
    services.game_change_rules(game=gin, changes={"gin_bonus": 20}, changed_by=keeper)
    context.set_offline(False)
    expect(page.locator(".score-tile[data-key='Ann'] .score-value")).to_have_text(
        "40", timeout=20_000)
    expect(page.locator(".scoreboard.unsaved")).to_have_count(0)
    assert Hand.objects.filter(game=gin, voided_at=None).count() == 1
    page.wait_for_function("(n) => true", arg=0)
    assert len(said) == 1, said
    detail = json.loads(said[0][len(PREFIX):])
    assert detail["hands"] == 1
    assert detail["differ"] == [{"key": "Ann", "phone": "45", "server": "40"}]
    shot(page, f"offline-server-wins-{language}", full_page=False)
    context.close()
