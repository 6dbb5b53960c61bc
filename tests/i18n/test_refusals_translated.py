"""Refusals speak the page's language (issue 22): the scoring core's problems (given as data,
with a code) are shown in English exactly as the core words them, and on a German page as
the German sentence of their code, named after the player, at the field they name; the
services' refusals (a settled evening, a stake below zero) reach a German page in German."""

from __future__ import annotations

import datetime
import html
import re
import uuid

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from ledger import services
from ledger.exceptions import LedgerError, RecordRefused, SessionSettled
from ledger.forms import HandForm
from ledger.presentation import problems as shown
from ledger.presentation.refusals import refusal_words
from ledger.rules import RecordError, score_record
from ledger.rules.problems import CODES, Problem
from tests.factories import gin_game

from ..ledger.conftest import load_case
from .catalogs import params

pytestmark = pytest.mark.django_db

MONDAY = datetime.date(2026, 11, 23)
HX = {"HX-Request": "true"}


# -- the table of the core's codes ---------------------------------------------------------------

def test_every_code_of_the_core_has_a_sentence():
    assert set(shown.SENTENCES) == set(CODES)


@pytest.mark.parametrize("code", params())
def test_every_sentence_is_translated(code):
    with translation.override(code):
        same = [c for c, sentence in shown.SENTENCES.items() if gettext(sentence) == sentence]
    assert same == []


def test_english_shows_the_cores_own_words():
    problem = Problem("knock_over_limit", "knocker deadwood 12 is above the knock limit 10",
                      hand=3, player="Ann", field="deadwood", opening="hand 3",
                      hint="a knock must be 10 or less; Ann counted 12")
    with translation.override("en"):
        assert shown.at_field(problem, "count") == "a knock must be 10 or less; Ann counted 12"
        assert shown.line(problem) == "hand 3: knocker deadwood 12 is above the knock limit 10"
        assert shown.at_field(Problem("count_missing", "x is missing", player="Ann"),
                              "count") == "Ann's count: x is missing"
    with translation.override("de"):
        assert shown.at_field(problem, "count") == (
            "Punkte von Ann: Zu viele Punkte zum Klopfen: über der Klopfgrenze dieses Spiels.")
        assert shown.line(problem) == (
            "Spiel 3: Ann: Zu viele Punkte zum Klopfen: über der Klopfgrenze dieses Spiels.")
    with translation.override("fr"):  # French puts a no-break space before the colon
        # with the elision a name that begins with a vowel takes ("Points d’Ann")
        assert shown.at_field(problem, "count").startswith(
            "Points d\u2019Ann\u00a0: Trop de points")


def test_a_services_own_refusal_keeps_its_words():
    problem = Problem("refused", "Stake: an amount, not x.")
    with translation.override("de"):
        assert shown.line(problem) == "Stake: an amount, not x."
        assert shown.at_field(problem) == "Stake: an amount, not x."


# -- the hand form on a German page --------------------------------------------------------------

@pytest.fixture
def gin(keeper):
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="EUR", rate="0.05",
                                      created_by=keeper)
    return gin_game(session, keeper)


def post_hand(client, game, counts, code="de", **extra):
    data = {"key": str(uuid.uuid4()), "number": 1, "t1_knocker": "Ann", "t1_kind": "knock",
            "t1_c0": counts[0], "t1_c1": counts[1], **extra}
    return client.post(reverse("ledger:hand_create", args=[game.pk]), data,
                       HTTP_ACCEPT_LANGUAGE=code, headers=HX)


def field_error(response, field: str) -> str:
    page = response.content.decode()
    found = re.search(rf'id="id_{field}_error"[^>]*>(.*?)</', page, re.S)
    assert found, f"no error at {field}"
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


