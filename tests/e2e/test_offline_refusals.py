"""Issue 41 on the keeper's phone, Chromium at 360x740, English and German: with the
connection cut, a hand the rules refuse is refused by the phone's core at its field, in the
very words the server's form puts there for the same hand (so, in German, the catalogs'
sentence with the core's numbers), and it is not kept: nothing in the queue, no hand
stored. Expected refusals are the rules' (RULES.md §2: the knock limit is 10, so a knock of
12 is refused; Oklahoma's up-card 3 sets a knock limit of 3, so a knock of 5 is;
CAP-IT: a player who went out holds no points, and no cards make 1 point)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ledger.models import Hand
from tests.factories import gin_game

from .helpers import duel, shot, tap
from .phone_games import start
from .test_offline_roles import boot, open_phone

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

@pytest.fixture
def evening(keeper):
    from ledger import services
    table = services.table_create(name="Basement", scorekeepers=[keeper])
    return services.session_create(table=table, currency="USD", rate="0.01", created_by=keeper)


def errors(page, fields):
    return {name: page.locator(f"#id_{name}_error").inner_text() for name in fields}


def the_refusal(page, game, fields, type_hand, key, language):
    """The hand typed and saved offline, then online: the words at ``fields`` each time."""
    submit = page.locator("form[data-offline-queue] button[type=submit]")
    type_hand(page)
    submit.click()
    for name in fields:
        expect(page.locator(f"#id_{name}_error")).to_be_visible(timeout=5_000)
    phone = errors(page, fields)
    expect(page.locator("#save-error")).to_be_visible()
    assert page.evaluate(f"localStorage.getItem('tablestakes.queue.v1.{game.pk}')") in (None, "[]")
    expect(page.locator("#offline-queue")).to_be_hidden()
    assert Hand.objects.filter(game=game).count() == 0
    page.locator(f"#id_{fields[0]}_error").scroll_into_view_if_needed()
    shot(page, f"offline-refused-{key}-{language}", full_page=False)
    return phone


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("key", ["gin", "oklahoma", "captain7", "capit4"])
def test_a_refused_hand_is_worded_at_its_field_as_the_server_words_it(
        browser, live_server, keeper, evening, key, language):
    if key == "gin":
        game = gin_game(evening, keeper, preset="standard")
        fields = ["t1_c0"]

        def type_hand(page):
            duel(page, 1, "Ann", {0: "12", 1: "20"})
    elif key == "oklahoma":  # RULES §3.1: the up-card 3 sets the knock limit to 3
        game = start(evening, keeper, key)
        fields = ["t1_c0"]

        def type_hand(page):
            tap(page, "up_rank", "3")
            tap(page, "up_suit", "S")
            duel(page, 1, "Sal", {0: "5", 1: "20"})
    elif key == "captain7":
        game = start(evening, keeper, key)
        fields = ["t2_c0"]

        def type_hand(page):
            schema = page.evaluate(
                "JSON.parse(document.getElementById('hand-form-fields').textContent)")
            for i, t in enumerate(schema["tables"], start=1):
                duel(page, i, t["players"][0], {0: "12" if i == 2 else "3", 1: str(20 + i)})
    else:
        game = start(evening, keeper, key)
        fields = ["pts_1"]

        def type_hand(page):
            players = page.evaluate(
                "JSON.parse(document.getElementById('game-record').textContent).players")
            tap(page, "went_out", players[0])
            for j, value in enumerate(["", "1", "10", "20"]):
                if value:
                    page.fill(f"input[name=pts_{j}]", value)

    context, page = open_phone(browser, live_server, language)
    boot(page, live_server, game, None)
    context.set_offline(True)
    phone = the_refusal(page, game, fields, type_hand, key, language)
    assert all(phone.values())
    if key in ("gin", "captain7"):  # the core's numbers: 12 is above the knock limit of 10
        assert all("12" in text and "10" in text for text in phone.values()), phone
    if key == "oklahoma":  # 5 is above the up-card's limit of 3
        assert all("5" in text and "3" in text for text in phone.values()), phone
    if language == "de":  # the catalogs' German, not the core's English
        assert not any("count" in text or "points" in text for text in phone.values()), phone

    # the same hand sent to the server (online): its form says the very same at the field
    context.set_offline(False)
    page.locator("form[data-offline-queue] button[type=submit]").click()
    expect(page.locator("#save-error")).to_be_visible(timeout=10_000)
    page.wait_for_function("() => !document.querySelector('form[data-offline-queue] "
                           "button[type=submit]').disabled")
    for name in fields:
        expect(page.locator(f"#id_{name}_error")).to_be_visible()
    server = errors(page, fields)
    assert phone == server
    assert Hand.objects.filter(game=game).count() == 0
    context.close()
