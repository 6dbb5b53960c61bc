"""The card preview's verdict is the scorer's (issue 10): for many deals, the preview says
the same result, winner and points as the game scores for that hand."""

from __future__ import annotations

import random

import pytest

from ledger.presentation.cards import preview_context
from ledger.rules import RecordError, score_record

DECK = [rank + suit for suit in "SHDC"
        for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")]


def deals(seed: int, count: int):
    rng = random.Random(seed)
    made = 0
    while made < count:
        cards = rng.sample(DECK, 20)
        yield " ".join(cards[:10]), " ".join(cards[10:])
        made += 1


# random hands seldom knock under 10: high limits make most deals legal knocks, with
# undercuts and ties among them
@pytest.mark.parametrize("rules", [
    {}, {"knock_limit": 98}, {"knock_limit": 98, "undercut_on_tie": False},
    {"knock_limit": 60, "undercut_bonus": 10, "gin_bonus": 20},
])
def test_the_preview_says_what_the_scorer_scores(rules):
    checked = 0
    for ann, bob in deals(len(str(rules)), 150):
        context = preview_context(ann, bob, kname="Ann", oname="Bob", rules=rules)
        outcome = context["outcome"]
        record = {"variant": "gin", "players": ["Ann", "Bob"], "rules": rules,
                  "setup": {"first_dealer": "Bob"},
                  "hands": [{"knocker": "Ann", "cards": {"Ann": ann, "Bob": bob}}]}
        try:
            hand = score_record(record)["hands"][0]
        except RecordError:
            assert not outcome["legal"] and outcome["verdict"] == ""
            continue
        assert outcome["legal"]
        assert (outcome["result"], outcome["winner"], outcome["points"]) == (
            hand["result"], hand["winner"], hand["points"][hand["winner"]])
        assert f"{hand['winner']} +{hand['points'][hand['winner']]}" in outcome["verdict"]
        checked += 1
    if rules.get("knock_limit", 10) > 10:
        assert checked >= 75  # the deals include legal knocks, not only refusals
