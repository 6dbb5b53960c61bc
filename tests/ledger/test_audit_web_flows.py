"""Audit of the scorekeeper's web flows: refused input names the field and the reason and
changes nothing; stale and repeated submissions never overwrite what is recorded."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from ledger import services
from ledger.models import GameChange, Hand, MoneyPosting, Player, Session
from tests.pages import field_error, text

from .test_views import hand_post

pytestmark = pytest.mark.django_db


def snapshot(game=None) -> dict:
    """What a refused or repeated submission must leave as it was."""
    hands = Hand.objects.order_by("pk")
    return {"hands": list(hands.values_list("pk", "number", "entry", "voided_at")),
            "changes": GameChange.objects.count(), "postings": MoneyPosting.objects.count(),
            "players": sorted(Player.objects.values_list("name", flat=True)),
            "sessions": Session.objects.count()}


def gin_game(session, keeper, a="Ann", b="Bob"):
    return services.game_start(session=session, variant="gin", players=[a, b],
                               started_by=keeper, setup={"first_dealer": b})


# -- correcting a hand -----------------------------------------------------------------------

def test_a_stale_correction_does_not_overwrite_a_newer_one(logged_in, session, keeper):
    """Two phones open "Fix hand 1"; the first saves. The second, still showing the entry it
    was opened on, must be refused instead of silently voiding the first correction."""
    game = gin_game(session, keeper)
    logged_in.post(reverse("ledger:hand_create", args=[game.pk]),
                   hand_post(1, "Ann", ("5", "20")))
    url = reverse("ledger:hand_correct", args=[game.pk, 1])
    page = logged_in.get(url).content.decode()
    hand_field = re.search(r'name="hand" value="(\d+)"', page)
    assert hand_field, "the correction form says which recorded hand it corrects"
    first = hand_post(1, "Ann", ("5", "25"), reason="Bob had 25", hand=hand_field.group(1))
    second = hand_post(1, "Ann", ("5", "30"), reason="Bob had 30", hand=hand_field.group(1))
    assert logged_in.post(url, first).status_code == 302
    before = snapshot()
    response = logged_in.post(url, second)
    assert response.status_code == 422
    assert "Hand 1 was already corrected or undone; reload the game." in text(response)
    assert snapshot() == before
    live = Hand.objects.get(game=game, voided_at__isnull=True)
    assert live.entry["deadwood"]["Bob"] == 25


def test_a_double_tapped_correction_is_stored_once_without_an_error(logged_in, session,
                                                                   keeper):
    game = gin_game(session, keeper)
    logged_in.post(reverse("ledger:hand_create", args=[game.pk]),
                   hand_post(1, "Ann", ("5", "20")))
    hand = Hand.objects.get(game=game)
    url = reverse("ledger:hand_correct", args=[game.pk, 1])
    data = hand_post(1, "Ann", ("5", "25"), reason="Bob had 25", hand=str(hand.pk))
    assert logged_in.post(url, data).status_code == 302
    before = snapshot()
    again = logged_in.post(url, data)
    assert again.status_code == 302, text(again)[-300:]
    assert snapshot() == before


# -- huge numbers ----------------------------------------------------------------------------

HUGE = "99999999999999999999"
TOO_MANY = "Ensure this value is less than or equal to 100000."


def test_a_huge_per_points_is_refused_at_the_field_everywhere(logged_in, session, keeper,
                                                               case):
    """It crashed with OverflowError (a 500) on SQLite, and went into an integer column
    PostgreSQL cannot hold."""
    from .conftest import start_empty
    from .test_views_settings import current

    table_url = reverse("ledger:table_detail", args=[session.table.pk])
    before = snapshot()
    response = logged_in.post(table_url, {"new_session": "1", "date": "2025-01-01",
                                          "currency": "USD", "rate": "0.01",
                                          "per_points": HUGE})
    assert response.status_code == 422
    assert field_error(response, "per_points") == TOO_MANY
    assert snapshot() == before

    for name in ("Ann", "Bob"):
        services.player_get_or_create(table=session.table, name=name)
    before = snapshot()
    response = logged_in.post(reverse("ledger:game_start", args=[session.pk, "gin", 2]), {
        "p1": "Ann", "p2": "Bob", "first_dealer": "Ann", "preset": "standard",
        "rate": "0.01", "per_points": "2147483648"})
    assert response.status_code == 422
    assert field_error(response, "per_points") == TOO_MANY
    assert snapshot() == before and not session.games.exists()

    game = start_empty(session, keeper, case("gin-standard-game"))
    before = snapshot()
    response = logged_in.post(reverse("ledger:game_settings", args=[game.pk]),
                              {**current(game), "per_points": HUGE})
    assert response.status_code == 422
    assert field_error(response, "per_points") == TOO_MANY
    assert snapshot() == before
    game.refresh_from_db()
    assert game.per_points == 1


# -- player names ----------------------------------------------------------------------------

@pytest.mark.parametrize(("players", "message"), [
    ("Ann\nann", "ann is listed twice (as Ann)."),
    ("Ann Lee, ANN  LEE", "ANN LEE is listed twice (as Ann Lee)."),
    ("Ann\nＡnn", "Ａnn is listed twice (as Ann)."),
    ("Ann\nAnn\u200b", "Ann is listed twice."),
    ("Ann\n-draw-", '"-draw-" is kept for the hand form\'s Draw; give the player another name.'),
])
def test_a_new_tables_players_are_refused_when_names_clash(logged_in, players, message):
    before = snapshot()
    response = logged_in.post(reverse("ledger:home"), {"name": "Friday", "players": players})
    assert response.status_code == 422
    assert field_error(response, "players") == message
    assert snapshot() == before and not logged_in.get("/").context["tables"]


@pytest.mark.parametrize(("name", "message"), [
    ("ann", "Ann already plays at this table: names differing only in capitals, width, "
            "spaces or invisible characters are the same player."),
    (" ANN ", "Ann already plays at this table: names differing only in capitals, width, "
              "spaces or invisible characters are the same player."),
    ("Ａｎｎ", "Ann already plays at this table: names differing only in capitals, width, "
              "spaces or invisible characters are the same player."),
    ("ａnn\u200d", "Ann already plays at this table: names differing only in capitals, width, "
                   "spaces or invisible characters are the same player."),
    ("-nobody-", '"-nobody-" is kept for the hand form\'s Nobody; give the player another '
                 "name."),
])
def test_adding_a_player_whose_name_clashes_is_refused(logged_in, table, name, message):
    services.player_get_or_create(table=table, name="Ann")
    before = snapshot()
    response = logged_in.post(reverse("ledger:table_detail", args=[table.pk]),
                              {"add_player": "1", "name": name})
    assert response.status_code == 422
    assert field_error(response, "name") == message
    assert snapshot() == before


def test_adding_a_player_already_at_the_table_changes_nothing(logged_in, table):
    services.player_get_or_create(table=table, name="Ann")
    before = snapshot()
    response = logged_in.post(reverse("ledger:table_detail", args=[table.pk]),
                              {"add_player": "1", "name": "Ann "})
    assert response.status_code == 302 and snapshot() == before



# -- starting a game -------------------------------------------------------------------------

def test_a_side_named_like_a_player_is_refused_at_that_side(logged_in, session):
    for name in ("Ann", "Bob", "Cy", "Di"):
        services.player_get_or_create(table=session.table, name=name)
    url = reverse("ledger:game_start", args=[session.pk, "partnership", 4])
    before = snapshot()
    response = logged_in.post(url, {"a1": "Ann", "a2": "Bob", "b1": "Cy", "b2": "Di",
                                    "side_a": "We", "side_b": "Cy", "preset": "standard",
                                    "first_dealer_side": "b"})
    assert response.status_code == 422
    assert field_error(response, "side_b") == ("Cy is a player's name; "
                                               "give the side another.")
    assert "setup.sides" not in text(response)
    assert snapshot() == before and not session.games.exists()


# -- numbers shown ---------------------------------------------------------------------------

@pytest.mark.parametrize(("currency", "rate", "zero"), [
    ("JPY", "1", "0"), ("KWD", "0.001", "0.000"), ("USD", "0.01", "0.00")])
def test_no_money_reads_as_zero_in_every_currency(logged_in, table, keeper, currency, rate,
                                                  zero):
    """A player who neither wins nor loses money is '0' (JPY) or '0.000' (KWD), as in USD:
    not '+0' in the winners' colour."""
    session = services.session_create(table=table, currency=currency, rate=rate,
                                      created_by=keeper)
    game = gin_game(session, keeper)
    logged_in.post(reverse("ledger:hand_create", args=[game.pk]),
                   {"key": "6f1c7a52-4a80-4a59-9d55-0d2f1e0a3b11", "number": 1,
                    "t1_knocker": "-draw-"})
    logged_in.post(reverse("ledger:game_abandon", args=[game.pk]), {"reason": "time"})
    page = logged_in.get(reverse("ledger:game_detail", args=[game.pk])).content.decode()
    for name in ("Ann", "Bob"):
        cell = re.search(rf'<td class="([^"]*)" data-player="{name}">([^<]*)</td>', page)
        assert cell.group(2) == zero
        assert "pos" not in cell.group(1).split() and "neg" not in cell.group(1).split()


