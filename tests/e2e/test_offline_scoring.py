"""Issue 41 on the keeper's phone, in Chromium at 360x740 in English and German: with the
connection cut after the game page loaded and the phone's core (Pyodide in a Web Worker) is
ready, a hand kept on the phone is scored there and the page's tiles show the totals and who
deals next, marked "not yet saved"; a hand the rules refuse is refused at its field and not
kept; back online the hand is stored once and the page shows the server's numbers, the same.
Expected numbers are the rules' (RULES.md §2, two-hand gin, standard preset: a knock of 2
against 20 scores 18 to the knocker, who deals next; a knock above 10 is refused)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from ledger import services
from ledger.models import Hand
from tests.factories import gin_game

from .helpers import duel, login, score, shot, wait_for_async

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
BOOT_MS = 90_000
WORDS = {
    "en": {"save": "Save hand {}", "unsaved": "not yet saved", "refused": "The rules refuse"},
    "de": {"save": "Spiel {} speichern", "unsaved": "noch nicht gespeichert",
           "refused": "Die Regeln lassen dieses Spiel nicht zu"},
}


# the record the phone keeps for a game (static/ledger/queue/records.js), read as a page does
KEPT = """(game) => new Promise((resolve) => {
  const request = indexedDB.open("tablestakes", 1);
  request.onsuccess = () => {
    const get = request.result.transaction("records").objectStore("records").get(game);
    get.onsuccess = () => resolve(get.result ? JSON.parse(get.result.text) : null);
  };
})"""


@pytest.fixture
def gin(keeper):
    table = services.table_create(name="Basement", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="USD", rate="0.01",
                                      created_by=keeper)
    return gin_game(session, keeper, preset="standard")


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_hand_kept_offline_is_scored_on_the_phone(browser, live_server, keeper, gin, language):
    words = WORDS[language]
    context = browser.new_context(viewport=PHONE, service_workers="block", locale=language)
    page = context.new_page()
    login(page, live_server.url, "keeper")
    page.goto(live_server.url + reverse("ledger:game_detail", args=[gin.pk]))
    expect(page.get_by_role("button", name=words["save"].format(1))).to_be_visible()
    client = page.locator("#core-worker").get_attribute("src")
    page.evaluate(f"async () => {{ await (await import({client!r})).start(); }}")
    wait_for_async(page, f"""async () => (await import({client!r})).state() === "ready" """,
                   timeout=BOOT_MS)
    # the game's record kept beside the queue, in IndexedDB (queue/records.js)
    kept = page.evaluate(KEPT, str(gin.pk))
    assert kept["players"] == ["Ann", "Bob"] and kept["hands"] == []
    context.set_offline(True)

    # a knock of 12: above the knock limit, refused at Ann's count, nothing kept
    duel(page, 1, "Ann", {0: "12", 1: "20"})
    page.get_by_role("button", name=words["save"].format(1)).click()
    error = page.locator("#id_t1_c0_error")
    expect(error).to_contain_text("12", timeout=5_000)  # the core's words at the field
    expect(page.locator("#save-error")).to_contain_text(words["refused"])
    assert page.evaluate(f"localStorage.getItem('tablestakes.queue.v1.{gin.pk}')") in (None, "[]")
    expect(page.locator("#offline-queue")).to_be_hidden()
    shot(page, f"offline-refused-{language}", full_page=False)

    # a knock of 2 against 20: Ann's 18 within 5 s, not yet saved; Ann deals next
    page.fill("input[name=t1_c0]", "2")
    page.get_by_role("button", name=words["save"].format(1)).click()
    expect(page.locator(".score-tile[data-key='Ann'] .score-value")).to_have_text("18",
                                                                                   timeout=5_000)
    assert score(page, "Bob") == "0"
    expect(page.locator(".score-strip .strip-item[data-key='Ann'] b")).to_have_text("18")
    expect(page.locator(".scoreboard.unsaved")).to_have_count(1)
    expect(page.locator("#score-pending")).to_contain_text(words["unsaved"])
    expect(page.locator("#next .dealer-badge + b")).to_have_text("Ann")
    expect(page.get_by_role("button", name=words["save"].format(2))).to_be_visible()
    page.locator(".scoreboard").scroll_into_view_if_needed()
    shot(page, f"offline-scored-{language}", full_page=False)
    page.set_viewport_size({"width": 1280, "height": 800})
    shot(page, f"offline-scored-wide-{language}", full_page=False)
    page.set_viewport_size(PHONE)
    assert Hand.objects.filter(game=gin).count() == 0

    # back online: sent once, the server's numbers replace the phone's
    context.set_offline(False)
    expect(page.locator(".scoreboard.unsaved")).to_have_count(0, timeout=15_000)
    expect(page.locator("#offline-queue")).to_be_hidden()
    phone_text = score(page, "Ann")
    assert phone_text == "18"
    hands = list(Hand.objects.filter(game=gin, voided_at=None).values_list("number", "entry"))
    assert hands == [(1, {"knocker": "Ann", "deadwood": {"Ann": 2, "Bob": 20}})]
    page.reload()
    assert score(page, "Ann") == phone_text
    assert score(page, "Bob") == "0"
    context.close()


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_captain_seven_hand_kept_offline_is_scored_on_the_phone(browser, live_server, keeper,
                                                                   language):
    """Captain play with seven (three tables, roles): the phone's tiles after a hand kept
    offline are the core's totals, written as the server writes them, and the server's
    page after the hand is sent shows the very same."""
    from django.utils import translation

    from ledger.selectors.games import game_record
    from ledger.selectors.games import score as core_score
    from ledger.templatetags.money import points

    from .phone_games import start

    words = WORDS[language]
    table = services.table_create(name="Basement", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="USD", rate="0.01",
                                      created_by=keeper)
    game = start(session, keeper, "captain7")
    context = browser.new_context(viewport=PHONE, service_workers="block", locale=language)
    page = context.new_page()
    login(page, live_server.url, "keeper")
    page.goto(live_server.url + reverse("ledger:game_detail", args=[game.pk]))
    expect(page.get_by_role("button", name=words["save"].format(1))).to_be_visible()
    client = page.locator("#core-worker").get_attribute("src")
    page.evaluate(f"async () => {{ await (await import({client!r})).start(); }}")
    wait_for_async(page, f"""async () => (await import({client!r})).state() === "ready" """,
                   timeout=BOOT_MS)
    schema = page.evaluate("JSON.parse(document.getElementById('hand-form-fields').textContent)")
    context.set_offline(True)

    parts = []
    for i, t in enumerate(schema["tables"], start=1):
        a, b = t["players"]
        duel(page, i, a, {0: str(2 + i), 1: str(20 + 5 * i)})
        parts.append({"knocker": a, "deadwood": {a: 2 + i, b: 20 + 5 * i}})
    record = game_record(game)
    record["hands"].append({"tables": parts})
    result = core_score(record)
    with translation.override(language):
        expected = {key: points(t["final"]) for key, t in result["totals"].items()}
    assert any(t["final"] for t in result["totals"].values())
    page.get_by_role("button", name=words["save"].format(1)).click()
    expect(page.locator(".scoreboard.unsaved")).to_have_count(1, timeout=5_000)
    shown = {key: score(page, key) for key in expected}
    assert shown == expected
    expect(page.locator("#score-pending")).to_contain_text(words["unsaved"])
    page.locator(".scoreboard").scroll_into_view_if_needed()
    shot(page, f"offline-captain7-{language}", full_page=False)

    context.set_offline(False)
    expect(page.locator(".scoreboard.unsaved")).to_have_count(0, timeout=15_000)
    assert Hand.objects.filter(game=game, voided_at=None).count() == 1
    page.reload()
    assert {key: score(page, key) for key in expected} == shown
    context.close()


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_capit_round_kept_offline_is_scored_on_the_phone(browser, live_server, keeper,
                                                           language):
    """CAP-IT (four players, rounds): a round kept offline shows the core's totals as the
    server writes them; the server's page agrees once it is sent."""
    from django.utils import translation

    from ledger.selectors.games import game_record
    from ledger.selectors.games import score as core_score
    from ledger.templatetags.money import points

    from .helpers import tap
    from .phone_games import start

    table = services.table_create(name="Basement", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="USD", rate="0.01",
                                      created_by=keeper)
    game = start(session, keeper, "capit4")
    context = browser.new_context(viewport=PHONE, service_workers="block", locale=language)
    page = context.new_page()
    login(page, live_server.url, "keeper")
    page.goto(live_server.url + reverse("ledger:game_detail", args=[game.pk]))
    expect(page.locator("input[name=pts_0]")).to_be_visible()
    client = page.locator("#core-worker").get_attribute("src")
    page.evaluate(f"async () => {{ await (await import({client!r})).start(); }}")
    wait_for_async(page, f"""async () => (await import({client!r})).state() === "ready" """,
                   timeout=BOOT_MS)
    record = game_record(game)
    players = record["players"]
    context.set_offline(True)

    out = players[1]
    typed = {name: 10 + 5 * j for j, name in enumerate(players) if name != out}
    tap(page, "went_out", out)
    for j, name in enumerate(players):
        if name != out:
            page.fill(f"input[name=pts_{j}]", str(typed[name]))
    record["hands"].append({"went_out": out, "points": typed})
    result = core_score(record)
    with translation.override(language):
        expected = {key: points(t["final"]) for key, t in result["totals"].items()}
    page.locator("form[data-offline-queue] button[type=submit]").click()
    expect(page.locator(".scoreboard.unsaved")).to_have_count(1, timeout=5_000)
    shown = {key: score(page, key) for key in expected}
    assert shown == expected
    page.locator(".scoreboard").scroll_into_view_if_needed()
    shot(page, f"offline-capit-{language}", full_page=False)

    context.set_offline(False)
    expect(page.locator(".scoreboard.unsaved")).to_have_count(0, timeout=15_000)
    assert Hand.objects.filter(game=game, voided_at=None).count() == 1
    page.reload()
    assert {key: score(page, key) for key in expected} == shown
    context.close()
