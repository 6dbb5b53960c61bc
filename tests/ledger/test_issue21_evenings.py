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


# -- same players again on a settled evening; evenings of the same day told apart -----------

def _settled_gin(table, keeper, day, place="Rosa's"):
    from .conftest import load_case

    evening = services.session_create(table=table, date=day, place=place, currency="USD",
                                      rate="0.05", created_by=keeper)
    game = services.game_import(session=evening, record=load_case("gin-standard-game"),
                                imported_by=keeper)
    assert game.status == "complete", game.status
    services.session_settle(session=evening, settled_by=keeper)
    return evening, game


def test_rematch_on_a_settled_evening_asks_before_opening_a_new_one(logged_in, table, keeper):
    from django.utils import timezone

    today = timezone.localdate()
    evening, game = _settled_gin(table, keeper, today)
    url = reverse("ledger:game_rematch", args=[game.pk])
    page = Page(logged_in.get(reverse("ledger:game_detail", args=[game.pk])))
    assert page.one("a", data_dialog="confirm-rematch").get("href") == url
    words = page.text(page.one("dialog", id="confirm-rematch"))
    day = f"{today:%A}, {today:%B} {today.day}, {today:%Y}"
    assert "Open a new evening?" in words
    assert f"The evening of {day} is settled: it takes no more games." in words
    assert f"opens a new evening, {day} (2) at Rosa's, in USD" in words
    assert "starts its game 1: A, B" in words
    # a POST that was not answered "yes" (an old page, no JavaScript) only asks
    asked = logged_in.post(url)
    assert asked.status_code == 200 and "Open a new evening?" in Page(asked).text()
    assert Session.objects.filter(table=table).count() == 1
    assert logged_in.get(url).status_code == 200
    assert Session.objects.filter(table=table).count() == 1
    done = logged_in.post(url, {"new_evening": "1"}, follow=True)
    new = Session.objects.filter(table=table).exclude(pk=evening.pk).get()
    assert (new.date, new.place, new.currency, str(new.rate)) == (today, "Rosa's", "USD",
                                                                  "0.0500")
    assert new.number == 2
    assert (f"The evening of {day} is settled, so it is game 1 of the evening of {day} (2)."
            in Page(done).text())
    # the same day's two evenings are told apart where they are listed
    listed = Page(logged_in.get(reverse("ledger:table_detail", args=[table.pk])))
    mains = [listed.text(el) for el in listed.all("span", class_="list-main")]
    assert f"{day} (2) · Rosa's" in mains and f"{day} · Rosa's" in mains
    evening_page = Page(logged_in.get(reverse("ledger:session_detail", args=[new.pk])))
    assert f"{today:%A}, {today:%B} {today.day}, {today.year} (2)" in evening_page.text(
        evening_page.one("h1"))
    # a later rematch joins that open evening without asking
    again = logged_in.post(url)
    assert again.status_code == 302
    assert Session.objects.filter(table=table).count() == 2 and new.games.count() == 2


def test_the_book_tells_evenings_of_one_day_apart(logged_in, table, keeper):
    day = datetime.date(2026, 11, 25)
    _settled_gin(table, keeper, day)
    _settled_gin(table, keeper, day)
    page = Page(logged_in.get(reverse("ledger:table_book", args=[table.pk])))
    cells = [page.text(el) for el in page.all("td", class_="when")]
    assert cells == ["Nov 25, 2026 (2)", "Nov 25, 2026"]


def test_home_and_paper_tell_a_days_second_evening_apart(logged_in, table, keeper):
    from scoresheets.selectors import document_head
    from tests.factories import gin_game

    day = datetime.date(2026, 12, 2)
    first = services.session_create(table=table, date=day, currency="USD", created_by=keeper)
    second = services.session_create(table=table, date=day, currency="USD", created_by=keeper)
    gin_game(second, keeper)
    page = Page(logged_in.get(reverse("ledger:home")))
    assert "Friday · Wed, Dec 2, 2026 (2) · Game 1" in page.text()
    assert document_head(first, "Evening", "")["date"] == "Wednesday, December 2, 2026"
    assert document_head(second, "Evening", "")["date"] == "Wednesday, December 2, 2026 (2)"
