"""Audit: malformed records are refused with one line per problem naming the field
(game-record.md, "A record that breaks a rule is refused: non-zero exit, nothing stored, and
one line per problem on standard error naming the hand number and the field"), never with
a crash (a Python traceback is not a refusal)."""

import io
import json

import pytest

from ledger.rules import RecordError, score_record
from ledger.rules.cli import run

from .helpers import knock, record, win


def problems(rec):
    with pytest.raises(RecordError) as caught:
        score_record(rec)
    return caught.value.problems


def captain_five(setup):
    return record("captain", ("R1", "R2", "B1", "B2", "B3"), setup=setup,
                  hands=[{"tables": [win("R1", "B1", 10), win("R2", "B2", 20)]}])


def partnership(setup):
    return record("partnership", ("A", "B", "X", "Y"), setup=setup,
                  hands=[{"tables": [win("A", "X", 10), win("B", "Y", 10)]}])


def test_variant_that_is_not_a_name():
    rec = record(hands=[knock("A", 3, "B", 10)])
    rec["variant"] = ["gin"]
    (line,) = problems(rec)
    assert line.startswith("variant: ") and "is unknown" in line


def test_captain_setup_names_that_are_not_strings():
    lines = problems(captain_five({"captains": [["R1"], "R2"], "opponents": ["B1", "B2"],
                                   "sitter": "B3"}))
    assert lines and all(line.startswith("setup") for line in lines)
    assert any("['R1']" in line for line in lines)


def test_partnership_members_that_are_not_strings():
    lines = problems(partnership({"sides": {"We": [["A"], "B"], "They": ["X", "Y"]}}))
    assert lines and all(line.startswith("setup.sides") for line in lines)
    assert any("['A']" in line for line in lines)


def test_partnership_first_dealer_side_that_is_not_a_name():
    (line,) = problems(partnership({"sides": {"We": ["A", "B"], "They": ["X", "Y"]},
                                    "first_dealer_side": ["We"]}))
    assert line.startswith("setup.first_dealer_side: ['We'] is not one of the sides")


def test_huge_stake_prints_its_money_instead_of_crashing():
    # 118 - 0 hand points under simple, at 10**30 a point: exact, no precision limit.
    rec = record(preset="simple", stakes=(10 ** 30, 1, "USD"),
                 hands=[win("A", "B", 60), win("A", "B", 58)])
    result = score_record(rec)
    assert result["money"] == {"A": "118" + "0" * 30 + ".00", "B": "-118" + "0" * 30 + ".00"}


def test_cli_refuses_a_malformed_record_with_one_line_per_problem():
    rec = partnership({"sides": {"We": ["A", "B"], "They": ["X", "Y"]},
                       "first_dealer_side": ["We"]})
    out, err = io.StringIO(), io.StringIO()
    code = run(["-"], stdin=io.StringIO(json.dumps(rec)), stdout=out, stderr=err)
    assert code == 1
    assert err.getvalue().splitlines() == [
        "setup.first_dealer_side: ['We'] is not one of the sides (We, They)"]
