"""A whole game recorded from the cards alone scores exactly as the same game from counts."""

import random

import pytest

from ledger.rules import RecordError, score_record
from ledger.rules.cards import CARDS, score_cards

from .helpers import record


def deals(seed, count, limit=10):
    """Random legal knocks: (knocker cards, opponent cards, K, O)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        deck = list(CARDS)
        rng.shuffle(deck)
        # Bias towards melds: sort a slice so runs and sets turn up.
        knocker, opponent = sorted(deck[:14], key=lambda c: (c.suit, c.rank))[:10], deck[14:24]
        outcome = score_cards(knocker, opponent, knock_limit=limit)
        if outcome.legal:
            found.append((" ".join(map(str, knocker)), " ".join(map(str, opponent)),
                          outcome.knocker_deadwood, outcome.opponent_deadwood))
    return found


def test_gin_game_from_cards_alone_equals_the_game_from_counts():
    by_cards, by_counts = [], []
    for i, (k_cards, o_cards, k, o) in enumerate(deals(7, 12)):
        knocker, opponent = ("A", "B") if i % 3 else ("B", "A")
        by_cards.append({"knocker": knocker, "cards": {knocker: k_cards, opponent: o_cards}})
        by_counts.append({"knocker": knocker, "deadwood": {knocker: k, opponent: o}})
    rules = {"target": 10_000}
    from_cards = score_record(record(hands=by_cards, rules=rules))
    from_counts = score_record(record(hands=by_counts, rules=rules))
    assert from_cards["totals"] == from_counts["totals"]
    assert [h["points"] for h in from_cards["hands"]] == [h["points"] for h in
                                                          from_counts["hands"]]
    assert all("layout" in h for h in from_cards["hands"])
    assert from_cards["totals"]["A"]["hand_points"] > 0


def test_box_game_from_cards_follows_the_rotation():
    (k_cards, o_cards, k, o), = deals(11, 1)
    hands = [{"knocker": "P", "cards": {"P": k_cards, "Q": o_cards}}]
    out = score_record(record("box", ("P", "Q", "R"), hands))
    assert out["hands"][0]["deadwood"] == {"P": k, "Q": o}
    bad = [{"knocker": "P", "cards": {"P": k_cards, "R": o_cards}}]
    with pytest.raises(RecordError) as caught:
        score_record(record("box", ("P", "Q", "R"), bad))
    assert caught.value.problems[0].startswith("hand 1: cards.R: R is not playing this hand")


def test_oklahoma_limit_applies_to_cards():
    hand = {"knocker": "A", "upcard": "3D",
            "cards": {"A": "AS 2S 3S 4H 5H 6H 7C 7D 7H 9C",
                      "B": "KD KC QD QC JD JC 10S 9S 8D 2D"}}
    with pytest.raises(RecordError) as caught:
        score_record(record("oklahoma", hands=[hand]))
    (line,) = caught.value.problems
    assert line.startswith("hand 1: cards.A: knocker deadwood 9 is above the knock limit 3")
    hand["upcard"] = "9D"
    out = score_record(record("oklahoma", hands=[hand]))
    assert out["hands"][0]["deadwood"]["A"] == 9


def test_bad_cards_name_the_player_and_card():
    hand = {"knocker": "A", "cards": {"A": "AS 2S 3S 4H 5H 6H 7C 7D 7H 1X",
                                      "B": "KD KC QD QC JD JC 10S 9S 8D 2D"}}
    with pytest.raises(RecordError) as caught:
        score_record(record(hands=[hand]))
    (line,) = caught.value.problems
    assert line.startswith('hand 1: cards.A: "1X"')


def test_shared_card_between_hands_is_refused():
    hand = {"knocker": "A", "cards": {"A": "AS 2S 3S 4H 5H 6H 7C 7D 7H 9C",
                                      "B": "KD KC QD QC JD JC 10S 9S 8D 9C"}}
    with pytest.raises(RecordError) as caught:
        score_record(record(hands=[hand]))
    assert caught.value.problems == ['hand 1: cards: "9C" is in both hands']
