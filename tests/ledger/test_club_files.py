"""The club formats' games in the downloads (issue 40): the CSV and the XLSX of a streets
game, a club partnership game and a best-of match carry the grid's columns with the
game's real numbers, each deal's knock card, boxes and streets, then the streets'
settlement and G (or the match's hands won) and the money; the screen, the file and the
paper write the same columns from the same rows."""

from __future__ import annotations

import csv
import io
import json

import pytest
from openpyxl import load_workbook

from ledger import services
from ledger.presentation.grid import FILE, PAPER, SCREEN
from ledger.presentation.sheet import game_sheet, layout_of
from ledger.views.sheet_tables import export_dataset, sheet_columns
from scoresheets.grid import hands_grid

from .conftest import DATA
from .test_sheet_grid import check

pytestmark = pytest.mark.django_db

CLUB = DATA / "club"
SAMPLES = sorted(path.stem for path in CLUB.glob("*.json")
                 if not path.stem.endswith(".expected") and not path.stem.startswith("bad-"))


def imported(session, keeper, name: str):
    record = json.loads((CLUB / f"{name}.json").read_text())
    return services.game_import(session=session, record=record, imported_by=keeper)


def csv_rows(client, game) -> list[list[str]]:
    response = client.get(f"/games/{game.pk}/hands.csv")
    assert response.status_code == 200
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


@pytest.mark.parametrize("name", SAMPLES)
def test_screen_file_and_paper_write_one_grid_with_the_games_numbers(session, keeper, name):
    game = imported(session, keeper, name)
    sheet = game_sheet(game)
    check(layout_of(sheet.result))
    columns = sheet.grid.placed(FILE)
    dataset = export_dataset(sheet)
    assert list(dataset.headers) == [column.header for _g, column in columns
                                     if not column.optional]  # "Reported by": none here
    assert [label for _n, label in
            ((n, str(c.verbose_name)) for n, c in sheet_columns(sheet, fix_url="/x/0/"))] \
        == [column.short for _g, column in sheet.grid.placed(SCREEN)]
    paper = hands_grid(sheet.layout, sheet.rows)
    assert [label for label, _css in paper.columns] == [
        column.short for _g, column in sheet.grid.placed(PAPER)]
    # the same numbers: each hand's points and running totals in the file are the core's,
    # and the paper prints them on the hand's first line
    played = [row for row in sheet.rows if row.played and not row.void]
    for row, line in zip(played, dataset, strict=False):
        assert line[0] == row.number
    first_lines = [row for row in paper.rows if not row.void
                   and (not row.group or "first" in row.cls.split())]
    for row, printed in zip(played, first_lines, strict=True):
        cells = " ".join(str(html) for _css, html in printed.cells)
        for key in sheet.layout.keys:
            if row.running.get(key) is not None:
                assert str(row.running[key]) in cells


def test_a_streets_games_csv_and_xlsx(logged_in, session, keeper):
    game = imported(session, keeper, "streets-game")
    rows = csv_rows(logged_in, game)
    header = rows[0]
    assert header[:3] == ["Hand", "Dealer", "Play"]
    first = dict(zip(header, rows[1], strict=False))
    assert first["Play"] == ("T1 A gin v X 25 · A 50 / T2 B knocks 3 v Y 13 · B 10 "
                                    "· WE 1 box · street 1")
    assert [first["WE points"], first["WE total"], first["THEY total"]] == ["60", "60", "0"]
    fourth = dict(zip(header, rows[4], strict=False))
    assert fourth["Play"].endswith("· WE 1 box · streets 1, 2 · street 1 ends")
    assert fourth["WE points"] == "79"
    end = [[cell for cell in row if cell] for row in rows[8:]]
    assert ["Street 1", "WE 239", "THEY 47", "Net WE 192"] in end
    assert ["Street 2", "WE 209", "THEY 52", "Net WE 157"] in end
    assert ["Street 3", "WE 238", "THEY 37", "Net WE 201"] in end
    assert ["Game points G", "WE 1100", "THEY -1100"] in end
    assert ["Money", "A", "11.00", "USD"] in end and ["Money", "Y", "-11.00", "USD"] in end
    assert not any(row and row[0] == "Final total" for row in end)
    response = logged_in.get(f"/games/{game.pk}/hands.csv?_export=xlsx")
    sheet = load_workbook(io.BytesIO(response.content)).active
    cells = [[("" if c is None else str(c)) for c in row]
             for row in sheet.iter_rows(values_only=True)]
    assert cells[0] == header
    assert cells[1][:len(rows[1])] == rows[1]
    assert ["Game points G", "WE 1100", "THEY -1100"] in [[c for c in row if c] for row in cells]


def test_a_partnership_club_csv_says_the_doubled_deal_and_a_match_its_hands_won(
        logged_in, session, keeper):
    game = imported(session, keeper, "partnership-club-roodle")
    rows = csv_rows(logged_in, game)
    first = dict(zip(rows[0], rows[1], strict=False))
    assert first["Play"].endswith("· knock card 7♠, doubled · WE 9 boxes")
    assert [first["WE points"], first["WE total"]] == ["98", "98"]
    end = [[cell for cell in row if cell] for row in rows]
    assert ["Final total", "WE 476", "THEY 99"] in end
    match = imported(session, keeper, "straight-best-of-seven")
    end = [[cell for cell in row if cell] for row in csv_rows(logged_in, match)]
    assert ["Hands won", "A 3", "B 4"] in end
    assert ["Points (not counted)", "A 162", "B 147"] in end
    assert ["Money", "B", "10.00", "USD"] in end
    assert not any(row and row[0] == "Final total" for row in end)


def test_an_open_match_and_an_open_streets_game_say_who_leads(session, keeper):
    """The lists of games (the evening, the share page) say who leads: a match by its hands
    won (it read 'Level' at 3-2: a match has no point totals), a streets game by G."""
    from ledger.presentation.words import lead_words
    from ledger.selectors.games import game_result

    record = json.loads((CLUB / "straight-best-of-seven.json").read_text())
    record["hands"] = record["hands"][:5]
    match = services.game_import(session=session, record=record, imported_by=keeper)
    result = game_result(match)
    assert result["match"]["hands_won"] == {"A": 2, "B": 2}
    assert lead_words(result) == "Level"
    record["hands"] = record["hands"][:2]  # A has won both
    result = game_result(services.game_import(session=session, record=record,
                                              imported_by=keeper))
    assert lead_words(result) == "A leads"
    record = json.loads((CLUB / "streets-game.json").read_text())
    record["hands"] = record["hands"][:3]  # WE 60 in street 1; THEY 47 in 1, 15 in 2
    result = game_result(services.game_import(session=session, record=record,
                                              imported_by=keeper))
    leader = max(result["game_points"], key=result["game_points"].get)
    assert lead_words(result) == f"{leader} lead"
