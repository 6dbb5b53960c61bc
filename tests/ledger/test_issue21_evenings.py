"""Issue 21: a new evening starts from the table's last one; the rematch on a settled evening
asks first; evenings on the same day and place are told apart."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from ledger import services
from ledger.models import Session
from tests.pages import Page

pytestmark = pytest.mark.django_db


def test_new_evening_form_starts_from_the_last_evening(logged_in, table, keeper):
    services.session_create(table=table, date=datetime.date(2026, 11, 4), place="Old pub",
                            currency="USD", rate="0.10", created_by=keeper)
    services.session_create(table=table, date=datetime.date(2026, 11, 18), place="Rosa's",
                            currency="EUR", rate="0.05", per_points=10, created_by=keeper)
    page = Page(logged_in.get(reverse("ledger:table_detail", args=[table.pk])))
    assert page.field_value("place") == "Rosa's"
    assert page.field_value("currency") == "EUR"
    assert page.field_value("rate") == "0.05"
    assert page.field_value("per_points") == "10"


def test_first_evening_of_a_table_starts_blank(logged_in, table):
    page = Page(logged_in.get(reverse("ledger:table_detail", args=[table.pk])))
    assert page.field_value("place") == ""
    assert page.field_value("currency") == "USD"
    assert page.field_value("rate") == ""
    assert page.field_value("per_points") == "1"


def test_prefilled_evening_can_be_changed_before_it_starts(logged_in, table, keeper):
    services.session_create(table=table, date=datetime.date(2026, 11, 18), place="Rosa's",
                            currency="EUR", rate="0.05", created_by=keeper)
    response = logged_in.post(reverse("ledger:table_detail", args=[table.pk]), {
        "new_session": "1", "date": "2026-11-25", "place": "Ben's", "currency": "GBP",
        "rate": "0,02", "per_points": "5"})
    assert response.status_code == 302
    new = Session.objects.filter(table=table).order_by("-id").first()
    assert (new.place, new.currency, str(new.rate), new.per_points) == \
        ("Ben's", "GBP", "0.0200", 5)
