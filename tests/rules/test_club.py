"""The club formats (RULES §3.7 club boxes and knock cards, §3.9 streets, §3.10 straight gin,
best of N and lump sums): the public samples (copied from ../shared/cases-club into
tests/data/club), the worked examples 14-19 of RULES §5 number for number, the refusals,
and invariants over random streets records (Hypothesis)."""

import json
import sys
from decimal import Decimal as D

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.rules import RecordError, score_record
from ledger.rules.variants import REGISTRY

from .helpers import DATA, DRAW, gin, knock, money
from .test_cases import diff, score

CLUB = DATA / "club"
CASES = sorted(p for p in CLUB.glob("*.json") if not p.name.endswith(".expected.json"))


def test_the_club_samples_are_all_here():
    assert len(CASES) == 6


@pytest.mark.skipif(sys.platform == "emscripten", reason="manage.py score runs as a process "
                    "of its own; under Pyodide the browser's differential test scores these "
                    "records in the worker (tests/core/corpus.py)")
@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_club_case(case):
    want = json.loads(case.with_name(case.stem + ".expected.json").read_text())
    run = score(case)
    if "error" in want:
        assert run.returncode != 0
        assert f"hand {want['error']['hand']}" in run.stderr
        assert run.stdout == ""
    else:
        assert run.returncode == 0, run.stderr
        assert diff(want, json.loads(run.stdout)) == []


# -- builders ------------------------------------------------------------------------------

WE, THEY = ("A", "B"), ("X", "Y")


def streets(hands, *, we=WE, they=THEY, preset=None, rules=None, stakes="0.01",
            abandoned=None):
    rec = {"format": "tablestakes.game/1", "variant": "streets",
           "players": [*we, *they], "stakes": {"rate": stakes},
           "setup": {"sides": {"WE": list(we), "THEY": list(they)}}, "hands": list(hands)}
    if preset:
        rec["preset"] = preset
    if rules:
        rec["rules"] = rules
    if abandoned is not None:
        rec["abandoned"] = abandoned
    return rec


class Deals:
    """Deals of a streets game seated as RULES §6 says (table i: member i of WE against
    member (i + d) mod n of THEY at deal d, drawn deals counted), each won by a plain knock
    at table 1 with the other tables drawn."""

    def __init__(self, we=WE, they=THEY):
        self.we, self.they, self.d = we, they, 0

    def pair(self, table=0):
        n = len(self.we)
        return self.we[table], self.they[(table + self.d) % n]

    def won(self, side, points, **extra):
        a, b = self.pair()
        winner, loser = (a, b) if side == "WE" else (b, a)
        deal = {"tables": [knock(winner, 1, loser, points + 1)]
                + [DRAW] * (len(self.we) - 1), **extra}
        self.d += 1
        return deal

    def drawn(self):
        self.d += 1
        return {"tables": [DRAW] * len(self.we)}


def example_14_15(target_change=None):
    """RULES §5 examples 14 and 15 (SOURCES St-3): THEY 22; WE 65, 6; a drawn deal; WE 62
    (street 1 ends 133 v 22); THEY 53 (street 2); WE 32 (street 2 ends 250 v 53); THEY 71
    (street 3); WE 19 (street 3 ends 263 v 71)."""
    d = Deals()
    hands = [d.won("THEY", 22), d.won("WE", 65), d.won("WE", 6), d.drawn()]
    if target_change is not None:
        hands.append({"target": target_change})
    hands += [d.won("WE", 62), d.won("THEY", 53), d.won("WE", 32), d.won("THEY", 71),
              d.won("WE", 19)]
    return hands


# -- RULES §5 examples 14-17: streets -----------------------------------------------------

