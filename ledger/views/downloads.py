"""Every spreadsheet download, inert: CSV and XLSX only (the formats whose libraries are
installed and that a club opens), names that a spreadsheet will not run as formulas, and a
Content-Disposition that a table's name cannot break (``cleaning.content_disposition``).

- CSV: a text cell starting with = + - @, a tab or a carriage return (or their full-width
  forms) gets a leading apostrophe (OWASP's advice); numbers, negative ones too, stay.
- XLSX (openpyxl, written here rather than by tablib): text is always a string cell
  (openpyxl otherwise stores text starting with "=" as a formula) and a dangerous one also
  carries Excel's "quote prefix", so editing the cell does not turn it into a formula
  either; money is a number with the currency's decimals as its number format.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from decimal import Decimal, InvalidOperation

from django.http import HttpResponse

from ledger import cleaning

#: What a download may be asked as (``?_export=``); anything else is answered 400.
FORMATS = ("csv", "xlsx")
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
_FORMULA_START = "=+-@\t\r\uff1d\uff0b\uff0d\uff20"


def dangerous(value) -> bool:
    """Would a spreadsheet read this text cell as a formula?"""
    return isinstance(value, str) and bool(value) and value[0] in _FORMULA_START


def inert_cell(value):
    """A CSV cell a spreadsheet will not run as a formula: text starting with = + - @ or a
    tab or carriage return gets a leading apostrophe (OWASP's advice for CSV injection);
    numbers, negative ones too, stay numbers."""
    if not dangerous(value):
        return value
    if value[0] in "+-" and cleaning.is_plain_decimal(value):
        return value
    return "'" + value


def csv_response(headers: Sequence, rows: Iterable[Sequence], filename: str) -> HttpResponse:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([inert_cell(h) for h in headers])
    writer.writerows([inert_cell(cell) for cell in row] for row in rows)
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = cleaning.content_disposition(filename)
    return response


def _money(text: str) -> tuple[Decimal, str] | None:
    """A plain decimal written by the ledger ("-3.60") as (the number, its Excel format)."""
    if not isinstance(text, str) or not cleaning.is_plain_decimal(text):
        return None
    try:
        number = Decimal(text)
    except InvalidOperation:
        return None
    places = len(text.partition(".")[2])
    return number, "0." + "0" * places if places else "0"


def xlsx_bytes(headers: Sequence, rows: Iterable[Sequence], *, title: str = "Sheet",
               money_columns: Iterable[int] = ()) -> bytes:
    from openpyxl import Workbook  # on the first XLSX: no process pays for it at start-up
    from openpyxl.writer.excel import save_workbook

    workbook = Workbook()
    sheet = workbook.active
    sheet.title = cleaning.safe_filename(title, default="Sheet")[:31]
    money_columns = set(money_columns)
    for r, row in enumerate([list(headers), *rows], start=1):
        for c, value in enumerate(row, start=1):
            cell = sheet.cell(row=r, column=c)
            money = _money(value) if r > 1 and c - 1 in money_columns else None
            if money is not None:
                cell.value, cell.number_format = money
            elif isinstance(value, str):
                cell.value = value
                cell.data_type = "s"  # never a formula, whatever it starts with
                if dangerous(value):
                    cell.quotePrefix = True
            else:
                cell.value = value
    out = io.BytesIO()
    save_workbook(workbook, out)  # (not a model's save: the architecture test looks)
    return out.getvalue()


def xlsx_response(headers: Sequence, rows: Iterable[Sequence], filename: str, *,
                  title: str = "Sheet", money_columns: Iterable[int] = ()) -> HttpResponse:
    response = HttpResponse(xlsx_bytes(headers, rows, title=title, money_columns=money_columns),
                            content_type=XLSX_TYPE)
    response["Content-Disposition"] = cleaning.content_disposition(filename)
    return response
