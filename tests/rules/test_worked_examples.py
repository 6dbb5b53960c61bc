"""The worked examples of RULES.md §5 and SOURCES.md §11, number for number."""

from decimal import Decimal as D

import pytest

from ledger.rules import score_record

from .helpers import DRAW, gin, knock, money, record, win

EX5_HANDS = [
    knock("A", 5, "B", 17),
    gin("B", "A", 14),
    knock("A", 8, "B", 6),
    gin("A", "B", 31),
    DRAW,
    knock("A", 2, "B", 26),
    knock("A", 4, "B", 30),
]


def one_hand(hand, preset="standard", **kw):
    return score_record(record(hands=[hand], preset=preset, **kw))["hands"][0]


# RULES §5 example 1 / SOURCES Ex 1, 2
@pytest.mark.parametrize("k,o,points", [(9, 32, 23), (3, 11, 8), (3, 16, 13)])
def test_knock_scores_the_difference(k, o, points):
    hand = one_hand(knock("A", k, "B", o))
    assert (hand["result"], hand["winner"], hand["points"]) == ("knock", "A",
                                                                {"A": points, "B": 0})


# RULES §5 example 2, 3 / SOURCES Ex 4, 5, 7, 8
@pytest.mark.parametrize("k,o,preset,points", [
    (2, 1, "standard", 26), (2, 1, "simple", 11), (2, 1, "classic", 11),
    (7, 7, "standard", 25), (7, 7, "classic", 10),
    (3, 1, "standard", 27), (8, 6, "standard", 27), (3, 1, "simple", 12), (8, 6, "classic", 12),
])
def test_undercut(k, o, preset, points):
    hand = one_hand(knock("A", k, "B", o), preset=preset)
    assert (hand["result"], hand["winner"], hand["points"]["B"]) == ("undercut", "B", points)
    assert hand["points"]["A"] == 0


def test_undercut_with_the_20_variation():
    hand = one_hand(knock("A", 2, "B", 1), rules={"undercut_bonus": 20})
    assert hand["points"]["B"] == 21


def test_tie_goes_to_the_knocker_for_nothing_when_undercut_on_tie_is_off():
    hand = one_hand(knock("A", 7, "B", 7), rules={"undercut_on_tie": False})
    assert (hand["result"], hand["winner"], hand["points"]) == ("knock", "A", {"A": 0, "B": 0})


# RULES §5 example 4 / SOURCES Ex 6, 9, 10
@pytest.mark.parametrize("o,preset,points", [
    (28, "standard", 53), (28, "classic", 48), (0, "standard", 25), (0, "classic", 20),
    (19, "standard", 44), (19, "classic", 39),
])
def test_gin(o, preset, points):
    hand = one_hand(gin("A", "B", o), preset=preset)
    assert (hand["result"], hand["points"]) == ("gin", {"A": points, "B": 0})


# SOURCES Ex 11
@pytest.mark.parametrize("bonus,points", [(31, 53), (50, 72)])
def test_big_gin_scores_its_own_bonus_instead_of_the_gin_bonus(bonus, points):
    hand = one_hand(gin("A", "B", 22, big_gin=True), rules={"big_gin_bonus": bonus})
    assert (hand["result"], hand["points"]["A"]) == ("big_gin", points)


def test_big_gin_without_a_bonus_is_an_ordinary_gin():
    hand = one_hand(gin("A", "B", 22, big_gin=True))
    assert (hand["result"], hand["points"]["A"]) == ("gin", 47)


# SOURCES Ex 12
def test_draw_scores_nothing_and_the_same_dealer_deals_again():
    out = score_record(record(hands=[DRAW, DRAW]))
    assert [h["dealer"] for h in out["hands"]] == ["A", "A"]
    assert out["hands"][0]["points"] == {"A": 0, "B": 0}
    assert out["hands"][0]["winner"] is None
    assert out["next"]["dealer"] == "A"


