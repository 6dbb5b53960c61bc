"""Digits are digits (issue 18, item 5): every number sent as a parameter is read by one
reader (``ledger.cleaning.read_number``: the ASCII digits 0-9 and nothing else). ``²``,
Arabic-Indic and full-width digits (which ``str.isdigit()`` and ``int()`` accept), ``1e3``,
spaces and signs get a 400 that names the parameter, never a 500, and nothing is stored."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from ledger import cleaning, services
from ledger.forms.book import BookSettleForm
from ledger.models import Hand, Player, ShareLink
from ledger.presentation.refusals import refusal_words
from ledger.views.game_settings import confirmed_money
from tests.refusing import refuses

# Numbers are read before the database is reached: the same on any engine (SQLite only in CI).
pytestmark = [pytest.mark.django_db, pytest.mark.engine_independent]

ODD = ["²", "١٢", "٣", "３", "1e3", " 1 ", "-0", "+1", "1_0", "1.0", "0x1"]
KNOCK = {"t1_knocker": "Ann", "t1_kind": "knock", "t1_c0": "5", "t1_c1": "20"}


@pytest.fixture
def gin(session, keeper):
    return services.game_start(session=session, variant="gin", players=["Ann", "Bob"],
                               started_by=keeper, preset="standard",
                               setup={"first_dealer": "Bob"})


def stored():
    """What a refused request must leave as it was."""
    return (list(Hand.objects.values_list("pk", "number", "voided_at")),
            list(ShareLink.objects.values_list("pk", flat=True)),
            list(Player.objects.values_list("pk", "archived_at")))


def says(response, name: str) -> str:
    body = response.content.decode()
    assert f"The parameter &#x27;{name}&#x27;" in body or f"The parameter '{name}'" in body, body
    assert "digits 0-9" in body
    return body


@pytest.mark.parametrize("value", ODD)
def test_the_reader_refuses_every_odd_number(value):
    with pytest.raises(cleaning.Refused) as refused:
        cleaning.read_number(value, what="The parameter 'x'")
    assert "The parameter 'x': write a whole number with the digits 0-9" in \
        refusal_words(refused.value)


def test_the_reader_reads_ascii_digits_within_bounds():
    assert cleaning.read_number("007", what="x") == 7
    with refuses(cleaning.Refused, match="above 3"):
        cleaning.read_number("4", what="x", maximum=3)
    with refuses(cleaning.Refused, match="below 1"):
        cleaning.read_number("0", what="x", minimum=1)


@pytest.mark.parametrize("field", ["number", "parts"])
@pytest.mark.parametrize("value", ODD)
def test_the_queue_refuses_an_odd_number_and_stores_nothing(logged_in, gin, field, value):
    before = stored()
    data = {"key": str(uuid.uuid4()), "number": "1", **KNOCK, field: value}
    response = logged_in.post(reverse("ledger:hand_send", args=[gin.pk]), data)
    assert response.status_code == 400
    answer = response.json()
    assert answer["status"] == "refused" and field in answer["errors"]
    assert f"The parameter '{field}'" in answer["message"]
    assert stored() == before and not Hand.objects.filter(game=gin).exists()


def test_the_queue_still_takes_plain_numbers(logged_in, gin):
    data = {"key": str(uuid.uuid4()), "number": "1", "parts": "1", **KNOCK}
    response = logged_in.post(reverse("ledger:hand_send", args=[gin.pk]), data)
    assert response.status_code == 201 and "parts" in response.json()
    assert Hand.objects.filter(game=gin).count() == 1


@pytest.mark.parametrize("value", ODD)
def test_the_card_preview_refuses_an_odd_table_or_game(logged_in, gin, value):
    url = reverse("ledger:cards_preview")
    says(logged_in.get(url, {"table": value, "a": "Ann", "b": "Bob"}), "table")
    assert logged_in.get(url, {"table": value}).status_code == 400
    says(logged_in.get(url, {"game": value, "table": "1"}), "game")
    assert logged_in.get(url, {"table": "2", "game": str(gin.pk)}).status_code == 200


def test_the_card_preview_refuses_a_table_beyond_three(logged_in):
    response = logged_in.get(reverse("ledger:cards_preview"), {"table": "4"})
    assert response.status_code == 400 and "above 3" in response.content.decode()


@pytest.mark.parametrize("value", ODD)
def test_the_game_page_refuses_an_odd_again(logged_in, gin, value):
    response = logged_in.get(reverse("ledger:game_detail", args=[gin.pk]), {"again": value})
    assert response.status_code == 400
    says(response, "again")


def test_the_game_page_takes_a_plain_again(logged_in, gin):
    response = logged_in.get(reverse("ledger:game_detail", args=[gin.pk]), {"again": "12"})
    assert response.status_code == 200


@pytest.mark.parametrize("value", ["²", "١٢", "٣", "３", "1e3", " 1 ", "²3"])
@pytest.mark.parametrize("url_name", ["session_blank", "session_blank_pdf"])
def test_the_blank_sheet_refuses_an_odd_number_of_players(logged_in, session, url_name,
                                                          value):
    url = reverse(f"scoresheets:{url_name}", kwargs={"pk": session.pk})
    response = logged_in.get(url, {"game": f"captain-{value}"})
    assert response.status_code == 400
    says(response, "game")


def test_the_blank_sheet_still_says_not_found_for_a_game_it_does_not_print(logged_in,
                                                                           session):
    url = reverse("scoresheets:session_blank", kwargs={"pk": session.pk})
    assert logged_in.get(url, {"game": "captain--0"}).status_code == 404
    assert logged_in.get(url, {"game": "captain-5"}).status_code == 200


@pytest.mark.parametrize("value", ODD)
def test_a_share_link_for_an_odd_game_id_is_refused(logged_in, table, gin, value):
    before = stored()
    response = logged_in.post(reverse("ledger:share_create", args=[table.pk]), {"game": value})
    assert response.status_code == 400
    says(response, "game")
    assert stored() == before


@pytest.mark.parametrize("value", ODD)
def test_archiving_an_odd_player_id_is_refused(logged_in, table, gin, value):
    before = stored()
    response = logged_in.post(reverse("ledger:table_tidy", args=[table.pk]),
                              {"player": value, "archive": "1"})
    assert response.status_code == 400
    says(response, "player")
    assert stored() == before


@pytest.mark.parametrize("value", ["²", "١٢", "３"])
def test_an_id_written_with_other_digits_is_not_another_id(keeper, gin, value):
    """The database's int() reads '²' as 2: the access functions do not."""
    from django.http import Http404

    from ledger import access

    with pytest.raises(Http404):
        access.game_for(keeper, value)
    assert access.game_for(keeper, str(gin.pk)) == gin


