"""Dates and times are written one way per language, CLDR's, everywhere (issue 37.9).

The evening's title said "Freitag 27 November" and "Пятница 27 Ноябрь" (German writes
"Freitag, 27. November", Russian declines the month: "27 ноября"), the crumbs "Fr 27 Nov",
the French book "27 Nov 26"; English said "Friday 20 November" on screen and "Friday,
November 20, 2026" in the dialogs and the PDF; a report's state said "21:12" beside
"9:13 PM" in "Who reported what". Every date and time people read is now written by
``ledger.presentation.dates``: the same evening is named the same way on its page, in its
crumbs' language, in its dialogs and on its paper, and a time is the same on the table's
phone, in the keeper's state of the reports and in the hand's history."""

from __future__ import annotations

import datetime
import re
import uuid
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from ledger import services
from ledger.models import Table, TableReport
from ledger.presentation.dates import format_clock, format_day, format_moment
from scoresheets.selectors import document_head
from tests.pages import text

from ..ledger.test_table_reports import captain7, knock
from .drawn import LANGUAGES

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
FRIDAY = datetime.date(2026, 11, 27)
#: 21:13 UTC, in a table kept in UTC
AT = datetime.datetime(2026, 11, 27, 21, 13, tzinfo=datetime.UTC)

#: An evening's name (its title, its dialogs, its paper), as CLDR's "full" date writes it.
TITLE = {
    "en": "Friday, November 27, 2026",
    "de": "Freitag, 27. November 2026",
    "es": "Viernes, 27 de noviembre de 2026",
    "fr": "Vendredi 27 novembre 2026",
    "ru": "Пятница, 27 ноября 2026\u202fг.",
}
#: The crumbs, a page's title and the lists (CLDR's yMMMEd).
SHORT = {"en": "Fri, Nov 27, 2026", "de": "Fr., 27. Nov. 2026", "es": "Vie, 27 nov 2026",
         "fr": "Ven. 27 nov. 2026", "ru": "Пт, 27 нояб. 2026\u202fг."}
#: A narrow column (the book's evenings) and the paper's running head (CLDR's medium date).
MEDIUM = {"en": "Nov 27, 2026", "de": "27.11.2026", "es": "27 nov 2026",
          "fr": "27 nov. 2026", "ru": "27 нояб. 2026\u202fг."}
#: 21:13 as each language writes the time of day.
CLOCK = {"en": "9:13\u202fPM", "de": "21:13", "es": "21:13", "fr": "21:13", "ru": "21:13"}


def _plain(words: str) -> str:
    """Words as ``tests.pages.text`` gives a page's: its spaces (CLDR's no-break ones too)
    one plain space."""
    return " ".join(words.split())


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_one_formatter_writes_cldrs_forms(code):
    with translation.override(code):
        assert format_day(FRIDAY, standing_alone=True) == TITLE[code]
        assert format_day(FRIDAY, "short", standing_alone=True) == SHORT[code]
        assert format_day(FRIDAY, "medium") == MEDIUM[code]
        assert format_clock(AT) == CLOCK[code]
        assert format_moment(AT) == {
            "en": "Nov 27, 2026, 9:13\u202fPM", "de": "27.11.2026, 21:13",
            "es": "27 nov 2026, 21:13", "fr": "27 nov. 2026, 21:13",
            "ru": "27 нояб. 2026\u202fг., 21:13"}[code]


def test_german_and_russian_write_the_evening_as_their_languages_do():
    with translation.override("de"):
        assert format_day(FRIDAY) == "Freitag, 27. November 2026"
    with translation.override("ru"):  # the month declined; lower case inside a sentence
        assert format_day(FRIDAY) == "пятница, 27 ноября 2026\u202fг."
        assert format_day(FRIDAY, standing_alone=True) == "Пятница, 27 ноября 2026\u202fг."


@pytest.fixture
def evening(keeper):
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    session = services.session_create(table=table, date=FRIDAY, currency="USD", rate="0.05",
                                      created_by=keeper)
    return session


def _game(session, keeper):
    from ..ledger.conftest import load_case, start_empty
    return start_empty(session, keeper, load_case("gin-standard-game"))


