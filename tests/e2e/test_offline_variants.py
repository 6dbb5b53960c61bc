"""Issue 41 on the keeper's phone, Chromium at 360x740, English and German: Oklahoma (the
up-card), Hollywood (three games at once: the tiles are the net, signed, with each game's
total under it) and streets (partnership's deals at two tables: the game points, with each
street's total) keep score with the connection cut: two hands kept on the phone, scored by
its core, the tiles and the next hand's panel as the server writes them (computed here from
the core's result through the presentation), and back online the hands are stored once
and the server's page reads the same. (Gin, captain 7 and CAP-IT: test_offline_scoring;
box, captain 3, partnership: test_offline_roles.)"""

from __future__ import annotations

import json

import pytest
from django.utils import translation
from playwright.sync_api import expect

from ledger import services
from ledger.models import Hand
from ledger.presentation.money import scores
from ledger.selectors.games import game_record
from ledger.selectors.games import score as core_score
from ledger.templatetags.money import points, signed
from tests.rules.helpers import DATA

from .helpers import settled, shot
from .phone_games import start
from .test_offline_roles import boot, open_phone, play_offline

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def evening(keeper):
    table = services.table_create(name="Basement", scorekeepers=[keeper])
    return services.session_create(table=table, currency="USD", rate="0.01", created_by=keeper)


def tiles(page) -> dict:
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
      '.scoreboard .score-tile')].map((t) => [t.dataset.key, [
        t.querySelector('.score-value').textContent.trim(),
        (t.querySelector('.score-detail') || {textContent: ''}).textContent.trim()]]))""")


def expected_tiles(result, language) -> dict:
    with translation.override(language):
        return {s.key: [signed(s.value) if s.signed else points(s.value), s.detail or ""]
                for s in scores(result)}


def new_game(evening, keeper, key):
    if key == "streets":
        record = json.loads((DATA / "club" / "streets-game.json").read_text())
        record["hands"] = []
        return services.game_import(session=evening, record=record, imported_by=keeper)
    return start(evening, keeper, key)


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("key", ["oklahoma", "hollywood", "streets"])
def test_offline_every_variant_keeps_its_score_on_the_phone(
        browser, live_server, keeper, evening, key, language):
    game = new_game(evening, keeper, key)
    context, page = open_phone(browser, live_server, language)
    boot(page, live_server, game, None)
    record = game_record(game)
    context.set_offline(True)

    for i in range(2):
        play_offline(page, record, i, upcard="7H" if key == "oklahoma" else None)
        result = core_score(record)
        expect(page.locator("#next .next-title")).to_contain_text(str(i + 2), timeout=5_000)
        expect(page.locator(".scoreboard.unsaved")).to_have_count(1)
        want = expected_tiles(result, language)
        page.wait_for_function("(want) => JSON.stringify(want) === JSON.stringify(Object"
                               ".fromEntries([...document.querySelectorAll('.scoreboard "
                               ".score-tile')].map((t) => [t.dataset.key, [t.querySelector("
                               "'.score-value').textContent.trim(), (t.querySelector("
                               "'.score-detail') || {textContent: ''}).textContent.trim()]])))",
                               arg=want, timeout=5_000)
        assert tiles(page) == want
        assert any(v[0] not in ("0", "") for v in want.values())
        nxt = result["next"]
        if not nxt.get("tables"):
            expect(page.locator("#next .dealer-badge + b")).to_have_text(nxt["dealer"])
    phone_panel = page.locator("#next").inner_text()
    phone_tiles = tiles(page)
    blocks = ["#streets", ".streets-g"] if key == "streets" else []
    for block in blocks:  # the street cards and the game points G: the phone's numbers
        expect(page.locator(block)).to_be_visible()
    if key == "streets":
        g = result["game_points"]
        assert any(g.values())
        with translation.override(language):
            for side, value in g.items():
                expect(page.locator(f".streets-g span[data-side='{side}'] b")).to_have_text(
                    signed(value))
    phone_blocks = [page.locator(block).inner_text() for block in blocks]
    page.locator(".scoreboard").scroll_into_view_if_needed()
    settled(page)
    shot(page, f"offline-variant-{key}-{language}", full_page=False)

    context.set_offline(False)
    expect(page.locator(".scoreboard.unsaved")).to_have_count(0, timeout=20_000)
    expect(page.locator("#offline-queue")).to_be_hidden(timeout=20_000)
    stored = list(Hand.objects.filter(game=game, voided_at=None).order_by("number")
                  .values_list("entry", flat=True))
    assert stored == record["hands"]
    page.reload()
    assert tiles(page) == phone_tiles
    assert [page.locator(block).inner_text() for block in blocks] == phone_blocks
    assert page.locator("#next").inner_text() == phone_panel
    context.close()