# RULES §5 example 5 / SOURCES Ex 13-16
@pytest.mark.parametrize("preset,finals,net,amount", [
    ("standard", (318, 116), 202, "2.02"),
    ("classic", (293, 86), 207, "2.07"),
    ("simple", (118, 51), 67, "0.67"),
])
def test_whole_game_under_each_preset(preset, finals, net, amount):
    out = score_record(record(hands=EX5_HANDS, preset=preset, setup={"first_dealer": "B"}))
    assert out["complete"] is True and out["winner"] == "A"
    assert (out["totals"]["A"]["final"], out["totals"]["B"]["final"]) == finals
    assert out["money"] == {"A": amount, "B": "-" + amount}
    assert out["payments"] == [{"from": "B", "to": "A", "amount": amount}]
    assert [h["dealer"] for h in out["hands"]] == ["B", "A", "B", "B", "A", "A", "A"]


def test_standard_game_details():
    out = score_record(record(hands=EX5_HANDS, setup={"first_dealer": "B"}))
    a, b = out["totals"]["A"], out["totals"]["B"]
    assert a == {"hand_points": 118, "hands_won": 4, "box_bonus": 100, "game_bonus": 100,
                 "shutout": False, "final": 318}
    assert b == {"hand_points": 66, "hands_won": 2, "box_bonus": 50, "game_bonus": 0,
                 "shutout": False, "final": 116}
    assert [h["running"]["A"] for h in out["hands"]] == [12, 12, 12, 68, 68, 92, 118]
    assert [h["running"]["B"] for h in out["hands"]] == [0, 39, 66, 66, 66, 66, 66]
    assert out["next"] == {"dealer": "A", "roles": {"A": "player", "B": "player"}}


def test_simple_preset_with_end_bonuses_switched_on():
    out = score_record(record(hands=EX5_HANDS, preset="simple",
                              rules={"box_bonus": 25, "game_bonus": 100},
                              setup={"first_dealer": "B"}))
    assert (out["totals"]["A"]["final"], out["totals"]["B"]["final"]) == (318, 101)
    assert out["money"]["A"] == "2.17"


def test_alternate_dealing_redeals_a_draw():
    out = score_record(record(hands=EX5_HANDS, rules={"dealer_rule": "alternate"},
                              setup={"first_dealer": "B"}))
    assert [h["dealer"] for h in out["hands"]] == ["B", "A", "B", "A", "B", "B", "A"]


# SOURCES Ex 17
@pytest.mark.parametrize("rate,per_points,amount", [("1", 1, "202.00"), ("1", 10, "20.20"),
                                                     ("1", 20, "10.10")])
def test_money_per_n_points(rate, per_points, amount):
    out = score_record(record(hands=EX5_HANDS, stakes=(rate, per_points, "USD"),
                              setup={"first_dealer": "B"}))
    assert out["money"]["A"] == amount


def test_currency_minor_units():
    out = score_record(record(hands=EX5_HANDS, stakes=("3", 10, "JPY"),
                              setup={"first_dealer": "B"}))
    assert out["money"] == {"A": "61", "B": "-61"}  # 202 x 0.3 = 60.6 -> 61
    out = score_record(record(hands=EX5_HANDS, stakes=("0.001", 1, "KWD"),
                              setup={"first_dealer": "B"}))
    assert out["money"] == {"A": "0.202", "B": "-0.202"}


# RULES §5 example 6 / SOURCES Ex 18-20
SHUTOUT = [win("A", "B", 30), win("A", "B", 25), win("A", "B", 45)]


@pytest.mark.parametrize("preset,rules,final,game_bonus", [
    ("standard", None, 550, 100),
    ("classic", None, 360, 200),
    ("standard", {"shutout_mode": "double_hand_points"}, 375, 100),
    ("standard", {"shutout_mode": "none"}, 275, 100),
])
def test_shutout_modes(preset, rules, final, game_bonus):
    out = score_record(record(hands=SHUTOUT, preset=preset, rules=rules))
    a = out["totals"]["A"]
    assert (a["final"], a["game_bonus"], a["hand_points"]) == (final, game_bonus, 100)
    assert a["shutout"] is (rules is None or rules["shutout_mode"] != "none")
    assert out["totals"]["B"]["final"] == 0
    assert D(out["money"]["A"]) == D(final) / 100