def test_example_14_street_one():
    out = score_record(streets(example_14_15()))
    hands = out["hands"]
    assert [h["streets"] for h in hands[:5]] == [[1], [1], [1, 2], [], [1, 2, 3]]
    assert hands[4]["ended"] == [1]
    street = out["streets"][0]
    assert street["winner"] == "WE" and street["ended_at"] == 5
    we, they = street["totals"]["WE"], street["totals"]["THEY"]
    assert (we["hand_points"], we["boxes"], they["hand_points"], they["boxes"]) == (
        133, 3, 22, 1)
    assert (we["street_bonus"], we["box_advantage"], we["final"]) == (100, 50, 283)
    assert they["final"] == 22
    assert street["net"] == {"WE": 261, "THEY": -261}
    # THEY's next win (53) has no open street entered, so it opens street 2
    assert hands[5]["winner"] == "THEY" and hands[5]["streets"] == [2]


def test_example_15_the_game_played_out():
    out = score_record(streets(example_14_15()))
    nets = [(s["totals"]["WE"]["final"], s["totals"]["THEY"]["final"], s["net"]["WE"])
            for s in out["streets"]]
    assert nets == [(283, 22, 261), (250, 53, 197), (263, 71, 192)]
    assert out["sweep"] is True
    assert out["game_points"] == {"WE": 1300, "THEY": -1300}
    assert out["complete"] is True and out["winner"] == "WE"
    assert out["totals"]["WE"]["final"] - out["totals"]["THEY"]["final"] == 1300
    assert money(out) == {"A": D("13.00"), "B": D("13.00"), "X": D("-13.00"),
                          "Y": D("-13.00")}


@pytest.mark.parametrize("mode,final,clean", [("bonus", 355, 100), ("double", 510, 255)])
def test_example_16_clean_sweep(mode, final, clean):
    d = Deals(("A",), ("X",))
    out = score_record(streets([d.won("WE", 50), d.won("WE", 55)], we=("A",), they=("X",),
                               rules={"clean_sweep_mode": mode}))
    street = out["streets"][0]
    assert street["clean"] is True and street["complete"] is True
    we = street["totals"]["WE"]
    assert (we["hand_points"], we["boxes"], we["street_bonus"], we["box_advantage"]) == (
        105, 2, 100, 50)
    assert (we["clean_sweep"], we["final"]) == (clean, final)
    assert out["complete"] is False and set(money(out).values()) == {D(0)}


def test_example_17_target_raised_before_the_deal_that_ended_street_one():
    out = score_record(streets(example_14_15(target_change=125)))
    change = out["hands"][4]
    assert (change["result"], change["target"], change["winner"]) == ("target", 125, None)
    assert change["street_points"][0] == {"WE": 71, "THEY": 22}
    street = out["streets"][0]
    assert street["target"] == 125 and street["ended_at"] == 6
    assert street["totals"]["WE"]["final"] == 308
    assert street["net"] == {"WE": 286, "THEY": -286}


def test_example_17_a_target_a_side_has_passed_is_refused():
    with pytest.raises(RecordError) as caught:
        score_record(streets(example_14_15(target_change=70)))
    problem = caught.value.details[0]
    assert (problem.code, problem.hand, problem.field) == ("target_passed", 5, "target")
    assert problem.values == {"target": 70, "street": 1, "side": "WE", "points": 71}
    assert caught.value.problems == [
        "hand 5: target: target 70 is refused: WE already has 71 in open street 1"]


# -- RULES §5 example 18: club boxes and a doubled deal ------------------------------------

def test_example_18_a_roodle_with_a_gin():
    rec = streets([{"tables": [knock("A", 4, "X", 20), gin("B", "Y", 12)]}],
                  rules={"gin_boxes": 2, "roodle_boxes": 1})
    rec["variant"] = "partnership"
    out = score_record(rec)
    hand = out["hands"][0]
    assert hand["points"] == {"WE": 53, "THEY": 0}
    assert hand["boxes"] == {"WE": 5, "THEY": 0}
    rec["hands"] += [{"tables": [knock("A", 1, "Y", 80), DRAW]}]  # WE reaches 125
    totals = score_record(rec)["totals"]["WE"]
    assert (totals["boxes"], totals["box_bonus"]) == (6, 150)  # 5 boxes: 125, and one more


