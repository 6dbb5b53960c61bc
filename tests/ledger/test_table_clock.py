"""Issue 22, the table's clock: each table has a time zone (proposed by the browser when the
table is made, editable on its page); every time and "today" on its screens, paper and
share pages is in that zone; stored times stay UTC."""

from __future__ import annotations

import datetime
import re
import uuid
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

from ledger import cleaning, services
from ledger.cleaning import Refused, clean_time_zone
from ledger.clock import table_today
from ledger.models import Table
from scoresheets import documents
from tests.factories import gin_game
from tests.refusing import refuses

from ..scoresheets.conftest import pdf_text

pytestmark = pytest.mark.django_db

UTC = datetime.UTC
STATIC = Path(__file__).resolve().parents[2] / "static" / "ledger"


def at(monkeypatch, *args) -> datetime.datetime:
    """Django's clock stopped at a UTC moment (what timezone.now() answers)."""
    moment = datetime.datetime(*args, tzinfo=UTC)
    monkeypatch.setattr(timezone, "now", lambda: moment)
    return moment


@pytest.fixture
def berlin(keeper):
    return services.table_create(name="Kreuzberg", scorekeepers=[keeper],
                                 time_zone="Europe/Berlin", language="de")


@pytest.fixture
def corrected_in_berlin(berlin, keeper, monkeypatch):
    """A gin game at the Berlin table whose hand 1 was corrected at 11:47 UTC (12:47 in
    Berlin, winter time)."""
    evening = services.session_create(table=berlin, date=datetime.date(2026, 11, 25),
                                      currency="EUR", rate="0.01", created_by=keeper)
    game = gin_game(evening, keeper, hands=[{"knocker": "Ann",
                                             "deadwood": {"Ann": 5, "Bob": 17}}])
    at(monkeypatch, 2026, 11, 25, 11, 47)
    services.hand_correct(hand=game.hands.get(number=1), corrected_by=keeper,
                          entry={"knocker": "Ann", "deadwood": {"Ann": 4, "Bob": 17}},
                          reason="four, not five", idempotency_key=uuid.uuid4())
    monkeypatch.undo()
    return game


# -- the zone: validated, stored, proposed ------------------------------------------------------

def test_a_time_zone_is_an_iana_name_zoneinfo_knows():
    assert clean_time_zone(" Europe/Berlin ") == "Europe/Berlin"
    assert clean_time_zone("America/New_York") == "America/New_York"
    for bad in ("Mars/Olympus", "europe/berlin", "../etc/passwd", "", None, "UTC+2"):
        with refuses(Refused, match="Time zone: .* is not a time zone"):
            clean_time_zone(bad)


@pytest.mark.parametrize("name", ["localtime", "Factory", "posixrules", "posix/Europe/Berlin",
                                  "right/Europe/Berlin"])
def test_a_time_zone_is_a_place_not_the_servers_clock(name):
    """zoneinfo finds ``localtime`` (the server's own zone: the table's clock would follow
    the server's setting) and ``Factory`` (its time is "-00") in the system's tz database;
    neither is a place's clock. Both were accepted (issue 38)."""
    with refuses(Refused, match=f"Time zone: '{name}' is not a time zone"):
        clean_time_zone(name)
    assert name not in cleaning.time_zone_names()
    assert {"UTC", "Europe/Berlin", "Asia/Kolkata"} <= cleaning.time_zone_names()


def test_a_table_is_made_on_utc_unless_told(keeper):
    plain = services.table_create(name="Plain", scorekeepers=[keeper])
    assert (plain.time_zone, plain.language) == ("UTC", "en")
    with refuses(Refused, match="The table's time zone: 'Mars/Olympus' is not"):
        services.table_create(name="Mars", scorekeepers=[keeper], time_zone="Mars/Olympus")
    assert not Table.objects.filter(name="Mars").exists()


def test_the_new_table_form_takes_the_browsers_zone(logged_in):
    page = logged_in.get(reverse("ledger:home")).content.decode()
    hidden = re.search(r'<input[^>]*name="time_zone"[^>]*>', page).group(0)
    assert 'type="hidden"' in hidden and "data-browser-time-zone" in hidden
    # the zone comes from a module of the site's own (CSP: no inline script)
    assert re.search(r'<script type="module" src="/static/ledger/timezone\.js">', page)
    assert "<script>" not in page
    assert "Intl.DateTimeFormat().resolvedOptions().timeZone" in (
        STATIC / "timezone.js").read_text()
    logged_in.post(reverse("ledger:home"), {"name": "Astoria", "players": "Ann\nBob",
                                            "language": "en",
                                            "time_zone": "America/New_York"})
    logged_in.post(reverse("ledger:home"), {"name": "Nowhere", "players": "",
                                            "time_zone": "Nowhere/Land"})
    assert Table.objects.get(name="Astoria").time_zone == "America/New_York"
    assert Table.objects.get(name="Nowhere").time_zone == "UTC"  # an unknown one: UTC


