"""The street cards of a streets game (presentation.streets, RULES 3.9): every number is the
core's result, and the score tiles say the game points G, not a sum of street totals."""

from __future__ import annotations

import json

from django.utils import translation

from ledger.presentation.money import scores, totals
from ledger.presentation.streets import streets_block
from ledger.rules import score_record
from tests.rules.helpers import DATA


def _result(hands: int | None = None) -> dict:
    record = json.loads((DATA / "club" / "streets-game.json").read_text())
    if hands is not None:
        record["hands"] = record["hands"][:hands]
    return score_record(record)


def test_street_cards_are_the_cores_numbers():
    result = _result(4)
    with translation.override("en"):
        block = streets_block(result)
    assert [c.number for c in block.cards] == [1, 2, 3]
    one, two, three = block.cards
    assert one.complete and one.state == "WE out in hand 4"
    we, they = one.sides
    assert (we.key, we.hand_points, we.boxes, we.street_bonus, we.final, we.out) == (
        "WE", 139, 2, 100, 239, True)
    assert (they.hand_points, they.final, they.to_go, they.out) == (47, 47, None, False)
    assert one.net == 192 and one.winner_label == "WE"
    assert not two.complete and two.state == "open"
    assert [(s.hand_points, s.boxes, s.to_go) for s in two.sides] == [(79, 1, 21), (15, 1, 85)]
    assert [(s.hand_points, s.to_go) for s in three.sides] == [(0, 100), (0, 100)]
    assert [(g.key, g.value, g.leader) for g in block.game_points] == [
        ("WE", 256, True), ("THEY", -256, False)]
    assert result["game_points"]["WE"] == 256
    assert not block.sweep


def test_the_tiles_say_game_points_not_the_sum_of_streets():
    result = _result(4)
    with translation.override("en"):
        tiles = scores(result)
    assert [(t.key, t.value, t.signed) for t in tiles] == [("WE", 256, True),
                                                           ("THEY", -256, True)]
    assert tiles[0].detail == "streets 239 \u00b7 79 \u00b7 0"
    assert totals(result) == []  # no "Score so far" of hand points counted twice


def test_a_whole_game_settles_every_street_from_the_core():
    result = _result()
    block = streets_block(result)
    assert block.complete == result["complete"]
    for card, street in zip(block.cards, result["streets"], strict=True):
        assert card.complete == street["complete"]
        for side in card.sides:
            t = street["totals"][side.key]
            assert (side.hand_points, side.boxes, side.street_bonus, side.box_advantage,
                    side.clean_sweep, side.final) == (
                t["hand_points"], t["boxes"], t["street_bonus"], t["box_advantage"],
                t["clean_sweep"], t["final"])
    assert {g.key: g.value for g in block.game_points} == result["game_points"]
    assert block.sweep == result["sweep"]


def test_no_streets_no_block():
    record = {"format": "tablestakes.game/1", "variant": "gin", "players": ["A", "B"],
              "setup": {"first_dealer": "A"}, "hands": []}
    assert streets_block(score_record(record)) is None