# RULES §5 example 7 / SOURCES Ex 21
def test_oklahoma_upcard_limits_and_spades():
    hands = [
        knock("A", 4, "B", 20, upcard="5S"),
        gin("B", "A", 18, upcard="JS"),
        knock("A", 6, "B", 30, upcard="7D"),
        {"draw": True},
    ]
    out = score_record(record("oklahoma", hands=hands))
    assert [h["points"] for h in out["hands"]] == [
        {"A": 32, "B": 0}, {"A": 0, "B": 86}, {"A": 24, "B": 0}, {"A": 0, "B": 0}]
    assert out["rules"]["target"] == 150
    assert out["hands"][0]["upcard"] == "5S"


def test_oklahoma_spade_doubles_an_undercut_bonus_too():
    out = score_record(record("oklahoma", hands=[knock("A", 6, "B", 18, upcard="6S")]))
    assert out["hands"][0]["points"]["A"] == 24  # SOURCES Ex 21(e): 12 -> 24 (18 -> 36 there)
    out = score_record(record("oklahoma", hands=[knock("A", 5, "B", 3, upcard="9S")]))
    assert out["hands"][0]["points"]["B"] == (2 + 25) * 2


def test_oklahoma_spade_doubling_can_be_switched_off():
    out = score_record(record("oklahoma", rules={"spade_double": False},
                              hands=[knock("A", 4, "B", 20, upcard="5S")]))
    assert out["hands"][0]["points"]["A"] == 16


def test_oklahoma_ace_allows_a_knock_of_one_under_the_one_setting():
    out = score_record(record("oklahoma", rules={"oklahoma_ace": "one"},
                              hands=[knock("A", 1, "B", 20, upcard="AH")]))
    assert out["hands"][0]["points"]["A"] == 19


# RULES §5 example 8 / SOURCES Ex 23, 24
def test_hollywood_columns():
    out = score_record(record("hollywood", hands=[win("A", "B", 25), win("A", "B", 18),
                                                  win("A", "B", 36)]))
    assert [c["totals"]["A"]["hand_points"] for c in out["columns"]] == [79, 54, 36]
    assert out["hands"][2]["columns"] == [1, 2, 3]


def test_hollywood_column_one_ends_with_its_own_bonuses():
    hands = [win("A", "B", 25), win("A", "B", 18), win("A", "B", 36), win("B", "A", 30),
             win("A", "B", 40)]
    out = score_record(record("hollywood", hands=hands))
    first, second, third = out["columns"]
    assert first["complete"] is True and first["winner"] == "A"
    assert (first["totals"]["A"]["final"], first["totals"]["B"]["final"]) == (319, 55)
    assert second["totals"]["A"]["hand_points"] == 94 and second["complete"] is False
    assert third["totals"]["A"]["hand_points"] == 76
    assert out["complete"] is False
    assert out["money"] == {"A": "0.00", "B": "0.00"}


def test_hollywood_seven_hand_sheet():
    hands = [win("A", "B", 18), win("B", "A", 12), win("A", "B", 25), win("B", "A", 30),
             win("A", "B", 15), win("A", "B", 22), win("B", "A", 20)]
    out = score_record(record("hollywood", hands=hands))
    columns = [(c["totals"]["A"]["hand_points"], c["totals"]["B"]["hand_points"])
               for c in out["columns"]]
    assert columns == [(80, 62), (62, 50), (37, 20)]