def save_error(response) -> str:
    found = re.search(r'id="save-error"[^>]*>(.*?)</div>', response.content.decode(), re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


def test_a_knock_over_the_limit_is_refused_in_german_at_the_knockers_count(logged_in, gin):
    english = post_hand(logged_in, gin, ("11", "24"), code="en")
    assert field_error(english, "t1_c0") == "a knock must be 10 or less; Ann counted 11"
    response = post_hand(logged_in, gin, ("11", "24"))
    assert response.status_code == 200
    words = ("Punkte von Ann: Zu viele Punkte zum Klopfen: 11 liegt über der Klopfgrenze "
             "dieses Spiels von 10.")
    assert field_error(response, "t1_c0") == words
    assert words in save_error(response)
    assert "knock must be" not in response.content.decode()
    assert gin.hands.count() == 0


def test_a_count_ten_cards_cannot_hold_is_refused_in_german_at_that_count(logged_in, gin):
    response = post_hand(logged_in, gin, ("3", "120"))
    assert field_error(response, "t1_c1") == (
        "Punkte von Bob: Ein Wert von 120 ist nicht möglich: zehn Karten zählen 0 bis 98.")
    assert "is above 98" not in response.content.decode()
    russian = post_hand(logged_in, gin, ("3", "120"), code="ru")
    assert field_error(russian, "t1_c1") == (
        "Очки: Bob: Счёт 120 невозможен: десять карт дают от 0 до 98.")


NUMBERED_CASES = {
    # code: (a record's variant, players and one hand that the core refuses with it)
    "knock_over_limit": ("gin", ["Ann", "Bob"], {"knocker": "Ann",
                                                 "deadwood": {"Ann": 12, "Bob": 30}}),
    "knock_gin_only": ("oklahoma", ["Ann", "Bob"], {"knocker": "Ann", "upcard": "AS",
                                                    "deadwood": {"Ann": 1, "Bob": 30}}),
    "gin_with_deadwood": ("gin", ["Ann", "Bob"], {"knocker": "Ann", "gin": True,
                                                  "deadwood": {"Ann": 4, "Bob": 30}}),
    "deadwood_out_of_range": ("gin", ["Ann", "Bob"], {"knocker": "Ann",
                                                      "deadwood": {"Ann": 3, "Bob": 120}}),
    "capit_points_impossible": ("cap-it", ["A", "B", "C", "D"],
                                {"went_out": "A", "points": {"B": 7, "C": 20, "D": 10}}),
}


@pytest.mark.parametrize("code", sorted(shown.NUMBERED))
@pytest.mark.parametrize("language", ["de", "es", "fr", "ru"])
def test_a_refusal_keeps_the_cores_numbers_in_every_language(code, language):
    """The core gives the numbers of its words as data (``Problem.values``); outside English
    the translated sentence says them (the numbered sentence, not the bare one)."""
    variant, players, hand = NUMBERED_CASES[code]
    record = {"format": "tablestakes.game/1", "variant": variant, "players": players,
              "setup": {"first_dealer": players[-1]}, "hands": [hand]}
    with pytest.raises(RecordError) as caught:
        score_record(record)
    (problem,) = [p for p in caught.value.details if p.code == code]
    numbers = {"knock_over_limit": ["12", "10"], "knock_gin_only": ["1"],
               "gin_with_deadwood": ["4"], "deadwood_out_of_range": ["120", "98"],
               "capit_points_impossible": ["7", "5, 10, 15, 20"]}[code]
    with translation.override(language):
        said = shown.words(problem)
        assert said == gettext(shown.NUMBERED[code]) % problem.values
        assert said != gettext(shown.SENTENCES[code])
        assert all(number in said for number in numbers), said


def test_a_missing_or_unreadable_up_card_is_refused_in_german_at_the_up_card():
    spec = {"rounds": False, "duels": [{"players": ["Ann", "Bob"]}], "upcard": True,
            "oklahoma": True, "big_gin": True, "rules": {}}
    data = {"key": str(uuid.uuid4()), "number": 1, "t1_knocker": "Ann", "t1_kind": "knock",
            "t1_c0": "3", "t1_c1": "20", "up_rank": "5", "up_suit": "S"}
    with translation.override("de"):
        form = HandForm(data, spec=spec)
        assert form.is_valid(), form.errors
        form.add_problems([Problem("upcard_missing", "an Oklahoma hand needs its up-card",
                                   hand=1, field="upcard", opening="hand 1: upcard")])
        assert form.errors == {"up_rank": ["Gib die aufgedeckte Karte dieses Spiels an."]}
        form = HandForm(data, spec=spec)
        assert form.is_valid()
        form.add_problems([Problem("upcard_unreadable", '"ZZ": unknown suit', hand=1,
                                   field="upcard", opening="hand 1: upcard")])
        assert form.errors == {"up_rank": ["Die aufgedeckte Karte ist keine Karte."]}


def test_the_up_card_limit_is_refused_in_german_on_the_page(logged_in, keeper):
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="EUR", rate="0.05",
                                      created_by=keeper)
    game = services.game_start(session=session, variant="oklahoma", players=["Ann", "Bob"],
                               started_by=keeper, setup={"first_dealer": "Bob"})
    response = post_hand(logged_in, game, ("1", "20"), up_rank="A", up_suit="S")
    assert field_error(response, "t1_c0") == (
        "Punkte von Ann: Dieses Spiel darf nur mit Gin enden, und der Klopfer hat 1 gezählt.")
    assert "only gin may end" not in response.content.decode()


def test_a_problem_with_no_field_goes_above_the_form_with_its_hand(keeper):
    spec = {"rounds": False, "duels": [{"players": ["Ann", "Bob"]}], "upcard": False,
            "big_gin": True, "rules": {}}
    data = {"key": str(uuid.uuid4()), "number": 1, "t1_knocker": "Ann", "t1_kind": "knock",
            "t1_c0": "3", "t1_c1": "20"}
    with translation.override("es"):
        form = HandForm(data, spec=spec)
        assert form.is_valid()
        form.add_problems([Problem("hand_after_end", "a hand after the end", hand=7,
                                   opening="hand 7")])
        assert form.non_field_errors() == [
            "Mano 7: La partida ya había terminado antes de esta mano."]