@pytest.mark.parametrize("code", LANGUAGES)
def test_an_evening_is_named_one_way_on_its_page_its_crumbs_its_dialog_and_its_paper(
        client, keeper, evening, code):
    game = _game(evening, keeper)
    client.force_login(keeper)
    page = client.get(reverse("ledger:session_detail", args=[evening.pk]),
                      HTTP_ACCEPT_LANGUAGE=code).content.decode()
    title = re.search(r'<h1 class="page-title">([^<]*)</h1>', page).group(1)
    assert title == TITLE[code]
    assert re.search(r"<title>([^<]*)</title>", page).group(1).startswith(SHORT[code] + " · ")
    # the game page's crumbs name the evening in the short form
    game_page = client.get(reverse("ledger:game_detail", args=[game.pk]),
                           HTTP_ACCEPT_LANGUAGE=code).content.decode()
    crumbs = re.search(r'<nav class="crumbs".*?</nav>', game_page, flags=re.S).group(0)
    assert f">{SHORT[code]}</a>" in crumbs
    # the dialog that settles the evening names it as its title does (inside a sentence,
    # in the lower case of the language's sentence)
    services.hand_record(game=game, entry={"knocker": "A", "deadwood": {"A": 3, "B": 40}},
                         recorded_by=keeper, idempotency_key=uuid.uuid4())
    services.game_abandon(game=game, abandoned_by=keeper, reason="late")
    page = client.get(reverse("ledger:session_detail", args=[evening.pk]),
                      HTTP_ACCEPT_LANGUAGE=code)
    dialog = re.search(r"<dialog.*?</dialog>", page.content.decode(), flags=re.S)
    assert dialog, "no settle dialog"
    assert _plain(TITLE[code]).lower() in text(dialog.group(0)).lower()
    # the paper, in the table's language
    Table.objects.filter(pk=evening.table.pk).update(language=code)
    evening.table.refresh_from_db()
    with translation.override(code):
        head = document_head(evening, "sheet", "Gin")
    assert head["date"] == TITLE[code] and head["short_date"] == MEDIUM[code]


@pytest.mark.parametrize("code", ["de", "ru", "fr"])
def test_the_book_writes_its_evenings_and_its_times_the_languages_way(client, keeper, evening,
                                                                      code):
    from ..ledger.conftest import load_case
    services.game_import(session=evening, record=load_case("gin-standard-game"),
                         imported_by=keeper)
    services.session_settle(session=evening, settled_by=keeper)
    client.force_login(keeper)
    page = text(client.get(reverse("ledger:table_book", args=[evening.table.pk]),
                           HTTP_ACCEPT_LANGUAGE=code))
    assert _plain(MEDIUM[code]) in page
    assert "27 Nov 26" not in page and "27 Nov" not in page


def _reported(session, keeper):
    """A captain-7 game whose table 1 reported hand 1 at 21:13 UTC, and hand 1 saved."""
    game = captain7(session, keeper)
    t1, _t2, _t3 = services.report_links_get_or_create(game=game, created_by=keeper)
    services.report_submit(link=t1, number=1, values=knock("R1", 5, "B1", 30))
    TableReport.objects.update(reported_at=AT)
    return game, t1


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_reports_time_is_written_one_way_on_the_phone_the_keepers_state_and_the_history(
        client, keeper, evening, code):
    Table.objects.filter(pk=evening.table.pk).update(language=code, time_zone="UTC")
    game, link = _reported(evening, keeper)
    phone = text(client.get(reverse("ledger:report_page", args=[link.token])))
    assert re.search(rf"(?<![\d:]){re.escape(_plain(CLOCK[code]))}", phone), phone
    client.force_login(keeper)
    state = client.get(reverse("ledger:game_reports", args=[game.pk]),
                       HTTP_ACCEPT_LANGUAGE=code).json()
    reported = [part for part in state["parts"] if part["state"] == "reported"]
    assert [part["at"] for part in reported] == [CLOCK[code]]
    assert CLOCK[code] in reported[0]["text"]
    parts = [knock("R1", 5, "B1", 30), knock("B2", 2, "R2", 10), {"draw": True}]
    services.hand_record(game=game, entry={"tables": parts}, recorded_by=keeper,
                         idempotency_key=uuid.uuid4(), number=1)
    page = text(client.get(reverse("ledger:game_detail", args=[game.pk]),
                           HTTP_ACCEPT_LANGUAGE=code))
    assert re.search(rf"(?<![\d:]){re.escape(_plain(CLOCK[code]))}", page)
    if code == "en":
        assert "21:13" not in page


# -- nothing else writes a date ------------------------------------------------------------

#: Django's date and time filters, strftime's clock, Django's dateformat: each wrote its own
#: way ("D j M", "H:i", "%H:%M") beside CLDR's.
OWN_WAYS = re.compile(r"\|\s*(?:date|time)\s*:|\|\s*(?:date|time)\b(?!_)|%H:%M|%d\.%m|"
                      r"strftime|django\.utils\.dateformat|naturalday|naturaltime")


def _files() -> list[Path]:
    found = []
    for folder in ("templates", "ledger", "scoresheets"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".html", ".txt", ".py") and "migrations" not in path.parts:
                found.append(path)
    return found


def test_no_template_or_module_writes_a_date_its_own_way():
    found = []
    for path in _files():
        if path.name == "dates.py" and path.parent.name == "presentation":
            continue
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if OWN_WAYS.search(line) and "OWN_WAYS" not in line:
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:90]}")
    assert found == []


def test_the_check_finds_the_old_ways():
    assert OWN_WAYS.search('{{ session.date|date:"l j F" }}')
    assert OWN_WAYS.search('{{ r.reported_at|time:"H:i" }}')
    assert OWN_WAYS.search('"at": f"{at:%H:%M}"')
    assert not OWN_WAYS.search("{{ session.date|day }} {{ c.at|moment }}")
