"""Issue 40's start and play screens without a browser: the club settings are fields of the
start and settings forms, each of its kind, from the core's schema; the lump sum is asked
and kept; a best-of match's page says the match (RULES 5, example 19); straight gin's hand
form offers only gin; the streets' words say the glossary's "hand"."""

from __future__ import annotations

import json
import uuid

import pytest
from django.urls import reverse
from django.utils import translation

from ledger import services
from ledger.forms import GameSettingsForm
from ledger.forms.start import GameStartForm, NumberOrWordField
from ledger.models import Game
from ledger.presentation.catalog import SETTINGS, VARIANT_SETTINGS, game_facts
from ledger.selectors.games import game_result
from tests.pages import text
from tests.rules.helpers import DATA

pytestmark = pytest.mark.django_db

CLUB_TABLES = ("gin_boxes", "undercut_boxes", "roodle_boxes", "double_extra_boxes")


def _start_form(variant: str, count: int, data=None) -> GameStartForm:
    return GameStartForm(data, variant=variant, count=count,
                         player_names=["A", "B", "X", "Y", "C", "Z"], session_rate="0.01",
                         session_per_points=1)


def test_the_club_settings_are_the_cores_schema_and_fields_of_their_kind():
    # each variant takes the club settings the canon gives it (RULES 3.7, 3.9, 3.10)
    assert set(CLUB_TABLES) <= set(VARIANT_SETTINGS["streets"])
    assert set(CLUB_TABLES) <= set(VARIANT_SETTINGS["partnership"])
    assert {"straight_format", "best_of", "money_mode"} <= set(VARIANT_SETTINGS["gin"])
    assert "street_bonus" not in VARIANT_SETTINGS["partnership"]
    # the street settlement replaces the game bonus and the shutout (RULES 3.9)
    assert not {"game_bonus", "shutout_mode"} & set(VARIANT_SETTINGS["streets"])
    form = _start_form("streets", 4)
    assert form.fields["rule_gin_boxes"].widget.input_type == "text"  # a number
    assert form.fields["rule_gin_boxes"].widget.attrs["inputmode"] == "numeric"
    assert [v for v, _ in form.fields["rule_double_extra_boxes"].choices][1:] == ["yes", "no"]
    assert [v for v, _ in form.fields["rule_clean_sweep_mode"].choices][1:] == [
        "bonus", "double", "none"]
    assert isinstance(form.fields["rule_street_bonus"], NumberOrWordField)
    # the preset's value shows in the empty field: streets_club counts 2 boxes for a gin
    shown = json.loads(form.fields["rule_gin_boxes"].widget.attrs["data-preset-values"])
    assert shown["streets"] == "0" and shown["streets_club"] == "2"
    with translation.override("de"):
        assert str(_start_form("streets", 4).fields["rule_street_bonus"].label) == \
            "Straßenbonus"
    gin = _start_form("gin", 2)
    assert [v for v, _ in gin.fields["rule_straight_format"].choices][1:] == [
        "points", "best_of"]
    assert "lump_sum_stake" in gin.fields and "lump_sum_stake" not in _start_form(
        "hollywood", 2).fields
    assert game_facts("gin", 2).lump_sum and not game_facts("streets", 4).lump_sum


def test_a_street_bonus_is_a_number_or_the_target_in_the_language_in_force():
    field = NumberOrWordField(SETTINGS["street_bonus"], required=True)
    assert field.clean("50") == 50
    assert field.clean("target") == "target"
    with translation.override("de"):
        assert field.clean("das Ziel") == "target"
        with pytest.raises(Exception, match="ganze Zahl"):
            field.clean("viel")


def _seats(count: int) -> dict:
    half = count // 2
    we, they = ["A", "B", "C"][:half], ["X", "Y", "Z"][:half]
    return {**{f"a{i}": name for i, name in enumerate(we, 1)},
            **{f"b{i}": name for i, name in enumerate(they, 1)}}