# -- the services' refusals ----------------------------------------------------------------------

def test_a_stake_below_zero_is_refused_in_german(keeper):
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="EUR", rate="0.05",
                                      created_by=keeper)
    with pytest.raises(RecordRefused) as refused:
        services.game_start(session=session, variant="gin", players=["Ann", "Bob"],
                            started_by=keeper, setup={"first_dealer": "Bob"}, rate="-1")
    assert refused.value.details[0].code == "money_invalid"
    with translation.override("en"):
        assert str(refusal_words(refused.value)) == "stakes.rate: must not be negative (-1)"
    with translation.override("de"):
        assert refusal_words(refused.value) == \
            "Ein Betrag ist keine Zahl oder kleiner als null."


@pytest.fixture
def settled(keeper):
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    session = services.session_create(table=table, date=MONDAY, currency="USD",
                                      rate="0.05", created_by=keeper)
    game = services.game_import(session=session, record=load_case("gin-standard-game"),
                                imported_by=keeper)
    services.session_settle(session=session, settled_by=keeper)
    return session, game


def test_recording_on_a_settled_evening_is_refused_in_german(keeper, settled):
    _, game = settled
    entry = {"knocker": "Ann", "deadwood": {"Ann": 3, "Bob": 20}}
    with pytest.raises(SessionSettled) as refused:
        services.hand_record(game=game, entry=entry, recorded_by=keeper,
                             idempotency_key=uuid.uuid4())
    with translation.override("de"):  # said in the language of the page that shows it
        assert refusal_words(refused.value) == (
            "Der Abend vom Montag, 23. November 2026 ist abgerechnet; seine Partien ändern "
            "sich nicht mehr. Beginne für weitere Partien einen neuen Abend.")
    with translation.override("en"), pytest.raises(SessionSettled) as refused:
        services.hand_record(game=game, entry=entry, recorded_by=keeper,
                             idempotency_key=uuid.uuid4())
    assert refusal_words(refused.value).startswith(
        "The evening of Monday, November 23, 2026 is settled; its games can no longer change.")


def test_a_settled_evening_refuses_a_hand_in_german_on_the_page(logged_in, settled):
    _, game = settled
    response = logged_in.post(reverse("ledger:hand_create", args=[game.pk]),
                              {"key": str(uuid.uuid4()), "number": "8", "t1_knocker": "A",
                               "t1_kind": "knock", "t1_c0": "4", "t1_c1": "30"},
                              HTTP_ACCEPT_LANGUAGE="de", follow=True)
    flash = re.search(r'<ul class="flash"[^>]*>(.*?)</ul>', response.content.decode(), re.S)
    said = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", flash.group(1))).split())
    assert said == ("Der Abend vom Montag, 23. November 2026 ist abgerechnet; seine Partien "
                    "ändern sich nicht mehr. Jetzt einen Fehler gefunden? Öffne den Abend "
                    "zuerst wieder.")


def test_a_forms_refused_characters_are_named_in_german(client):
    english = client.post(reverse("signup"), {"username": "marta", "display_name": "Marta\x00",
                                              "email": "marta@example.org"})
    assert english.context["form"].errors["display_name"] == [
        "Your name contains a NUL character; type it again without it."]
    german = client.post(reverse("signup"), {"username": "marta", "display_name": "Marta\x00",
                                             "email": "marta@example.org"},
                         HTTP_ACCEPT_LANGUAGE="de")
    assert german.status_code == 422
    assert german.context["form"].errors["display_name"] == [
        "Dein Name enthält ein NUL-Zeichen; tipp es noch einmal ohne."]
    with translation.override("ru"):
        with pytest.raises(Exception) as refused:
            services.account_create(username="x", password="kitchen-table-42",
                                    display_name="\u200b", email="x@example.org")
        assert refusal_words(refused.value) == "Ваше имя: нет ни одного видимого символа."


def test_a_players_name_refused_by_the_table_is_refused_in_german(keeper):
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    services.player_add(table=table, name="Ann")
    with translation.override("de"):  # said in the language of the page that shows it
        with pytest.raises(LedgerError) as clash:
            services.player_add(table=table, name="ANN")
        assert refusal_words(clash.value).startswith(
            "Ann spielt schon in dieser Runde: Namen, die sich nur durch Groß- und "
            "Kleinschreibung")
        with pytest.raises(LedgerError) as kept:
            services.player_add(table=table, name="-draw-")
        assert refusal_words(kept.value) == ("„-draw-“ ist für „Remis“ im Spielformular "
                                             "reserviert; gib dem Spieler einen anderen Namen.")


def test_an_odd_parameter_is_refused_in_german_on_the_400_page(logged_in, gin):
    response = logged_in.get(reverse("ledger:game_detail", args=[gin.pk]), {"again": "²"},
                             HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400
    page = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())
    assert ("Der Parameter „again“: Schreib eine ganze Zahl mit den Ziffern 0-9, z. B. 25, "
            "nicht '²'.") in page
    assert "The parameter" not in page and "write a whole number" not in page
