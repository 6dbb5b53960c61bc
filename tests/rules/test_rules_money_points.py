"""The money points RULES §6 decides (docs/RULES.md, following the shared canon), and
CAP-IT rounds that give both cards and points: one test for each."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest

from ledger.rules import RecordError, score_record
from ledger.rules.money import allocate_zero_sum, lower_amount_prevails

DATA = Path(__file__).resolve().parents[1] / "data"


def test_rounding_tie_break_prefers_the_move_that_shrinks_an_amount():
    # +1/3, +1/3, -2/3 of a cent: rounding gives 0, 0, -1 (one cent short); every remainder
    # is 1/3, and moving the -1 up to 0 makes an amount smaller, so it goes first.
    third = Fraction(1, 300)  # a third of a cent, in dollars
    assert allocate_zero_sum([third, third, -2 * third], 100) == [0, 0, 0]
    # ... not the +0.01, 0.00, -0.01 that growing the first amount would give; in any order
    assert allocate_zero_sum([-2 * third, third, third], 100) == [0, 0, 0]
    # +2/3, +2/3, -4/3: rounding gives 1, 1, -1 (one cent over); both 1s can shrink, and of
    # equal moves the later seat gives the unit up (the earlier is the last to lose one)
    assert allocate_zero_sum([2 * third, 2 * third, -4 * third], 100) == [1, 0, -1]


def test_equal_division_clamps_a_member_at_zero_and_the_others_share_the_rest():
    # Winners A (5 cents a point) and B (1 cent) against X and Y (1 cent each), 10 points:
    # the lower side (2 cents) prevails, 0.20 changes hands. The winners' reduction is
    # 0.60 - 0.20 = 0.40: an equal part of 0.20 each would make B pay (0.10 - 0.20), so B
    # drops to zero and A takes the rest of the cut: A +0.20, B 0.
    money = lower_amount_prevails(
        10, {"A": Fraction(5, 100), "B": Fraction(1, 100)},
        {"X": Fraction(1, 100), "Y": Fraction(1, 100)}, division="equal")
    assert money == {"A": Fraction(20, 100), "B": Fraction(0),
                     "X": Fraction(-10, 100), "Y": Fraction(-10, 100)}
    assert sum(money.values()) == 0
    # proportional division shares the same 0.20 by stake instead
    money = lower_amount_prevails(
        10, {"A": Fraction(5, 100), "B": Fraction(1, 100)},
        {"X": Fraction(1, 100), "Y": Fraction(1, 100)})
    assert money["A"] == Fraction(20, 100) * 5 / 6 and money["B"] == Fraction(20, 100) / 6


def capit(**changes) -> dict:
    record = json.loads((DATA / "cap-it-pot.json").read_text())
    record.update(copy.deepcopy(changes))
    return record


def test_a_capit_percentage_share_is_rounded_down_and_the_rest_goes_to_the_winner():
    # a pot of 4.00: 3.33% is 13.32 cents, paid as 0.13 a round; 5 x 0.13 = 0.65 leaves
    # 3.35 in the pot for the game winner A, who also won rounds 1 and 3 and half of 4.
    out = score_record(capit(stakes={"ante": "1.00", "currency": "USD"},
                             rules={"capit_round_share": "3.33%"}))
    assert (out["pot"], out["round_share"], out["winner"]) == ("4.00", "0.13", "A")
    assert [h["shares"] for h in out["hands"]] == [
        {"A": "0.13"}, {"C": "0.13"}, {"A": "0.13"}, {"A": "0.07", "B": "0.06"},
        {"D": "0.13"}]
    won = {p: t["pot_won"] for p, t in out["totals"].items()}
    assert won == {"A": "3.68", "B": "0.06", "C": "0.13", "D": "0.13"}
    assert out["money"] == {"A": "2.68", "B": "-0.94", "C": "-0.87", "D": "-0.87"}


def test_a_capit_round_may_give_cards_and_points_when_they_agree():
    record = capit()
    first = record["hands"][0]  # B "K 7 7" = 20, C "JK 2 A" = 50, D "9 3" = 10
    first["points"] = {"B": 20, "C": 50, "D": 10}
    agreed = score_record(record)
    assert agreed == score_record(capit())  # the same game as with the cards alone
    first["points"]["C"] = 45
    with pytest.raises(RecordError) as caught:
        score_record(record)
    assert caught.value.problems == [
        "hand 1 (round 1), C: the cards make 50 points but points says 45"]
    (problem,) = caught.value.details
    assert (problem.code, problem.round, problem.player) == (
        "capit_cards_points_disagree", 1, "C")
