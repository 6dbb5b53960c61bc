"""Issue 21 item 12: captain play's sheet states each side's cover and each captain's
effective stake, on the screen and on paper, with the numbers of RULES §3.5-3.6.

RULES §3.6: "each captain's stake = (sum of the opponents' stakes) / (number of captains):
3:2 with 5 players, 4:3 with 7". Seven players at 0.05: four opponents (the sitter counts)
at 0.05 are 0.20, shared by three captains: 0.05 × 4/3 = 0.0666... a point."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from ledger import services
from ledger.presentation.header import stakes_lines
from ledger.presentation.money import game_money
from ledger.presentation.stakes import cover_sentence
from ledger.rules import game_facts, score_record
from tests.pages import Page, text

PLAYERS = ["Ann", "Bob", "Carla", "Dev", "Eve", "Finn", "Gus"]


def captain_seven(rate="0.05", players=None) -> dict:
    """Captain play for 7 at ``rate``: in one hand the opponents win all three tables
    (58 + 58 + 40 = 156 >= 150), a shutout: opponents 156 + 25 box + 100 game, doubled =
    562, captains 0."""
    stakes = {"rate": rate, "per_points": 1, "currency": "USD"}
    if players:
        stakes["players"] = players
    return {"format": "tablestakes.game/1", "variant": "captain", "preset": "standard",
            "players": PLAYERS, "stakes": stakes,
            "setup": {"captains": ["Ann", "Bob", "Carla"], "opponents": ["Dev", "Eve", "Finn"],
                      "sitter": "Gus"},
            "abandoned": False,
            "hands": [{"tables": [
                {"knocker": "Dev", "deadwood": {"Dev": 2, "Ann": 60}},
                {"knocker": "Eve", "deadwood": {"Eve": 2, "Bob": 60}},
                {"knocker": "Finn", "deadwood": {"Finn": 2, "Carla": 42}}]}]}


@pytest.mark.parametrize(("players", "cover"), [(3, (2, 1)), (5, (3, 2)), (7, (4, 3))])
def test_the_core_states_the_cover(players, cover):
    assert game_facts("captain", players).cover == cover
    assert game_facts("partnership", 4).cover is None and game_facts("gin", 2).cover is None


def test_a_captain_seven_game_pays_at_four_thirds_of_the_stake():
    record = captain_seven()
    result = score_record(record)
    assert result["totals"]["opponents"]["final"] == 562
    assert result["facts"]["cover"] == [4, 3]
    # by hand, from RULES: each opponent 562 × 0.05 = 28.10; each captain
    # 562 × 0.05 × 4/3 = 37.4666..., rounded -37.47, -37.47, -37.46 (the total is zero)
    per_captain = Decimal(562) * Decimal("0.05") * 4 / 3
    assert round(per_captain, 2) == Decimal("37.47")
    assert result["money"] == {"Ann": "-37.47", "Bob": "-37.47", "Carla": "-37.46",
                               "Dev": "28.10", "Eve": "28.10", "Finn": "28.10",
                               "Gus": "28.10"}
    money = game_money(result, record)
    stakes = {line.name: line.stake for line in money.lines}
    assert stakes == {"Ann": "0.05 \u00d7 4/3", "Bob": "0.05 \u00d7 4/3",
                      "Carla": "0.05 \u00d7 4/3", "Dev": "0.05", "Eve": "0.05",
                      "Finn": "0.05", "Gus": "0.05"}
    assert money.cover == ("Captains cover 4:3: each captain plays at 0.05 \u00d7 4/3 "
                           "\u2248 $0.0667 per point")
    assert stakes_lines(record, result) == [
        "$0.05 per point",
        "Captains cover 4:3: each captain plays at 0.05 \u00d7 4/3 \u2248 $0.0667 per point"]


def test_five_players_cover_three_to_two_as_in_the_rules_example(case):
    """RULES example 11: five players at 0.01: each captain covers 0.015 a point."""
    record = case("captain-five-money")
    result = score_record(record)
    assert game_money(result, record).cover == (
        "Captains cover 3:2: each captain plays at 0.01 \u00d7 3/2 = $0.015 per point")
    assert result["money"]["R1"] == "1.80"  # 120 × 0.015


def test_three_players_the_captain_covers_both():
    assert cover_sentence("0.05", "USD", 1, (2, 1), minor=2) == (
        "The captain covers both opponents (2x): 0.05 \u00d7 2 = $0.10 per point")


def test_an_opponents_own_stake_is_said_not_multiplied():
    record = captain_seven(players={"Dev": "0.10"})
    result = score_record(record)
    money = game_money(result, record)
    assert money.cover == ("Captains cover 4:3: each captain plays at the 4 opponents' "
                           "stakes together \u00f7 3, in USD per point")
    assert {line.name: line.stake for line in money.lines}["Ann"] == ""
    assert {line.name: line.stake for line in money.lines}["Dev"] == "0.10"
    # (0.10 + 3 × 0.05) / 3 = 0.08333... a captain; 562 × that = 46.8333..., and the
    # opponents' 56.20 + 3 × 28.10 = 140.50: the first seat takes the odd cent
    assert result["money"] == {"Ann": "-46.84", "Bob": "-46.83", "Carla": "-46.83",
                               "Dev": "56.20", "Eve": "28.10", "Finn": "28.10",
                               "Gus": "28.10"}


@pytest.mark.django_db
def test_the_game_page_and_the_printed_sheet_state_the_cover(logged_in, session, keeper):
    game = services.game_import(session=session, record=captain_seven(), imported_by=keeper)
    screen = logged_in.get(reverse("ledger:game_detail", args=[game.pk]))
    assert ("Captains cover 4:3: each captain plays at 0.05 \u00d7 4/3 \u2248 $0.0667 "
            "per point") in text(screen)
    assert Page(screen).money_cell("Ann") == "\u221237.47"
    paper = logged_in.get(reverse("scoresheets:game_html", args=[game.pk]))
    assert paper.status_code == 200
    words = text(paper)
    assert ("Captains cover 4:3: each captain plays at 0.05 \u00d7 4/3 \u2248 $0.0667 "
            "per point") in words
    # the money table's stake column: each captain's effective stake, each opponent's own
    rows = {Page(paper).text(tr.find("th")): [Page(paper).text(td) for td in tr.findall("td")]
            for tr in Page(paper).all("tr") if tr.find("th") is not None
            and Page(paper).text(tr.find("th")) in PLAYERS}
    assert rows["Ann"][-2:] == ["0.05 \u00d7 4/3", "\u221237.47"]
    assert rows["Dev"][-2:] == ["0.05", "+28.10"]
