"""What a hand's roles say, asked of the core (ledger.rules.catalog): who plays, who sits
out, who is in the box, captain play's opponents; and which variants' setups name the first
dealer and which are staked by an ante. Read off results the core scored from the records
in tests/data, so a change of the roles' words shows here."""

from __future__ import annotations

import json

import pytest

from ledger.rules.catalog import (
    first_dealer_chosen,
    hand_pair,
    in_the_box,
    opponents,
    plays_hand,
    sitting_out,
)
from ledger.rules.facts import ante_staked
from ledger.rules.game import score_record

from .helpers import DATA


def scored(name: str) -> dict:
    return score_record(json.loads((DATA / f"{name}.json").read_text()))


def test_the_box_hand_plays_the_box_first_and_leaves_the_third_out():
    result = scored("box-rotation")
    roles = result["hands"][0]["roles"]  # P in the box, Q his captain, R sits out
    assert hand_pair(roles) == ["P", "Q"]
    assert in_the_box(roles) == "P"
    assert sitting_out(roles) == ["R"]
    assert opponents(roles) == []
    # the pair is in playing order whatever order the roles come in
    assert hand_pair(dict(reversed(list(roles.items())))) == ["P", "Q"]


def test_captain_play_names_its_opponents_and_who_sits_out():
    result = scored("captain-five-money")
    roles = result["next"]["roles"]
    assert opponents(roles) == ["B1", "B3"]
    assert sitting_out(roles) == ["B2"]
    assert in_the_box(roles) is None
    three = scored("captain-three")["next"]["roles"]  # C captain, Y opponent, X out
    assert hand_pair(three) == ["C", "Y"]
    assert sitting_out(three) == ["X"]


def test_every_role_but_sitting_out_plays_the_hand():
    assert [plays_hand(role) for role in ("box", "captain", "opponent", "player")] == [True] * 4
    assert plays_hand("sits_out") is False


@pytest.mark.parametrize(("variant", "chosen", "ante"), [
    ("gin", True, False), ("oklahoma", True, False), ("hollywood", True, False),
    ("box", False, False), ("captain", False, False), ("partnership", False, False),
    ("cap-it", True, True), ("no-such-game", False, False)])
def test_who_deals_first_and_the_ante_are_the_variants_facts(variant, chosen, ante):
    assert first_dealer_chosen(variant) is chosen
    assert ante_staked(variant) is ante