def test_hollywood_shut_out_player_opens_the_next_open_column():
    # A takes column 1 alone (100 in one column) while B never scores there.
    hands = [win("A", "B", 60), win("A", "B", 40), win("B", "A", 10)]
    out = score_record(record("hollywood", hands=hands))
    assert out["columns"][0]["complete"] is True
    assert out["columns"][0]["totals"]["A"]["shutout"] is True
    # B's first score goes to column 2, the first open column.
    assert out["hands"][2]["columns"] == [2]
    assert out["columns"][1]["totals"]["B"]["hand_points"] == 10


def test_hollywood_whole_game_money_adds_the_columns():
    hands = [win("A", "B", 50)] * 5  # A: c1 250.., every column ends
    out = score_record(record("hollywood", preset="simple", hands=hands[:4]))
    # c1: 200 (ends at hand 2), c2: 150 (ends at hand 3), c3: 100 (ends at hand 4)
    assert [c["totals"]["A"]["hand_points"] for c in out["columns"]] == [100, 100, 100]
    assert out["complete"] is True and out["winner"] == "A"
    assert out["money"]["A"] == "3.00"
    doubled = score_record(record("hollywood", preset="simple", hands=hands[:4],
                                  rules={"hollywood_third_double": True}))
    assert doubled["money"]["A"] == "4.00"


# RULES §5 example 9 / SOURCES Ex 27, 28
BOX_HANDS = [knock("P", 3, "Q", 18), gin("R", "P", 12), knock("R", 3, "Q", 23),
             knock("R", 9, "P", 5), knock("P", 1, "Q", 23), gin("P", "R", 30)]


def test_box_rotation_and_pairwise_money():
    out = score_record(record("box", ("P", "Q", "R"), BOX_HANDS))
    assert [h["points"][h["winner"]] for h in out["hands"]] == [15, 37, 20, 14, 22, 55]
    assert [h["dealer"] for h in out["hands"]] == ["P", "P", "R", "R", "P", "P"]
    assert [(h["roles"]["P"], h["roles"]["Q"], h["roles"]["R"]) for h in out["hands"]] == [
        ("box", "captain", "sits_out"), ("box", "sits_out", "captain"),
        ("sits_out", "captain", "box"), ("captain", "sits_out", "box"),
        ("box", "captain", "sits_out"), ("box", "sits_out", "captain")]
    assert {p: t["final"] for p, t in out["totals"].items()} == {"P": 106, "Q": 0, "R": 57}
    assert out["money"] == {"P": "1.55", "Q": "-1.63", "R": "0.08"}
    assert out["winner"] == "P"
    assert out["next"]["roles"] == {"P": "box", "Q": "captain", "R": "sits_out"}


def test_box_team_money_settles_with_the_box_player_only():
    out = score_record(record("box", ("P", "Q", "R"), BOX_HANDS,
                              rules={"three_hand_money": "box_team"}))
    assert out["money"] == {"P": "1.55", "Q": "-1.06", "R": "-0.49"}


def test_box_with_bonuses_cutthroat_style():
    out = score_record(record("box", ("P", "Q", "R"), BOX_HANDS,
                              rules={"box_bonus": 25, "game_bonus": 100}))
    totals = out["totals"]
    assert totals["P"]["box_bonus"] == 100 and totals["R"]["box_bonus"] == 50
    assert totals["P"]["game_bonus"] == 100 and totals["P"]["shutout"] is False
    assert (totals["P"]["final"], totals["Q"]["final"], totals["R"]["final"]) == (306, 0, 107)


# RULES §5 example 10 / SOURCES Ex 29, 30, 36
CAPTAIN3 = [knock("X", 5, "C", 25), gin("C", "X", 15), knock("Y", 5, "C", 40),
            knock("C", 7, "Y", 4), gin("Y", "C", 22)]


