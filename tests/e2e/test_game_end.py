"""Ending a game early on the phone (issue 37.10), Chromium at 360x740 in English and
German: Abandon asks first in a dialog (the score it ends on, a reason) and "Keep playing"
changes nothing; a game with no hand offers Delete instead, which asks too, and the first
hand saved in place turns Delete into Abandon. Scores are the rules' (RULES.md §2): Ann
knocks with 5 against Bob's 17, 12 to Ann."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ledger import services
from ledger.models import Game, GameStatus
from tests.factories import ANN_KNOCKS, gin_game

from .helpers import SCALE, duel, login, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}

WORDS = {
    "en": {"abandon": "Abandon the game", "title": "Abandon game 1?",
           "score": "It ends now, after 1 hand, on the score as it stands: Ann 12 · Bob 0.",
           "keep": "Keep playing", "go": "Abandon: settle on hand points",
           "abandoned": "Game abandoned", "delete": "Delete game 2", "delete_q": "Delete game 2?",
           "keep_it": "Keep it", "deleted": "Game 2 deleted.", "save": "Save hand 1"},
    "de": {"abandon": "Partie abbrechen", "title": "Partie 1 abbrechen?",
           "score": "Sie endet jetzt, nach 1 Spiel, beim aktuellen Stand: Ann 12 · Bob 0.",
           "keep": "Weiterspielen", "go": "Abbrechen: nach Handpunkten abrechnen",
           "abandoned": "Partie abgebrochen", "delete": "Partie 2 löschen",
           "delete_q": "Partie 2 löschen?", "keep_it": "Behalten",
           "deleted": "Partie 2 gelöscht.", "save": "Spiel 1 speichern"},
}


@pytest.fixture
def evening(keeper):
    table = services.table_create(name="Basement", scorekeepers=[keeper])
    return services.session_create(table=table, currency="USD", rate="0.01", created_by=keeper)


@pytest.fixture
def phone(browser, live_server):
    contexts = []

    def open_(code: str, game):
        context = browser.new_context(viewport=PHONE, locale=code, device_scale_factor=SCALE,
                                      service_workers="block")
        contexts.append(context)
        page = context.new_page()
        login(page, live_server.url, "keeper")
        page.goto(f"{live_server.url}/games/{game.pk}/")
        return page

    yield open_
    for context in contexts:
        context.close()


@pytest.mark.parametrize("code", ["en", "de"])
def test_abandon_asks_first(phone, evening, keeper, code):
    words = WORDS[code]
    game = gin_game(evening, keeper, preset="standard", hands=[ANN_KNOCKS])
    page = phone(code, game)
    page.get_by_role("link", name=words["abandon"]).click()
    dialog = page.locator("dialog[open]")
    expect(dialog.get_by_role("heading")).to_have_text(words["title"])
    expect(dialog).to_contain_text(words["score"])
    # the whole question and its buttons on the phone's screen
    for button in (words["go"], words["keep"]):
        box = dialog.get_by_role("button", name=button).bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
    shot(page, f"game-end-abandon-{code}", full_page=False)
    dialog.get_by_role("button", name=words["keep"]).click()
    expect(page.locator("dialog[open]")).to_have_count(0)
    game.refresh_from_db()
    assert game.status == GameStatus.IN_PROGRESS

    page.get_by_role("link", name=words["abandon"]).click()
    page.locator("dialog[open] input[name=reason]").fill("out of time")
    page.locator("dialog[open]").get_by_role("button", name=words["go"]).click()
    expect(page.locator("#over h2")).to_contain_text(words["abandoned"])
    game.refresh_from_db()
    assert game.status == GameStatus.ABANDONED
    assert game.changes.get().reason == "out of time"


@pytest.mark.parametrize("code", ["en", "de"])
def test_a_game_started_by_mistake_is_deleted_after_a_question(phone, evening, keeper, code):
    words = WORDS[code]
    gin_game(evening, keeper, preset="standard", hands=[ANN_KNOCKS])
    mistake = gin_game(evening, keeper, preset="standard")
    page = phone(code, mistake)
    expect(page.get_by_role("link", name=words["abandon"])).to_have_count(0)
    page.get_by_role("link", name=words["delete"]).click()
    dialog = page.locator("dialog[open]")
    expect(dialog.get_by_role("heading")).to_have_text(words["delete_q"])
    shot(page, f"game-end-delete-{code}", full_page=False)
    dialog.get_by_role("button", name=words["keep_it"]).click()
    assert Game.objects.filter(pk=mistake.pk).exists()

    page.get_by_role("link", name=words["delete"]).click()
    page.locator("dialog[open]").get_by_role("button", name=words["delete"]).click()
    # on the evening, which lists game 1 alone
    expect(page.locator(".flash")).to_contain_text(words["deleted"])
    expect(page.locator("ul.games > li")).to_have_count(1)
    shot(page, f"game-end-deleted-{code}", full_page=False)
    assert not Game.objects.filter(pk=mistake.pk).exists()


def test_the_first_hand_saved_in_place_turns_delete_into_abandon(phone, evening, keeper):
    game = gin_game(evening, keeper, preset="standard")
    page = phone("en", game)
    expect(page.get_by_role("link", name="Delete game 1")).to_be_visible()
    duel(page, 1, "Ann", {0: "5", 1: "17"})
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator(".flash")).to_contain_text("Hand 1 recorded")
    expect(page.get_by_role("link", name="Delete game 1")).to_have_count(0)
    page.get_by_role("link", name="Abandon the game").click()
    expect(page.locator("dialog[open]")).to_contain_text(
        "It ends now, after 1 hand, on the score as it stands: Ann 12 · Bob 0.")
