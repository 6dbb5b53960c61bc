"""The game's sheet on screen and in the CSV, as django-tables2 tables laid out from the
presentation layer's ``GameSheet`` (``ledger.presentation``): the rows, the words and the
numbers are the presentation's, the columns' headers and cells its column specification
(``ledger.presentation.columns``, shared with the printed grid); this module only chooses
which columns each medium shows.

On screen each player's cell shows the running total with the hand's points under it. Each
row's cells are made once into HTML here (``cells``) and the table's template
(``ledger/sheet_table.html``) writes them as they are, so a 300-hand sheet costs no
per-cell call into django-tables2. The CSV (``SheetExport``) has plain columns that a
spreadsheet can check: each hand's points and running totals, then the totals and the
money.
"""

from __future__ import annotations

import django_tables2 as tables
import tablib
from django.urls import reverse
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, pgettext
from django_tables2.export import TableExport

from ledger.presentation.columns import (
    CAPIT_TOTALS,
    HAND_COLUMNS,
    TOTALS,
    hand_header,
    number_header,
)
from ledger.presentation.money import PLAIN_MINUS, format_money
from ledger.presentation.reports import REPORTED_HEADER
from ledger.presentation.rows import HandRow
from ledger.presentation.sheet import GameSheet


def _lines(lines: list[str]):
    return format_html_join("", '<span class="line">{}</span>', ((line,) for line in lines))


# The cells of a long sheet are many (300 hands, a cell per player): they are written with
# ``conditional_escape`` and joined, not through ``format_html`` for each one (the same
# escaping, a third of the time).
_e = conditional_escape


def _score(row: HandRow, key: str):
    running = row.running.get(key)
    if running is None:
        return ""
    points = row.points.get(key)
    if points:
        return mark_safe(f'<b>{_e(running)}</b><small class="plus">+{_e(points)}</small>')
    return mark_safe(f"<b>{_e(running)}</b>")


def _hand_cell(row: HandRow, dealt: str | None = None):
    """``dealt``: the "%(name)s dealt" line in the page's language (asked once per sheet)."""
    lines = list(row.lines)
    if row.dealer:
        lines.append((dealt or gettext("%(name)s dealt")) % {"name": row.dealer})
    text = row.text if not row.duels else ""
    return mark_safe(_e(text) + "".join(f'<span class="line">{_e(line)}</span>'
                                        for line in lines))


def _round_cell(row: HandRow):
    """CAP-IT: the round's contract, with who dealt, who went out and the round's share of
    the pot beneath (folded in, so that four players' columns fit a phone)."""
    meta = " \u00b7 ".join(part for part in (
        gettext("%(name)s deals") % {"name": row.dealer} if row.dealer else "",
        row.went_out if row.played else "")
        if part)
    lines = [meta] if meta else []
    if row.shares:
        lines.append(gettext("share: %(shares)s") % {
            "shares": ", ".join(f"{n}\u00a0{a}" for n, a in row.shares.items())})
    return format_html("{}{}", row.contract, _lines(lines))


def _capit_score(row: HandRow, key: str):
    cell = _score(row, key)
    left = row.cards_left.get(key)
    return format_html('{}<span class="line">{}</span>', cell, left) if left else cell


def _games_cell(row: HandRow, games: tuple[int, ...], keys: list[str]):
    """Hollywood: the three games' running scores stacked, one line each ("G1 30 · 0"),
    bold in the games the hand scored in; a phone's width holds them."""
    lines = []
    for game in games:
        running = row.column_running[game - 1] if len(row.column_running) >= game else {}
        value = " \u00b7 ".join(str(running.get(key, 0)) for key in keys)
        template = '<span class="game hit">G{} <b>{}</b></span>' if game in row.columns \
            else '<span class="game">G{} {}</span>'
        lines.append(format_html(template, game, value))
    return format_html_join("", "{}", ((line,) for line in lines))