# -- abandoning ------------------------------------------------------------------------------

def test_a_long_abandon_reason_is_kept_to_the_columns_300_characters(logged_in, session,
                                                                       keeper):
    """The reason went whole into a 300-character column: stored as typed on SQLite, an
    Internal Server Error on PostgreSQL. It is cut like the reasons of an undo."""
    game = gin_game(session, keeper)
    response = logged_in.post(reverse("ledger:game_abandon", args=[game.pk]),
                              {"reason": "  " + "late " * 100})
    assert response.status_code == 302
    change = GameChange.objects.get(game=game)
    assert change.reason == ("late " * 100).strip()[:300]
    game.refresh_from_db()
    assert game.status == "abandoned"


# -- damaged hidden fields -------------------------------------------------------------------

@pytest.mark.parametrize(("change", "named"), [
    ({"key": "not-a-uuid"}, "key"), ({"number": "x"}, "number"),
    ({"key": "", "number": ""}, "key and number"),
])
def test_a_hand_form_with_damaged_hidden_fields_says_what_to_do(logged_in, session, keeper,
                                                                 change, named):
    game = gin_game(session, keeper)
    before = snapshot()
    response = logged_in.post(reverse("ledger:hand_create", args=[game.pk]),
                              {**hand_post(1, "Ann", ("5", "20")), **change})
    assert response.status_code == 422
    assert (f"This form was damaged or out of date (its {named}); reload the game and enter "
            "the hand again.") in text(response)
    assert "Please check the marked field" not in text(response)
    assert snapshot() == before


