"""Issue 37.1 in a browser: a table's report phone when the hand that ends the game is saved.
The phone (360x740) follows the game at its last hand; the hand is saved; within a few
seconds the phone shows the game's end, read-only, in the table's language: the final
score, the winner and each player's money as the core settled them, and that the game is
over (never "this link no longer works"). A captain-7, a partnership-6 and a CAP-IT game,
each ended in one language and read again in the other."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from ledger import services
from ledger.presentation.money import format_money
from ledger.selectors.games import game_live_entries, game_record, game_result, score
from tests.e2e.phone_games import next_entry, start

from .helpers import FITS, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
WORDS = {
    "en": {"over": "Game over", "said": "This game is over", "money": "Money",
           "gone": "This link no longer works"},
    "de": {"over": "Partie beendet", "said": "Diese Partie ist vorbei", "money": "Geld",
           "gone": "Dieser Link funktioniert nicht mehr"},
}
PART = {"en": {"captain7": "Table 1", "partnership6": "Table 1", "capit6": "Players"},
        "de": {"captain7": "Tisch 1", "partnership6": "Tisch 1", "capit6": "Spieler"}}


def _up_to_the_last_hand(game, keeper) -> dict:
    """Record big hands until the next one ends the game; that last hand's entry."""
    for i in range(60):
        result = game_result(game)
        entry = next_entry(game, i, big=True, result=result)
        after = score(game_record(game, hands=game_live_entries(game) + [entry]))
        if after.get("complete"):
            return entry
        services.hand_record(game=game, entry=entry, recorded_by=keeper,
                             idempotency_key=str(uuid.uuid4()))
    raise AssertionError(f"{game.variant} did not come to its last hand")


def _money_shown(phone, name: str) -> str:
    return phone.locator(f"#money td.money[data-player='{name}']").inner_text()


@pytest.mark.parametrize(("key", "language"), [
    ("captain7", "en"), ("partnership6", "de"), ("capit6", "en")])
def test_the_report_phone_ends_on_the_final_score_and_money(browser, live_server, keeper,
                                                            key, language):
    table = services.table_create(name="Club", scorekeepers=[keeper], language=language)
    session = services.session_create(table=table, currency="USD", rate="0.01",
                                      created_by=keeper)
    game = start(session, keeper, key)
    link = services.report_links_get_or_create(game=game, created_by=keeper)[0]
    last = _up_to_the_last_hand(game, keeper)
    number = len(game_result(game)["hands"]) + 1
    context = browser.new_context(viewport=PHONE, service_workers="block")
    try:
        phone = context.new_page()
        errors = []
        phone.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        phone.goto(f"{live_server.url}/r/{link.token}/")
        expect(phone.locator("#report h2")).to_contain_text(str(number))
        # the scorekeeper saves the hand that ends the game
        services.hand_record(game=game, entry=last, recorded_by=keeper,
                             idempotency_key=str(uuid.uuid4()))
        result = game_result(game)
        assert result["complete"]
        words = WORDS[language]
        expect(phone.locator("#report h2")).to_have_text(
            f"{PART[language][key]}: {words['over']}", timeout=8000)
        _the_end_is_shown(phone, result, language)
        assert phone.evaluate(FITS) == []
        shot(phone, f"report-end-{key}-{language}")
        # the same phone in the table's other language (the scorekeeper changed it)
        other = "de" if language == "en" else "en"
        table.language = other
        table.save(update_fields=["language"])
        phone.reload()
        expect(phone.locator("#report h2")).to_have_text(
            f"{PART[other][key]}: {WORDS[other]['over']}")
        _the_end_is_shown(phone, result, other)
        shot(phone, f"report-end-{key}-{other}")
        assert errors == []
    finally:
        context.close()


def _the_end_is_shown(phone, result: dict, language: str) -> None:
    from django.utils import translation

    words = WORDS[language]
    expect(phone.locator("#report")).to_contain_text(words["said"])
    expect(phone.locator("#over h2")).to_contain_text(words["over"])
    expect(phone.locator("#money")).to_contain_text(words["money"])
    expect(phone.locator("[data-report-form]")).to_have_count(0)
    expect(phone.get_by_text(words["gone"])).to_have_count(0)
    with translation.override(language):
        for name, amount in result["money"].items():
            assert _money_shown(phone, name) == format_money(amount, sign=True), name
    # the final score: each side's (or player's) total as the core has it
    for key, total in result["totals"].items():
        tile = phone.locator(f"#live .score-tile[data-key='{key}'] .score-value").first
        final = total["final"] if isinstance(total, dict) else total
        assert tile.inner_text().replace("\u2212", "-") == str(final), key
