"""Issue 41 on the keeper's phone, Chromium at 360x740, English and German: the game's record
is kept beside the queue in IndexedDB (static/ledger/queue/records.js), fresh after the page
loads and after every Save, and no longer in localStorage; with the connection cut and the
page's own copy gone, the phone's core scores the hand kept from the record IndexedDB holds.
Expected numbers are the rules' (RULES.md §2: a knock of 2 against 20 scores 18, of 3
against 10 scores 7)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ledger import services
from tests.factories import gin_game

from .helpers import duel, score, shot, wait_for_async
from .test_offline_roles import boot, open_phone
from .test_offline_scoring import KEPT

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def gin(keeper):
    table = services.table_create(name="Basement", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="USD", rate="0.01",
                                      created_by=keeper)
    return gin_game(session, keeper, preset="standard")


def kept_hands(page, game) -> int:
    kept = page.evaluate(KEPT, str(game.pk))
    return -1 if kept is None else len(kept["hands"])


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_record_is_kept_in_indexeddb_and_scores_offline(browser, live_server, keeper, gin,
                                                             language):
    context, page = open_phone(browser, live_server, language)
    page.add_init_script(f"localStorage.setItem('tablestakes.record.v1.{gin.pk}', '{{}}')")
    boot(page, live_server, gin, None)
    wait_for_async(page, f"""async () => (await ({KEPT})("{gin.pk}")) !== null""")
    assert kept_hands(page, gin) == 0  # fresh on load
    # the old copy in localStorage is gone
    assert page.evaluate(f"localStorage.getItem('tablestakes.record.v1.{gin.pk}')") is None

    duel(page, 1, "Ann", {0: "2", 1: "20"})
    page.locator("form[data-offline-queue] button[type=submit]").click()
    expect(page.locator(".score-tile[data-key='Ann'] .score-value")).to_have_text("18",
                                                                                   timeout=15_000)
    expect(page.locator(".scoreboard.unsaved")).to_have_count(0, timeout=15_000)
    wait_for_async(page, f"""async () => ((await ({KEPT})("{gin.pk}")) || {{hands: []}})
                               .hands.length === 1""", timeout=10_000)  # fresh after a Save

    context.set_offline(True)
    page.evaluate("document.getElementById('game-record').remove()")  # the page's copy gone
    duel(page, 1, "Ann", {0: "3", 1: "10"})
    page.locator("form[data-offline-queue] button[type=submit]").click()
    expect(page.locator(".score-tile[data-key='Ann'] .score-value")).to_have_text("25",
                                                                                   timeout=5_000)
    expect(page.locator(".scoreboard.unsaved")).to_have_count(1)
    assert score(page, "Bob") == "0"
    shot(page, f"offline-record-{language}", full_page=False)
    context.close()
