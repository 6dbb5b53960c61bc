"""Issue 41 on the keeper's phone, Chromium at 360x740, English and German: a game that ends
with hands kept offline ends on the phone: "Game over" with the winner, each player's money
and who pays whom, written as the server writes them, marked not yet saved, the form gone.
Back online the hands are stored once and the server's end of the game says exactly the
same. Expected money is the core's (RULES.md §2: a gin of Ann against Bob's 98 ends a game to
100 at once; §5: captain play's cover), computed here from the record and the hands typed."""

from __future__ import annotations

import pytest
from django.utils import translation
from playwright.sync_api import expect

from ledger.models import Hand
from ledger.selectors.games import game_record
from ledger.selectors.games import score as core_score
from ledger.templatetags.money import signed
from tests.factories import gin_game

from .helpers import duel, shot
from .phone_games import start
from .test_offline_roles import boot, open_phone

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WORDS = {"en": "Game over", "de": "Partie beendet"}

SEATED = """() => {
  const schema = JSON.parse(document.getElementById('hand-form-fields').textContent);
  return schema.tables.map((t) => [...document.querySelectorAll(
    `input[name='${t.knocker}']`)].map((r) => r.value).filter((v) => v !== t.draw));
}"""


@pytest.fixture
def evening(keeper):
    from ledger import services
    table = services.table_create(name="Basement", scorekeepers=[keeper])
    return services.session_create(table=table, currency="EUR", rate="0.05", created_by=keeper)


def the_end(page, box: str) -> dict:
    over = page.locator(box)
    return {"head": over.locator("h2").inner_text(),
            "lines": over.locator(".money-grid").inner_text(),
            "payments": over.locator(".payments").inner_text(),
            "cover": [c.inner_text() for c in over.locator(".cover-line").all()]}


def gins(page, record, n):
    """n hands, each a gin by each table's first player against 98 (big: games end fast)."""
    for _ in range(n):
        pairs = page.evaluate(SEATED)
        parts = []
        for t, (a, b) in enumerate(pairs, start=1):
            duel(page, t, a, {0: "0", 1: str(90 - t)}, kind="gin")
            parts.append({"knocker": a, "gin": True, "deadwood": {a: 0, b: 90 - t}})
        record["hands"].append({"tables": parts} if len(parts) > 1 else parts[0])
        page.locator("form[data-offline-queue] button[type=submit]").click()
        if core_score(record)["complete"]:
            return
        expect(page.locator("#next .next-title")).to_contain_text(
            str(len(record["hands"]) + 1), timeout=5_000)


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("key", ["gin", "captain7"])
def test_a_game_ended_offline_shows_its_money_as_the_server_does(
        browser, live_server, keeper, evening, key, language):
    game = (gin_game(evening, keeper, preset="standard") if key == "gin"
            else start(evening, keeper, key))
    context, page = open_phone(browser, live_server, language)
    boot(page, live_server, game, None)
    record = game_record(game)
    context.set_offline(True)
    gins(page, record, 6)
    result = core_score(record)
    assert result["complete"] and result["payments"]

    over = page.locator("#phone-over")
    expect(over).to_be_visible(timeout=5_000)
    expect(page.locator("#entry")).to_be_hidden()
    expect(over.locator("h2")).to_contain_text(WORDS[language])
    with translation.override(language):
        for name, amount in result["money"].items():
            expect(over.locator(f"td[data-player='{name}']")).to_have_text(signed(amount))
    phone = the_end(page, "#phone-over")
    assert len(phone["payments"].splitlines()) == len(result["payments"])
    over.scroll_into_view_if_needed()
    shot(page, f"offline-end-{key}-{language}", full_page=False)
    if key == "captain7":
        page.set_viewport_size({"width": 1280, "height": 800})
        shot(page, f"offline-end-{key}-wide-{language}", full_page=False)
        page.set_viewport_size({"width": 360, "height": 740})
    assert Hand.objects.filter(game=game).count() == 0

    # back online: stored once each, and the server's end says the same
    context.set_offline(False)
    expect(page.locator("#over")).to_be_visible(timeout=20_000)
    assert Hand.objects.filter(game=game, voided_at=None).count() == len(record["hands"])
    page.reload()
    server = the_end(page, "#over")
    assert phone == server
    assert bool(server["cover"]) == (key == "captain7")  # captain play's cover
    context.close()
