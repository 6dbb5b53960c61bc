"""One game of every variant through the screen (the game page), the CSV and the PDF: the
same hand texts, the same totals and the same money in all three, because all three render
from one presentation layer (ledger/presentation)."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.urls import reverse

from ledger import services
from ledger.presentation.sheet import game_sheet
from ledger.selectors.games import game_result
from tests.ledger.conftest import load_case
from tests.pages import text as visible_text
from tests.rules.helpers import DRAW, gin, knock, record, win

from .conftest import pdf_text

# PDF layout and what the sheets print: the same on any engine (SQLite only in CI).
pytestmark = [pytest.mark.django_db, pytest.mark.engine_independent]
MINUS = "\u2212"


def hollywood() -> dict:
    hands = [win("Lou", "Ann", 30), win("Lou", "Ann", 30), win("Ann", "Lou", 20),
             win("Lou", "Ann", 30), win("Lou", "Ann", 30), win("Lou", "Ann", 30),
             win("Lou", "Ann", 30)]
    return record("hollywood", ("Lou", "Ann"), hands, rules={"target": 100})


def captain_seven() -> dict:
    setup = {"captains": ["R1", "R2", "R3"], "opponents": ["B1", "B2", "B3"], "sitter": "B4"}
    hands = [{"tables": [win("B1", "R1", 30), win("B2", "R2", 30), win("B3", "R3", 30)]}]
    return record("captain", ("R1", "R2", "R3", "B1", "B2", "B3", "B4"), hands, setup=setup,
                  abandoned=True)


def partnership_four() -> dict:
    setup = {"sides": {"We": ["A", "B"], "They": ["X", "Y"]}}
    hands = [{"tables": [gin("A", "X", 20), knock("B", 9, "Y", 6)]},
             {"tables": [win("Y", "A", 10), DRAW]},
             {"tables": [win("X", "A", 10), win("B", "Y", 10)]},
             {"tables": [win("A", "Y", 60), win("B", "X", 30)]},
             {"tables": [win("A", "X", 10), win("B", "Y", 10)]}]
    return record("partnership", ("A", "B", "X", "Y"), hands, setup=setup)


def partnership_six() -> dict:
    setup = {"sides": {"North": ["A", "B", "C"], "South": ["X", "Y", "Z"]}}
    hands = [{"tables": [win("A", "X", 20), win("Y", "B", 5), DRAW]},
             {"tables": [win("A", "Y", 15), win("B", "Z", 12), win("X", "C", 8)]}]
    return record("partnership", ("A", "B", "C", "X", "Y", "Z"), hands, setup=setup,
                  abandoned=True)


GAMES = {
    "gin": lambda: load_case("gin-standard-game"),
    "oklahoma": lambda: {**load_case("oklahoma-spades"), "abandoned": True},
    "hollywood": hollywood,
    "box": lambda: load_case("box-rotation"),
    "captain-3": lambda: load_case("captain-three"),
    "captain-5": lambda: load_case("captain-five-money"),
    "captain-7": captain_seven,
    "partnership-4": partnership_four,
    "partnership-6": partnership_six,
    "cap-it": lambda: load_case("cap-it-pot"),
}


def flat(text: str) -> str:
    """Whitespace collapsed; a money sign read the same way on paper, screen and CSV."""
    return " ".join(text.replace(MINUS, "-").split())


def page_text(response) -> str:
    return flat(visible_text(response))


@pytest.mark.parametrize("name", list(GAMES))
def test_screen_csv_and_paper_say_the_same(client, keeper, demo, name):
    client.force_login(keeper)
    game = services.game_import(session=demo, record=GAMES[name](), imported_by=keeper)
    result = game_result(game)
    sheet = game_sheet(game)
    screen = page_text(client.get(reverse("ledger:game_detail", args=[game.pk])))
    rows = list(csv.reader(io.StringIO(
        client.get(reverse("ledger:game_export", args=[game.pk])).content.decode())))
    sheet_csv = flat("\n".join(" ".join(row) for row in rows))
    paper = flat(pdf_text(client.get(reverse("scoresheets:game_pdf", args=[game.pk])).content))

    # the same hand texts (a table game: each table's)
    texts = []
    for row in sheet.live_rows:
        if not row.played:
            continue
        texts += [f"T{d.table} {d.text}" for d in row.duels] if row.duels else [row.text]
    assert texts
    for text in texts:
        assert text in screen, f"screen lacks {text!r}"
        assert text in sheet_csv, f"CSV lacks {text!r}"
        bare = re.sub(r"^T\d+ ", "", text)  # paper prints the table number in its own column
        assert bare in paper, f"paper lacks {bare!r}"

    # the same totals
    if name == "hollywood":
        net = result["net"]
        for column in result["columns"]:
            finals = [str(column["totals"][k]["final"]) for k in net]
            assert f"Final total {' '.join(finals)}" in paper
            assert f"Game {column['number']} total " + " ".join(
                f"{k} {column['totals'][k]['final']}" for k in net) in sheet_csv
            for key in net:
                assert f"{key} {column['totals'][key]['final']}" in sheet_csv
        signed = [f"{'+' if v > 0 else ''}{v:,}" for v in net.values()]  # grouped
        assert f"Net points {' '.join(signed)}" in paper
        assert "Net " + " ".join(f"{k} {v}" for k, v in net.items()) in sheet_csv
        for key, value in zip(net, signed, strict=True):
            assert f"{key} {value}" in screen
    else:
        finals = {key: t["final"] for key, t in result["totals"].items()}
        line = "Final total " + " ".join(f"{sheet.layout.labels[i]} {v}"
                                         for i, v in enumerate(finals.values()))
        assert line in sheet_csv
        if name == "cap-it":
            for key, value in finals.items():
                assert re.search(rf"{key} {value} \d", paper)
                assert re.search(rf"{key} {value} \d", screen)
        else:
            assert "Final total " + " ".join(str(v) for v in finals.values()) in paper
            for label, value in zip(sheet.layout.labels, finals.values(), strict=True):
                assert re.search(rf"{re.escape(label)} \d+ \d+ \d+ \d+ {value}\b", screen), label

    # the same money
    money = result["money"]
    assert money and result["payments"]
    for player, amount in money.items():
        shown = amount if amount.startswith("-") or float(amount) == 0 else f"+{amount}"
        assert re.search(rf"\b{re.escape(player)} (\S+ )*?{re.escape(shown)}\b", paper), player
        assert f"{player} {shown}" in screen, player
        assert f"Money {player} {amount} USD" in sheet_csv, player
    for payment in result["payments"]:
        text = f"{payment['from']} pays {payment['to']} ${payment['amount']}"
        assert text in screen and text in paper
        assert f"Payment {payment['from']} {payment['to']} {payment['amount']}" in sheet_csv
