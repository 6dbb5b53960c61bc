"""One "already recorded" wording (issue 20): the service refuses a hand another phone
recorded first with the facts (which hand, by whom, when, the next one), the presentation
layer says them (``notices.taken_text``), and the phone's queue and the game page say the
same sentence."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from ledger import services
from ledger.exceptions import HandAlreadyRecorded
from ledger.models import Hand
from ledger.presentation import notices
from ledger.presentation.refusals import refusal_words
from tests.factories import gin_game
from tests.pages import text

pytestmark = pytest.mark.django_db

KNOCK = {"t1_knocker": "Ann", "t1_kind": "knock", "t1_c0": "5", "t1_c1": "20"}


def _first(game, keeper) -> Hand:
    services.hand_record(game=game, entry={"draw": True}, recorded_by=keeper,
                         idempotency_key=uuid.uuid4(), number=1)
    return Hand.objects.get(game=game, number=1)


def test_the_service_refuses_with_the_facts_and_the_presentations_words(session, keeper,
                                                                        other_keeper):
    game = gin_game(session, keeper)
    first = _first(game, keeper)
    with pytest.raises(HandAlreadyRecorded) as refused:
        services.hand_record(game=game, entry={"draw": True}, recorded_by=other_keeper,
                             idempotency_key=uuid.uuid4(), number=1)
    exc = refused.value
    assert (exc.number, exc.next_number, exc.by, exc.at) == (1, 2, "keeper", first.recorded_at)
    assert exc.hand == first and not exc.replaced
    assert refusal_words(exc) == notices.taken_text(1, 2, "keeper", at=first.recorded_at)
    assert refusal_words(exc).startswith("Hand 1 is already recorded by keeper at ")
    assert refusal_words(exc).endswith(": another phone was quicker. The next hand is 2.")


def test_the_queue_and_the_game_page_say_the_services_sentence(client, session, keeper):
    game = gin_game(session, keeper, preset="standard")
    first = _first(game, keeper)
    said = notices.taken_text(1, 2, "keeper", at=first.recorded_at)
    client.force_login(keeper)
    queued = client.post(reverse("ledger:hand_send", args=[game.pk]),
                         {"key": str(uuid.uuid4()), "number": "1", **KNOCK})
    assert queued.status_code == 409 and queued.json()["message"] == said
    page = client.post(reverse("ledger:hand_create", args=[game.pk]),
                       {"key": str(uuid.uuid4()), "number": "1", **KNOCK})
    assert page.status_code == 409 and " ".join(said.split()) in " ".join(text(page).split())
    assert Hand.objects.filter(game=game).count() == 1


def test_changing_the_words_changes_every_place_that_says_them(client, session, keeper,
                                                               monkeypatch, other_keeper):
    monkeypatch.setattr(notices, "taken_text",
                        lambda typed, next_number, who="", *, at=None:
                        f"Too late for hand {typed} ({who}); now {next_number}.")
    game = gin_game(session, keeper, preset="standard")
    _first(game, keeper)
    with pytest.raises(HandAlreadyRecorded) as taken:
        services.hand_record(game=game, entry={"draw": True}, recorded_by=other_keeper,
                             idempotency_key=uuid.uuid4(), number=1)
    assert refusal_words(taken.value) == "Too late for hand 1 (keeper); now 2."
    client.force_login(keeper)
    page = client.post(reverse("ledger:hand_create", args=[game.pk]),
                       {"key": str(uuid.uuid4()), "number": "1", **KNOCK})
    assert "Too late for hand 1 (keeper); now 2." in text(page)
