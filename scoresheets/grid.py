"""The printed hand table (``Grid``): the presentation's grid of the sheet
(``ledger.presentation.grid``) written out for paper: the columns it marks for ``PAPER``,
its header groups, its shape classes (``shape-games``, ``shape-tables``...: the print
stylesheet styles by these) and its cells.

The words and numbers are the presentation's: the same text as on the screen and in the
CSV (the play says what kind of hand it was, so paper has no separate Result column).
This module adds only the columns' widths and the row groups WeasyPrint keeps on one
page. A voided hand is printed struck through, just before the hand that replaced it,
with its note.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.utils.html import escape
from django.utils.safestring import mark_safe

from ledger.presentation.grid import BLANK, PAPER, TableLine, sheet_grid
from ledger.presentation.rows import HandRow
from ledger.presentation.sheet import Layout

#: Relative widths of the hand table's columns, by the column's last known css class.
COLUMN_WEIGHTS = {
    "num": 3.2, "name": 6.5, "players": 10, "card": 3.5, "play": 19, "res": 7.6,
    "pts": 4.2, "tot": 4.6, "contract": 12, "share": 7.5, "score": 6.5, "note": 13,
    "cards": 7,
}


def _cell_html(cell) -> str:
    if isinstance(cell, list):
        return mark_safe("<br>".join(escape(line or "") for line in cell))
    return escape(cell)


@dataclass
class GridRow:
    cells: list  # str, or list[str] for a cell of several lines (table games)
    void: bool = False
    note: str = ""
    cls: str = ""
    melds: list[str] = field(default_factory=list)  # a hand entered with its cards
    group: bool = False  # one table's line of a table game's hand (see Grid.add_group)


@dataclass
class Grid:
    """A printed table: header groups, columns, and runs of rows (``bodies``)."""

    columns: list[tuple[str, str]]  # (label, css class)
    groups: list[tuple[str, int]] = field(default_factory=list)  # top header: (label, span)
    bodies: list[list[GridRow]] = field(default_factory=list)  # runs of rows; void runs alone
    cls: str = ""
    shape: str = ""  # the sheet's shape classes, for the page as well
    live_rows: int = 0
    tables: bool = False  # a line per card table in each hand (``add_group``)
    rounds: bool = False  # rounds to come are printed, empty but for their contract

    @property
    def melds_at(self) -> int:
        """Where a hand's meld lines start: under its play."""
        return next((i for i, (_, cls) in enumerate(self.columns) if "play" in cls.split()), 1)

    @property
    def melds_span(self) -> int:
        return len(self.columns) - self.melds_at

    @property
    def widths(self) -> list[str]:
        """Column widths in % from the columns' kinds: the print stylesheet lays the hand
        table out with ``table-layout: fixed``, which does not measure every cell (on a
        300-hand game that is most of WeasyPrint's work)."""
        weights = [next((COLUMN_WEIGHTS[c] for c in reversed(cls.split()) if c in COLUMN_WEIGHTS),
                        6) for _, cls in self.columns]
        total = sum(weights)
        return [f"{100 * weight / total:.2f}%" for weight in weights]

    def add(self, row: GridRow) -> None:
        """Append a row; its cells become (css class, safe HTML) pairs, lines joined by
        <br>, so the template does no per-cell logic (a 300-hand sheet has 5,000 cells).
        A voided row, and a hand with meld lines, gets a body of its own, which the print
        stylesheet keeps on one page."""
        row.cells = [
            (cls, _cell_html(cell)) for (_, cls), cell in zip(self.columns, row.cells, strict=True)
        ]
        if not row.void:
            self.live_rows += 1
            if self.live_rows % 2 == 0:  # zebra rows: a class is cheaper to match
                row.cls = f"{row.cls} even".lstrip()  # than :nth-child on every cell
        last = self.bodies[-1][-1] if self.bodies else None
        if row.void or row.melds or last is None or last.void or last.melds:
            self.bodies.append([row])
        else:
            self.bodies[-1].append(row)

    def add_group(self, rows: list[GridRow]) -> None:
        """Append one hand of a table game: a row per table, so that each table's players,
        dealer, play and score stay on one line however long the names (a cell of several
        lines would drift from its neighbours as soon as one of them wraps). The hand's
        number and scores sit on its first row; the rows form a body of their own, kept on
        one page, striped as one hand. A voided hand's note follows its last row."""
        live = not rows[0].void
        if live:
            self.live_rows += 1
        for i, row in enumerate(rows):
            row.cells = [(cls, _cell_html(cell))
                         for (_, cls), cell in zip(self.columns, row.cells, strict=True)]
            row.group = True
            row.cls = " ".join(filter(None, [row.cls, "even" if live and self.live_rows % 2 == 0
                                             else "", "first" if i == 0 else "more"]))
            if i < len(rows) - 1:
                row.note = ""
        self.bodies.append(rows)

    @property
    def rows(self) -> list[GridRow]:
        return [row for body in self.bodies for row in body]