def test_the_zone_and_language_are_changed_on_the_tables_page(logged_in, table):
    url = reverse("ledger:table_locale", args=[table.pk])
    page = logged_in.get(reverse("ledger:table_detail", args=[table.pk])).content.decode()
    assert f'action="{url}"' in page and 'value="UTC"' in page
    response = logged_in.post(url, {"language": "fr", "time_zone": "Europe/Paris"},
                              follow=True)
    table.refresh_from_db()
    assert (table.language, table.time_zone) == ("fr", "Europe/Paris")
    assert "Sheets and share pages speak Français; times are Europe/Paris time." in \
        response.content.decode()
    refused = logged_in.post(url, {"language": "de", "time_zone": "Europe/Atlantis"},
                             follow=True)
    table.refresh_from_db()
    assert (table.language, table.time_zone) == ("fr", "Europe/Paris")  # nothing changed
    assert "Time zone: &#x27;Europe/Atlantis&#x27; is not a time zone" in \
        refused.content.decode()
    with refuses(Refused, match="The table's language: 'xx' is not one of en, de"):
        services.table_set_locale(table=table, language="xx")


# -- every time on the table's screens, paper and share pages is in its zone ----------------

def test_a_correction_at_1147_utc_reads_1247_in_berlin(logged_in, corrected_in_berlin):
    voided = corrected_in_berlin.hands.get(number=1, voided_at__isnull=False)
    assert voided.voided_at == datetime.datetime(2026, 11, 25, 11, 47, tzinfo=UTC)  # stored UTC
    page = logged_in.get(reverse("ledger:game_detail", args=[corrected_in_berlin.pk]))
    html = page.content.decode()
    assert "12:47" in html and "11:47" not in html
    pdf = pdf_text(documents.game_sheet_pdf(corrected_in_berlin)[0])
    # the paper speaks the table's language (German, 24-hour clock) in its zone
    assert "Korrigiert: four, not five \u2014 keeper, 25.11.2026, 12:47" in pdf  # German table
    assert "11:47" not in pdf


def test_the_share_page_keeps_the_tables_clock(logged_in, corrected_in_berlin, keeper):
    link = services.share_link_get_or_create(table=corrected_in_berlin.session.table,
                                             game=corrected_in_berlin, created_by=keeper)
    logged_in.logout()
    html = logged_in.get(reverse("ledger:shared", args=[link.token])).content.decode()
    assert "12:47" in html and "11:47" not in html
    assert '<html lang="de">' in html  # and the table's language


def test_the_same_correction_reads_1147_on_a_utc_table(logged_in, corrected_in_berlin):
    services.table_set_locale(table=corrected_in_berlin.session.table, time_zone="UTC")
    html = logged_in.get(reverse("ledger:game_detail",
                                 args=[corrected_in_berlin.pk])).content.decode()
    assert "11:47" in html and "12:47" not in html


def test_a_tables_zone_does_not_leak_into_the_next_request(logged_in, corrected_in_berlin):
    logged_in.get(reverse("ledger:game_detail", args=[corrected_in_berlin.pk]))
    assert timezone.get_current_timezone_name() == "UTC"


# -- "today" is the table's ---------------------------------------------------------------

def test_new_york_at_2330_gets_todays_date_not_tomorrows(logged_in, keeper, monkeypatch):
    astoria = services.table_create(name="Astoria", scorekeepers=[keeper],
                                    time_zone="America/New_York")
    at(monkeypatch, 2026, 11, 26, 4, 30)  # 23:30 on the 25th in New York (EST, UTC-5)
    assert timezone.localdate() == datetime.date(2026, 11, 26)  # UTC is already tomorrow
    assert table_today(astoria) == datetime.date(2026, 11, 25)
    page = logged_in.get(reverse("ledger:table_detail", args=[astoria.pk])).content.decode()
    date_input = re.search(r'<input[^>]*name="date"[^>]*>', page).group(0)
    assert 'value="2026-11-25"' in date_input
    evening = services.session_create(table=astoria, currency="USD", created_by=keeper)
    assert evening.date == datetime.date(2026, 11, 25)