def test_example_18_rummytalks_doubled_roodle_at_three_tables():
    we, they = ("A", "B", "C"), ("X", "Y", "Z")
    deal = {"knock_card": "5S",
            "tables": [gin("A", "X", 5), gin("B", "Y", 5), knock("C", 2, "Z", 12)]}
    out = score_record(streets([deal], we=we, they=they, preset="streets_club"))
    hand = out["hands"][0]
    assert (hand["knock_card"], hand["knock_limit"], hand["doubled"]) == ("5S", 5, True)
    assert hand["points"]["WE"] == 140
    assert hand["boxes"]["WE"] == 15  # (3 roodle + 2 x 2 gin) x 2 + 1
    assert hand["streets"] == [1]
    assert 15 * out["rules"]["box_bonus"] + 140 == 515


def test_a_spade_knock_card_doubles_but_the_deals_own_box_does_not():
    deal = {"knock_card": "9S", "tables": [knock("A", 4, "X", 20), DRAW]}
    out = score_record(streets([deal], rules={"undercut_boxes": 1}))
    assert out["hands"][0]["points"]["WE"] == 32
    assert out["hands"][0]["boxes"]["WE"] == 1  # no roodle (a drawn table), no gin


def test_a_knock_above_the_knock_card_is_refused_naming_the_table():
    deal = {"knock_card": "4H", "tables": [DRAW, knock("B", 5, "Y", 20)]}
    with pytest.raises(RecordError) as caught:
        score_record(streets([deal]))
    problem = caught.value.details[0]
    assert (problem.code, problem.hand, problem.table) == ("knock_over_limit", 1, 2)
    assert problem.values == {"count": 5, "limit": 4}


def test_a_knock_card_where_none_belongs_is_refused():
    rec = {"format": "tablestakes.game/1", "variant": "gin", "players": ["A", "B"],
           "setup": {"first_dealer": "A"},
           "hands": [{"knock_card": "5S", **knock("A", 3, "B", 9)}]}
    with pytest.raises(RecordError) as caught:
        score_record(rec)
    assert caught.value.details[0].code == "knock_card_not_here"
    assert caught.value.details[0].hand == 1


# -- RULES §5 example 19: straight gin, best of seven ---------------------------------------

def gin_record(hands, **kw):
    rec = {"format": "tablestakes.game/1", "variant": "gin", "players": ["A", "B"],
           "stakes": {"rate": "0.01"}, "setup": {"first_dealer": "B"}, "hands": hands}
    rec.update(kw)
    return rec


def test_example_19_straight_gin():
    out = score_record(gin_record([gin("A", "B", 22), gin("B", "A", 15), DRAW,
                                   gin("A", "B", 31)], preset="straight"))
    assert [h["points"]["A"] + h["points"]["B"] for h in out["hands"]] == [47, 40, 0, 56]
    assert [h["dealer"] for h in out["hands"]] == ["B", "A", "B", "B"]
    a, b = out["totals"]["A"], out["totals"]["B"]
    assert (a["hand_points"], a["final"], b["final"]) == (103, 253, 65)
    assert money(out) == {"A": D("1.88"), "B": D("-1.88")}


def test_example_19_a_knock_with_3_is_refused():
    with pytest.raises(RecordError) as caught:
        score_record(gin_record([gin("A", "B", 22), knock("B", 3, "A", 15)],
                                preset="straight"))
    assert caught.value.problems == [
        "hand 2: knocker deadwood 3 is above the knock limit 0: only gin ends a hand "
        "(straight gin has no knock)"]


def best_of_seven(hands, **kw):
    return gin_record(hands, preset="straight",
                      rules={"straight_format": "best_of", "best_of": 7},
                      stakes={"lump_sum_stake": "5.00"}, **kw)


