"""The book's screens: the numbers on the pages, squaring the book, reopening an evening,
standings filtered, sorted and exported, and tidying a table (book_scenario.py's evenings)."""

from __future__ import annotations

import csv
import io
import re

import openpyxl
import pytest
from django.urls import reverse

from ledger import services
from ledger.models import Player, SessionSettlement, SettlementPayment, SettlementVoid, Table
from tests.pages import field_error, text

from .book_scenario import build

pytestmark = pytest.mark.django_db


@pytest.fixture
def evenings(table, keeper):
    return build(table, keeper)


def row_of(response, attr: str, name: str) -> list[str]:
    """The visible cells of the table row marked data-<attr>="name"."""
    page = response.content.decode()
    match = re.search(rf'<tr data-{attr}="{re.escape(name)}">(.*?)</tr>', page, flags=re.S)
    assert match, f"no row for {name}"
    return [" ".join(re.sub(r"<[^>]+>", " ", cell).split())
            for cell in re.findall(r"<td[^>]*>(.*?)</td>", match.group(1), flags=re.S)]


def test_book_page_shows_the_book(logged_in, table, evenings):
    response = logged_in.get(reverse("ledger:table_book", args=[table.pk]))
    assert response.status_code == 200
    assert row_of(response, "player", "Ann") == ["Ann 2 evenings", "2", "2", "+3.57", "+1.55"]
    assert row_of(response, "player", "Bob") == ["Bob 3 evenings", "4", "1",
                                                 "\u22123.60", "\u22121.58"]
    assert row_of(response, "player", "Cy") == ["Cy 2 evenings", "3", "1", "+0.03", "+0.03"]
    words = text(response)
    assert "Bob pays Ann $1.55" in words and "Bob pays Cy $0.03" in words
    assert "Open evenings" in words and "Ann +2.02 · Cy \u22122.02" in words
    assert "-3.60" not in words and "-2.02" not in words  # a real minus sign on the page
    assert "2 due" in words and "1 due" in words
    # the player page is linked from the book
    ann = Player.objects.get(name="Ann")
    assert reverse("ledger:player_detail", args=[ann.pk]) in response.content.decode()
    # and the book from the table page
    table_page = logged_in.get(reverse("ledger:table_detail", args=[table.pk]))
    assert reverse("ledger:table_book", args=[table.pk]) in table_page.content.decode()


def test_squaring_the_book_from_the_page(logged_in, table, evenings):
    page = logged_in.get(reverse("ledger:table_book", args=[table.pk])).content.decode()
    expected = re.search(r'name="expected" value="([^"]*)"', page).group(1)
    url = reverse("ledger:book_settle", args=[table.pk])
    stale = logged_in.post(url, {"currency": "USD", "expected": expected.split(",")[0]},
                           follow=True)
    assert "The book changed since you opened it" in text(stale)
    assert SettlementPayment.objects.filter(paid_at__isnull=True,
                                            settlement__void__isnull=True).count() == 3
    done = logged_in.post(url, {"currency": "USD", "expected": expected}, follow=True)
    assert "3 payments of the evenings marked paid" in text(done)
    assert "Nobody owes anybody" in text(done)
    assert row_of(done, "player", "Bob")[-1] == "0.00"
    garbled = logged_in.post(url, {"currency": "USD", "expected": "x,y"}, follow=True)
    assert "damaged" in text(garbled)


def test_player_page(logged_in, table, evenings):
    ann = Player.objects.get(name="Ann")
    response = logged_in.get(reverse("ledger:player_detail", args=[ann.pk]))
    assert response.status_code == 200
    # money: the two-hand games only (docs/head-to-head.md), not the box game of three
    assert row_of(response, "against", "Bob") == ["Bob", "2", "2", "0", "+2.02"]
    assert row_of(response, "against", "Cy") == ["Cy", "2", "2", "0", "+2.02"]
    assert row_of(response, "stat", "games") == ["3", "2", "1"]  # all, gin, box
    assert row_of(response, "stat", "win_rate") == ["100", "100", "100"]
    page = response.content.decode()
    assert '<svg class="chart"' in page and "Running balance of Ann" in page
    assert "+5.59" in text(response) and "January 2026" in text(response)