def _round_number(row: HandRow, pattern: str | None):
    """CAP-IT's round number, a ✎ link to fix the round once it is played."""
    if not pattern or not row.played:
        return row.number
    url = pattern.replace("/0/", f"/{row.number}/")
    return format_html('<a class="fix fix-n" href="{}" aria-label="{}" '
                       'title="{}">{}<span aria-hidden="true">\u270e</span></a>',
                       url, gettext("Fix round %(n)s") % {"n": row.number},
                       gettext("Fix this round"), row.number)


def _fix_cell(row: HandRow, pattern: str, words: tuple[str, str] | None = None):
    """``words``: "Fix hand %(n)s" and "Fix this hand" in the page's language (asked once
    per sheet)."""
    label, title = words or (gettext("Fix hand %(n)s"), gettext("Fix this hand"))
    url = pattern.replace("/0/", f"/{row.number}/")
    return mark_safe(f'<a class="fix" href="{_e(url)}" aria-label="{_e(label % {"n": row.number})}"'
                     f' title="{_e(title)}">\u270e</a>')


class SheetTable(tables.Table):
    """The hands of a game on screen; build it with ``sheet_table(sheet)``."""

    class Meta:
        orderable = False
        template_name = "ledger/sheet_hands_table.html"
        attrs = {"class": "sheet"}


def sheet_columns(sheet: GameSheet, *, fix_url: str | None = None
                  ) -> list[tuple[str, tables.Column]]:
    """The columns of the screen's sheet of ``sheet`` (see ``sheet_table``)."""
    layout = sheet.layout
    columns: list[tuple[str, tables.Column]] = []

    def column(name: str, header: str, attrs: dict | None = None):
        columns.append((name, tables.Column(header, orderable=False, attrs=attrs or {})))

    capit = layout.rounds
    column("n", number_header(layout, short=True),
           {"td": {"class": "num n"}, "th": {"class": "num n"}})
    column("hand", hand_header(layout), {"td": {"class": "contract" if capit else "hand"}})
    if layout.games:  # each game's line reads "Lou · Ann", as the tiles
        column("games", pgettext("games of cards", "Games"),
               {"td": {"class": "num games"}, "th": {"class": "num"}})
    else:
        for i, (_, label) in enumerate(layout.pairs):
            column(f"k{i}", label, {"td": {"class": "num score"}, "th": {"class": "num"}})
    if fix_url:
        column("fix", "", {"td": {"class": "fixcell"}})
    return columns


