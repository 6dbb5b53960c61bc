"""Which part of the next hand a report link may report (rules/report.py part_reported): the
core says it from the parts, so no other layer compares their kind."""

from __future__ import annotations

from ledger.rules.report import part_reported

TABLES = {"kind": "tables", "number": 3, "tables": [["R1", "B1"], ["R2", "B2"], ["R3", "B3"]]}
PLAYERS = {"kind": "players", "number": 2, "players": ["Ann", "Bob", "Cy"]}
ONE_TABLE = {"kind": None, "number": 4}


def test_a_table_game_reports_each_of_its_tables_and_no_other():
    assert [part_reported(TABLES, table=t) for t in (1, 2, 3)] == [True, True, True]
    assert part_reported(TABLES, table=4) is False
    assert part_reported(TABLES, table=0) is False
    assert part_reported(TABLES) is False  # not the players' link


def test_a_capit_round_reports_each_players_points_not_a_table():
    assert part_reported(PLAYERS) is True
    assert part_reported(PLAYERS, table=1) is False


def test_a_game_of_one_table_or_over_has_no_part_to_report():
    assert part_reported(ONE_TABLE) is False
    assert part_reported(ONE_TABLE, table=1) is False


def test_a_rounds_end_read_by_its_facts():
    """Who went out, whether the stock ran out, and who dispute it, read from the core's
    round end (rules/report.py), so the screens compare no state names."""
    from ledger.rules.report import (
        round_disputed,
        round_end_reported,
        round_stock_out,
        round_went_out,
    )

    players = ["Ann", "Bob", "Cy"]
    one = round_end_reported(players, {"Ann": None, "Bob": "Bob"})
    assert (round_went_out(one), round_stock_out(one), round_disputed(one)) == ("Bob", False, [])
    two = round_end_reported(players, {"Cy": "Cy", "Ann": "Ann"})
    assert (round_went_out(two), round_stock_out(two), round_disputed(two)) == (
        None, False, ["Ann", "Cy"])
    none = round_end_reported(players, dict.fromkeys(players))
    assert (round_went_out(none), round_stock_out(none), round_disputed(none)) == (
        None, True, [])
    waiting = round_end_reported(players, {"Ann": None})
    assert (round_went_out(waiting), round_stock_out(waiting), round_disputed(waiting)) == (
        None, False, [])