MATCH = [gin("A", "B", 10), gin("B", "A", 20), DRAW, gin("A", "B", 5), gin("A", "B", 8),
         gin("B", "A", 3), gin("A", "B", 40)]


def test_example_19_best_of_seven():
    out = score_record(best_of_seven(MATCH))
    assert out["match"] == {"best_of": 7, "needed": 4, "hands_won": {"A": 4, "B": 2},
                            "winner": "A"}
    assert out["complete"] is True and out["winner"] == "A"
    a = out["totals"]["A"]
    assert (a["hands_won"], a["box_bonus"], a["game_bonus"], a["final"]) == (
        4, 0, 0, a["hand_points"])
    assert money(out) == {"A": D("5.00"), "B": D("-5.00")}
    unfinished = score_record(best_of_seven(MATCH[:6]))
    assert unfinished["complete"] is False and set(money(unfinished).values()) == {D(0)}


def test_a_hand_after_the_match_and_an_even_best_of_are_refused():
    with pytest.raises(RecordError) as caught:
        score_record(best_of_seven([*MATCH, gin("B", "A", 9)]))
    assert caught.value.problems == [
        "hand 8: the game ended at hand 7, when a player won 4 hands of the best of 7; no "
        "hand can follow it"]
    rec = best_of_seven(MATCH)
    rec["rules"]["best_of"] = 6
    with pytest.raises(RecordError) as caught:
        score_record(rec)
    assert caught.value.details[0].field == "rules.best_of"


@pytest.mark.parametrize("hands,paid", [
    ([gin("A", "B", 60), gin("A", "B", 60)], D("20.00")),  # a shutout: twice the stake
    ([gin("B", "A", 1), gin("A", "B", 60), gin("A", "B", 60)], D("10.00")),
])
def test_scarne_lump_sum(hands, paid):
    out = score_record(gin_record(hands, preset="scarne_lump",
                                  stakes={"lump_sum_stake": "10.00"}))
    assert out["winner"] == "A"
    assert money(out) == {"A": paid, "B": -paid}


def test_presets_belong_to_their_variants():
    # RULES §2: the gin family's three belong to every gin-family variant, streets too
    assert REGISTRY["streets"].presets == ("streets", "streets_club", "standard", "classic",
                                           "simple")
    assert score_record(streets([], preset="classic"))["rules"]["street_bonus"] == "target"
    with pytest.raises(RecordError) as caught:
        score_record(gin_record([], preset="streets"))
    assert caught.value.details[0].field == "preset"
    with pytest.raises(RecordError):
        score_record(streets([], preset="straight"))


# -- the end of a streets game -------------------------------------------------------------

def test_a_deal_after_the_three_streets_ended_is_refused():
    hands = example_14_15()
    d = Deals()
    d.d = 9
    with pytest.raises(RecordError) as caught:
        score_record(streets([*hands, d.won("WE", 5)]))
    assert caught.value.problems == [
        "hand 10: all three streets ended at hand 9; no deal or target change can follow"]


def test_an_abandoned_streets_game_settles_ended_streets_and_hand_points():
    out = score_record(streets(example_14_15()[:6], abandoned=True))
    # street 1 ended (net 261); street 2 stands WE 68 v THEY 53, street 3 WE 62 v 0
    assert out["game_points"] == {"WE": 261 + 15 + 62, "THEY": -(261 + 15 + 62)}
    assert out["sweep"] is False and out["winner"] is None
    assert money(out)["A"] == D("3.38")


# -- invariants over random streets records -------------------------------------------------

