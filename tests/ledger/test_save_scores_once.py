"""Issue 42: a Save scores the game once. The send view scored the game before the hand
(its form's spec, the next number) and the service scored it again with the new hand."""

from __future__ import annotations

import uuid
from collections import OrderedDict

import pytest
from django.urls import reverse

from ledger import rules as core
from ledger import services
from ledger.selectors import games
from ledger.selectors.games import game_result
from tests.factories import gin_game

pytestmark = pytest.mark.django_db


def _game_of(session, keeper, hands: int):
    game = gin_game(session, keeper, rules={"target": 100_000})
    for number in range(1, hands + 1):
        services.hand_record(game=game, entry={"draw": True} if number % 2 else
                             {"knocker": "Bob", "deadwood": {"Bob": 1, "Ann": 9}},
                             recorded_by=keeper, idempotency_key=uuid.uuid4(), number=number)
    return game


@pytest.fixture
def scorings(monkeypatch):
    monkeypatch.setattr(games, "_SCORED", OrderedDict(), raising=False)  # none kept
    calls: list[int] = []
    real = core.score_record

    def counted(record):
        calls.append(len(record["hands"]))
        return real(record)

    monkeypatch.setattr(core, "score_record", counted)
    return calls


@pytest.mark.parametrize("parts", [True, False])
def test_a_save_scores_the_game_once(session, keeper, logged_in, scorings, parts):
    game = _game_of(session, keeper, 30)
    scorings.clear()
    post = {"key": str(uuid.uuid4()), "number": "31", "t1_knocker": "Ann",
            "t1_kind": "knock", "t1_c0": "3", "t1_c1": "20"}
    if parts:
        post["parts"] = "31"
    answer = logged_in.post(reverse("ledger:hand_send", args=[game.pk]), post)
    assert answer.status_code == 201, answer.content[:300]
    assert answer.json()["number"] == 31
    assert scorings == [31]  # once, with the new hand
    assert game_result(game)["totals"]["Ann"]["hand_points"] == 17


def test_the_same_record_is_scored_once_and_each_caller_gets_its_own_result(scorings):
    record = {"format": "tablestakes.game/1", "variant": "gin", "rules": {"target": 100},
              "players": ["Ann", "Bob"], "setup": {"first_dealer": "Ann"},
              "abandoned": False,
              "hands": [{"knocker": "Ann", "deadwood": {"Ann": 3, "Bob": 20}}]}
    first = games.score(record)
    # the same record read back with its keys in another order
    again = dict(reversed(record.items()))
    again["hands"] = [{"deadwood": {"Bob": 20, "Ann": 3}, "knocker": "Ann"}]
    second = games.score(again)
    assert scorings == [1]
    assert second == first and second is not first
    assert second["totals"]["Ann"]["hand_points"] == 17
    first["totals"]["Ann"]["hand_points"] = 0  # a caller's change stays its own
    assert games.score(record)["totals"]["Ann"]["hand_points"] == 17
    # another hand: scored
    games.score({**record, "hands": [*record["hands"], {"draw": True}]})
    assert scorings == [1, 2]


def test_a_refused_record_is_refused_every_time(scorings):
    record = {"format": "tablestakes.game/1", "variant": "gin", "rules": {},
              "players": ["Ann", "Bob"], "setup": {}, "abandoned": False, "hands": []}
    for _ in range(2):
        with pytest.raises(core.RecordError):
            games.score(record)
    assert scorings == [0, 0]
