"""Tables belong to their scorekeepers: names are theirs alone, and the admin shows staff
only their own tables' objects."""

import pytest
from django.contrib.auth.models import Permission

from ledger import services
from ledger.exceptions import LedgerError
from ledger.models import Game, Table
from tests.refusing import refuses

from .conftest import load_case

pytestmark = pytest.mark.django_db


def test_two_clubs_may_both_have_a_friday_table(keeper, other_keeper):
    ours = services.table_create(name="Friday", scorekeepers=[keeper])
    theirs = services.table_create(name="Friday", scorekeepers=[other_keeper])
    assert ours.pk != theirs.pk
    assert services.table_named(name="Friday", scorekeeper=keeper) == ours
    assert services.table_named(name=" Friday ", scorekeeper=other_keeper) == theirs
    with refuses(LedgerError, match="You already keep a table called 'Friday'"):
        services.table_create(name="Friday", scorekeepers=[keeper])


def test_session_import_goes_to_the_importers_own_table(keeper, other_keeper):
    services.table_create(name="Friday", scorekeepers=[other_keeper])
    record = {"format": "tablestakes.session/1", "table": "Friday", "date": "2026-11-20",
              "currency": "USD", "players": ["A", "B"], "games": []}
    session = services.session_import(record=record, imported_by=keeper)
    assert list(session.table.scorekeepers.all()) == [keeper]
    assert Table.objects.filter(name="Friday").count() == 2


def test_admin_shows_staff_only_their_own_tables(client, keeper, other_keeper):
    ours = services.table_create(name="Ours", scorekeepers=[keeper])
    theirs = services.table_create(name="Theirs", scorekeepers=[other_keeper])
    for table in (ours, theirs):
        session = services.session_create(table=table, currency="USD", rate="0.01")
        services.game_import(session=session, record=load_case("gin-standard-game"))
    keeper.is_staff = True
    keeper.save()
    keeper.user_permissions.set(Permission.objects.filter(
        codename__in=["view_table", "view_game", "view_hand", "view_moneyposting"]))
    client.force_login(keeper)
    page = client.get("/admin/ledger/table/").content.decode()
    assert "Ours" in page and "Theirs" not in page
    theirs_game = Game.objects.get(session__table=theirs)
    assert client.get(f"/admin/ledger/game/{theirs_game.pk}/change/").status_code == 302
    games = client.get("/admin/ledger/game/").content.decode()
    assert "1 game" in games
    hands = client.get("/admin/ledger/hand/")
    assert hands.context["cl"].result_count == 7
