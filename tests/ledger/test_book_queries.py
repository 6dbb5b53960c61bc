"""The book, a player's page and the standings run a number of queries that does not grow
with the evenings (4 vs 40 weekly evenings of eight games, some unpaid: a query per evening,
game or payment would make the two counts differ); the fast bench builder stores exactly
what the services would."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger import rules as core
from ledger import services
from ledger.book.stats import standings_from_result
from ledger.models import GameStanding, MoneyPosting, Player, SessionSettlement
from ledger.selectors.evenings import session_nets
from ledger.selectors.games import game_queryset_for_records, game_record, money_to_minor

from .book_big import build_table

pytestmark = pytest.mark.django_db


def page_queries(client, table) -> dict[str, int]:
    ann = Player.objects.get(table=table, name="Ann")
    counts = {}
    for name, url in (("book", reverse("ledger:table_book", args=[table.pk])),
                      ("player", reverse("ledger:player_detail", args=[ann.pk])),
                      ("standings", reverse("ledger:table_standings", args=[table.pk]))):
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200
        counts[name] = len(queries)
    return counts


def test_queries_do_not_grow_with_the_evenings(client, keeper):
    client.force_login(keeper)
    small = services.table_create(name="Small", scorekeepers=[keeper])
    big = services.table_create(name="Big", scorekeepers=[keeper])
    build_table(small, evenings=4, hands=2, unpaid=2)
    build_table(big, evenings=40, hands=2, unpaid=2)
    few, many = page_queries(client, small), page_queries(client, big)
    assert few == many
    assert max(many.values()) <= 15, many


def test_the_fast_builder_stores_what_the_services_would(keeper):
    table = services.table_create(name="Check", scorekeepers=[keeper])
    build_table(table, evenings=3, hands=20, unpaid=1, open_evenings=1)
    games = game_queryset_for_records().filter(session__table=table)
    assert len(games) == 24
    for game in games:
        result = core.score_record(game_record(game))
        assert result["complete"] and len(result["hands"]) == 20
        expected = standings_from_result(result, ended=True)
        for row in GameStanding.objects.filter(game=game).select_related("player"):
            assert {key: getattr(row, key) for key in expected[row.player.name]} == \
                expected[row.player.name]
        posted = {p.player.name: p.amount_minor
                  for p in MoneyPosting.objects.filter(game=game).select_related("player")}
        assert posted == {name: units for name, units in money_to_minor(
            result["money"], "USD").items() if units}
    for settlement in SessionSettlement.objects.filter(session__table=table):
        assert settlement.nets == session_nets(settlement.session)
