"""Share links: one live link per table (table-wide) and per game, held by the database;
double taps and concurrent requests get that one link, never a 500."""

from __future__ import annotations

import time

import pytest
from django.db import IntegrityError, connection, transaction
from django.urls import reverse

from ledger import services
from ledger.exceptions import LedgerError
from ledger.models import ShareLink
from ledger.services import sharing
from tests.refusing import refuses

from .conftest import start_empty

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(session, keeper, case):
    return start_empty(session, keeper, case("gin-standard-game"))


def live(table, game=None):
    return list(ShareLink.objects.filter(table=table, game=game, revoked_at__isnull=True))


def test_sharing_twice_gives_the_same_link(table, keeper, game):
    first = services.share_link_get_or_create(table=table, created_by=keeper)
    again = services.share_link_get_or_create(table=table, created_by=keeper)
    assert again.pk == first.pk and ShareLink.objects.count() == 1
    for_game = services.share_link_get_or_create(table=table, game=game, created_by=keeper)
    assert for_game.pk != first.pk  # a game's link is another link
    assert services.share_link_get_or_create(table=table, game=game,
                                             created_by=keeper) == for_game
    assert live(table) == [first] and live(table, game) == [for_game]


def test_the_database_refuses_a_second_live_table_link(table, keeper):
    ShareLink.objects.create(table=table)
    with pytest.raises(IntegrityError), transaction.atomic():
        ShareLink.objects.create(table=table)  # game is NULL: the new constraint holds it
    ShareLink.objects.filter(table=table).update(revoked_at="2025-01-01T00:00Z")
    ShareLink.objects.create(table=table)  # once revoked, a new one may be made


def test_the_database_refuses_a_second_live_game_link(table, game):
    ShareLink.objects.create(table=table, game=game)
    with pytest.raises(IntegrityError), transaction.atomic():
        ShareLink.objects.create(table=table, game=game)


def test_a_link_made_meanwhile_is_returned_instead_of_an_error(table, keeper, monkeypatch):
    """The other tap's insert lands between our look and our insert: the constraint refuses
    ours inside a savepoint, and the service returns theirs."""
    theirs = ShareLink.objects.create(table=table)
    real = sharing._live
    looks = []

    def blind_first(*args):
        looks.append(args)
        return None if len(looks) == 1 else real(*args)

    monkeypatch.setattr(sharing, "_live", blind_first)
    link = services.share_link_get_or_create(table=table, created_by=keeper)
    assert link.pk == theirs.pk and len(looks) == 2
    assert live(table) == [theirs]


def test_a_game_of_another_table_is_refused(table, keeper, other_keeper, case):
    other_table = services.table_create(name="Elsewhere", scorekeepers=[other_keeper])
    other = services.session_create(table=other_table, currency="USD")
    game = start_empty(other, other_keeper, case("gin-standard-game"))
    with refuses(LedgerError, match="not played at this table"):
        services.share_link_get_or_create(table=table, game=game, created_by=keeper)
    assert not ShareLink.objects.exists()


def test_double_tap_on_share_then_revoke_leaves_nothing_open(client, keeper, table, game):
    client.force_login(keeper)
    url = reverse("ledger:share_create", args=[table.pk])
    for _ in range(2):
        assert client.post(url).status_code == 302
        assert client.post(url, {"game": game.pk}).status_code == 302
    (link,) = live(table)
    (game_link,) = live(table, game)
    assert client.get(reverse("ledger:shared", args=[link.token])).status_code == 200
    assert client.post(reverse("ledger:share_revoke", args=[link.pk])).status_code == 302
    assert client.get(reverse("ledger:shared", args=[link.token])).status_code == 404
    assert live(table) == [] and live(table, game) == [game_link]  # only its own target
    client.post(reverse("ledger:share_revoke", args=[link.pk]))  # again: nothing happens
    assert ShareLink.objects.filter(revoked_at__isnull=False).count() == 1


def test_revoking_stops_every_live_link_of_the_target(table, keeper):
    """Links doubled before the constraint existed (the migration revokes them, but the
    service does not count on it): revoking one stops them all."""
    first = ShareLink.objects.create(table=table)
    services.share_link_revoke(link=first)
    second = ShareLink.objects.create(table=table)
    assert services.share_link_revoke(link=first).revoked_at is not None
    second.refresh_from_db()  # the live one of that target
    assert second.revoked_at is not None


@pytest.mark.parametrize("token", ["\x00", "abc\x00def", "a" * 65, "../../etc", "%00"])
def test_a_junk_token_is_a_plain_404(client, token):
    assert client.get(f"/s/{token}/").status_code == 404
    assert client.get(f"/s/{token}/games/1/").status_code == 404


# -- on PostgreSQL, with real concurrent connections ------------------------------------------

@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_shares_make_one_link_on_postgres(keeper, table, game, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")
    from .test_postgres_concurrency import race

    real = sharing._live

    def slow_look(*args):
        found = real(*args)
        time.sleep(0.2)  # every request looks before any inserts
        return found

    monkeypatch.setattr(sharing, "_live", slow_look)
    calls = []
    for target in (None, game):
        calls += [lambda target=target: services.share_link_get_or_create(
            table=table, game=target, created_by=keeper) for _ in range(6)]
    results = race(*calls)
    errors = [r for r in results if isinstance(r, BaseException)]
    assert errors == []
    table_links = {link.pk for link in results[:6]}
    game_links = {link.pk for link in results[6:]}
    assert len(table_links) == 1 and len(game_links) == 1
    assert len(live(table)) == 1 and len(live(table, game)) == 1