def test_captain_three_players():
    out = score_record(record("captain", ("C", "X", "Y"), CAPTAIN3, preset="standard"))
    assert out["totals"]["opponents"]["final"] == 330
    assert out["totals"]["captains"]["final"] == 65
    assert out["winner"] == "opponents"
    assert out["money"] == {"C": "-5.30", "X": "2.65", "Y": "2.65"}
    assert [h["roles"]["X"] for h in out["hands"]] == ["opponent", "opponent", "sits_out",
                                                      "sits_out", "sits_out"]
    assert [h["dealer"] for h in out["hands"]] == ["X", "X", "C", "Y", "Y"]
    assert out["next"]["next_game_players"] == ["X", "Y", "C"]


def test_captain_rotation_over_games():
    order = ["P1", "P2", "P3"]
    seen = []
    for _ in range(4):
        out = score_record(record("captain", order, []))
        seen.append((order[0], order[1]))
        order = out["next"]["next_game_players"]
    assert seen == [("P1", "P2"), ("P2", "P3"), ("P3", "P1"), ("P1", "P2")]


@pytest.mark.parametrize("winner_side,amounts", [
    ("opponents", {"C": "-3.98", "X": "1.99", "Y": "1.99"}),
])
def test_captain_under_staked_lower_amount_prevails(winner_side, amounts):
    out = score_record(record("captain", ("C", "X", "Y"), CAPTAIN3, preset="standard",
                              player_stakes={"C": "0.015"}))
    assert out["winner"] == winner_side
    assert out["money"] == amounts


def test_captain_under_staked_and_winning():
    hands = [win("C", "X", 50), win("C", "Y", 50)]
    out = score_record(record("captain", ("C", "X", "Y"), hands, preset="simple",
                              player_stakes={"C": "0.015"}))
    assert out["money"] == {"C": "1.50", "X": "-0.75", "Y": "-0.75"}


# RULES §5 example 11 / SOURCES Ex 31-33
FIVE = {"captains": ["R1", "R2"], "opponents": ["B1", "B2"], "sitter": "B3"}


def tables(*pairs, **extra):
    return {"tables": list(pairs), **extra}


def test_five_players_substitutions():
    hands = [
        tables(win("R1", "B1", 20), win("B2", "R2", 35)),
        tables(win("R1", "B1", 40), win("R2", "B2", 12)),
        tables(win("B3", "R1", 30), win("R2", "B2", 10)),
        tables(win("R1", "B3", 18), win("R2", "B2", 18), cut_loser="B2"),
    ]
    out = score_record(record("captain", ("R1", "R2", "B1", "B2", "B3"), hands, setup=FIVE))
    assert [h["winner"] for h in out["hands"]] == ["opponents", "captains", "opponents",
                                                  "captains"]
    assert out["hands"][1]["substitution"] == {"in": "B3", "out": "B1", "table": 1}
    assert out["hands"][3]["substitution"] == {"in": "B1", "out": "B2", "table": 2}
    assert out["hands"][2]["roles"] == {"R1": "captain", "R2": "captain", "B1": "sits_out",
                                        "B2": "opponent", "B3": "opponent"}
    assert out["next"]["roles"]["B2"] == "sits_out"
    assert out["next"]["tables"] == [["R1", "B3"], ["R2", "B1"]]
    assert out["totals"]["opponents"]["hand_points"] == 35
    assert out["totals"]["captains"]["hand_points"] == 88
    assert out["rules"]["target"] == 125
    # Opponents deal the opening hand, then each table's winner deals.
    assert out["hands"][0]["dealer"] == ["B1", "B2"]
    assert out["hands"][1]["dealer"] == ["R1", "B2"]


def test_five_players_money_three_to_two():
    hands = [tables(win("R1", "B1", 60), win("R2", "B2", 60), cut_loser="B2")]
    out = score_record(record("captain", ("R1", "R2", "B1", "B2", "B3"), hands, setup=FIVE,
                              abandoned=True))
    assert out["money"] == {"R1": "1.80", "R2": "1.80", "B1": "-1.20", "B2": "-1.20",
                            "B3": "-1.20"}