# -- a hand recorded from another phone first ------------------------------------------------

def test_a_stale_hand_form_keeps_what_was_typed_for_the_next_hand(logged_in, session, keeper):
    """Two phones type hand 1; the first saves. The second's save records nothing and comes
    back as hand 2 with its values kept and a new key; saving that records hand 2."""
    game = gin_game(session, keeper)
    url = reverse("ledger:hand_create", args=[game.pk])
    assert logged_in.post(url, hand_post(1, "Ann", ("5", "20"))).status_code == 302
    before = snapshot()
    stale = hand_post(1, "Bob", ("20", "3"))
    response = logged_in.post(url, stale)
    assert response.status_code == 409
    assert snapshot() == before
    page = text(response)
    assert "Hand 1 is already recorded by keeper" in page
    assert "What you typed is kept below as hand 2: check it against the table" in page
    form = response.context["form"]
    assert form.data["number"] == "2" and form.data["key"] != stale["key"]
    assert form.data["t1_knocker"] == "Bob"
    assert [form.data["t1_c0"], form.data["t1_c1"]] == ["20", "3"]
    assert 'value="2"' in response.content.decode()  # the hidden number the page posts
    again = logged_in.post(url, dict(form.data.items()))
    assert again.status_code == 302
    assert [h.entry for h in game.hands.order_by("number")] == [
        {"knocker": "Ann", "deadwood": {"Ann": 5, "Bob": 20}},
        {"knocker": "Bob", "deadwood": {"Ann": 20, "Bob": 3}}]
