"""Issue 21 item 13: every refusal and label in the app's own words."""

from __future__ import annotations

import datetime
import uuid

import pytest
from django.urls import reverse

from ledger import services
from tests.pages import Page, field_error

from .conftest import load_case, start_empty

pytestmark = pytest.mark.django_db


def flash(response) -> str:
    page = Page(response)
    return page.text(page.one("ul", class_="flash"))


def test_a_negative_stake_names_the_field(logged_in, table):
    response = logged_in.post(reverse("ledger:table_detail", args=[table.pk]), {
        "new_session": "1", "date": "2026-11-25", "place": "", "currency": "EUR",
        "rate": "-0.05", "per_points": "1"})
    assert response.status_code == 422
    assert field_error(response, "rate") == ("Stake: an amount above 0, like 0.05; leave it "
                                             "empty to play for no money.")
    assert "Ensure this value" not in Page(response).text()
    assert not table.sessions.exists()


def test_a_correction_without_a_reason_names_the_field(logged_in, session, keeper):
    game = services.game_import(session=session, record=load_case("box-rotation"),
                                imported_by=keeper)
    url = reverse("ledger:hand_correct", args=[game.pk, 1])
    response = logged_in.post(url, {"key": str(uuid.uuid4()), "number": 1, "t1_knocker": "P",
                                    "t1_kind": "knock", "t1_c0": "3", "t1_c1": "20",
                                    "reason": ""})
    assert response.status_code == 422
    assert field_error(response, "reason").startswith("Why the correction? Say why")
    assert "This field is required" not in Page(response).text()
    assert game.hands.filter(voided_at__isnull=False).count() == 0


def test_captain_for_three_labels_its_one_captain(logged_in, session, keeper):
    game = services.game_import(session=session, record=load_case("captain-three"),
                                imported_by=keeper)
    page = Page(logged_in.get(reverse("ledger:game_detail", args=[game.pk])))
    names = [page.text(el) for el in page.all(class_="score-name")]
    assert "Captain" in names and "Captains" not in names, names
    assert "Opponents" in names


def test_captain_for_five_keeps_its_two_captains(logged_in, session, keeper):
    record = load_case("captain-five-money")
    record["stakes"]["currency"] = "USD"
    game = services.game_import(session=session, record=record, imported_by=keeper)
    page = Page(logged_in.get(reverse("ledger:game_detail", args=[game.pk])))
    names = [page.text(el) for el in page.all(class_="score-name")]
    assert "Captains" in names, names


def test_the_evening_counts_cap_it_in_rounds(logged_in, session, keeper):
    record = load_case("cap-it-pot")
    record["stakes"]["currency"] = "USD"
    game = services.game_import(session=session, record=record, imported_by=keeper)
    rounds = game.hands.filter(voided_at__isnull=True).count()
    page = Page(logged_in.get(reverse("ledger:session_detail", args=[session.pk])))
    sub = page.text(page.first("span", class_="list-sub"))
    assert sub.endswith(f"· {rounds} rounds"), sub
    assert "hands" not in sub


def test_a_draw_is_confirmed_as_a_draw(logged_in, session, keeper):
    game = start_empty(session, keeper, load_case("gin-standard-game"))
    response = logged_in.post(reverse("ledger:hand_create", args=[game.pk]), {
        "key": str(uuid.uuid4()), "number": 1, "t1_knocker": "-draw-"}, follow=True)
    assert flash(response) == "Hand 1 recorded: Draw."


def test_the_header_shows_the_display_name(client, django_user_model):
    user = django_user_model.objects.create_user("rosa_k", password="pw", first_name="Rosa")
    client.force_login(user)
    page = Page(client.get(reverse("ledger:home")))
    assert page.text(page.one("span", class_="who")) == "Rosa"
    plain = django_user_model.objects.create_user("ben", password="pw")
    client.force_login(plain)
    page = Page(client.get(reverse("ledger:home")))
    assert page.text(page.one("span", class_="who")) == "ben"  # no name given: the login


def test_paper_writes_the_date_as_the_screens_do(table, keeper):
    from scoresheets.selectors import document_head

    evening = services.session_create(table=table, date=datetime.date(2026, 12, 2),
                                      currency="USD", created_by=keeper)
    assert document_head(evening, "Evening", "")["date"] == "Wednesday, December 2, 2026"
