"""A hand made of several card tables that also counts in several games side by side (a
streets deal: RULES §3.9, every open street takes the deal's points) has its per-game
running scores in its row (``presentation.rows.hand_row``), as a Hollywood hand does, so a
grid that combines a line per card table with a game per column writes each game's
numbers, not blanks."""

from __future__ import annotations

from ledger.presentation.grid import FILE, sheet_grid
from ledger.presentation.rows import hand_row
from ledger.presentation.sheet import Layout
from ledger.rules import score_record


def duel(knocker: str, knocked: int, other: str, left: int) -> dict:
    return {"knocker": knocker, "deadwood": {knocker: knocked, other: left}}


def streets_result() -> dict:
    """Three deals of four-handed streets, We (Ann, Bob) against They (Xia, Yul)."""
    return score_record({
        "format": "tablestakes.game/1", "variant": "streets", "rules": {},
        "players": ["Ann", "Bob", "Xia", "Yul"],
        "stakes": {"rate": "0.05", "per_points": 1, "currency": "USD"},
        "setup": {"sides": {"We": ["Ann", "Bob"], "They": ["Xia", "Yul"]}},
        "abandoned": False,
        "hands": [
            # We: 20-3 + 30-5 = 42 in street 1
            {"tables": [duel("Ann", 3, "Xia", 20), duel("Bob", 5, "Yul", 30)]},
            # They: 12-2 + 10-4 = 16 in street 1
            {"tables": [duel("Yul", 2, "Ann", 12), duel("Xia", 4, "Bob", 10)]},
            # We: Ann's gin 40 + 25 and Bob's 10-9 = 66, in streets 1 and 2 (street 1 is
            # still open, and street 2 opens with this deal)
            {"tables": [duel("Ann", 0, "Xia", 40), duel("Bob", 9, "Yul", 10)]},
        ]})


def test_a_hand_of_several_tables_has_each_games_running_score():
    result = streets_result()
    rows = [hand_row(hand, result) for hand in result["hands"]]
    assert [row.points for row in rows] == [{"We": 42, "They": 0}, {"We": 0, "They": 16},
                                            {"We": 66, "They": 0}]
    assert [row.columns for row in rows] == [[1], [1], [1, 2]]
    assert rows[1].column_running[0] == {"We": 42, "They": 16}
    assert rows[2].column_running == [{"We": 108, "They": 16}, {"We": 66, "They": 0},
                                      {"We": 0, "They": 0}]
    assert [duel.table for duel in rows[2].duels] == [1, 2]  # still a line per table


def test_a_grid_of_tables_and_games_writes_each_games_numbers():
    result = streets_result()
    rows = [hand_row(hand, result) for hand in result["hands"]]
    grid = sheet_grid(Layout(keys=["We", "They"], labels=["We", "They"],
                             shape={"games_per_column": True, "lines_per_table": True},
                             players=["Ann", "Bob", "Xia", "Yul"]))
    written = {(group.key, column.who): [column.cells[FILE](row) for row in rows]
               for group, column in grid.placed(FILE) if column.key == "running"}
    assert written[("game:1", "We")] == [42, 42, 108]
    assert written[("game:1", "They")] == [0, 16, 16]
    assert written[("game:2", "We")] == ["", "", 66]  # street 2 opened with deal 3
    assert written[("game:3", "We")] == ["", "", ""]


def test_a_drawn_hollywood_hand_keeps_every_games_score():
    """A draw counts in no game (no column is marked) but its row still carries each
    game's running score, which the screen's games cell shows ("G1 0 · 23")."""
    result = score_record({
        "format": "tablestakes.game/1", "variant": "hollywood", "rules": {},
        "players": ["Ann", "Bob"], "setup": {"first_dealer": "Ann"}, "abandoned": False,
        "stakes": {"rate": "0.05", "per_points": 1, "currency": "USD"},
        "hands": [{"knocker": "Ann", "deadwood": {"Ann": 2, "Bob": 25}}, {"draw": True}]})
    drawn = hand_row(result["hands"][1], result)
    assert drawn.columns == []
    assert drawn.column_running[0] == {"Ann": 23, "Bob": 0}