@st.composite
def streets_records(draw):
    n = draw(st.integers(1, 3))
    we, they = ("A", "B", "C")[:n], ("X", "Y", "Z")[:n]
    preset = draw(st.sampled_from(["streets", "streets_club"]))
    rules = {"clean_sweep_mode": draw(st.sampled_from(["bonus", "double", "none"])),
             "sweep_condition": draw(st.sampled_from(["won_all", "clean_all"])),
             "target": draw(st.sampled_from([30, 60, 100]))}
    hands, d = [], 0
    for _ in range(draw(st.integers(0, 25))):
        if draw(st.integers(0, 9)) == 0:
            hands.append({"target": draw(st.integers(1, 150))})
            continue
        tables = []
        for i in range(n):
            a, b = we[i], they[(i + d) % n]
            if draw(st.integers(0, 5)) == 0:
                tables.append(DRAW)
                continue
            knocker, other = draw(st.sampled_from([(a, b), (b, a)]))
            tables.append(knock(knocker, draw(st.integers(0, 10)), other,
                                draw(st.integers(0, 60))))
        deal = {"tables": tables}
        if draw(st.integers(0, 4)) == 0:
            deal["knock_card"] = draw(st.sampled_from(["10S", "JH", "KS", "QD"]))
        hands.append(deal)
        d += 1
    return streets(hands, we=we, they=they, preset=preset, rules=rules,
                   stakes=draw(st.sampled_from(["0.01", "0.05", "1"])))


def scored(rec):
    """The record scored, its refused entries (a passed target, an entry after the end)
    left out, as a scorekeeper would have been told at the table."""
    for _ in range(len(rec["hands"]) + 1):
        try:
            return score_record(rec)
        except RecordError as error:
            problem = error.details[0]
            assert problem.code in ("target_passed", "hand_after_end"), error.problems
            rec["hands"] = (rec["hands"][:problem.hand - 1] if problem.code == "hand_after_end"
                            else rec["hands"][:problem.hand - 1] + rec["hands"][problem.hand:])
    raise AssertionError("never scored")


@settings(max_examples=150, deadline=None)
@given(streets_records())
def test_streets_invariants(rec):
    out = scored(rec)
    assert sum(D(v) for v in out["money"].values()) == 0
    (a, ta), (b, tb) = out["totals"].items()
    g = out["game_points"]
    assert g[a] == ta["final"] - tb["final"] == -g[b]
    for street in out["streets"]:
        if street["complete"]:
            assert street["totals"][street["winner"]]["hand_points"] >= street["target"]
            assert street["net"][a] == (street["totals"][a]["final"]
                                        - street["totals"][b]["final"])
    assert out["complete"] == all(s["complete"] for s in out["streets"])
    if not out["complete"]:
        assert set(D(v) for v in out["money"].values()) == {D(0)}
    elif g[a] != 0:
        ahead = a if g[a] > 0 else b
        assert out["winner"] == ahead
        assert all(D(out["money"][p]) > 0 for p in out["sides"][ahead])


# -- club boxes in the two-hand games, knock cards where none belongs -----------------------

def test_club_boxes_in_two_hand_gin_and_a_doubled_oklahoma_hand():
    out = score_record(gin_record([gin("A", "B", 30), knock("A", 5, "B", 3),
                                   gin("A", "B", 40)],
                                  rules={"gin_boxes": 2, "undercut_boxes": 1}))
    assert [h["boxes"] for h in out["hands"]] == [3, 2, 3]  # gin 1+2, undercut 1+1
    a, b = out["totals"]["A"], out["totals"]["B"]
    assert (a["boxes"], a["box_bonus"], b["boxes"], b["box_bonus"]) == (6, 150, 2, 50)
    assert a["final"] == a["hand_points"] + 150 + 100 and b["final"] == b["hand_points"] + 50
    okla = gin_record([{**gin("A", "B", 10), "upcard": "7S"}], rules={"gin_boxes": 2})
    okla["variant"] = "oklahoma"
    hand = score_record(okla)["hands"][0]
    assert (hand["points"]["A"], hand["boxes"]) == (70, 5)  # (10 + 25) x 2; 1 + 2 x 2