def test_seven_players_money_four_to_three():
    setup = {"captains": ["R1", "R2", "R3"], "opponents": ["B1", "B2", "B3"], "sitter": "B4"}
    hands = [tables(win("B1", "R1", 30), win("B2", "R2", 30), win("B3", "R3", 30))]
    out = score_record(record("captain", ("R1", "R2", "R3", "B1", "B2", "B3", "B4"), hands,
                              setup=setup, abandoned=True))
    assert out["money"] == {"R1": "-1.20", "R2": "-1.20", "R3": "-1.20", "B1": "0.90",
                            "B2": "0.90", "B3": "0.90", "B4": "0.90"}
    assert out["rules"]["target"] == 150


# RULES §5 example 12 / SOURCES Ex 34, 35
LOWER = {"R1": "0.02", "R2": "0.01", "B1": "0.02", "B2": "0.01", "B3": "0.01"}


@pytest.mark.parametrize("division,red_wins,expected", [
    ("proportional", True, {"R1": "2.00", "R2": "1.00", "B1": "-1.50", "B2": "-0.75",
                            "B3": "-0.75"}),
    ("proportional", False, {"R1": "-2.00", "R2": "-1.00", "B1": "1.50", "B2": "0.75",
                             "B3": "0.75"}),
    ("equal", True, {"R1": "2.00", "R2": "1.00", "B1": "-1.67", "B2": "-0.67",
                     "B3": "-0.66"}),
])
def test_lower_amount_prevails(division, red_wins, expected):
    if red_wins:
        hand = tables(win("R1", "B1", 50), win("R2", "B2", 50), cut_loser="B1")
    else:
        hand = tables(win("B1", "R1", 50), win("B2", "R2", 50))
    out = score_record(record("captain", ("R1", "R2", "B1", "B2", "B3"), [hand], setup=FIVE,
                              abandoned=True, player_stakes=LOWER,
                              rules={"balance_division": division}))
    assert out["money"] == expected


# SOURCES Ex 25, 26
SIDES = {"sides": {"AB": ["A", "B"], "XY": ["X", "Y"]}}


def test_partnership_netting():
    hands = [tables(gin("A", "X", 20), knock("B", 9, "Y", 6))]
    out = score_record(record("partnership", ("A", "B", "X", "Y"), hands, setup=SIDES))
    hand = out["hands"][0]
    assert hand["points"] == {"AB": 17, "XY": 0} and hand["winner"] == "AB"
    assert [t["points"] for t in hand["tables"]] == [{"A": 45, "X": 0}, {"B": 0, "Y": 28}]
    drawn = score_record(record("partnership", ("A", "B", "X", "Y"),
                                [tables(gin("A", "X", 20), DRAW)], setup=SIDES))
    assert drawn["hands"][0]["points"] == {"AB": 45, "XY": 0}


def test_partnership_rotation_and_dealing():
    hands = [tables(win("A", "X", 10), win("Y", "B", 5)),  # AB +5
             tables(win("Y", "A", 10), win("B", "X", 10)),  # net 0: nobody wins
             tables(win("X", "A", 30), DRAW)]  # XY +30
    out = score_record(record("partnership", ("A", "B", "X", "Y"), hands, setup=SIDES))
    assert [t["players"] for t in out["hands"][1]["tables"]] == [["A", "Y"], ["B", "X"]]
    assert [t["players"] for t in out["hands"][2]["tables"]] == [["A", "X"], ["B", "Y"]]
    # The second side deals first; then the side that won; after a hand nobody won, the
    # same side again.
    assert [h["dealer"] for h in out["hands"]] == [["X", "Y"], ["A", "B"], ["A", "B"]]
    assert out["hands"][1]["winner"] is None
    assert out["next"]["dealer_side"] == "XY"
    assert out["next"]["dealer"] == ["Y", "X"]
    assert out["rules"]["target"] == 125