@pytest.mark.parametrize("count", [2, 4, 6])
def test_a_streets_game_starts_from_the_we_they_grid(logged_in, session, count):
    services.players_get_or_create(table=session.table, names=["A", "B", "C", "X", "Y", "Z"])
    url = reverse("ledger:game_start", args=[session.pk, "streets", count])
    page = logged_in.get(url)
    rows = page.context["form"].table_rows()
    assert [row["table"] for row in rows] == list(range(1, count // 2 + 1))
    assert [[seat.name for seat, _ in row["seats"]] for row in rows] == [
        [f"a{i}", f"b{i}"] for i in range(1, count // 2 + 1)]
    # each seat is named by its side's name, the table by its row
    assert [[seat.label for seat, _ in row["seats"]] for row in rows][0] == ["We", "They"]
    assert "Table 1" in text(page)
    data = {"side_a": "WE", "side_b": "THEY", "first_dealer_side": "b", "preset": "streets",
            "rate": "0.01", "per_points": "1", "rule_street_bonus": "50",
            "rule_gin_boxes": "2", **_seats(count)}
    response = logged_in.post(url, data)
    assert response.status_code == 302, text(response)[-600:]
    result = game_result(logged_in.get(response["Location"]).context["game"])
    assert result["sides"] == {"WE": ["A", "B", "C"][:count // 2],
                               "THEY": ["X", "Y", "Z"][:count // 2]}
    assert result["rules"]["street_bonus"] == 50 and result["rules"]["gin_boxes"] == 2
    assert len(result["next"]["tables"]) == count // 2


def test_an_even_best_of_is_refused_at_its_field_in_each_language(logged_in, session):
    services.players_get_or_create(table=session.table, names=["A", "B"])
    url = reverse("ledger:game_start", args=[session.pk, "gin", 2])
    data = {"p1": "A", "p2": "B", "first_dealer": "B", "preset": "straight",
            "rule_straight_format": "best_of", "rule_best_of": "8", "lump_sum_stake": "5"}
    response = logged_in.post(url, data)
    assert response.status_code == 422
    assert "8 is even" in " ".join(response.context["form"].errors["rule_best_of"])
    response = logged_in.post(url, data, HTTP_ACCEPT_LANGUAGE="de")
    with translation.override("de"):
        errors = " ".join(str(e) for e in response.context["form"].errors["rule_best_of"])
    assert "8 ist gerade" in errors


def _match(session, keeper, hands: int):
    record = json.loads((DATA / "club" / "straight-best-of-seven.json").read_text())
    record["hands"] = record["hands"][:hands]
    return services.game_import(session=session, record=record, imported_by=keeper)


def test_a_match_page_says_who_leads_and_who_won_with_the_cores_numbers(logged_in, session,
                                                                       keeper):
    game = _match(session, keeper, 3)
    result = game_result(game)
    assert result["match"]["hands_won"] == {"A": 2, "B": 1}
    page = text(logged_in.get(reverse("ledger:game_detail", args=[game.pk])))
    assert "A leads 2–1, first to 4 · best of 7" in page and "game to 100" not in page
    game = _match(session, keeper, 99)
    result = game_result(game)
    won = result["match"]["hands_won"]
    winner = result["match"]["winner"]
    loser = next(name for name in won if name != winner)
    page = text(logged_in.get(reverse("ledger:game_detail", args=[game.pk])))
    assert f"{winner} wins the match {won[winner]}–{won[loser]}" in page
    assert "A match for $10.00: the loser pays it, whatever the points." in page


def test_a_lump_sum_is_set_at_the_start_and_changed_in_the_settings(logged_in, session,
                                                                    keeper):
    services.players_get_or_create(table=session.table, names=["A", "B"])
    url = reverse("ledger:game_start", args=[session.pk, "gin", 2])
    response = logged_in.post(url, {"p1": "A", "p2": "B", "first_dealer": "B",
                                    "preset": "scarne_lump", "lump_sum_stake": "5.00"})
    assert response.status_code == 302, text(response)[-600:]
    game = logged_in.get(response["Location"]).context["game"]
    assert str(game.lump_sum_stake) == "5.0000" and game.rules["money_mode"] == "lump_sum"
    seats = list(game.seats.select_related("player").order_by("seat"))
    form = GameSettingsForm(game=game, seats=seats)
    data = {name: ("" if value is None else value) for name, value in form.initial.items()}
    data.update({"lump_sum_stake": "7.50", "reason": "we said 7.50",
                 "rule_best_of": "9"})
    response = logged_in.post(reverse("ledger:game_settings", args=[game.pk]), data)
    assert response.status_code == 302, text(response)[-800:]
    game.refresh_from_db()
    assert str(game.lump_sum_stake) == "7.5000" and game.rules["best_of"] == 9
    # the change list says the setting's value before, its default, not "none"
    assert "Match: best of (hands) 7 → 9" in text(
        logged_in.get(reverse("ledger:game_settings", args=[game.pk])))
    # A gins v 30 and v 45: 55 + 70 = 125, B won nothing: a shutout, twice the sum
    for number, count in ((1, "30"), (2, "45")):
        entry = {"key": str(uuid.uuid4()), "number": number, "t1_knocker": "A",
                 "t1_kind": "gin", "t1_c0": "0", "t1_c1": count}
        assert logged_in.post(reverse("ledger:hand_create", args=[game.pk]),
                              entry).status_code == 302
    result = game_result(Game.objects.get(pk=game.pk))
    assert result["complete"], result["totals"]
    assert result["money"] == {"A": "15.00", "B": "-15.00"}
    page = text(logged_in.get(reverse("ledger:game_detail", args=[game.pk])))
    assert "Lump sum $7.50, twice that for the shutout." in page


def test_straight_gin_hands_offer_only_gin(logged_in, session, keeper):
    game = services.game_start(session=session, variant="gin", players=["A", "B"],
                               started_by=keeper, preset="straight",
                               setup={"first_dealer": "B"})
    form = logged_in.get(reverse("ledger:game_detail", args=[game.pk])).context["form"]
    assert [v for v, _ in form.fields["t1_kind"].choices] == ["gin"]
    assert form.fields["t1_kind"].initial == "gin"
    # RULES 5, example 19: A gins v 22 -> 47, posted with no kind at all
    response = logged_in.post(reverse("ledger:hand_create", args=[game.pk]), {
        "key": str(uuid.uuid4()), "number": 1, "t1_knocker": "A", "t1_c1": "22"})
    assert response.status_code == 302
    assert game_result(game)["totals"]["A"]["hand_points"] == 47
    # a streets deal with a knock card may still be knocked at limit 0
    streets = services.game_start(
        session=session, variant="streets", players=["A", "X"], started_by=keeper,
        rules={"knock_limit": 0}, setup={"sides": {"WE": ["A"], "THEY": ["X"]}})
    form = logged_in.get(reverse("ledger:game_detail", args=[streets.pk])).context["form"]
    assert [v for v, _ in form.fields["t1_kind"].choices] == ["knock", "gin"]


def test_a_street_card_says_in_which_hand_it_ended(logged_in, session, keeper):
    record = json.loads((DATA / "club" / "streets-game.json").read_text())
    game = services.game_import(session=session, record=record, imported_by=keeper)
    ended = game_result(game)["streets"][0]["ended_at"]
    page = text(logged_in.get(reverse("ledger:game_detail", args=[game.pk])))
    assert f"out in hand {ended}" in page and "deal" not in page.split("Street 1")[1][:80]
    response = logged_in.get(reverse("ledger:game_detail", args=[game.pk]),
                             HTTP_ACCEPT_LANGUAGE="de")
    assert f"in Spiel {ended} ausgegangen" in text(response)


def test_a_rematch_keeps_the_lump_sum(session, keeper):
    game = services.game_start(session=session, variant="gin", players=["A", "B"],
                               started_by=keeper, preset="scarne_lump",
                               setup={"first_dealer": "B"}, lump_sum_stake="5.00")
    again = services.game_rematch(game=game, started_by=keeper)
    again.refresh_from_db()
    assert str(again.lump_sum_stake) == "5.0000"