def test_forms_hidden_numbers_read_ascii_only():
    form = BookSettleForm({"currency": "USD", "expected": "1,١٢"})
    assert not form.is_valid() and "damaged" in str(form.errors["expected"])
    assert BookSettleForm({"currency": "USD", "expected": "1, 12"}).is_valid()
    assert confirmed_money("Ann:١٢,Bob:-3") is None
    assert confirmed_money("Ann:12,Bob:-3") == {"Ann": 12, "Bob": -3}


@pytest.mark.parametrize("value", ["²", "١٢", "３", "1e3"])
def test_a_typed_number_field_refuses_other_digits_at_the_field(logged_in, table, value):
    """Forms: Django's IntegerField would read '١٢' as 12 (it uses int()); every form's
    values go through ``CleanInputMixin``, which refuses them at the field."""
    before = list(table.sessions.values_list("pk", flat=True))
    response = logged_in.post(reverse("ledger:table_detail", args=[table.pk]), {
        "new_session": "1", "currency": "USD", "rate": "0.01", "per_points": value,
        "date": "2026-01-02"})
    assert response.status_code in (200, 422)
    assert "digits 0-9" in response.content.decode()
    assert list(table.sessions.values_list("pk", flat=True)) == before


@pytest.mark.parametrize("value", ODD)
def test_the_hand_form_refuses_an_odd_hand_number_and_stores_nothing(logged_in, gin, value):
    """The plain hand form (not the queue): its hidden number is a form field, refused at
    the form (4xx), nothing stored."""
    data = {"key": str(uuid.uuid4()), "number": value, **KNOCK}
    response = logged_in.post(reverse("ledger:hand_create", args=[gin.pk]), data)
    assert 400 <= response.status_code < 500
    assert not Hand.objects.filter(game=gin).exists()


@pytest.mark.parametrize("value", ODD)
def test_the_undo_button_refuses_an_odd_hand_number_and_undoes_nothing(logged_in, gin,
                                                                       keeper, value):
    """The undo button's number (a page's own): refused with the 400 every number
    parameter gets, naming it, in the undo's words; nothing undone."""
    services.hand_record(game=gin, entry={"knocker": "Ann", "deadwood": {"Ann": 5, "Bob": 20}},
                         recorded_by=keeper, idempotency_key=uuid.uuid4())
    before = stored()
    response = logged_in.post(reverse("ledger:hand_undo", args=[gin.pk]),
                              {"number": value, "reason": "x"}, follow=True)
    assert response.status_code == 400
    page = response.content.decode()
    assert "The undo button was out of date; nothing was undone." in page
    assert "The parameter &#x27;number&#x27;" in page or "The parameter 'number'" in page
    assert stored() == before
