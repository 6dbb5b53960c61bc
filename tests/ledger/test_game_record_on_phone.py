"""Issue 41: the keeper's phone keeps the game's record (what ``export_game`` writes) with
the hand form, fresh after every page load and every Save, so that with no connection its
copy of the core can score the hands it keeps (static/ledger/queue/scoring.js)."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from ledger.selectors.games import game_record
from tests.factories import gin_game

pytestmark = pytest.mark.django_db

KNOCK = {"knocker": "Ann", "deadwood": {"Ann": 5, "Bob": 20}}


def record_in(html: str) -> dict:
    found = re.search(r'<script id="game-record" type="application/json">(.*?)</script>',
                      html, re.S)
    assert found, "no game record on the page"
    return json.loads(found.group(1))


def test_the_game_page_hands_the_phone_the_exported_record(client, session, keeper):
    game = gin_game(session, keeper, preset="standard", hands=[KNOCK])
    client.force_login(keeper)
    html = client.get(reverse("ledger:game_detail", args=[game.pk])).content.decode()
    record = record_in(html)
    assert record == game_record(game)
    assert record["players"] == ["Ann", "Bob"]
    assert record["setup"] == {"first_dealer": "Bob"}
    assert record["hands"] == [KNOCK]


def test_the_record_comes_back_with_the_form_after_a_save(client, session, keeper):
    game = gin_game(session, keeper, preset="standard")
    client.force_login(keeper)
    html = client.post(reverse("ledger:hand_create", args=[game.pk]),
                       {"key": "3f0a8f4e-93a4-4b8e-9d7b-3f2c1b0a9e11", "number": "1",
                        "t1_knocker": "Ann", "t1_kind": "knock", "t1_c0": "2", "t1_c1": "20"},
                       HTTP_HX_REQUEST="true").content.decode()
    assert record_in(html)["hands"] == [{"knocker": "Ann", "deadwood": {"Ann": 2, "Bob": 20}}]
