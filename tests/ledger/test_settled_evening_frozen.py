"""A settled evening keeps its date, table, currency and stake in the service and the admin
(on any database; on PostgreSQL migration 0014 refuses the same by SQL, test_money_guards)."""

from __future__ import annotations

import datetime

import pytest

from ledger import services
from ledger.exceptions import SessionSettled
from ledger.models import Session
from tests.refusing import refuses

pytestmark = pytest.mark.django_db


@pytest.fixture
def settled(session, keeper, case):
    services.game_import(session=session, record=case("captain-three"), imported_by=keeper)
    services.session_settle(session=session, settled_by=keeper)
    return session


def test_the_service_refuses_a_settled_evenings_date_and_keeps_the_rest(settled, keeper):
    before = Session.objects.get(pk=settled.pk)
    with refuses(SessionSettled, match="is settled: its date, table, currency and stake "
                                             "no longer change. Reopen it first"):
        services.session_change(session=settled, date=datetime.date(2001, 1, 1),
                                notes="moved")
    after = Session.objects.get(pk=settled.pk)
    assert (after.date, after.notes) == (before.date, before.notes)  # nothing written
    # the same date again, the place and the notes still change
    services.session_change(session=settled, date=before.date, place="the back room",
                            notes="C paid in coins")
    after.refresh_from_db()
    assert (after.date, after.place, after.notes) == (before.date, "the back room",
                                                      "C paid in coins")
    services.session_reopen(session=settled, reopened_by=keeper, reason="wrong day")
    services.session_change(session=settled, date=datetime.date(2001, 1, 1))
    after.refresh_from_db()
    assert after.date == datetime.date(2001, 1, 1)


def test_an_evening_without_games_settled_keeps_its_currency(table, keeper):
    empty = services.session_create(table=table, currency="USD", created_by=keeper)
    services.session_settle(session=empty, settled_by=keeper)
    with pytest.raises(SessionSettled):
        services.session_change(session=empty, currency="EUR", rate="0.05")
    empty.refresh_from_db()
    assert (empty.currency, empty.rate) == ("USD", None)


def test_the_admin_shows_a_settled_evenings_date_read_only(settled, client,
                                                          django_user_model):
    boss = django_user_model.objects.create_superuser("boss", password="pw")
    client.force_login(boss)
    page = client.get(f"/admin/ledger/session/{settled.pk}/change/")
    assert page.status_code == 200
    assert b'name="date"' not in page.content and b'name="place"' in page.content
    services.session_reopen(session=settled, reopened_by=boss, reason="wrong day")
    page = client.get(f"/admin/ledger/session/{settled.pk}/change/")
    assert b'name="date"' in page.content