def grid_for(layout: Layout) -> tuple[Grid, Callable[[HandRow], list]]:
    """An empty printed table for ``layout``: the presentation's grid
    (``ledger.presentation.grid``) written for paper, its columns, header groups and shape
    classes, and the function that turns a HandRow into its cells (a card-table game's
    hand: a list of lines, one per table)."""
    sheet = sheet_grid(layout)
    shown = sheet.columns(PAPER)
    columns = [(column.short, column.css.get(PAPER, "")) for column in shown]
    reads = [column.cells[PAPER] for column in shown]
    cls = " ".join(filter(None, ["hands", sheet.classes]))
    grid = Grid(columns=columns, groups=sheet.header_groups(PAPER), cls=cls, shape=sheet.classes,
                tables=sheet.lines_per_table, rounds=sheet.rounds)

    if sheet.lines_per_table:
        def cells(row: HandRow) -> list[list]:
            """One line per table: the hand's number, note and scores on the first."""
            return [[read(row, line) for read in reads]
                    for line in (TableLine(duel, i == 0)
                                 for i, duel in enumerate(row.duels or [None]))]
    else:
        whole = TableLine()

        def cells(row: HandRow) -> list:
            return [read(row, whole) for read in reads]

    return grid, cells


def hands_grid(layout: Layout, rows: list[HandRow]) -> Grid:
    """The printed hand table of a game: live rows, each voided hand struck through before
    the hand of its number."""
    grid, cells = grid_for(layout)
    for row in rows:
        if not row.played:
            if grid.rounds:  # a round still to come: its contract, empty
                grid.add(GridRow(cells(row), cls="future"))
            continue
        if grid.tables:
            lines = [GridRow(line, void=row.void, note=row.void_note if row.void else "")
                     for line in cells(row)]
            if not row.void:
                # the deal's knock card, boxes and streets, then each table's melds
                # ("T1 ..."), under the hand
                lines[-1].melds = [row.deal, *row.melds] if row.deal else row.melds
            grid.add_group(lines)
        elif row.void:
            grid.add(GridRow(cells(row), void=True, note=row.void_note))
        else:
            grid.add(GridRow(cells(row), melds=[row.deal, *row.melds] if row.deal
                             else row.melds))
    return grid


def blank_grid(layout: Layout, rows: list[HandRow], seating: int = 0) -> Grid:
    """A hand table to fill in by hand, each column's blank cell as the grid says (the
    numbers, the first dealer, the rounds' contracts); a card-table game gets a line per
    table (``seating``: how many), the first hand's pairs filled in."""
    grid, _cells = grid_for(layout)
    reads = [column.cells[BLANK] for column in sheet_grid(layout).columns(PAPER)]
    for row in rows:
        if grid.tables:
            duels = row.duels or []
            grid.add_group([
                GridRow([read(row, TableLine(duels[table - 1] if table <= len(duels) else None,
                                             table == 1, table)) for read in reads],
                        cls="blank")
                for table in range(1, max(seating, len(duels)) + 1)])
            continue
        grid.add(GridRow([read(row, TableLine()) for read in reads], cls="blank"))
    return grid
