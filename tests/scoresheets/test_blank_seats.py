"""The blank sheet from the evening's screen (issue 11, "Paper"): the game chosen from the
core's catalog, then who sits where, who deals first and the sides; the sheet prints the
seats as chosen; seats that do not fit come back with the reason at their field."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from ledger import services

from .conftest import pdf_pages, pdf_text

# PDF layout and what the sheets print: the same on any engine (SQLite only in CI).
pytestmark = [pytest.mark.django_db, pytest.mark.engine_independent]


def blank(client, session, **params):
    return client.get(reverse("scoresheets:session_blank_pdf", kwargs={"pk": session.pk}),
                      params)


def test_the_evening_offers_every_game_of_the_catalog(logged_in, demo):
    page = logged_in.get(reverse("ledger:session_detail", args=[demo.pk])).content.decode()
    action = reverse("scoresheets:session_blank", kwargs={"pk": demo.pk})
    assert f'action="{action}"' in page
    for value, label in [("gin-2", "Gin, 2 players"), ("captain-7", "Captain play, 7 players"),
                         ("partnership-6", "Partnership gin, 6 players"),
                         ("cap-it-5", "CAP-IT, 5 players")]:
        assert f'<option value="{value}">{label}</option>' in page
    assert 'value="captain-4"' not in page  # the catalog has no 4-player captain play


def test_the_seats_page_asks_for_each_seat(logged_in, demo):
    url = reverse("scoresheets:session_blank", kwargs={"pk": demo.pk})
    page = logged_in.get(url, {"game": "captain-5"}).content.decode()
    for label in ("Captain 1 (red)", "Captain 2 (red)", "Opponent 1 (black), table 1",
                  "Opponent 2 (black), table 2", "Black Ace: sits out"):
        assert label in page
    assert page.count('<option value="Finn">Finn</option>') == 5  # every seat, every player
    page = logged_in.get(url, {"game": "gin-2"}).content.decode()
    assert "Deals first" in page and 'name="p2"' in page
    page = logged_in.get(url, {"game": "partnership-4"}).content.decode()
    assert "First side&#x27;s name" in page and "<legend>Table 2</legend>" in page
    assert page.count('<fieldset class="side-table"') == 2  # WE | THEY at each card table


@pytest.mark.parametrize("game", ["captain-4", "gin-3", "poker-2", "", "cap-it-x"])
def test_a_game_the_catalog_does_not_list_is_not_found(logged_in, demo, game):
    url = reverse("scoresheets:session_blank", kwargs={"pk": demo.pk})
    assert logged_in.get(url, {"game": game}).status_code == 404
    assert blank(logged_in, demo, game=game).status_code == 404


def test_captain_five_prints_the_seats_as_chosen(logged_in, demo):
    response = blank(logged_in, demo, game="captain-5", c1="Finn", c2="Dev", o1="Carla",
                     o2="Bob", sitter="Ann", preset="classic")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == (
        'inline; filename="thursday-rummy-club-2025-11-20-game-6-captain-blank.pdf"')
    assert demo.games.count() == 5  # nothing stored
    text = pdf_text(response.content)
    assert "Game 6: Captain play (classic)" in text
    assert "Captains Finn and Dev" in text and "Opponents Carla and Bob" in text
    assert "Sits out first Ann" in text
    # the first hand's tables: captain i against opponent i
    assert "\n1 1 Finn v Carla Carla\n2 Dev v Bob Bob\n" in text  # a line per table
    # the signatures in seat order
    assert "Checked and agreed at the table:\nFinn Dev Carla Bob Ann\n" in text


def test_two_hand_gin_prints_the_seats_and_first_dealer(logged_in, demo):
    response = blank(logged_in, demo, game="gin-2", p1="Eve", p2="Ann", first_dealer="Ann")
    text = pdf_text(response.content)
    assert "Players Eve, Ann" in text and "First dealer Ann" in text
    assert re.search(r"^1 Ann$", text, re.M)  # hand 1's dealer
    assert "Money (USD)" in text


def test_partnership_prints_the_sides_as_named_and_seated(logged_in, demo):
    response = blank(logged_in, demo, game="partnership-4", side_a="Aces", side_b="Kings",
                     a1="Dev", a2="Ann", b1="Finn", b2="Bob", first_dealer_side="a")
    text = pdf_text(response.content)
    assert "Aces Dev and Ann" in text and "Kings Finn and Bob" in text
    assert "\n1 1 Dev v Finn Dev\n2 Ann v Bob Ann\n" in text  # the first side deals
    assert text.index("Aces") < text.index("Kings")


def test_the_box_prints_the_cut_order(logged_in, demo):
    text = pdf_text(blank(logged_in, demo, game="box-3", p1="Dev", p2="Carla",
                          p3="Bob").content)
    assert "Cut order Dev, Carla, Bob" in text
    assert "Dev in the box" in text and "Bob sits out" in text


def test_capit_seats_and_ante_typed_with_a_comma(logged_in, demo):
    response = blank(logged_in, demo, game="cap-it-4", p1="Finn", p2="Eve", p3="Dev",
                     p4="Carla", first_dealer="Dev", ante="2,50")
    text = pdf_text(response.content)
    assert "Seats Finn, Eve, Dev, Carla" in text and "First dealer Dev" in text
    assert "Ante $2.50 each" in text and "Pot $10.00" in text
    pages = pdf_pages(response.content)
    assert len(pages) == 1 and "Checked and agreed at the table" in pages[0]


def test_a_capit_blank_without_an_ante_leaves_it_to_write_in(logged_in, demo):
    text = pdf_text(blank(logged_in, demo, game="cap-it-5", p1="Finn", p2="Eve", p3="Dev",
                          p4="Carla", p5="Ann", first_dealer="Eve").content)
    assert "Ante ______ USD each" in text and "Pot ______ USD" in text
    assert "played for nothing" not in text


def field_error(page: str, field: str) -> str:
    found = re.search(rf'id="id_{field}_error" role="alert">([^<]*)<', page)
    return found.group(1) if found else ""


def test_a_player_in_two_seats_is_refused_at_the_seat(logged_in, demo):
    response = blank(logged_in, demo, game="captain-5", c1="Finn", c2="Finn", o1="Carla",
                     o2="Bob", sitter="Ann")
    assert response.status_code == 422 and response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert field_error(page, "c2") == "Finn already has a seat."
    assert '<option value="Carla" selected>Carla</option>' in page  # what was chosen stays


def test_an_empty_seat_and_a_dealer_who_does_not_play(logged_in, demo):
    page = blank(logged_in, demo, game="gin-2", p1="Eve", first_dealer="Bob").content.decode()
    assert field_error(page, "p2") == "Choose who sits here."
    assert field_error(page, "first_dealer") == "Bob is not playing in this game."


def test_a_player_of_another_table_cannot_sit(logged_in, demo):
    page = blank(logged_in, demo, game="gin-2", p1="Eve", p2="Mallory",
                 first_dealer="Eve").content.decode()
    assert "Mallory is not one of the available choices" in field_error(page, "p2")


def test_sides_need_two_names(logged_in, demo):
    page = blank(logged_in, demo, game="partnership-4", side_a="Aces", side_b="aces",
                 a1="Dev", a2="Ann", b1="Finn", b2="Bob").content.decode()
    assert field_error(page, "side_b") == "The two sides need different names."


def test_the_core_refuses_an_ante_the_currency_cannot_pay(logged_in, demo, keeper):
    """JPY has no minor unit: the core (not the form) refuses a 2.50 ante, at its field."""
    session = services.session_create(table=demo.table, currency="JPY", created_by=keeper)
    response = blank(logged_in, session, game="cap-it-4", p1="Finn", p2="Eve", p3="Dev",
                     p4="Carla", first_dealer="Dev", ante="2.50")
    assert response.status_code == 422
    assert "JPY" in field_error(response.content.decode(), "ante")


def test_another_scorekeeper_cannot_print_the_evenings_blank(client, demo, django_user_model):
    client.force_login(django_user_model.objects.create_user("other", password="pw"))
    assert blank(client, demo, game="gin-2", p1="Ann", p2="Bob",
                 first_dealer="Ann").status_code == 404
    url = reverse("scoresheets:session_blank", kwargs={"pk": demo.pk})
    assert client.get(url, {"game": "gin-2"}).status_code == 404


@pytest.mark.parametrize(("currency", "size"), [("USD", (612, 792)), ("CAD", (612, 792)),
                                                ("MXN", (612, 792)), ("EUR", (595, 842))])
def test_the_evenings_blank_follows_the_currency(logged_in, demo, keeper, currency, size):
    from .test_paper import page_size

    session = services.session_create(table=demo.table, currency=currency, created_by=keeper,
                                      rate="0.05")
    response = blank(logged_in, session, game="gin-2", p1="Eve", p2="Ann", first_dealer="Eve")
    assert tuple(round(v) for v in page_size(response.content)) == size
    assert blank(logged_in, session, game="gin-2", p1="Eve", p2="Ann", first_dealer="Eve",
                 paper="A4" if currency != "EUR" else "letter").status_code == 200


def test_an_evening_at_ten_yen_a_point(logged_in, demo, keeper):
    """A whole stake (10, 100) is printed as the record writes it, never as "1E+1"."""
    session = services.session_create(table=demo.table, currency="JPY", rate="10",
                                      created_by=keeper)
    url = reverse("scoresheets:session_blank", kwargs={"pk": session.pk})
    assert "stake: ¥10 per point" in logged_in.get(url, {"game": "gin-2"}).content.decode()
    response = blank(logged_in, session, game="gin-2", p1="Eve", p2="Ann", first_dealer="Eve")
    assert response.status_code == 200 and "¥10 per point" in pdf_text(response.content)
