"""The club formats on paper (RULES §3.7, §3.9, §3.10; issue 40): a streets sheet prints
its deals table by table with each deal's knock card, boxes and streets, then the three
streets' settlement (street bonus, box advantage, clean sweep, net) and the game points G
with the sweep; a club partnership sheet its roodle, its doubled deal and the boxes they
earned; a best-of match its hands won, its lump sum and no target or end bonuses; and the
evening's report says a streets game's G and a match's hands won. The numbers are the
canon's samples (tests/data/club) and examples 15 and 19."""

from __future__ import annotations

import json

import pytest

from ledger import services
from scoresheets import documents, selectors

from .conftest import pdf_pages, pdf_text

pytestmark = [pytest.mark.django_db, pytest.mark.engine_independent]

from tests.ledger.conftest import DATA  # noqa: E402

CLUB = DATA / "club"


def club_game(demo, keeper, name: str, **changes):
    record = json.loads((CLUB / f"{name}.json").read_text())
    record.update(changes)
    return services.game_import(session=demo, record=record, imported_by=keeper)


def one_line(text: str) -> str:
    return " ".join(text.split())


def test_a_streets_sheet_prints_its_streets_deals_and_settlement(demo, keeper):
    game = club_game(demo, keeper, "streets-game")
    pdf, _name = documents.game_sheet_pdf(game)
    text = one_line(pdf_text(pdf))
    # the deals, table by table, each with its box and the streets it entered
    assert "1 1 A v X X A gin v X 25 A 50" in text
    assert "B knocks 3 v Y 13 B 10 WE 1 box · street 1" in text
    assert "THEY 1 box · streets 1, 2" in text
    assert "WE 1 box · streets 1, 2 · street 1 ends" in text
    assert "WE 1 box · street 3 · street 3 ends" in text
    # the streets' settlement (the sample's expected numbers)
    assert "Street 1 to 100 WE THEY Hand points 139 47 Boxes 2 2 Street bonus 100 –" in text
    assert "Street total 239 47 WE out in hand 4 net WE +192" in text
    assert "Street total 209 52 WE out in hand 6 net WE +157" in text
    assert "Box advantage 25 –" in text and "Street total 238 37" in text
    assert "Box advantage – – Clean sweep – –" in text  # no word cut in two
    assert "Street 1 +192 −192 Street 2 +157 −157 Street 3 +201 −201" in text
    assert "all-streets sweep: doubled ×2 ×2 Game points G +1,100 −1,100" in text
    assert "WE win the game." in text
    assert "Y pays A $11.00" in text and "X pays B $11.00" in text
    # RULES 3.9: the streets' rules, not §2's end bonuses
    rules = dict(selectors.game_sheet_context(game)["rules"])
    assert rules["Street bonus"] == "= target" and rules["Clean sweep"] == "+ street bonus"
    assert rules["All streets"] == "all won: G ×2" and rules["Box (line) bonus"] == "25 a box"
    assert rules["Third street counts double"] == "no"
    assert "Game bonus" not in text and "Shutout" not in text
    assert "Final total" not in text


def test_example_15_on_paper_in_german(demo, keeper):
    """RULES §5 example 15 (SOURCES St-3): streets 261, 197 and 192; G 650, x 2 = 1300;
    at 0.01 a point A, B +13.00."""
    game = club_game(demo, keeper, "streets-game")
    game.session.table.language = "de"
    game.session.table.save()
    html = one_line(documents.game_sheet_html(game))
    assert "Straße 1" in html and "Partiepunkte G" in html
    assert "+1.100" in html and "−1.100" in html


def test_a_target_change_and_one_a_side_print_the_deals_streets(demo, keeper):
    game = club_game(demo, keeper, "streets-target-change")
    text = one_line(pdf_text(documents.game_sheet_pdf(game)[0]))
    assert "3 Target changed to 75" in text
    # one a side: a line a deal, its streets under it
    assert "T1 A gin v X 20 45 85 30 WE 1 box · streets 1, 2 · street 1 ends" in text
    assert "Street 1 to 75" in text and "Street bonus 75 –" in text
    assert "Box advantage 25 –" in text


