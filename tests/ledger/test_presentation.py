"""The presentation layer: one set of words and numbers for every page (ledger/presentation)."""

from __future__ import annotations

import re

import pytest
from django.template import Context, Template
from django.urls import reverse

from ledger import services
from ledger.presentation import words
from ledger.presentation.sheet import game_sheet
from ledger.selectors.games import game_result
from tests.factories import gin_game
from tests.pages import tile
from tests.rules.helpers import record, win

pytestmark = pytest.mark.django_db
MINUS = "\u2212"


def hollywood_record() -> dict:
    """Lou wins six hands of 30 and Ann one of 20: a win goes into up to three games, so the
    three games' totals added up count Lou's hands more than once."""
    lou, ann = "Lou", "Ann"
    hands = [win(lou, ann, 30), win(lou, ann, 30), win(ann, lou, 20), win(lou, ann, 30),
             win(lou, ann, 30), win(lou, ann, 30), win(lou, ann, 30)]
    return record("hollywood", (lou, ann), hands, rules={"target": 100})


def test_hollywood_scores_agree_with_the_core(logged_in, session, keeper):
    game = services.game_import(session=session, record=hollywood_record(), imported_by=keeper)
    result = game_result(game)
    assert result["complete"]
    won = sum(1 for hand in result["hands"] if hand.get("winner") == "Lou")
    assert won == 6 and result["totals"]["Lou"]["hands_won"] > won  # the sum over columns
    page = logged_in.get(reverse("ledger:game_detail", args=[game.pk]))
    html = page.content.decode()
    net = result["net"]
    assert net["Lou"] > 0
    # the tiles: the core's net, and each game's total beneath
    # grouped as English groups a number (issue 37.8)
    assert tile(page, "Lou") == f"+{net['Lou']:,}"
    assert tile(page, "Ann") == f"{MINUS}{net['Lou']:,}"
    finals = [str(column["totals"]["Lou"]["final"]) for column in result["columns"]]
    assert f"games {' · '.join(finals)}" in html
    # nowhere the three games' totals added up as if they were one game
    assert f">{result['totals']['Lou']['final']}<" not in html
    # each game's table: its hands won and its final are the core's for that game
    tables = re.findall(r"<h3 class=\"pad\">Game (\d).*?</table>", html, flags=re.S)
    assert tables == ["1", "2", "3"]
    for column in result["columns"]:
        block = re.search(rf"<h3 class=\"pad\">Game {column['number']}.*?</table>", html,
                          flags=re.S).group(0)
        lou_row = re.search(r"<td class=\"who\">Lou</td>(.*?)</tr>", block, flags=re.S).group(1)
        cells = [re.sub(r"<[^>]+>.*", "", c).strip()
                 for c in re.findall(r"<td[^>]*>(.*?)</td>", lou_row, flags=re.S)]
        t = column["totals"]["Lou"]
        assert cells == [str(t["hand_points"]), str(t["hands_won"]), str(t["box_bonus"]),
                         str(t["game_bonus"]), str(t["final"])]
    # the sheet's game columns end on each game's hand points
    last = re.search(rf'<tr id="hand-{len(result["hands"])}".*?</tr>', html, flags=re.S).group(0)
    lines = [re.sub(r"<[^>]+>", "", c).strip()
             for c in re.findall(r'<span class="game[^"]*">(.*?)</span>', last, flags=re.S)]
    assert lines == [f"G{c['number']} {c['totals']['Lou']['hand_points']} · "
                     f"{c['totals']['Ann']['hand_points']}" for c in result["columns"]]


def test_one_way_to_join_names():
    assert words.names(["Ann"]) == "Ann"
    assert words.names(["Ann", "Bob"]) == "Ann and Bob"
    assert words.names(["Ann", "Bob", "Cy"]) == "Ann, Bob and Cy"
    assert words.names(None) == "" and words.names("Ann") == "Ann"


@pytest.mark.parametrize("hand,expected", [
    ({"result": "knock", "knocker": "Ann", "winner": "Ann", "deadwood": {"Ann": 5, "Bob": 17}},
     "Ann knocks 5 v Bob 17"),
    ({"result": "undercut", "knocker": "Ann", "winner": "Bob",
      "deadwood": {"Ann": 10, "Bob": 8}}, "Ann knocks 10 v Bob 8: Bob undercuts"),
    ({"result": "gin", "knocker": "Ann", "deadwood": {"Ann": 0, "Bob": 17}}, "Ann gin v Bob 17"),
    ({"result": "big_gin", "knocker": "Ann", "deadwood": {"Ann": 0, "Bob": 17}},
     "Ann big gin v Bob 17"),
    ({"result": "draw"}, "Draw"),
])
def test_one_text_per_kind_of_hand(hand, expected):
    assert words.duel_text(hand) == expected


def test_money_filters_print_one_minus_sign():
    template = Template("{% load money %}{{ a|money }} {{ a|signed }} {{ b|signed }} "
                        "{{ z|signed }} {{ a|money_sign }} {{ b|money_sign }} {{ n|signed }}")
    out = template.render(Context({"a": "-2.02", "b": "2.02", "z": "0.00", "n": 175}))
    assert out == f"{MINUS}2.02 {MINUS}2.02 +2.02 0.00 neg pos +175"


def test_minus_gives_each_negative_amount_in_a_text_a_real_minus_and_leaves_hyphens():
    # (the chart's labels; the pages' texts are written with the real minus, no filter)
    from ledger.presentation.money import minus_signs

    out = minus_signs("Ann +2.02 USD · Jean-Luc -0.50 EUR · 2026-01-08 · -3")
    assert out == f"Ann +2.02 USD · Jean-Luc {MINUS}0.50 EUR · 2026-01-08 · {MINUS}3"


def test_a_voided_hand_reads_like_a_live_one_with_its_points(session, keeper):
    game = gin_game(session, keeper)
    import uuid
    for entry in ({"knocker": "Ann", "deadwood": {"Ann": 5, "Bob": 17}},
                  {"knocker": "Bob", "deadwood": {"Ann": 14, "Bob": 0}}):
        services.hand_record(game=game, entry=entry, recorded_by=keeper,
                             idempotency_key=uuid.uuid4())
    services.hand_correct(hand=game.hands.get(number=2),
                          entry={"knocker": "Bob", "deadwood": {"Ann": 24, "Bob": 0}},
                          corrected_by=keeper, reason="a king was missed")
    sheet = game_sheet(game)
    voided, = sheet.voided_rows
    assert (voided.number, voided.text, voided.points, voided.void_kind) == (
        2, "Bob gin v Ann 14", {"Ann": 0, "Bob": 39}, "Corrected")
    assert voided.void_note.startswith("Corrected: a king was missed \u2014 keeper, ")
    assert [row.number for row in sheet.rows] == [1, 2, 2] and sheet.rows[1].void
    shared = game_sheet(game, owner=False).voided_rows[0]
    assert shared.void_by == "" and "keeper" not in shared.void_note
