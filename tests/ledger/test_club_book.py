"""Streets games, club partnership games and best-of matches in the table's book and its
statistics (issue 40): they count like any game, with their money, their wins and their
players' plays; a streets game's points are its game points G (RULES 3.9), a match's hands
won are its players' (RULES 3.10)."""

from __future__ import annotations

import json

import pytest

from ledger import services
from ledger.book import selectors as book
from ledger.models import GameStanding

from .conftest import DATA

pytestmark = pytest.mark.django_db

CLUB = DATA / "club"


def imported(session, keeper, name: str):
    record = json.loads((CLUB / f"{name}.json").read_text())
    return services.game_import(session=session, record=record, imported_by=keeper)


def test_club_games_count_in_the_book_like_any_game(table, session, keeper):
    streets = imported(session, keeper, "streets-game")             # WE (A, B) +11.00 each
    match = imported(session, keeper, "straight-best-of-seven")     # B wins 4-3, 10.00
    club = imported(session, keeper, "partnership-club-roodle")     # WE +3.77 each
    services.session_settle(session=session, settled_by=keeper)
    (usd,) = book.table_books(table)
    lines = {line.player.name: line for line in usd.lines}
    assert {name: line.money for name, line in lines.items()} == {
        "A": 1100 - 1000 + 377, "B": 1100 + 1000 + 377, "X": -1100 - 377, "Y": -1100 - 377}
    assert sum(line.money for line in usd.lines) == 0
    assert {name: line.games for name, line in lines.items()} == {"A": 3, "B": 3, "X": 2,
                                                                  "Y": 2}
    assert {name: line.wins for name, line in lines.items()} == {"A": 2, "B": 3, "X": 0,
                                                                 "Y": 0}

    def standing(game, name):
        return GameStanding.objects.get(game=game, player__name=name)

    # streets: the side's points are its game points G, its deals won counted per player
    assert standing(streets, "A").final_points == 1100
    assert standing(streets, "X").final_points == -1100
    assert standing(streets, "A").won and not standing(streets, "Y").won
    assert standing(streets, "A").money_minor == 1100
    # the match: the hands each won; gins made (straight gin: every hand won is a gin)
    assert (standing(match, "B").hands_won, standing(match, "A").hands_won) == (4, 3)
    assert (standing(match, "B").gins, standing(match, "A").gins) == (4, 3)
    assert standing(match, "B").won and standing(match, "B").money_minor == 1000
    # club partnership: the doubled deal's gin counts once as B's gin
    assert standing(club, "B").gins == 1 and standing(club, "A").final_points == 476


def test_the_book_and_standings_pages_show_club_games(logged_in, table, session, keeper):
    imported(session, keeper, "streets-game")
    imported(session, keeper, "straight-best-of-seven")
    services.session_settle(session=session, settled_by=keeper)
    page = logged_in.get(f"/tables/{table.pk}/book/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "21.00" in text  # B: +11.00 and +10.00
    standings = logged_in.get(f"/tables/{table.pk}/standings/")
    assert standings.status_code == 200
    assert "21.00" in standings.content.decode()
