"""A stale tab (issue 21, item 10): another phone already saved the hand this phone is
typing. The explanation and its choices are shown at the form, inside the 360x740 screen:
online and offline alike (the page's queue sends the hand, hears that its number is taken,
and shows the game as it is now with the stopped hand, "Send it as hand 10" and "Discard",
above the form and brought into view after the page is drawn again)."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from ledger import services
from ledger.models import Hand
from tests.factories import gin_game

from .helpers import duel, login, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}

# the element's whole box inside the screen, under the top bar (and the score strip)
IN_VIEW = """(el) => {
  const r = el.getBoundingClientRect();
  const strip = document.querySelector('.score-strip');
  const top = strip && getComputedStyle(strip).display !== 'none'
    ? strip.getBoundingClientRect().bottom : 56;
  return r.height > 0 && r.top >= top - 0.5 && r.bottom <= window.innerHeight + 0.5
    ? 'ok' : r.top + '..' + r.bottom + ' (screen ' + top + '..' + window.innerHeight + ')';
}"""


@pytest.fixture
def gin(keeper):
    table = services.table_create(name="Basement", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="USD", rate="0.01",
                                      created_by=keeper)
    game = gin_game(session, keeper, preset="standard")
    for number in range(1, 9):  # a page long enough for a fold
        services.hand_record(game=game, entry={"knocker": "Ann", "deadwood": {"Ann": 2,
                                                                              "Bob": 9}},
                             recorded_by=keeper, idempotency_key=uuid.uuid4(), number=number)
    return game


def _open(page, base, game):
    page.set_viewport_size(PHONE)
    login(page, base, "keeper")
    page.goto(f"{base}/games/{game.pk}/")
    page.locator("#entry").evaluate("el => el.scrollIntoView({block: 'start'})")


def _stopped_hand_in_view(page, name: str):
    head = page.locator("#offline-queue .queue-item").first
    expect(head).to_have_attribute("data-state", "stale", timeout=15_000)
    why = head.locator(".queue-why")
    expect(why).to_contain_text("Hand 9 is already recorded by keeper")
    send = page.get_by_role("button", name="Send it as hand 10")
    discard = page.get_by_role("button", name="Discard this hand")
    # at the form: the list is right above it, and on the screen with its choices
    assert page.evaluate("document.querySelector('#offline-queue').nextElementSibling.id") \
        == "entry"
    page.wait_for_function("() => document.querySelector('#offline-queue').dataset.shown")
    page.wait_for_timeout(300)  # (a late scroll would show here)
    for el in (why, send, discard):
        assert el.evaluate(IN_VIEW) == "ok", el
    shot(page, name, full_page=False)
    send.click()
    expect(page.locator(".flash")).to_contain_text("Hand 10 recorded", timeout=15_000)
    # the list, empty again, follows the form
    assert page.evaluate("document.querySelector('#entry').nextElementSibling.id") \
        == "offline-queue"


def test_online_a_hand_another_phone_saved_first_is_explained_at_the_form(
        page, live_server, gin, keeper):
    _open(page, live_server.url, gin)
    duel(page, 1, "Ann", {0: "5", 1: "20"})
    # meanwhile another phone records hand 9 (a draw)
    services.hand_record(game=gin, entry={"draw": True}, recorded_by=keeper,
                         idempotency_key=uuid.uuid4(), number=9)
    page.get_by_role("button", name="Save hand 9").click()
    _stopped_hand_in_view(page, "stale-online-360")
    assert Hand.objects.filter(game=gin, voided_at=None).count() == 10


def test_offline_the_stopped_hand_and_its_choices_are_in_view(page, context, live_server,
                                                                gin, keeper):
    _open(page, live_server.url, gin)
    context.set_offline(True)
    duel(page, 1, "Ann", {0: "5", 1: "20"})
    page.get_by_role("button", name="Save hand 9").click()
    expect(page.get_by_role("button", name="Save hand 10")).to_be_visible()
    services.hand_record(game=gin, entry={"draw": True}, recorded_by=keeper,
                         idempotency_key=uuid.uuid4(), number=9)
    context.set_offline(False)
    _stopped_hand_in_view(page, "stale-offline-360")
    assert Hand.objects.filter(game=gin, voided_at=None).count() == 10
