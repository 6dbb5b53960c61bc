"""Audit: edge cases worked out by hand from RULES.md (not from the code), kept as checks.

Each test names the RULES lines it rests on; the numbers in the comments are the hand
computation.
"""

from decimal import Decimal

import pytest

from ledger.rules import score_record

from .helpers import DRAW, gin, knock, record, win


def money(result):
    return {name: Decimal(amount) for name, amount in result["money"].items()}


# Hollywood (RULES §3.3, §6 "Hollywood"): SOURCES Ex 23 continued to the end of all three
# columns. Hands: A 25, A 18, A 36, B 30, A 40 (column 1 ends: 319 v 55), B 20 (B's first
# score after column 1 goes to column 2), A 10 (column 2 ends: A 104 in 4 entries, B 20 in 1
# -> 304 v 45), then either B 15, A 14 (column 3: A 100 in 4, B 15 in 1 -> 300 v 40) or
# A 14 (column 3: B entered nothing -> shutout, (100 + 100 + 4 x 25) x 2 = 600 v 0).
HOLLYWOOD = [win("A", "B", 25), win("A", "B", 18), win("A", "B", 36), win("B", "A", 30),
             win("A", "B", 40), win("B", "A", 20), win("A", "B", 10)]


@pytest.mark.parametrize("tail,rules,finals,net", [
    ([win("B", "A", 15), win("A", "B", 14)], None,
     [(319, 55), (304, 45), (300, 40)], 264 + 259 + 260),
    ([win("B", "A", 15), win("A", "B", 14)], {"hollywood_third_double": True},
     [(319, 55), (304, 45), (300, 40)], 264 + 259 + 2 * 260),
    ([win("A", "B", 14)], None, [(319, 55), (304, 45), (600, 0)], 264 + 259 + 600),
])
def test_hollywood_to_the_end_of_three_columns(tail, rules, finals, net):
    result = score_record(record("hollywood", hands=HOLLYWOOD + tail, rules=rules))
    got = [(c["totals"]["A"]["final"], c["totals"]["B"]["final"]) for c in result["columns"]]
    assert got == finals
    assert result["complete"] is True and result["winner"] == "A"
    cents = Decimal(net) / 100
    assert money(result) == {"A": cents, "B": -cents}


def test_hollywood_abandoned_keeps_the_ended_column_bonuses():
    # Column 1 ended at hand 5 (319 v 55, net 264); columns 2 and 3 open: 94 and 76.
    result = score_record(record("hollywood", hands=HOLLYWOOD[:5], abandoned=True))
    assert result["complete"] is False and result["winner"] is None
    assert money(result) == {"A": Decimal("4.34"), "B": Decimal("-4.34")}


# In the box with the standard preset (RULES §3.4, §2, §6 "box_team"): P box, Q captain,
# R out. H1 P 3 v Q 18 (+15); H2 draw; H3 P knocks 9, R (captain) 5: R undercuts 4 + 25 = 29
# and goes into the box; H4 R gins v Q 30 (+55); H5 R 1 v P 20 (+19) -> R 103 ends.
# Finals: P 15 + 25 = 40, Q 0, R 103 + 100 + 3 x 25 = 278 (P won a hand: no shutout).
BOX = [knock("P", 3, "Q", 18), DRAW, knock("P", 9, "R", 5), gin("R", "Q", 30),
       knock("R", 1, "P", 20)]


@pytest.mark.parametrize("mode,expected", [
    # pairwise: R-P 238, R-Q 278, P-Q 40.
    ("pairwise", {"P": "-1.98", "Q": "-3.18", "R": "5.16"}),
    # box_team: R (in the box after the last hand) settles with P and with Q only.
    ("box_team", {"P": "-2.38", "Q": "-2.78", "R": "5.16"}),
])
def test_box_with_end_bonuses(mode, expected):
    result = score_record(record("box", ("P", "Q", "R"), BOX, preset="standard",
                                 rules={"three_hand_money": mode}))
    finals = {p: t["final"] for p, t in result["totals"].items()}
    assert finals == {"P": 40, "Q": 0, "R": 278}
    assert [h["dealer"] for h in result["hands"]] == ["P", "P", "P", "R", "R"]
    assert money(result) == {p: Decimal(v) for p, v in expected.items()}


def test_box_abandoned_settles_pairwise_on_hand_points():
    # P 15, Q 0, R 29 after three hands: P +0.15 - 0.14, Q -0.15 - 0.29, R +0.14 + 0.29.
    result = score_record(record("box", ("P", "Q", "R"), BOX[:3], preset="standard",
                                 abandoned=True))
    assert money(result) == {"P": Decimal("0.01"), "Q": Decimal("-0.44"),
                             "R": Decimal("0.43")}


def test_tie_won_by_the_knocker_still_counts_as_a_hand_won():
    # RULES §6: undercut_on_tie false -> a tie is a knock for 0 that counts as a hand won
    # (box, deal, no shutout for him). A 100 in 2 hands + 100 + 50 = 250; B 0 + 25.
    result = score_record(record(hands=[knock("B", 5, "A", 5), win("A", "B", 60),
                                        win("A", "B", 40)],
                                 rules={"undercut_on_tie": False}))
    assert result["hands"][0]["result"] == "knock" and result["hands"][0]["winner"] == "B"
    assert [h["dealer"] for h in result["hands"]] == ["A", "B", "A"]
    assert result["totals"]["A"]["final"] == 250 and result["totals"]["A"]["shutout"] is False
    assert result["totals"]["B"]["final"] == 25