def test_club_boxes_in_hollywood_columns():
    rec = gin_record([gin("A", "B", 10), gin("A", "B", 10)], rules={"gin_boxes": 2})
    rec["variant"] = "hollywood"
    out = score_record(rec)
    assert [c["totals"]["A"]["boxes"] for c in out["columns"]] == [6, 3, 0]
    assert out["totals"]["A"]["boxes"] == 9


def test_a_knock_card_in_captain_play_and_cap_it_is_refused():
    rec = json.loads((DATA / "captain-five-money.json").read_text())
    rec["hands"][0]["knock_card"] = "5S"
    with pytest.raises(RecordError) as caught:
        score_record(rec)
    assert caught.value.details[0].code == "knock_card_not_here"
    rec = json.loads((DATA / "cap-it-pot.json").read_text())
    rec["hands"][1]["knock_card"] = "5S"
    with pytest.raises(RecordError) as caught:
        score_record(rec)
    assert [(p.code, p.hand) for p in caught.value.details] == [("knock_card_not_here", 2)]


# -- streets settings ------------------------------------------------------------------------

def test_streets_club_doubles_the_third_street_and_has_no_all_streets_sweep():
    out = score_record(streets(example_14_15(), preset="streets_club"))
    assert [s["weight"] for s in out["streets"]] == [1, 1, 2]
    assert out["sweep"] is False
    nets = [s["net"]["WE"] for s in out["streets"]]
    assert out["game_points"]["WE"] == nets[0] + nets[1] + 2 * nets[2]


def test_clean_all_needs_three_clean_streets():
    d = Deals(("A",), ("X",))
    hands = [d.won("WE", 50), d.won("WE", 50), d.won("WE", 50), d.won("WE", 50)]
    out = score_record(streets(hands, we=("A",), they=("X",),
                               rules={"sweep_condition": "clean_all"}))
    assert [s["clean"] for s in out["streets"]] == [True, True, True]
    assert out["sweep"] is True
    g = sum(s["net"]["WE"] for s in out["streets"]) * 2
    assert out["game_points"]["WE"] == g
    out = score_record(streets(example_14_15(), rules={"sweep_condition": "clean_all"}))
    assert out["sweep"] is False and out["game_points"]["WE"] == 650


def test_streets_dealing_and_rotation():
    d = Deals()
    out = score_record(streets([d.won("THEY", 22), d.drawn(), {"target": 120}]))
    first, drawn = out["hands"][0], out["hands"][1]
    assert first["dealer_side"] == "THEY" and first["dealer"] == ["X", "Y"]
    assert drawn["dealer_side"] == "THEY"  # THEY won the deal before
    assert [t["players"] for t in drawn["tables"]] == [["A", "Y"], ["B", "X"]]
    # the drawn deal counts for the rotation, the target change does not
    assert out["next"]["tables"] == [{"table": 1, "players": ["A", "X"], "dealer": "X"},
                                     {"table": 2, "players": ["B", "Y"], "dealer": "Y"}]
    assert out["next"]["dealer_side"] == "THEY"


def test_a_target_change_is_an_entry_of_its_own():
    d = Deals()
    with pytest.raises(RecordError) as caught:
        score_record(streets([d.won("WE", 20), {"target": 50, **d.won("WE", 5)}]))
    assert [(p.code, p.hand) for p in caught.value.details] == [("target_invalid", 2)]
    out = score_record(streets([d.won("WE", 20), {"target": 50, "notes": "agreed"}]))
    assert out["hands"][1]["result"] == "target" and out["streets"][0]["target"] == 50
    for bad in (0, "125", True, 1.5):
        with pytest.raises(RecordError) as caught:
            score_record(streets([{"target": bad}]))
        assert caught.value.details[0].code == "target_invalid"


# -- SOURCES St-1 to St-6: the game of RULES §5 examples 14, 15 and 17, table by table -------

