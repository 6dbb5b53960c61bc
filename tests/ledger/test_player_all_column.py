"""The player page's "All" column keeps CAP-IT apart from the gin figures (issue 37.13), as
the standings do: a CAP-IT round is not a gin hand, a round won is not a box, and penalty
points (lower is better) are not gin points. The figures are the case records' (the rules'):
in the standard gin game A plays 7 hands, wins 4 of them (4 boxes, 1 gin, undercut once)
and scores 118 hand points; in CAP-IT's pot A plays 5 rounds, wins 3 and takes 70 penalty
points (14.0 a round)."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from ledger import services
from ledger.models import Player
from tests.pages import Page

pytestmark = pytest.mark.django_db


@pytest.fixture
def a_page(logged_in, table, keeper, case):
    """Player A's page after one gin game and one CAP-IT game, both won."""
    session = services.session_create(table=table, date=datetime.date(2026, 11, 25),
                                      currency="USD", rate="0.01", created_by=keeper)
    services.game_import(session=session, record=case("gin-standard-game"), imported_by=keeper)
    services.game_import(session=session, record=case("cap-it-pot"), imported_by=keeper)
    a = Player.objects.get(table=table, name="A")
    return Page(logged_in.get(reverse("ledger:player_detail", args=[a.pk])))


def columns(page: Page) -> dict[str, dict[str, str]]:
    """{figure: {column: text}} of the "by game" table."""
    table = page.all("table", class_="stats")[0]
    heads = [page.text(th) for th in table.find("thead").iter("th")][1:]
    return {tr.get("data-stat"): dict(zip(heads, [page.text(td) for td in tr.findall("td")],
                                          strict=True))
            for tr in table.find("tbody").findall("tr")}


def test_the_all_column_counts_gin_hands_boxes_and_points_without_capit_rounds(a_page):
    figures = columns(a_page)
    assert {key: row["All"] for key, row in figures.items()} == {
        # whole games: both count
        "evenings": "1", "games": "2", "wins": "2", "win_rate": "100",
        # hands: the gin game's 7 (not 7 + 5 rounds), 4 won, 4 boxes (not 4 + 3 round wins)
        "hands_played": "7", "hands_won": "4", "gins": "1", "big_gins": "0",
        "undercuts_made": "0", "undercuts_suffered": "1", "boxes": "4", "shutouts": "0",
        # 118 gin points over 7 hands (not (118 + 70 penalty points) / 12 = 15.7)
        "points_per_hand": "16.9",
    }
    # each game's own column as before
    assert figures["hands_played"]["Gin"] == "7" and figures["hands_played"]["CAP-IT"] == "5"
    assert figures["points_per_hand"]["CAP-IT"] == "14.0"
    assert figures["boxes"]["CAP-IT"] == "3"
    # the page says what the column holds
    assert "the hands, boxes and points of the gin games only" in a_page.text(
        a_page.one(id="all-apart"))
    assert "CAP-IT counts rounds and penalty points" in a_page.text(a_page.one(id="all-apart"))