def test_capit_three_way_ties_split_from_the_dealers_left():
    # Ante 1.00 x 4 = 4.00, share 0.40. Dealers D, A, B, C, D. R3 (dealer B): A, C, D tie
    # at 5 -> 13 each and the odd cent to C (B's left). Totals A 30, B 30, C 40, D 30: game
    # tie A, B, D; the 2.00 left -> 67, 67, 66 from the fifth dealer D's left (A, B, D).
    rounds = [
        {"went_out": "A", "cards": {"B": "K", "C": "5", "D": "K"}},
        {"went_out": "B", "cards": {"A": "5", "C": "K", "D": "5"}},
        {"went_out": None, "cards": {"A": "5", "B": "K", "C": "5", "D": "5"}},
        {"went_out": "C", "cards": {"A": "K", "B": "5", "D": "K"}},
        {"went_out": "D", "cards": {"A": "K", "B": "5", "C": "JK"}},
    ]
    rec = {"format": "tablestakes.game/1", "variant": "cap-it", "players": ["A", "B", "C", "D"],
           "stakes": {"ante": "1.00", "currency": "USD"}, "setup": {"first_dealer": "D"},
           "hands": rounds}
    result = score_record(rec)
    assert result["hands"][2]["shares"] == {"C": "0.14", "D": "0.13", "A": "0.13"}
    assert result["winner"] == ["A", "B", "D"]
    assert {p: t["hands_won"] for p, t in result["totals"].items()} == {
        "A": 2, "B": 1, "C": 2, "D": 2}
    assert money(result) == {"A": Decimal("0.20"), "B": Decimal("0.07"),
                             "C": Decimal("-0.46"), "D": Decimal("0.19")}


def test_partnership_equal_division_rounds_by_seat():
    # We (A 0.02, B 0.01) beat They (X, Y 0.01) by 302 - 35 = 267 (standard, target 125).
    # T = 0.02: X, Y pay 2.67 each; equal reduction (8.01 - 5.34) / 2 = 1.335: A 4.005,
    # B 1.335 -> 4.01 + 1.34 is a cent too many; the later seat B loses it.
    setup = {"sides": {"We": ["A", "B"], "They": ["X", "Y"]}}
    hands = [{"tables": [gin("A", "X", 20), knock("B", 9, "Y", 6)]},   # We +45 - 28 = 17
             {"tables": [win("Y", "A", 10), DRAW]},                     # They 10
             {"tables": [win("X", "A", 10), win("B", "Y", 10)]},        # net 0: nobody
             {"tables": [win("A", "Y", 60), win("B", "X", 30)]},        # We 107
             {"tables": [win("A", "X", 10), win("B", "Y", 10)]}]        # We 127: ends
    result = score_record(record("partnership", ("A", "B", "X", "Y"), hands, setup=setup,
                                 player_stakes={"A": "0.02"},
                                 rules={"balance_division": "equal"}))
    assert result["totals"]["We"]["final"] == 302 and result["totals"]["They"]["final"] == 35
    assert [h["dealer"] for h in result["hands"]] == [
        ["X", "Y"], ["A", "B"], ["X", "Y"], ["Y", "X"], ["A", "B"]]
    assert money(result) == {"A": Decimal("4.01"), "B": Decimal("1.33"),
                             "X": Decimal("-2.67"), "Y": Decimal("-2.67")}


def test_equal_division_never_makes_a_winner_pay():
    # The game above with A at 0.10: We stake 0.11 against They 0.02, net 267, T = 0.02, so
    # 5.34 changes hands. We at full stakes would take A 26.70 + B 2.67 = 29.37; the 24.03
    # reduction split equally is 12.015 each, more than B's 2.67: B drops to nothing and A
    # bears the rest (21.36), so A 5.34, B 0.00 (not B -9.35, a winner paying).
    setup = {"sides": {"We": ["A", "B"], "They": ["X", "Y"]}}
    hands = [{"tables": [gin("A", "X", 20), knock("B", 9, "Y", 6)]},
             {"tables": [win("Y", "A", 10), DRAW]},
             {"tables": [win("X", "A", 10), win("B", "Y", 10)]},
             {"tables": [win("A", "Y", 60), win("B", "X", 30)]},
             {"tables": [win("A", "X", 10), win("B", "Y", 10)]}]
    for stakes, side in (({"A": "0.10"}, "We"), ({"X": "0.10"}, "They")):
        rec = record("partnership", ("A", "B", "X", "Y"), hands, setup=setup,
                     player_stakes=stakes, rules={"balance_division": "equal"})
        got = money(score_record(rec))
        if side == "We":  # the higher side won
            assert got == {"A": Decimal("5.34"), "B": Decimal("0.00"),
                           "X": Decimal("-2.67"), "Y": Decimal("-2.67")}
        else:  # the higher side lost: We take their full 2.67 each, and of They's 5.34
            # Y (2.67 at full stake, less than half the 24.03 reduction) pays nothing
            assert got == {"A": Decimal("2.67"), "B": Decimal("2.67"),
                           "X": Decimal("-5.34"), "Y": Decimal("0.00")}