ST3 = [
    {"tables": [knock("A", 5, "X", 20), gin("Y", "B", 12)]},              # D1 THEY +22
    {"tables": [gin("A", "Y", 30), knock("B", 4, "X", 14)]},              # D2 WE +65
    {"tables": [knock("X", 3, "A", 25), knock("B", 2, "Y", 30)]},         # D3 WE +6
    {"tables": [DRAW, DRAW]},                                             # D4
    {"tables": [knock("A", 6, "X", 40), knock("Y", 8, "B", 5)]},          # D5 WE +62
    {"tables": [gin("Y", "A", 20), knock("X", 2, "B", 10)]},              # D6 THEY +53
    {"tables": [knock("A", 1, "X", 21), knock("B", 7, "Y", 19)]},         # D7 WE +32
    {"tables": [knock("Y", 4, "A", 24), gin("X", "B", 9)]},               # D8 THEY +54
    {"tables": [knock("A", 3, "X", 11), knock("B", 10, "Y", 10)]},        # D9 THEY +17
    {"tables": [gin("A", "Y", 15), knock("B", 5, "X", 9)]},               # D10 WE +44
]


def test_st3_the_whole_game_table_by_table():
    out = score_record(streets(ST3))
    assert [h["points"]["WE"] - h["points"]["THEY"] for h in out["hands"]] == [
        -22, 65, 6, 0, 62, -53, 32, -54, -17, 44]
    assert [s["net"]["WE"] for s in out["streets"]] == [261, 197, 192]
    assert [s["ended_at"] for s in out["streets"]] == [5, 7, 10]
    assert out["game_points"]["WE"] == 1300 and out["sweep"] is True
    assert money(out) == {"A": D("13.00"), "B": D("13.00"), "X": D("-13.00"),
                          "Y": D("-13.00")}
    assert ["/".join(h["dealer"]) for h in out["hands"]] == [
        "X/Y", "Y/X", "A/B", "A/B", "A/B", "A/B", "X/Y", "A/B", "X/Y", "Y/X"]


@pytest.mark.parametrize("rules,g", [
    ({"hollywood_third_double": True}, 1684), ({"sweep_condition": "clean_all"}, 650),
    ({"all_streets_sweep": "none"}, 650)])
def test_st3_under_other_settings(rules, g):
    assert score_record(streets(ST3, rules=rules))["game_points"]["WE"] == g


def test_st6_the_target_raised_to_125_after_d4():
    out = score_record(streets([*ST3[:4], {"target": 125}, *ST3[4:]]))
    assert [s["net"]["WE"] for s in out["streets"]] == [286, 170, 217]
    assert [s["target"] for s in out["streets"]] == [125, 125, 125]
    assert out["game_points"]["WE"] == 1346
    assert money(out)["A"] == D("13.46")
    we, they = out["totals"]["WE"], out["totals"]["THEY"]
    assert (we["hand_points"], we["hands_won"], we["boxes"], we["final"]) == (415, 5, 5, 1780)
    assert (they["hand_points"], they["hands_won"], they["boxes"], they["final"]) == (
        217, 4, 4, 434)
    # the same change after D5: street 1 has ended with target 100 and keeps its 261
    later = score_record(streets([*ST3[:5], {"target": 125}, *ST3[5:]]))
    assert later["streets"][0]["target"] == 100 and later["streets"][0]["net"]["WE"] == 261


@pytest.mark.parametrize("preset,boxes", [("streets", 1), ("streets_club", 3)])
def test_st7_three_tables(preset, boxes):
    deal = {"tables": [knock("A", 3, "X", 26), gin("Y", "B", 16), DRAW]}
    out = score_record(streets([deal], we=("A", "B", "C"), they=("X", "Y", "Z"),
                               preset=preset))
    hand = out["hands"][0]
    assert hand["winner"] == "THEY" and hand["points"]["THEY"] == 18
    assert hand["boxes"] == {"WE": 0, "THEY": boxes}
    assert out["next"]["tables"][0]["players"] == ["A", "Y"]  # deal 2: (t + 1) mod 3