def test_pages_of_another_keepers_table_are_404(client, other_keeper, table, evenings):
    client.force_login(other_keeper)
    ann = Player.objects.get(name="Ann")
    for url in (reverse("ledger:table_book", args=[table.pk]),
                reverse("ledger:table_standings", args=[table.pk]),
                reverse("ledger:table_tidy", args=[table.pk]),
                reverse("ledger:player_detail", args=[ann.pk])):
        assert client.get(url).status_code == 404
    response = client.post(reverse("ledger:book_settle", args=[table.pk]),
                           {"currency": "USD", "expected": ""})
    assert response.status_code == 404


def test_standings_filter_sort_and_export(logged_in, table, evenings):
    url = reverse("ledger:table_standings", args=[table.pk])
    response = logged_in.get(url, {"sort": "-money"})
    assert response.status_code == 200
    page = response.content.decode()
    order = [name for name in re.findall(r'<td class="who"><a href="[^"]+">([^<]+)</a>', page)]
    assert order == ["Ann", "Cy", "Bob"]  # +5.59, -1.99, -3.60 over every finished game
    box = logged_in.get(url, {"variant": "box", "sort": "name"})
    names = re.findall(r'<td class="who"><a href="[^"]+">([^<]+)</a>', box.content.decode())
    assert names == ["Ann", "Bob", "Cy"]
    assert "+1.55" in text(box) and "\u22121.63" in text(box) and "+0.08" in text(box)
    dates = logged_in.get(url, {"date_from": "2026-01-20", "date_to": "2026-01-31"})
    assert "\u22121.99" not in text(dates) and "+2.02" in text(dates)  # E3 + E4: Ann 2.02
    season = logged_in.get(url, {"season": "2026", "sort": "-money"})
    assert season.status_code == 200 and "+5.59" in text(season)
    no_season = logged_in.get(url, {"season": "2025"})  # the table never played in 2025
    assert no_season.status_code == 422
    assert "Select a valid choice" in field_error(no_season, "season")
    bad = logged_in.get(url, {"date_from": "soon"})
    assert bad.status_code == 422
    assert field_error(bad, "date_from") == "Enter a valid date."

    exported = logged_in.get(url, {"sort": "name", "_export": "csv"})
    assert exported["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(exported.content.decode())))
    assert rows[0][:4] == ["Player", "Money (USD)", "Games", "Wins"]
    assert [row[0] for row in rows[1:]] == ["Ann", "Bob", "Cy"]
    assert [row[1] for row in rows[1:]] == ["5.59", "-3.60", "-1.99"]
    # the screen's cells are the export's values, column for column
    screen = logged_in.get(url, {"sort": "name"}).content.decode()
    headers = [" ".join(re.sub(r"<[^>]+>", " ", h).split())
               for h in re.findall(r"<th[^>]*>(.*?)</th>", screen, flags=re.S)]
    assert [h.lower() for h in headers] == [h.lower() for h in rows[0]]
    body = re.search(r"<tbody>(.*?)</tbody>", screen, flags=re.S).group(1)
    for html_row, csv_row in zip(re.findall(r"<tr>(.*?)</tr>", body, flags=re.S), rows[1:],
                                 strict=True):
        cells = [" ".join(re.sub(r"<[^>]+>", " ", c).split())
                 for c in re.findall(r"<td[^>]*>(.*?)</td>", html_row, flags=re.S)]
        assert [c.lstrip("+").replace("\u2212", "-") for c in cells] == csv_row
    xlsx = logged_in.get(url, {"sort": "name", "_export": "xlsx"})
    sheet = openpyxl.load_workbook(io.BytesIO(xlsx.content)).active
    values = list(sheet.iter_rows(values_only=True))
    assert values[0][0] == "Player" and [r[0] for r in values[1:]] == ["Ann", "Bob", "Cy"]
    assert [r[2] for r in values[1:]] == [3, 4, 4]  # games of each player


def test_reopen_from_the_evening_page(logged_in, table, keeper, evenings):
    e2 = evenings["e2"]
    url = reverse("ledger:session_reopen", args=[e2.pk])
    page = logged_in.get(reverse("ledger:session_detail", args=[e2.pk]))
    assert "Reopen the evening" in text(page)
    empty = logged_in.post(url, {"reason": "  "}, follow=True)
    assert "Reopen:" in text(empty) and SettlementVoid.objects.count() == 1
    done = logged_in.post(url, {"reason": "the stake was wrong"}, follow=True)
    assert "open again" in text(done)
    assert "reopened" in text(done) and "the stake was wrong" in text(done)
    assert "Settle up" in text(done)  # settles anew
    assert not SessionSettlement.objects.filter(session=e2, void__isnull=True).exists()
    # the book no longer counts it: E2 is open
    book = logged_in.get(reverse("ledger:table_book", args=[table.pk]))
    assert row_of(book, "player", "Ann")[-2:] == ["+2.02", "0.00"]
    services.session_settle(session=e2, settled_by=keeper)
    book = logged_in.get(reverse("ledger:table_book", args=[table.pk]))
    assert row_of(book, "player", "Ann")[-2:] == ["+3.57", "+1.55"]


def test_tidy_rename_table_and_archive_player(logged_in, table, keeper, session, evenings):
    url = reverse("ledger:table_tidy", args=[table.pk])
    services.table_create(name="Monday", scorekeepers=[keeper])
    clash = logged_in.post(url, {"rename": "1", "name": "Monday"})
    assert clash.status_code == 422
    assert "already keeps a table called 'Monday'" in field_error(clash, "name")
    done = logged_in.post(url, {"rename": "1", "name": "Friday club"}, follow=True)
    assert Table.objects.get(pk=table.pk).name == "Friday club"
    assert "Friday club" in text(done)

    cy = Player.objects.get(name="Cy")
    logged_in.post(url, {"player": cy.pk, "archive": "1"})
    cy.refresh_from_db()
    assert cy.archived_at is not None
    start = logged_in.get(reverse("ledger:game_start", args=[session.pk, "box", 3]))
    assert ">Cy<" not in start.content.decode() and ">Ann<" in start.content.decode()
    # still in every history: the book and the player page
    book = logged_in.get(reverse("ledger:table_book", args=[table.pk]))
    assert row_of(book, "player", "Cy")[0] == "Cy left 2 evenings"
    logged_in.post(url, {"player": cy.pk, "archive": "0"})
    cy.refresh_from_db()
    assert cy.archived_at is None
    start = logged_in.get(reverse("ledger:game_start", args=[session.pk, "box", 3]))
    assert ">Cy<" in start.content.decode()


def test_a_players_chart_says_the_days_when_every_evening_is_in_one_month(logged_in, table,
                                                                         evenings):
    bob = Player.objects.get(name="Bob")  # played on 8, 15 and 22 January 2026 (or some)
    page = logged_in.get(reverse("ledger:player_detail", args=[bob.pk])).content.decode()
    chart = re.search(r'<svg class="chart".*?</svg>', page, flags=re.S).group(0)
    ticks = re.findall(r'<text class="tick"[^>]*>([^<]*)</text>', chart)
    ends = [t for t in ticks if "Jan" in t]
    assert len(ends) == 2 and ends[0] != ends[1], ticks  # not "Jan 2026 ... Jan 2026"
    # CLDR's English (dates.format_part): "Jan 8" ... "Jan 22, 2026"
    assert re.fullmatch(r"Jan \d{1,2}", ends[0]) and re.fullmatch(r"Jan \d{1,2}, 2026", ends[1])
    lows = [t for t in ticks if t.startswith("\u2212")]
    assert lows, ticks  # Bob's lowest balance, with a real minus sign
    assert not any(t.startswith("-") for t in ticks)