def sheet_rows(sheet: GameSheet, columns, *, fix_url: str | None = None,
               rows: list[HandRow] | None = None) -> list[dict]:
    """Each row of the sheet (``rows``: only these, e.g. the hand just saved) as
    ``{"id", "css", "cells": [(class, html), ...]}``, the cells made once here."""
    layout = sheet.layout
    capit = layout.rounds
    css = [col.attrs.get("td", {}).get("class", "") for _, col in columns]
    dealt = gettext("%(name)s dealt")
    fix_words = (gettext("Fix hand %(n)s"), gettext("Fix this hand"))
    data = []
    for row in sheet.live_rows if rows is None else rows:
        if capit:
            cells = [_round_number(row, fix_url), _round_cell(row)]
            cells += [_capit_score(row, key) for key in layout.keys]
        else:
            cells = [row.number, _hand_cell(row, dealt)]
            if layout.games:
                cells.append(_games_cell(row, layout.games, layout.keys))
            else:
                cells += [_score(row, key) for key in layout.keys]
        if fix_url and not capit:
            cells.append(_fix_cell(row, fix_url, fix_words) if row.played else "")
        data.append({
            "id": f"hand-{row.number}",
            "css": "future upnext" if row.next_up else ("" if row.played else "future"),
            "cells": list(zip(css, cells, strict=True)),
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
    if sheet.layout.rounds:
        columns = [(name, col) for name, col in columns if name != "fix"]
    wide = len(sheet.layout.keys) > 4
    rows = [{**record, "html": row_html(record)}
            for record in sheet_rows(sheet, columns, fix_url=fix_url)]
    return SheetTable(rows, extra_columns=columns,
                      attrs={"class": "sheet wide" if wide else "sheet",
                             "tbody": {"id": "sheet-rows"}})


def fix_pattern(game_pk: int) -> str:
    return reverse("ledger:hand_correct", kwargs={"pk": game_pk, "number": 0})


# -- totals on screen --------------------------------------------------------------------------

def _spec_columns(spec: dict, keys: tuple[str, ...], css: dict[str, str]
                  ) -> list[tuple[str, tables.Column]]:
    """django-tables2 columns for ``keys`` of a column specification, short headers (the
    phone's width), read when a table is made."""
    return [(key, tables.Column(spec[key].short, orderable=False,
                                attrs={"td": {"class": css.get(key, "num")}}))
            for key in keys]


def _made_rows(rows: list, keys: tuple[str, ...], css: dict[str, str], final=None
               ) -> list[dict]:
    """The rows of a totals table with their cells made (``row_html``), as the sheet's
    are: a value that is empty shows django-tables2's "—"; ``final``, the final cell of a
    row. django-tables2 draws the columns' heads."""
    records = []
    for row in rows:
        cells = []
        for key in keys:
            value = getattr(row, key)
            if key == "final" and final is not None:
                value = final(row, value)
            elif value in (None, ""):
                value = "\u2014"
            cells.append((css.get(key, "num"), value))
        record = {"cells": cells, "css": ""}
        record["html"] = row_html(record)
        records.append(record)
    return records


def _final_cell(row, value):
    if row.shutout:
        return format_html('{}<small class="mark">{}</small>', value, gettext("shutout"))
    return value


class TotalsTable(tables.Table):
    """The end of a gin-family game (or one of Hollywood's games): one row per player;
    the columns are the presentation's ``TOTALS`` (short headers)."""

    KEYS = ("label", "hand_points", "hands_won", "box_bonus", "game_bonus", "final")
    CSS = {"label": "who", "final": "num total"}

    def __init__(self, data, **kwargs):
        kwargs.setdefault("extra_columns", _spec_columns(TOTALS, self.KEYS, self.CSS))
        super().__init__(_made_rows(data, self.KEYS, self.CSS, _final_cell), **kwargs)

    class Meta:
        orderable = False
        template_name = "ledger/sheet_hands_table.html"  # the rows come made
        attrs = {"class": "sheet totals"}


class CapitTotalsTable(tables.Table):
    """CAP-IT's end: the presentation's ``CAPIT_TOTALS``."""

    KEYS = ("name", "final", "rounds_won", "pot_won")
    CSS = {"name": "who", "final": "num total"}

    def __init__(self, data, **kwargs):
        kwargs.setdefault("extra_columns", _spec_columns(CAPIT_TOTALS, self.KEYS, self.CSS))
        super().__init__(_made_rows(data, self.KEYS, self.CSS), **kwargs)

    class Meta:
        orderable = False
        template_name = "ledger/sheet_hands_table.html"  # the rows come made
        attrs = {"class": "sheet totals"}


def totals_table(sheet: GameSheet) -> tables.Table | None:
    if sheet.layout.rounds:
        return CapitTotalsTable(sheet.capit_totals)
    if sheet.layout.games:
        return None
    return TotalsTable(sheet.totals)


def column_tables(sheet: GameSheet) -> list[dict]:
    """Hollywood's three games, each with its totals table."""
    return [{"column": column, "table": TotalsTable(column.totals)} for column in sheet.columns]


# -- CSV ------------------------------------------------------------------------------------

class SheetExport(tables.Table):
    """The hands for a spreadsheet: plain values, one column per figure."""

    class Meta:
        orderable = False


def export_table(sheet: GameSheet, reported: dict | None = None) -> SheetExport:
    """The CSV's hand columns, full headers from the presentation's ``HAND_COLUMNS``;
    ``reported`` (issue 23: the lines of the tables' reports kept with each saved hand, by
    (number, voided), ``presentation.reports.hand_report_lines``) adds a last column, "Reported
    by", when any hand has reports."""
    layout = sheet.layout
    capit = layout.rounds
    spec = HAND_COLUMNS
    names: list[tuple[str, str]] = [("number", number_header(layout, short=False)),
                                    ("dealer", spec["dealer"].header)]
    if capit:  # CAP-IT's play is who went out
        names += [("contract", spec["contract"].header), ("text", spec["went_out"].header)]
    else:
        if layout.upcard:
            names.append(("upcard", spec["upcard"].header))
        names += [("text", spec["text"].header), ("result", spec["result"].header)]
    if layout.games:
        for game in layout.games:
            names += [(f"g{game}_{i}", pgettext("game of cards", "Game %(n)s %(player)s")
                       % {"n": game, "player": key}) for i, key in enumerate(layout.keys)]
    for i, label in enumerate(layout.labels):
        if capit:
            names.append((f"left_{i}", spec["cards_left"].label(who=label)))
        names += [(f"pts_{i}", spec["points"].label(who=label)),
                  (f"run_{i}", spec["running"].label(who=label))]
    if capit:
        names.append(("share", spec["share"].header))
    names.append(("void", spec["void"].header))
    if reported:
        names.append(("reported", gettext(REPORTED_HEADER)))
    data = []
    for row in sheet.rows:
        if not row.played:
            continue
        item = {"number": row.number, "dealer": row.dealer, "contract": row.contract,
                "text": row.text, "result": row.result, "upcard": row.upcard,
                "share": ", ".join(f"{n} {a}" for n, a in row.shares.items()),
                "void": row.void_note}
        if reported:
            item["reported"] = "; ".join(reported.get((row.number, row.void), []))
        if row.duels:
            item["text"] = " / ".join(f"T{d.table} {d.text}" + (f" \u00b7 {d.score}" if d.score
                                                                else "") for d in row.duels)
        for game in layout.games:
            running = row.column_running[game - 1] if len(row.column_running) >= game else {}
            for i, key in enumerate(layout.keys):
                item[f"g{game}_{i}"] = running.get(key, "") if game in row.columns else ""
        for i, key in enumerate(layout.keys):
            item[f"left_{i}"] = row.cards_left.get(key, "")
            item[f"pts_{i}"] = row.points.get(key, "" if not row.scored else 0)
            item[f"run_{i}"] = row.running.get(key, "")
        data.append(item)
    return SheetExport(data, extra_columns=[
        (name, tables.Column(header, orderable=False, default="")) for name, header in names])


def export_dataset(sheet: GameSheet, reported: dict | None = None) -> tablib.Dataset:
    """The CSV's rows: the hands (``reported``: see ``export_table``), then the totals and
    the money (plain "-" signs: numbers a spreadsheet reads)."""
    dataset = TableExport("csv", export_table(sheet, reported)).dataset
    width = dataset.width

    def line(*cells):
        dataset.append(list(cells) + [""] * (width - len(cells)))

    def amount(value) -> str:
        return format_money(value, minus=PLAIN_MINUS, plain=True)

    final = TOTALS["final"].header
    line()
    if sheet.layout.games:
        for column in sheet.columns:
            line(pgettext("game of cards", "Game %(n)s total") % {"n": column.number},
                 *(f"{t.label} {t.final}" for t in column.totals))
        line(gettext("Net"), *(f"{key} {value}" for key, value in sheet.net.items()))
    elif sheet.layout.rounds:
        line(final, *(f"{t.name} {t.final}" for t in sheet.capit_totals))
    else:
        line(final, *(f"{t.label} {t.final}" for t in sheet.totals))
    if sheet.ended:
        for money in sheet.money.lines:
            line(gettext("Money"), money.name, amount(money.amount), sheet.money.currency)
        for payment in sheet.money.payments:
            line(gettext("Payment"), payment.payer, payment.payee, amount(payment.amount))
    return dataset


