"""The game's sheet on screen and in the CSV/XLSX, as django-tables2 tables written out
from the presentation's grid (``ledger.presentation.grid.sheet_grid``): its columns, their
headers, classes and cells are the presentation's, made from the game's shape; this module
writes the columns the grid marks for the screen (``SCREEN``) or the file (``FILE``) and
adds django-tables2's glue.

Each row's cells are made once into HTML (``sheet_rows``) and the table's template
(``ledger/sheet_table.html``) writes them as they are, so a 300-hand sheet costs no
per-cell call into django-tables2.
"""

from __future__ import annotations

import django_tables2 as tables
import tablib
from django.urls import reverse
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django_tables2.export import TableExport

from ledger.presentation.grid import (
    FILE,
    SCREEN,
    TOTALS_BLOCKS,
    ScreenWords,
    TotalsBlock,
    file_end_lines,
    screen_totals,
)
from ledger.presentation.rows import HandRow
from ledger.presentation.sheet import GameSheet

_e = conditional_escape


class SheetTable(tables.Table):
    """The hands of a game on screen; build it with ``sheet_table(sheet)``."""

    class Meta:
        orderable = False
        template_name = "ledger/sheet_hands_table.html"
        attrs = {"class": "sheet"}


def sheet_columns(sheet: GameSheet, *, fix_url: str | None = None
                  ) -> list[tuple[str, tables.Column]]:
    """The columns of the screen's sheet of ``sheet`` (see ``sheet_table``): the grid's
    for the screen, the ✎ only with ``fix_url``."""
    return [(name, tables.Column(column.short, orderable=False, attrs=_attrs(column)))
            for name, column in _screen_columns(sheet, fix_url)]


def _screen_columns(sheet: GameSheet, fix_url: str | None):
    placed = sheet.grid.placed(SCREEN)
    return [(f"c{i}", column) for i, (_group, column) in enumerate(placed)
            if fix_url or column.key != "fix"]


def _attrs(column) -> dict:
    attrs = {"td": {"class": column.css[SCREEN]}} if column.css.get(SCREEN) else {}
    if column.css.get("screen_th"):
        attrs["th"] = {"class": column.css["screen_th"]}
    return attrs


def sheet_rows(sheet: GameSheet, columns, *, fix_url: str | None = None,
               rows: list[HandRow] | None = None) -> list[dict]:
    """Each row of the sheet (``rows``: only these, e.g. the hand just saved) as
    ``{"id", "css", "cells": [(class, html), ...]}``, the cells made once here."""
    css = [col.attrs.get("td", {}).get("class", "") for _, col in columns]
    names = {name for name, _ in columns}
    cells = [column.cells[SCREEN] for name, column in _screen_columns(sheet, fix_url)
             if name in names]
    words = ScreenWords.of(fix_url)
    data = []
    for row in sheet.live_rows if rows is None else rows:
        data.append({
            "id": f"hand-{row.number}",
            "css": "future upnext" if row.next_up else ("" if row.played else "future"),
            "cells": list(zip(css, (cell(row, words) for cell in cells), strict=True)),
        })
    return data


def row_html(record: dict, *, css: str = "") -> str:
    """A row of ``sheet_rows`` as its ``<tr>`` (``css``: a class more, e.g. "just-saved"),
    written here once: a long game's 300 rows through the template's loops took a third of
    its page's time on the server."""
    classes = " ".join(name for name in (css, record["css"]) if name)
    cells = "".join(f'<td class="{_e(cls)}">{_e(cell)}</td>' if cls else f"<td>{_e(cell)}</td>"
                    for cls, cell in record["cells"])
    head = f' id="{_e(record["id"])}"' if record.get("id") else ""
    head += f' class="{_e(classes)}"' if classes else ""
    return mark_safe(f"<tr{head}>{cells}</tr>")


def sheet_table(sheet: GameSheet, *, fix_url: str | None = None) -> SheetTable:
    """The screen's sheet of ``sheet``. ``fix_url`` is a URL with ``/0/`` where the hand
    number goes; without it (a share page) there is no ✎. CAP-IT's ✎ is folded into the
    round's number (a phone holds four players' columns); the other sheets keep a narrow
    ✎ column. More than four columns of scores: the table gets the class ``wide`` (its
    first column stays pinned while it scrolls sideways)."""
    columns = sheet_columns(sheet, fix_url=fix_url)
    wide = len(sheet.grid.keys) > 4
    rows = [{**record, "html": row_html(record)}
            for record in sheet_rows(sheet, columns, fix_url=fix_url)]
    return SheetTable(rows, extra_columns=columns,
                      attrs={"class": "sheet wide" if wide else "sheet",
                             "tbody": {"id": "sheet-rows"}})


