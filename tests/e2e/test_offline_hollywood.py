"""Issue 41 on the keeper's phone, Chromium at 360x740, English and German: Hollywood's line
of the games still open (templates/ledger/_next.html, presentation/flash.py
open_games_text) is redrawn from the phone's own result while the connection is cut, in
the page's words (#phone-words), and reads exactly as the server's page once the hands are
sent. RULES.md §3.3: a player's first win scores in game 1 only, the next in games 1 and 2;
a gin against 90 closes a game to 100 at once."""

from __future__ import annotations

import pytest
from django.utils import translation
from playwright.sync_api import expect

from ledger import services
from ledger.models import Hand
from ledger.presentation.flash import open_games_text
from ledger.selectors.games import game_result

from .helpers import duel, settled, shot
from .phone_games import start
from .test_offline_roles import boot, open_phone

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SAID = {  # after each hand kept: game 1 over, then games 1 and 2
    "en": ["Still open: games 2 and 3 (game 1 over).",
           "Still open: game 3 (games 1 and 2 over)."],
    "de": ["Noch offen: Partien 2 und 3 (Partie 1 vorbei).",
           "Noch offen: Partie 3 (Partien 1 und 2 vorbei)."],
    # Russian's plural forms: "идут ... партии" for two, "идёт ... партия" for one
    "ru": ["Ещё идут: партии 2 и 3 (партия 1 окончена).",
           "Ещё идёт: партия 3 (партии 1 и 2 окончены)."],
}


@pytest.fixture
def evening(keeper):
    table = services.table_create(name="Basement", scorekeepers=[keeper])
    return services.session_create(table=table, currency="USD", rate="0.01", created_by=keeper)


def server_line(game, language) -> str:
    with translation.override(language):
        return open_games_text(game_result(game))


@pytest.mark.parametrize("language", ["en", "de", "ru"])
def test_offline_hollywoods_open_games_are_the_phones_and_then_the_servers(
        browser, live_server, keeper, evening, language):
    game = start(evening, keeper, "hollywood")
    context, page = open_phone(browser, live_server, language)
    boot(page, live_server, game, None)
    line = page.locator("#next .open-games")
    expect(line).to_have_text(server_line(game, language))  # all three open
    context.set_offline(True)

    phone = []
    for i in range(2):
        duel(page, 1, "Sal", {1: "90"}, kind="gin")
        page.locator("form[data-offline-queue] button[type=submit]").click()
        expect(page.locator("#next .next-title")).to_contain_text(str(i + 2), timeout=5_000)
        expect(page.locator(".scoreboard.unsaved")).to_have_count(1)
        expect(line).to_have_text(SAID[language][i])
        expect(page.locator("#next .open-games")).to_have_count(1)
        phone.append(line.inner_text())
        if i == 0:
            page.locator("#next").scroll_into_view_if_needed()
            settled(page)
            shot(page, f"offline-hollywood-open-{language}", full_page=False)
            page.set_viewport_size({"width": 1280, "height": 800})
            settled(page)
            shot(page, f"offline-hollywood-open-{language}-1280", full_page=False)
            page.set_viewport_size({"width": 360, "height": 740})

    context.set_offline(False)
    expect(page.locator(".scoreboard.unsaved")).to_have_count(0, timeout=20_000)
    expect(page.locator("#offline-queue")).to_be_hidden(timeout=20_000)
    assert Hand.objects.filter(game=game, voided_at=None).count() == 2
    assert server_line(game, language) == phone[-1]
    expect(line).to_have_text(phone[-1])  # the server's parts, in place
    page.reload()
    expect(line).to_have_text(phone[-1])
    context.close()
