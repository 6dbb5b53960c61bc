"""Issue 21 items 9 and 12, read off the pages: the shared table shows each game's score
line, the evening's money so far and, once settled, who pays whom; a finished game's
shared page says final; a day's second evening is told apart in words; the standings keep
CAP-IT apart and sort "more is better" columns highest first."""

from __future__ import annotations

import datetime
import io
import re

import openpyxl
import pytest
from django.urls import reverse

from ledger import services
from ledger.models import Session
from tests.pages import Page, text

from .conftest import start_empty

pytestmark = pytest.mark.django_db

MINUS = "\u2212"


@pytest.fixture
def evening(table, keeper, case):
    """An evening at 0.01 USD: the standard gin game (A 318 v B 116: A +2.02), CAP-IT's
    pot (A +10.00, B -4.00, C -3.00, D -3.00) and a gin game still in play."""
    session = services.session_create(table=table, date=datetime.date(2026, 11, 25),
                                       place="Rosa's", currency="USD", rate="0.01",
                                       created_by=keeper)
    gin = services.game_import(session=session, record=case("gin-standard-game"),
                               imported_by=keeper)
    capit = services.game_import(session=session, record=case("cap-it-pot"),
                                 imported_by=keeper)
    return {"session": session, "gin": gin, "capit": capit}


def shared_table(client, table, keeper):
    link = services.share_link_get_or_create(table=table, created_by=keeper)
    return link, client.get(reverse("ledger:shared", args=[link.token]))


def test_the_shared_table_shows_scores_and_the_evenings_money(client, table, keeper,
                                                               evening, case):
    open_game = start_empty(evening["session"], keeper, case("gin-standard-game"))
    services.hand_record(game=open_game, entry={"knocker": "A", "deadwood": {"A": 5, "B": 17}},
                         recorded_by=keeper, idempotency_key="6b1f6a7e-2f55-4d0b-9c59-1b5c1c0e0001")
    link, response = shared_table(client, table, keeper)
    page = Page(response)
    games = page.all("li", class_="shared-game")
    lines = [page.text(li) for li in games]
    assert lines[0] == "Game 1 · Gin (standard) Final A wins : A 318 · B 116 · 7 hands"
    assert lines[1] == "Game 2 · CAP-IT Final A wins : A 70 · B 85 · C 110 · D 100 · 5 rounds"
    assert lines[2] == "Game 3 · Gin (standard) In progress A leads : A 12 · B 0 · 1 hand"
    # the money of the finished games (the game in play has none yet), a real minus sign
    assert page.money_cell("A") == "+12.02"
    assert page.money_cell("B") == MINUS + "6.02"
    assert page.money_cell("C") == MINUS + "3.00"
    assert page.money_cell("D") == MINUS + "3.00"
    assert "Money so far USD" in page.text()
    assert "Game 3 still in play" in page.text()
    assert "pays" not in page.text()


def test_once_settled_the_shared_table_says_who_pays_whom(client, table, keeper, evening):
    link, before = shared_table(client, table, keeper)
    etag = before.headers.get("ETag") or Page(before).one(id="live").get("data-etag")
    services.session_settle(session=evening["session"], settled_by=keeper)
    payment = evening["session"].settlements.get().payments.order_by("pk").first()
    services.settlement_payment_mark_paid(payment=payment, paid_by=keeper, paid=True)
    response = client.get(reverse("ledger:shared", args=[link.token]))
    page = Page(response)
    pays = [page.text(li) for li in page.all("li", class_="payment")]
    assert pays == ["B pays A $6.02 paid", "C pays A $3.00", "D pays A $3.00"]
    assert "The evening's money USD" in page.text() and "settled" in page.text()
    # the live part follows the settlement: its ETag changed, so a phone gets the new part
    live = client.get(reverse("ledger:shared_live", args=[link.token]),
                      HTTP_IF_NONE_MATCH=etag)
    assert live.status_code == 200 and "B pays A $6.02" in text(live)