def fix_pattern(game_pk: int) -> str:
    return reverse("ledger:hand_correct", kwargs={"pk": game_pk, "number": 0})


# -- totals on screen --------------------------------------------------------------------------

def _block_columns(block: TotalsBlock) -> list[tuple[str, tables.Column]]:
    """django-tables2 columns for a totals block, short headers (the phone's width), read
    when a table is made."""
    return [(key, tables.Column(block.spec[key].short, orderable=False,
                                attrs={"td": {"class": block.css_of(key)}}))
            for key in block.keys]


def _made_rows(block: TotalsBlock, rows: list) -> list[dict]:
    """The rows of a totals table with their cells made (``row_html``), as the sheet's
    are; django-tables2 draws the columns' heads."""
    records = []
    for cells in screen_totals(block, rows):
        record = {"cells": cells, "css": ""}
        record["html"] = row_html(record)
        records.append(record)
    return records


class TotalsTable(tables.Table):
    """A totals block of the grid (``TOTALS_BLOCKS``): the end of a gin-family game, or of
    one of the games of a game per column, one row per player."""

    BLOCK = "players"

    def __init__(self, data, **kwargs):
        block = TOTALS_BLOCKS[self.BLOCK]
        kwargs.setdefault("extra_columns", _block_columns(block))
        super().__init__(_made_rows(block, data), **kwargs)

    class Meta:
        orderable = False
        template_name = "ledger/sheet_hands_table.html"  # the rows come made
        attrs = {"class": "sheet totals"}


class CapitTotalsTable(TotalsTable):
    """The end of a game of rounds (CAP-IT's points, rounds won, the pot)."""

    BLOCK = "rounds"

    class Meta(TotalsTable.Meta):  # django-tables2 reads a table's own Meta only
        pass


def totals_table(sheet: GameSheet) -> tables.Table | None:
    """The grid's totals block of the whole game (a game per column has one per game:
    ``column_tables``)."""
    blocks = sheet.grid.totals
    if "rounds" in blocks:
        return CapitTotalsTable(sheet.capit_totals)
    if "players" in blocks:
        return TotalsTable(sheet.totals)
    return None


def column_tables(sheet: GameSheet) -> list[dict]:
    """Hollywood's three games, each with its totals table."""
    return [{"column": column, "table": TotalsTable(column.totals)} for column in sheet.columns]


# -- CSV ------------------------------------------------------------------------------------

class SheetExport(tables.Table):
    """The hands for a spreadsheet: plain values, one column per figure."""

    class Meta:
        orderable = False


def export_table(sheet: GameSheet, reported: dict | None = None) -> SheetExport:
    """The file's hand columns, the grid's for ``FILE`` with their full headers;
    ``reported`` (issue 23: the lines of the tables' reports kept with each saved hand, by
    (number, voided), ``presentation.reports.hand_report_lines``) adds the grid's last
    column, "Reported by", when any hand has reports."""
    placed = [(f"c{i}", column)
              for i, column in enumerate(sheet.grid.columns(FILE))
              if reported or not column.optional]
    data = []
    for row in sheet.rows:
        if not row.played:
            continue
        item = {name: "; ".join(reported.get((row.number, row.void), [])) if column.optional
                else column.cells[FILE](row) for name, column in placed}
        data.append(item)
    return SheetExport(data, extra_columns=[
        (name, tables.Column(column.header, orderable=False, default=""))
        for name, column in placed])


def export_dataset(sheet: GameSheet, reported: dict | None = None) -> tablib.Dataset:
    """The CSV's rows: the hands (``reported``: see ``export_table``), then the grid's
    totals blocks and the money (``presentation.grid.file_end_lines``)."""
    dataset = TableExport("csv", export_table(sheet, reported)).dataset
    width = dataset.width
    for cells in file_end_lines(sheet):
        dataset.append(list(cells) + [""] * (width - len(cells)))
    return dataset
