"""A date picker's value is ISO 8601 in every language (issue 37.2).

An ``<input type="date">`` takes only "2026-11-28"; Django's own date input wrote the
language's format ("28.11.2026" in German and Russian, "28/11/2026" in French and Spanish),
which the browser drops: the new evening's date came up empty in every language but
English and the keeper typed it every week. Every date input of every form is drawn in each
language here, and what it sends back (ISO, from the picker) is read in each language."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import translation

from ledger import services
from ledger.forms import SessionForm
from ledger.forms.book_filters import StandingFilter

from .drawn import LANGUAGES

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 28)


def _date_inputs(page: str) -> dict[str, str]:
    """name -> value of each ``<input type="date">`` of ``page``."""
    found = {}
    for tag in re.findall(r"<input[^>]*>", page):
        if 'type="date"' in tag:
            name = re.search(r'name="([^"]+)"', tag).group(1)
            value = re.search(r'value="([^"]*)"', tag)
            found[name] = value.group(1) if value else ""
    return found


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_new_evenings_date_is_iso_on_the_table_page(client, keeper, code, monkeypatch):
    monkeypatch.setattr("ledger.clock.table_today", lambda table: DAY)
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    client.force_login(keeper)
    page = client.get(reverse("ledger:table_detail", args=[table.pk]),
                      HTTP_ACCEPT_LANGUAGE=code).content.decode()
    assert _date_inputs(page) == {"date": "2026-11-28"}


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_forms_date_input_writes_iso(code):
    with translation.override(code):
        evening = SessionForm(initial={"date": DAY}).as_p()
        standings = StandingFilter({"date_from": DAY, "date_to": DAY}, currencies=["USD"],
                                   years=[2026]).form
        bound = standings.as_p()
        unbound = StandingFilter(None, currencies=["USD"], years=[2026]).form
        unbound.fields["date_from"].initial = DAY
    assert _date_inputs(evening) == {"date": "2026-11-28"}
    assert _date_inputs(bound) == {"date_from": "2026-11-28", "date_to": "2026-11-28"}
    with translation.override(code):
        assert _date_inputs(unbound.as_p())["date_from"] == "2026-11-28"


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_pickers_iso_date_is_read_in_every_language(client, keeper, code):
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    client.force_login(keeper)
    response = client.post(reverse("ledger:table_detail", args=[table.pk]),
                           {"new_session": "1", "date": "2026-11-27", "place": "",
                            "currency": "EUR", "rate": "", "per_points": "1"},
                           HTTP_ACCEPT_LANGUAGE=code)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert table.sessions.get().date == datetime.date(2026, 11, 27)