def test_a_finished_games_shared_page_says_final(client, table, keeper, evening, case):
    link = services.share_link_get_or_create(table=table, created_by=keeper)
    done = client.get(reverse("ledger:shared_game", args=[link.token, evening["gin"].pk]))
    page = Page(done)
    assert page.all(class_="final-mark") and not page.all(class_="live-dot")
    assert "final" in page.text(page.one(class_="final-mark"))
    playing = start_empty(evening["session"], keeper, case("gin-standard-game"))
    live = Page(client.get(reverse("ledger:shared_game", args=[link.token, playing.pk])))
    assert live.all(class_="live-dot") and not live.all(class_="final-mark")


def test_a_days_second_evening_is_told_apart_in_words(client, table, keeper, evening, case):
    second = services.session_create(table=table, date=datetime.date(2026, 11, 25),
                                     place="Rosa's", currency="USD", rate="0.01",
                                     created_by=keeper)
    services.game_import(session=second, record=case("gin-standard-game"), imported_by=keeper)
    assert Session.objects.filter(table=table).count() == 2
    link, response = shared_table(client, table, keeper)
    page = Page(response)
    headings = [page.text(h) for h in page.all("h2") if "2026" in page.text(h)]
    assert headings == ["Wednesday, November 25, 2026, second evening · Rosa's",
                        "Wednesday, November 25, 2026 · Rosa's"]
    assert not re.search(r"\(\d\)", page.text())  # no bare "(2)"
    game_page = client.get(reverse("ledger:shared_game", args=[link.token, evening["gin"].pk]))
    assert not re.search(r"\(\d\)", text(game_page))


def test_standings_keep_capit_apart_and_sort_most_first(logged_in, table, evening):
    url = reverse("ledger:table_standings", args=[table.pk])
    page = Page(logged_in.get(url))
    tables = page.all("table", class_="standings")
    assert len(tables) == 2
    gin, capit = tables
    gin_rows = {page.text(tr.find("td")): [page.text(td) for td in tr.findall("td")]
                for tr in gin.find("tbody").findall("tr")}
    # gin: only the gin game's figures (A: 7 hands, 4 boxes, +2.02); C and D played only CAP-IT
    assert set(gin_rows) == {"A", "B"}
    assert gin_rows["A"][1] == "+2.02" and gin_rows["A"][5] == "7"
    capit_rows = {page.text(tr.find("td")): [page.text(td) for td in tr.findall("td")]
                  for tr in capit.find("tbody").findall("tr")}
    assert capit_rows["A"] == ["A", "+10.00", "1", "1", "100", "5", "3", "14.0"]
    assert capit_rows["C"][-1] == "22.0"  # 110 penalty points over 5 rounds
    # a first tap sorts "more is better" highest first; "Got cut" and points a round lowest
    links = {page.text(a): a.get("href") for a in gin.find("thead").iter("a")}
    assert links["Gins"].endswith("sort=-gins") and links["Boxes"].endswith("sort=-boxes")
    assert links["Got cut"].endswith("sort=undercuts_suffered")
    assert links["Player"].endswith("sort=name")
    capit_links = {page.text(a): a.get("href") for a in capit.find("thead").iter("a")}
    assert capit_links["Pts/round"].endswith("capit-sort=points_per_hand")
    assert capit_links["Rounds won"].endswith("capit-sort=-hands_won")
    by_gins = Page(logged_in.get(url, {"sort": "-gins"}))
    first = by_gins.all("table", class_="standings")[0].find("tbody").find("tr")
    assert by_gins.text(first.find("td")) == "A"  # A won the gins of the gin game
    # the CAP-IT part downloads on its own
    csv = logged_in.get(url, {"part": "capit", "_export": "csv"}).content.decode()
    assert csv.splitlines()[0].startswith("Player,Money (USD),Games,Wins,Win %,Rounds")
    xlsx = logged_in.get(url, {"part": "capit", "_export": "xlsx", "capit-sort": "name"})
    sheet = openpyxl.load_workbook(io.BytesIO(xlsx.content)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert [row[0] for row in rows[1:]] == ["A", "B", "C", "D"]
    assert [row[1] for row in rows[1:]] == [10, -4, -3, -3]  # money as numbers
