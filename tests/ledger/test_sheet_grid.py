"""One grid per sheet (``ledger.presentation.grid``): the screen (django-tables2), the
CSV/XLSX and the paper write the same columns, in the same groups, for every variant and
player count; each leaves out only the columns the grid marks as not for it. The grid is
composed from the core's shape flags, so a sheet that combines two shapes (a line per card
table *and* a game per column) is drawn the same way by all three."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.utils import translation
from django_tables2.export import TableExport

from ledger.presentation.catalog import (
    FIRST_SIDE,
    SECOND_SIDE,
    VARIANT_COUNTS,
    game_facts,
    setup_from_seats,
)
from ledger.presentation.grid import FILE, MEDIA, PAPER, SCREEN, SHAPE_CLASSES, sheet_grid
from ledger.presentation.sheet import Layout, layout_of
from ledger.selectors.games import score
from ledger.views.sheet_tables import export_table, sheet_columns
from scoresheets.grid import grid_for

FIX = "/games/1/hands/0/fix/"
COUNTS = [(variant, count) for variant, counts in VARIANT_COUNTS.items() for count in counts]


def empty_result(variant: str, count: int) -> dict:
    players = [f"P{i}" for i in range(1, count + 1)]
    facts = game_facts(variant, count)
    if facts.setup == "first_dealer":
        setup = {"first_dealer": players[0]}
    else:
        setup = setup_from_seats(facts, {seat.key: players[i]
                                         for i, seat in enumerate(facts.seats)},
                                 side_names={FIRST_SIDE: "North", SECOND_SIDE: "South"})
    return score({"format": "tablestakes.game/1", "variant": variant, "players": players,
                  "setup": setup, "hands": [],
                  "stakes": {"rate": "0.01", "per_points": 1, "currency": "USD",
                             "ante": "1.00"}})


def written(layout: Layout) -> dict[str, list[str]]:
    """The headers each medium writes out for ``layout``, read from the media themselves."""
    grid = sheet_grid(layout)
    sheet = SimpleNamespace(layout=layout, grid=grid, rows=[], live_rows=[])
    screen = [str(column.verbose_name) for _, column in sheet_columns(sheet, fix_url=FIX)]
    file = list(TableExport("csv", export_table(sheet, {(1, False): ["x"]})).dataset.headers)
    paper, _cells = grid_for(layout)
    return {SCREEN: screen, FILE: file, PAPER: [label for label, _css in paper.columns],
            "paper groups": paper.groups}


def check(layout: Layout) -> None:
    grid = sheet_grid(layout)
    out = written(layout)
    headers = {SCREEN: "short", FILE: "header", PAPER: "short"}
    placed = {}
    for medium in MEDIA:
        columns = grid.placed(medium)
        # each medium writes the grid's columns for it, in its order, and nothing else
        assert out[medium] == [getattr(c, headers[medium]) for _g, c in columns], medium
        placed[medium] = {(group.key, column.key) for group, column in columns}
    assert out["paper groups"] == grid.header_groups(PAPER)
    every = {(group.key, column.key) for group in grid.groups for column in group.columns}
    for medium in MEDIA:
        # a column a medium leaves out is one the grid declares not for it (CAP-IT's
        # contract stands twice in its group: the paper's before who dealt, the file's after)
        declared = {(group.key, column.key) for group in grid.groups
                    for column in group.columns if medium in column.media}
        assert placed[medium] == declared
        for key in every - placed[medium]:
            assert all(medium not in column.media for group in grid.groups
                       for column in group.columns if (group.key, column.key) == key)
    # the hand's number heads every medium; every score key has its group in the file,
    # and on screen and paper unless the games stand side by side (then a group per game)
    for medium in MEDIA:
        first_group, first = grid.placed(medium)[0]
        assert (first_group.key, first.key) == ("hand", "number")
    for key in grid.keys:
        assert ("player:" + key, "running") in placed[FILE]
        if not layout.shape.get("games_per_column"):
            assert any(g == "player:" + key for g, _k in placed[SCREEN])
            assert ("player:" + key, "running") in placed[PAPER]


@pytest.mark.parametrize(("variant", "count"), COUNTS)
@pytest.mark.parametrize("language", ["en", "de"])
def test_screen_file_and_paper_write_one_grid(variant, count, language):
    with translation.override(language):
        layout = layout_of(empty_result(variant, count))
        check(layout)


@pytest.mark.parametrize(("variant", "count"), COUNTS)
def test_the_grid_is_composed_from_the_shape_flags(variant, count):
    layout = layout_of(empty_result(variant, count))
    grid = sheet_grid(layout)
    shape = layout.shape
    keys = {(g.key, c.key) for g in grid.groups for c in g.columns}
    assert (("hand", "table") in keys) == bool(shape["lines_per_table"])
    assert (("game:1", "running") in {(g, k) for g, k in keys}) == bool(shape["games_per_column"])
    assert (("end", "share") in keys) == bool(shape["rounds"])
    assert grid.classes == " ".join(
        css for flag, css in (("games_per_column", "shape-games"),
                              ("lines_per_table", "shape-tables"), ("rounds", "shape-rounds"),
                              ("hand_roles", "shape-roles"), ("sitters", "shape-sitters"))
        if shape[flag])


def test_two_shapes_combined_are_written_alike_by_every_medium():
    """A sheet of games side by side at several card tables (no variant has it yet): the
    table's lines and the games' groups both, on screen, in the file and on paper."""
    layout = Layout(keys=["North", "South"], labels=["North", "South"],
                    shape={"games_per_column": True, "lines_per_table": True},
                    players=["A", "B", "X", "Y"])
    check(layout)
    grid = sheet_grid(layout)
    paper = [(g.key, c.key) for g, c in grid.placed(PAPER)]
    assert ("hand", "table") in paper and ("hand", "players") in paper
    assert [g for g, k in paper if k == "running"] == [
        "game:1", "game:1", "game:2", "game:2", "game:3", "game:3"]
    assert grid.classes == "shape-games shape-tables"
    paper_grid, _cells = grid_for(layout)
    assert paper_grid.tables and "shape-games" in paper_grid.cls.split() \
        and "shape-tables" in paper_grid.cls.split()


ROOT = Path(__file__).resolve().parents[2]
STYLED = [*ROOT.glob("templates/**/*.html"), *ROOT.glob("static/**/*.css"),
          *ROOT.glob("scoresheets/static/**/*.css")]


def test_no_template_or_stylesheet_styles_by_a_variants_name():
    names = "|".join(re.escape(name) for name in VARIANT_COUNTS)
    by_name = re.compile(rf"v-\{{\{{|\.v-(?:{names})\b|\bv-(?:{names})\b")
    found = [f"{path.relative_to(ROOT)}: {match.group()}" for path in STYLED
             for match in by_name.finditer(path.read_text(encoding="utf-8"))]
    assert found == []


def test_the_print_stylesheet_styles_only_shapes_the_grid_makes():
    css = (ROOT / "scoresheets/static/scoresheets/print.css").read_text(encoding="utf-8")
    used = set(re.findall(r"\.(shape-[a-z]+)", css))
    assert used and used <= set(SHAPE_CLASSES.values())
