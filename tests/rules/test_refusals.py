"""Bad records are refused with one clear line per problem, naming the hand and field."""

import pytest

from ledger.rules import RecordError, score_record

from .helpers import gin, knock, record, win


def problems(rec):
    with pytest.raises(RecordError) as caught:
        score_record(rec)
    return caught.value.problems


def test_knock_above_the_limit():
    assert problems(record(hands=[knock("A", 5, "B", 17), knock("B", 12, "A", 20)])) == [
        "hand 2: knocker deadwood 12 is above the knock limit 10"]


def test_knock_above_a_house_knock_limit():
    assert problems(record(rules={"knock_limit": 7}, hands=[knock("A", 8, "B", 30)])) == [
        "hand 1: knocker deadwood 8 is above the knock limit 7"]


def test_knock_above_the_oklahoma_upcard():
    (line,) = problems(record("oklahoma", hands=[knock("A", 8, "B", 30, upcard="7D")]))
    assert line.startswith("hand 1: knocker deadwood 8 is above the up-card 7D")


def test_knock_on_an_ace_upcard_that_is_not_gin():
    (line,) = problems(record("oklahoma", hands=[knock("A", 1, "B", 30, upcard="AS")]))
    assert line.startswith("hand 1: ") and "only gin" in line and "AS" in line


def test_oklahoma_hand_without_upcard():
    (line,) = problems(record("oklahoma", hands=[knock("A", 3, "B", 30)]))
    assert line.startswith("hand 1: upcard: missing")


def test_bad_upcard():
    (line,) = problems(record("oklahoma", hands=[knock("A", 3, "B", 30, upcard="1X")]))
    assert line.startswith("hand 1: upcard: '1X' is not a card")


@pytest.mark.parametrize("count,reason", [(-1, "is below 0"), (99, "is above 98")])
def test_deadwood_out_of_range(count, reason):
    (line,) = problems(record(hands=[knock("A", 3, "B", count)]))
    assert line.startswith("hand 1: deadwood.B: ") and reason in line


def test_deadwood_must_be_a_whole_number():
    (line,) = problems(record(hands=[knock("A", 3, "B", "20")]))
    assert line.startswith("hand 1: deadwood.B: must be a whole number")


def test_gin_with_deadwood():
    (line,) = problems(record(hands=[knock("A", 3, "B", 30, gin=True)]))
    assert line.startswith("hand 1: gin: ") and "counted 3" in line


def test_big_gin_with_deadwood():
    (line,) = problems(record(rules={"big_gin_bonus": 31},
                              hands=[knock("A", 3, "B", 40, big_gin=True)]))
    assert line.startswith("hand 1: big_gin: ")


def test_knocker_who_is_not_a_player():
    lines = problems(record(hands=[knock("Z", 3, "B", 30)]))
    assert lines[0] == "hand 1: knocker: Z is not playing this hand (A v B)"


def test_sitter_cannot_play_in_the_box():
    lines = problems(record("box", ("P", "Q", "R"), [knock("P", 3, "R", 18)]))
    assert lines[0].startswith("hand 1: deadwood.R: R is not playing this hand")
    assert "P is in the box against captain Q; R sits out" in lines[0]


def test_waiting_opponent_cannot_play_in_captain_play():
    lines = problems(record("captain", ("C", "X", "Y"), [knock("Y", 3, "C", 18)]))
    assert lines[0] == ("hand 1: knocker: Y is not playing this hand (captain C against X; "
                        "Y sits out)")


def test_table_with_the_wrong_pair():
    setup = {"captains": ["R1", "R2"], "opponents": ["B1", "B2"], "sitter": "B3"}
    hand = {"tables": [win("R1", "B1", 10), win("R2", "B3", 10)]}
    lines = problems(record("captain", ("R1", "R2", "B1", "B2", "B3"), [hand], setup=setup))
    assert lines[0].startswith("hand 1, table 2: deadwood.B3: B3 is not playing this hand")


def test_wrong_number_of_tables():
    setup = {"sides": {"We": ["A", "B"], "They": ["X", "Y"]}}
    lines = problems(record("partnership", ("A", "B", "X", "Y"),
                            [{"tables": [win("A", "X", 10)]}], setup=setup))
    assert lines == ["hand 1: tables: 2 tables are playing, 1 given"]


def test_cut_loser_needed_on_a_tie_and_refused_elsewhere():
    setup = {"captains": ["R1", "R2"], "opponents": ["B1", "B2"], "sitter": "B3"}
    players = ("R1", "R2", "B1", "B2", "B3")
    tie = {"tables": [win("R1", "B1", 18), win("R2", "B2", 18)]}
    (line,) = problems(record("captain", players, [tie], setup=setup))
    assert line.startswith("hand 1: cut_loser: B1 and B2 each lost 18 points")
    not_tied = {"tables": [win("R1", "B1", 20), win("R2", "B2", 18)], "cut_loser": "B2"}
    (line,) = problems(record("captain", players, [not_tied], setup=setup))
    assert line.startswith("hand 1: cut_loser: no cut is needed")
    wrong = dict(tie, cut_loser="B3")
    (line,) = problems(record("captain", players, [wrong], setup=setup))
    assert line.startswith("hand 1: cut_loser: 'B3' is not one of the tied players")


def test_unknown_variant_preset_and_setting():
    rec = record(rules={"gin_bonnus": 25})
    rec["variant"] = "canasta"
    rec["preset"] = "vegas"
    lines = problems(rec)
    assert any(line.startswith("variant: 'canasta' is unknown") for line in lines)
    assert any(line.startswith("preset: unknown preset 'vegas'") for line in lines)
    assert "rules.gin_bonnus: unknown setting" in lines


