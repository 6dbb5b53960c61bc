"""Issue 41 on the keeper's phone, Chromium at 360x740, English and German: the Save's
scoring begins while the keeper looks at the hand. Once the form holds a whole hand and
nothing has been typed for a moment, the phone's core scores the queue with that hand; a
Save of that very hand shows that answer (no second scoring), and a hand changed after it
was scored ahead is scored again: the totals, the list's words and the hand kept are always
the hand as saved. Offline and "instant" (online, the request held). Expected numbers are
the rules' (RULES.md §2: a knock of 2 against 20 scores 18 to the knocker, against 30: 28).
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from ledger.models import Hand

from . import test_offline_instant
from .helpers import duel, score, shot
from .test_offline_instant import hold_sends
from .test_offline_roles import boot, open_phone

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

gin = test_offline_instant.gin  # the fixture: a standard gin game of Ann and Bob
BUTTON = "form[data-offline-queue] button[type=submit]"
UNSAVED = {"en": "not yet saved", "de": "noch nicht gespeichert"}
# every record the page hands the phone's core to score, counted in the page
COUNT_SCORES = """
const post = Worker.prototype.postMessage;
window.__scores = [];
Worker.prototype.postMessage = function (message, ...rest) {
  if (message && message.type === "score") window.__scores.push(message.added || []);
  return post.call(this, message, ...rest);
};
"""


def scored(page) -> list:
    """The hands added to each record handed to the core so far (Bob's count in each)."""
    return [[hand["deadwood"]["Bob"] for hand in added]
            for added in page.evaluate("() => window.__scores")]


def looked(page, count: int) -> None:
    """The keeper looks at the hand: the core has had it (count records in all) and answered."""
    page.wait_for_function("(n) => window.__scores.length >= n", arg=count)
    page.wait_for_timeout(600)


def kept_summary(page, game) -> str:
    queue = page.evaluate(f"localStorage.getItem('tablestakes.queue.v1.{game.pk}')")
    return json.loads(queue)[-1]["summary"]


def phone_for(browser, live_server, gin, language, way):
    context, page = open_phone(browser, live_server, language)
    page.add_init_script(COUNT_SCORES)
    boot(page, live_server, gin, None)
    # the page keeps the core's module once the page is idle (offline.js readAhead)
    page.wait_for_timeout(1500)
    if way == "offline":
        context.set_offline(True)
        return context, page, []
    return context, page, hold_sends(page)


def back_online(context, page, held, way) -> None:
    """The connection back, or the held request let go once it has left (the instant Save
    sends it after the phone's totals are drawn)."""
    if way == "offline":
        context.set_offline(False)
        return
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert len(held) == 1
    held[0].continue_()
    page.unroute("**/hands/send/**")


@pytest.mark.parametrize("way", ["offline", "instant"])
@pytest.mark.parametrize("language", ["en", "de"])
def test_a_hand_scored_while_the_keeper_looks_is_not_scored_again_at_the_save(
        browser, live_server, keeper, gin, language, way):
    context, page, held = phone_for(browser, live_server, gin, language, way)
    duel(page, 1, "Ann", {0: "2", 1: "20"})
    looked(page, 1)
    assert scored(page) == [[20]]  # scored ahead, once: the hand as typed
    page.locator(BUTTON).click()
    expect(page.locator(".score-tile[data-key='Ann'] .score-value")).to_have_text("18")
    assert score(page, "Bob") == "0"
    expect(page.locator(".score-strip .strip-item[data-key='Ann'] b")).to_have_text("18")
    expect(page.locator("#score-pending")).to_contain_text(UNSAVED[language])
    assert scored(page) == [[20]]  # the Save took that answer: no second scoring
    assert "20" in kept_summary(page, gin)
    page.locator(".scoreboard").scroll_into_view_if_needed()
    shot(page, f"ahead-{way}-{language}", full_page=False)
    back_online(context, page, held, way)
    expect(page.locator(".scoreboard.unsaved")).to_have_count(0, timeout=15_000)
    assert score(page, "Ann") == "18"
    assert Hand.objects.filter(game=gin, voided_at=None).count() == 1
    context.close()


@pytest.mark.parametrize("way", ["offline", "instant"])
@pytest.mark.parametrize("language", ["en", "de"])
def test_a_hand_changed_after_it_was_scored_ahead_is_saved_as_changed(
        browser, live_server, keeper, gin, language, way):
    context, page, held = phone_for(browser, live_server, gin, language, way)
    duel(page, 1, "Ann", {0: "2", 1: "20"})
    looked(page, 1)
    # Bob's count changed and Save tapped at once: the answer scored ahead is not this hand
    page.fill("input[name=t1_c1]", "30")
    page.locator(BUTTON).click()
    expect(page.locator(".score-tile[data-key='Ann'] .score-value")).to_have_text("28")
    assert scored(page)[-1] == [30]
    assert "30" in kept_summary(page, gin) and "20" not in kept_summary(page, gin)
    back_online(context, page, held, way)
    expect(page.locator(".scoreboard.unsaved")).to_have_count(0, timeout=15_000)
    assert score(page, "Ann") == "28"
    hand = Hand.objects.get(game=gin, voided_at=None)
    assert hand.entry["deadwood"] == {"Ann": 2, "Bob": 30}
    context.close()


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_hand_changed_and_looked_at_again_is_scored_ahead_again(
        browser, live_server, keeper, gin, language):
    context, page, _held = phone_for(browser, live_server, gin, language, "offline")
    duel(page, 1, "Ann", {0: "2", 1: "20"})
    looked(page, 1)
    page.fill("input[name=t1_c1]", "30")
    looked(page, 2)
    assert scored(page) == [[20], [30]]
    page.locator(BUTTON).click()
    expect(page.locator(".score-tile[data-key='Ann'] .score-value")).to_have_text("28")
    assert scored(page) == [[20], [30]]
    # the second hand is scored ahead with the first one kept before it
    duel(page, 1, "Ann", {0: "3", 1: "10"})
    looked(page, 3)
    assert scored(page)[-1] == [30, 10]
    page.locator(BUTTON).click()
    expect(page.locator(".score-tile[data-key='Ann'] .score-value")).to_have_text("35")
    assert len(scored(page)) == 3
    context.close()


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_hand_is_scored_ahead_though_the_page_was_never_idle(
        browser, live_server, keeper, gin, language):
    """The page keeps the core's module once it is idle (readAhead); a page never idle
    (here: its idle callbacks never come) asks for the module when a hand is typed."""
    context, page = open_phone(browser, live_server, language)
    page.add_init_script("window.requestIdleCallback = () => 0;" + COUNT_SCORES)
    boot(page, live_server, gin, None)  # started by the test: the page's idle start never comes
    context.set_offline(True)
    duel(page, 1, "Ann", {0: "2", 1: "20"})
    looked(page, 1)
    assert scored(page) == [[20]]
    page.locator(BUTTON).click()
    expect(page.locator(".score-tile[data-key='Ann'] .score-value")).to_have_text("18")
    assert scored(page) == [[20]]
    context.close()