def test_partnership_complete_game_money_at_each_members_stake():
    hands = [tables(win("A", "X", 40), win("B", "Y", 30)),
             tables(win("A", "Y", 40), win("B", "X", 30))]
    out = score_record(record("partnership", ("A", "B", "X", "Y"), hands, setup=SIDES,
                              preset="simple"))
    assert out["complete"] is True and out["winner"] == "AB"
    assert out["totals"]["AB"]["final"] == 140
    assert out["money"] == {"A": "1.40", "B": "1.40", "X": "-1.40", "Y": "-1.40"}


# RULES §5 example 13 / SOURCES Ex 37-39
CAPIT = [
    {"went_out": "A", "cards": {"B": "K 7 7", "C": "JK 2 A", "D": "9 3"}},
    {"went_out": "C", "cards": {"A": "Q J 5", "B": "4", "D": "A K 10 8"}},
    {"went_out": None, "cards": {"A": "3 3", "B": "JK", "C": "10 9 6", "D": "2"}},
    {"went_out": None, "cards": {"A": "K", "B": "5 6", "C": "Q J 2", "D": "A JK"}},
    {"went_out": "D", "cards": {"A": "7 8 9 K", "B": "2 2", "C": "4"}},
]


def capit(rules=None, hands=CAPIT, **kw):
    rec = record("cap-it", ("A", "B", "C", "D"), hands, rules=rules, stakes=None,
                 setup={"first_dealer": "D"}, **kw)
    rec["stakes"] = {"ante": "5.00", "currency": "USD"}
    return score_record(rec)


def test_capit_pot():
    out = capit()
    assert {p: t["final"] for p, t in out["totals"].items()} == {"A": 70, "B": 85, "C": 110,
                                                                 "D": 100}
    assert [h["winner"] for h in out["hands"]] == ["A", "C", "A", ["A", "B"], "D"]
    assert out["money"] == {"A": "10.00", "B": "-4.00", "C": "-3.00", "D": "-3.00"}
    assert {p: t["hands_won"] for p, t in out["totals"].items()} == {"A": 3, "B": 1, "C": 1,
                                                                     "D": 1}
    assert [h["contract"] for h in out["hands"]][4] == "a run of 3 and a run of 7"
    assert [h["dealer"] for h in out["hands"]] == ["D", "A", "B", "C", "D"]


@pytest.mark.parametrize("ace,totals", [(1, (70, 85, 96, 72)), (20, (70, 85, 115, 110))])
def test_capit_ace_value(ace, totals):
    out = capit(rules={"capit_ace_value": ace})
    assert tuple(out["totals"][p]["final"] for p in "ABCD") == totals


def test_capit_cumulative_round_winner():
    out = capit(rules={"capit_round_winner": "cumulative"})
    assert out["money"] == {"A": "14.00", "B": "-4.00", "C": "-5.00", "D": "-5.00"}


def test_capit_share_as_money_and_odd_cents_from_the_dealers_left():
    out = capit(rules={"capit_round_share": "1.01"})
    # Round 4 (dealer C) splits 1.01 between A and B: D, A, B from C's left -> A 0.51.
    assert out["hands"][3]["shares"] == {"A": "0.51", "B": "0.50"}
    assert sum(D(v) for v in out["money"].values()) == 0


def test_capit_abandoned_returns_the_rest_of_the_pot():
    out = capit(hands=CAPIT[:2], abandoned=True)
    # A and C won 2.00 each; 16.00 goes back in 4.00 parts.
    assert money(out) == {"A": D("1.00"), "B": D("-1.00"), "C": D("1.00"), "D": D("-1.00")}
    assert out["complete"] is False and out["winner"] is None


def test_capit_unfinished_has_no_money_and_says_the_next_contract():
    out = capit(hands=CAPIT[:2])
    assert set(out["money"].values()) == {"0.00"}
    assert out["next"]["round"] == 3 and out["next"]["contract"] == "two runs of 4"
    assert out["next"]["dealer"] == "B"