@pytest.mark.parametrize("name,value,reason", [
    ("gin_bonus", "25", "must be a whole number"),
    ("undercut_on_tie", "yes", "must be true or false"),
    ("shutout_mode", "triple", "is not one of"),
    ("target", 0, "out of range"),
    ("capit_round_share", 10, "must be a percentage"),
])
def test_bad_setting_values(name, value, reason):
    (line,) = problems(record(rules={name: value}))
    assert line.startswith(f"rules.{name}: ") and reason in line


def test_setting_that_does_not_apply_must_still_be_valid():
    score_record(record(rules={"capit_ace_value": 1}))
    (line,) = problems(record(rules={"capit_ace_value": "one"}))
    assert line.startswith("rules.capit_ace_value: ")


@pytest.mark.parametrize("variant,players", [
    ("gin", ("A", "B", "C")), ("box", ("A", "B")), ("captain", ("A", "B", "C", "D")),
    ("partnership", ("A", "B", "C")), ("cap-it", ("A", "B", "C")),
])
def test_wrong_number_of_players(variant, players):
    lines = problems(record(variant, players, [], setup={"first_dealer": "A"}))
    assert any(line.startswith(f"players: {variant} is played by") for line in lines)


def test_duplicate_player_names():
    lines = problems(record(players=("A", "A")))
    assert any("'A' appears twice" in line for line in lines)


@pytest.mark.parametrize("rate,reason", [
    (0.01, "not the number 0.01"), ("0,01", "is not a decimal amount"),
    ("-0.01", "must not be negative"), ("abc", "is not a decimal amount"),
])
def test_bad_money(rate, reason):
    (line,) = problems(record(stakes=(rate, 1, "USD")))
    assert line.startswith("stakes.rate: ") and reason in line


def test_bad_player_stake_and_currency():
    rec = record(stakes=("0.01", 1, "dollars"), player_stakes={"Z": "0.02", "A": 0.5})
    lines = problems(rec)
    assert any(line.startswith("stakes.currency: ") for line in lines)
    assert any(line.startswith("stakes.players.Z: 'Z' is not a player") for line in lines)
    assert any(line.startswith("stakes.players.A: money must be a decimal string")
               for line in lines)


def test_hand_after_the_game_is_complete():
    (line,) = problems(record(hands=[gin("A", "B", 90), gin("A", "B", 5)]))
    assert line.startswith("hand 2: the game ended at hand 1")


def test_abandoned_record_that_reached_its_target():
    (line,) = problems(record(hands=[gin("A", "B", 90)], abandoned=True))
    assert line.startswith("hand 1: abandoned: ")


def test_first_dealer_required_and_a_player():
    rec = record(hands=[])
    rec["setup"] = {}
    assert problems(rec) == ["setup.first_dealer: missing (who deals the first hand)"]
    rec["setup"] = {"first_dealer": "Z"}
    assert problems(rec)[0].startswith("setup.first_dealer: 'Z' is not one of A, B")


CAPIT_PLAYERS = ("A", "B", "C", "D")


def capit_record(rounds, **kw):
    rec = record("cap-it", CAPIT_PLAYERS, rounds, stakes=None, **kw)
    rec["stakes"] = {"ante": "5.00", "currency": "USD"}
    return rec


def test_capit_points_that_no_cards_could_make():
    (line,) = problems(capit_record([{"went_out": "A", "points": {"B": 12, "C": 5,
                                                                  "D": 0}}]))
    assert line.startswith("hand 1 (round 1), B: points: 12 points cannot be made")


def test_capit_any_points_possible_with_an_ace_worth_one():
    out = score_record(capit_record([{"went_out": "A", "points": {"B": 12, "C": 5, "D": 0}}],
                                    rules={"capit_ace_value": 1}))
    assert out["hands"][0]["points"]["B"] == 12


def test_capit_cards_and_points_that_disagree():
    rnd = {"went_out": "A", "cards": {"B": "K 7", "C": "2", "D": "JK"},
           "points": {"B": 20, "C": 15, "D": 20}}
    (line,) = problems(capit_record([rnd]))
    assert line == "hand 1 (round 1), B: the cards make 15 points but points says 20"


def test_capit_bad_card_and_missing_player():
    (line,) = problems(capit_record([{"went_out": "A", "cards": {"B": "K 1", "C": "2",
                                                                 "D": "3"}}]))
    assert line.startswith('hand 1 (round 1), B: cards: "1": not a CAP-IT card')
    (line,) = problems(capit_record([{"went_out": "A", "cards": {"B": "K", "C": "2"}}]))
    assert line.startswith("hand 1 (round 1): D: missing")


def test_capit_sixth_round():
    rnd = {"went_out": "A", "points": {"B": 10, "C": 10, "D": 10}}
    (line,) = problems(capit_record([rnd] * 6))
    assert line.startswith("hand 6: the game ended after round 5")


def test_capit_shares_cannot_exceed_the_pot():
    (line,) = problems(capit_record([], rules={"capit_round_share": "5.00"}))
    assert line.startswith("rules.capit_round_share: five shares of 5.00 exceed the pot")


def test_several_problems_are_all_reported():
    rec = record(stakes=(0.5, 0, "USD"), rules={"nope": 1})
    lines = problems(rec)
    assert len(lines) == 3


def test_rate_may_be_left_out_when_every_player_has_a_stake():
    rec = record(hands=[gin("A", "B", 90)], player_stakes={"A": "0.02", "B": "0.01"})
    del rec["stakes"]["rate"]
    # (90 + 25 + 25 box + 100 game) x 2 shutout = 480 at the lower stake 0.01
    assert score_record(rec)["money"] == {"A": "4.80", "B": "-4.80"}
    rec["stakes"]["players"] = {"A": "0.02"}
    (line,) = problems(rec)
    assert line.startswith("stakes.rate: missing")