def test_a_club_partnership_sheet_prints_the_doubled_deal_and_the_roodle(demo, keeper):
    """The sample: deal 1 has a 7♠ knock card (doubled) and a roodle: 9 boxes; 10 boxes in
    all are 10 x 25 = 250 (the boxes line counted the hands won: 2 x 25 = 250)."""
    game = club_game(demo, keeper, "partnership-club-roodle")
    text = one_line(pdf_text(documents.game_sheet_pdf(game)[0]))
    assert "B gin v Y 9 B 68 knock card 7♠, doubled · WE 9 boxes" in text
    assert "THEY 3 boxes" in text and "Draw WE 1 box" in text
    assert "Boxes 10 × 25 = 250 3 × 25 = 75" in text
    assert "Final total 476 99" in text
    assert "Extra boxes gin 2, undercut 1, roodle 1; doubled in a doubled deal" in text
    assert "Spade knock card doubles the deal" in text
    assert "Y pays A $3.77" in text


def test_a_best_of_seven_prints_the_hands_won_and_the_lump_sum(demo, keeper):
    game = club_game(demo, keeper, "straight-best-of-seven")
    text = one_line(pdf_text(documents.game_sheet_pdf(game)[0]))
    assert "$10.00 to the winner of the match" in text
    assert "Match best of 7: first to 4 hands" in text
    assert "Knock limit 0: gin only" in text
    for gone in ("Game to", "Game bonus", "Shutout", "Box (line) bonus", "Final total"):
        assert gone not in text, gone
    assert "B wins the match 4‑3." in text
    assert "Points (not counted) 162 147 Hands won 3 4" in text
    assert "A pays B $10.00" in text


def test_straight_gin_example_19_on_paper(demo, keeper):
    """RULES §5 example 19: A gins v 22 (47); B gins v 15 (40); draw; A gins v 31 (56):
    A 103 + 100 + 2 x 25 = 253, B 40 + 25 = 65, net 188; dealers B, A, B, B."""
    record = {"format": "tablestakes.game/1", "variant": "gin", "preset": "straight",
              "players": ["A", "B"], "setup": {"first_dealer": "B"},
              "stakes": {"rate": "0.01", "per_points": 1, "currency": "USD"},
              "hands": [{"knocker": "A", "deadwood": {"A": 0, "B": 22}},
                        {"knocker": "B", "deadwood": {"A": 15, "B": 0}},
                        {"draw": True},
                        {"knocker": "A", "deadwood": {"A": 0, "B": 31}}]}
    game = services.game_import(session=demo, record=record, imported_by=keeper)
    text = one_line(pdf_text(documents.game_sheet_pdf(game)[0]))
    assert "1 B A gin v B 22 47 47 0 2 A B gin v A 15 47 40 40 3 B Draw 47 40 " \
           "4 B A gin v B 31 56 103 40" in text
    assert "Hand points 103 40 Boxes 2 × 25 = 50 1 × 25 = 25 Game bonus 100 –" in text
    assert "Final total 253 65" in text
    assert "Knock limit 0: gin only" in text
    assert "B pays A $1.88" in text


def test_the_session_report_says_a_streets_games_points_and_a_matchs_hands(demo, keeper):
    streets = club_game(demo, keeper, "streets-game")
    club_game(demo, keeper, "straight-best-of-seven")
    text = one_line(pdf_text(documents.session_report_pdf(streets.session)[0]))
    assert "WE +1,100 (streets 239 · 209 · 238) THEY −1,100 (streets 47 · 52 · 37) " \
           "WE win the game." in text
    assert "A 3 (hands won) B 4 (hands won) B wins the match 4‑3." in text
    assert "$10.00 to the winner of the match" in text


def test_a_streets_blank_sheet_has_the_three_streets_to_settle_by_hand(demo, keeper):
    game = club_game(demo, keeper, "streets-game", hands=[])
    pages = pdf_pages(documents.blank_sheet_pdf(game)[0])
    assert len(pages) == 2  # the end tables share the last page with the rows
    text = one_line(pages[-1])
    assert "Street 1 to 100 WE THEY Hand points Boxes Street bonus Box advantage " \
           "Clean sweep Street total" in text
    assert "Net of each street WE THEY Street 1 Street 2 Street 3 all-streets sweep: " \
           "doubled Game points G" in text
    assert "Game bonus" not in text and "Final total" not in text
    match = club_game(demo, keeper, "straight-best-of-seven", hands=[])
    text = one_line(pdf_text(documents.blank_sheet_pdf(match)[0]))
    assert "Hands won" in text and "Final total" not in text
    assert "$10.00 to the winner of the match" in text
