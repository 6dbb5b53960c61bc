"""Every kind of problem the core gives lands on the field it names (issue 10): the core
gives problems as data (where: hand, table, round, player, field; a code; the words) and
the forms place them by where, never by reading the words. One test per kind: a count,
cards, the knocker, the kind (gin, big gin), the up-card, a table game's tables, CAP-IT's
round cells, the cut for the sitter, the start form and the settings form."""

from __future__ import annotations

import copy
import uuid

import pytest

from ledger import services
from ledger.exceptions import RecordRefused
from ledger.forms import GameSettingsForm, GameStartForm, HandForm
from ledger.rules import RecordError, score_record
from ledger.rules.problems import CODES, Problem
from tests.factories import gin_game

GIN = {"format": "tablestakes.game/1", "variant": "gin", "players": ["Ann", "Bob"],
       "setup": {"first_dealer": "Ann"}, "hands": []}
KNOCKER = "5H 6H 7H QS QD QC 8C 8D 8S 3D"  # K 3
OPPONENT = "9C 9S 9D 4H 8H QH KD 2C 5S AS"  # O 18 after lay-offs


def refusal(record: dict, *hands) -> list[Problem]:
    """The core's problems for ``record`` with ``hands``."""
    record = copy.deepcopy(record)
    record["hands"] = list(hands)
    with pytest.raises(RecordError) as caught:
        score_record(record)
    error = caught.value
    assert error.problems == [p.line for p in error.details]  # the lines stay the contract
    return error.details


def duel_spec(*pairs, **extra) -> dict:
    duels = [{"players": list(pair)} for pair in pairs]
    spec = {"rounds": False, "duels": duels, "upcard": False, "big_gin": True, "rules": {}}
    if len(pairs) > 1:
        spec["tables"] = True
    spec.update(extra)
    return spec


def placed(spec: dict, data: dict, problems: list[Problem]) -> dict[str, list[str]]:
    """The errors of a hand form of ``spec`` posted with ``data`` after the core's
    ``problems`` were put on it."""
    form = HandForm({"key": str(uuid.uuid4()), "number": 1, **data}, spec=spec)
    assert form.is_valid(), form.errors
    form.add_problems(problems)
    return {name: list(errors) for name, errors in form.errors.items()}


def test_every_problem_has_a_listed_code():
    with pytest.raises(ValueError):
        Problem("no_such_code", "words")
    assert all(code == code.lower() and " " not in code for code in CODES)


# -- a hand of two-hand gin ------------------------------------------------------------------

def test_a_count_problem_lands_on_that_players_count():
    problems = refusal(GIN, {"knocker": "Ann", "deadwood": {"Ann": 12, "Bob": 30}})
    assert [(p.code, p.field, p.player, p.hand) for p in problems] == [
        ("knock_over_limit", "deadwood", "Ann", 1)]
    assert problems[0].line == "hand 1: knocker deadwood 12 is above the knock limit 10"
    data = {"t1_knocker": "Ann", "t1_kind": "knock", "t1_c0": "12", "t1_c1": "30"}
    assert placed(duel_spec(("Ann", "Bob")), data, problems) == {
        "t1_c0": ["a knock must be 10 or less; Ann counted 12"]}
    # the opponent's count, at the opponent's field (players in the other order)
    problems = refusal(GIN, {"knocker": "Ann", "deadwood": {"Ann": 3, "Bob": 120}})
    assert problems[0].code == "deadwood_out_of_range"
    data = {"t1_knocker": "Ann", "t1_kind": "knock", "t1_c0": "120", "t1_c1": "3"}
    assert placed(duel_spec(("Bob", "Ann")), data, problems) == {
        "t1_c0": ["Bob's count: 120 is above 98, the most a 10-card hand can hold"]}


def test_a_cards_problem_lands_on_those_cards_or_the_count_they_cannot_give():
    data = {"t1_knocker": "Ann", "t1_kind": "knock", "t1_cards0": KNOCKER,
            "t1_cards1": OPPONENT}
    spec = duel_spec(("Ann", "Bob"))
    problems = refusal(GIN, {"knocker": "Ann", "cards": {"Ann": KNOCKER, "Bob": "AS 2S ZZ"}})
    assert [(p.code, p.field, p.player) for p in problems] == [
        ("cards_unreadable", "cards", "Bob")]
    assert placed(spec, data, problems) == {
        "t1_cards1": ['Bob\'s cards: "ZZ": unknown suit "Z" (suits are S H D C)']}
    problems = refusal({**GIN, "rules": {"knock_limit": 2}},
                       {"knocker": "Ann", "cards": {"Ann": KNOCKER, "Bob": OPPONENT}})
    assert problems[0].code == "cards_illegal_knock"
    assert placed(spec, data, problems) == {
        "t1_cards0": ["Ann's cards: knocker deadwood 3 is above the knock limit 2"]}
    problems = refusal(GIN, {"knocker": "Ann", "cards": {"Ann": KNOCKER, "Bob": OPPONENT},
                             "deadwood": {"Ann": 3, "Bob": 19}})
    assert (problems[0].code, problems[0].field, problems[0].player) == (
        "cards_counts_disagree", "deadwood", "Bob")
    assert list(placed(spec, {**data, "t1_c0": "3", "t1_c1": "19"}, problems)) == ["t1_c1"]
    # a wrong number of cards: at that player's cards, named (not "the opponent")
    problems = refusal(GIN, {"knocker": "Ann", "cards": {"Ann": KNOCKER,
                                                         "Bob": OPPONENT + " 2H"}})
    assert problems[0].line == "hand 1: cards: the opponent has 11 cards: expected 10"
    assert placed(spec, {**data, "t1_cards1": OPPONENT + " 2H"}, problems) == {
        "t1_cards1": ["Bob's cards: Bob has 11 cards: expected 10"]}


def test_a_knocker_problem_lands_on_who_knocked():
    problems = refusal(GIN, {"knocker": "Cy", "deadwood": {"Ann": 3, "Bob": 20}})
    assert (problems[0].code, problems[0].field) == ("knocker_not_playing", "knocker")
    data = {"t1_knocker": "Ann", "t1_kind": "knock", "t1_c0": "3", "t1_c1": "20"}
    assert placed(duel_spec(("Ann", "Bob")), data, problems) == {
        "t1_knocker": ["Cy is not playing this hand (Ann v Bob)"]}
    problems = refusal(GIN, {"draw": True, "knocker": "Ann"})
    assert (problems[0].code, problems[0].field) == ("draw_with_knocker", "knocker")
    assert list(placed(duel_spec(("Ann", "Bob")), data, problems)) == ["t1_knocker"]


def test_a_gin_or_big_gin_with_deadwood_lands_on_the_knockers_count_or_cards():
    problems = refusal(GIN, {"knocker": "Ann", "big_gin": True,
                             "deadwood": {"Ann": 3, "Bob": 20}})
    assert [(p.code, p.field, p.player) for p in problems] == [
        ("gin_with_deadwood", "deadwood", "Ann")]
    assert problems[0].line == ("hand 1: big_gin: a big gin melds all 11 cards, but the "
                                "knocker Ann counted 3")
    data = {"t1_knocker": "Ann", "t1_kind": "knock", "t1_c0": "3", "t1_c1": "20"}
    assert placed(duel_spec(("Ann", "Bob")), data, problems) == {
        "t1_c0": ["a big gin melds all 11 cards, but the knocker Ann counted 3"]}
    # with the cards: at the knocker's cards
    problems = refusal(GIN, {"knocker": "Ann", "gin": True,
                             "cards": {"Ann": KNOCKER, "Bob": OPPONENT}})
    assert (problems[0].code, problems[0].field) == ("gin_with_deadwood", "cards")
    data = {"t1_knocker": "Ann", "t1_kind": "knock", "t1_cards0": KNOCKER,
            "t1_cards1": OPPONENT}
    assert placed(duel_spec(("Ann", "Bob")), data, problems) == {
        "t1_cards0": ["Ann's cards: a gin has no deadwood, but the knocker Ann counted 3"]}


def test_an_upcard_problem_lands_on_the_up_card():
    oklahoma = {**GIN, "variant": "oklahoma"}
    spec = duel_spec(("Ann", "Bob"), upcard=True, oklahoma=True)
    data = {"t1_knocker": "Ann", "t1_kind": "knock", "t1_c0": "3", "t1_c1": "20",
            "up_rank": "5", "up_suit": "S"}
    problems = refusal(oklahoma, {"upcard": "ZZ", "knocker": "Ann",
                                  "deadwood": {"Ann": 3, "Bob": 20}})
    assert (problems[0].code, problems[0].field) == ("upcard_unreadable", "upcard")
    assert list(placed(spec, data, problems)) == ["up_rank"]
    problems = refusal(oklahoma, {"knocker": "Ann", "deadwood": {"Ann": 3, "Bob": 20}})
    assert (problems[0].code, problems[0].field) == ("upcard_missing", "upcard")
    # the limit the up-card sets: at the knocker's count, naming the card
    problems = refusal(oklahoma, {"upcard": "AS", "knocker": "Ann",
                                  "deadwood": {"Ann": 1, "Bob": 20}})
    assert problems[0].code == "knock_gin_only"
    assert placed(spec, {**data, "up_rank": "A"}, problems) == {"t1_c0": [
        "only gin may end this hand under the up-card A\u2660 (an Ace: gin only); Ann counted 1"]}


# -- table games, CAP-IT, captain play ------------------------------------------------------

PARTNERS = {"format": "tablestakes.game/1", "variant": "partnership",
            "players": ["A", "B", "X", "Y"],
            "setup": {"sides": {"We": ["A", "B"], "They": ["X", "Y"]}}, "hands": []}


def test_a_table_games_problem_lands_on_that_tables_fields():
    spec = duel_spec(("A", "X"), ("B", "Y"))
    data = {"t1_knocker": "A", "t1_kind": "knock", "t1_c0": "3", "t1_c1": "20",
            "t2_knocker": "Y", "t2_kind": "knock", "t2_c0": "20", "t2_c1": "14"}
    problems = refusal(PARTNERS, {"tables": [
        {"knocker": "A", "deadwood": {"A": 3, "X": 20}},
        {"knocker": "Y", "deadwood": {"Y": 14, "B": 20}}]})
    assert [(p.code, p.hand, p.table, p.player) for p in problems] == [
        ("knock_over_limit", 1, 2, "Y")]
    assert problems[0].line == "hand 1, table 2: knocker deadwood 14 is above the knock limit 10"
    assert placed(spec, data, problems) == {
        "t2_c1": ["a knock must be 10 or less; Y counted 14"]}
    # the wrong number of tables names no field of the form: above it, whole
    problems = refusal(PARTNERS, {"tables": [{"knocker": "A", "deadwood": {"A": 3, "X": 20}}]})
    assert (problems[0].code, problems[0].field) == ("tables_invalid", "tables")
    assert placed(spec, data, problems) == {
        "__all__": ["hand 1: tables: 2 tables are playing, 1 given"]}


CAPIT = {"format": "tablestakes.game/1", "variant": "cap-it", "players": ["A", "B", "C", "D"],
         "setup": {"first_dealer": "D"}, "hands": []}


def test_a_capit_round_problem_lands_on_that_players_cell():
    spec = {"rounds": True, "players": ["A", "B", "C", "D"], "contract": "two sets of 3"}
    data = {"went_out": "A", "pts_1": "7", "pts_2": "20", "pts_3": "10"}
    problems = refusal(CAPIT, {"went_out": "A", "points": {"B": 7, "C": 20, "D": 10}})
    assert [(p.code, p.round, p.player, p.field) for p in problems] == [
        ("capit_points_impossible", 1, "B", "points")]
    assert placed(spec, data, problems) == {"pts_1": [
        "B's points: 7 points cannot be made from cards worth 5, 10, 15, 20"]}
    # cards and points that disagree: an error naming the round and the player (RULES §6)
    problems = refusal(CAPIT, {"went_out": "A", "cards": {"B": "K 7 7", "C": "JK", "D": "9 3"},
                               "points": {"B": 25, "C": 20, "D": 10}})
    assert [(p.code, p.round, p.player) for p in problems] == [
        ("capit_cards_points_disagree", 1, "B")]
    assert problems[0].line == ("hand 1 (round 1), B: the cards make 20 points but points "
                                "says 25")
    assert list(placed(spec, data, problems)) == ["pts_1"]
    problems = refusal(CAPIT, {"went_out": "Q", "points": {"B": 5, "C": 20, "D": 10}})
    assert (problems[0].code, problems[0].field) == ("went_out_unknown", "went_out")
    assert placed(spec, data, problems) == {"went_out": ["'Q' is not a player of this game"]}


CAPTAINS = {"format": "tablestakes.game/1", "variant": "captain",
            "players": ["R1", "R2", "B1", "B2", "B3"],
            "setup": {"captains": ["R1", "R2"], "opponents": ["B1", "B2"], "sitter": "B3"},
            "hands": []}


def test_a_cut_problem_lands_on_the_cut():
    spec = duel_spec(("R1", "B1"), ("R2", "B2"), cut_candidates=["B1", "B2"])
    data = {"t1_knocker": "R1", "t1_kind": "knock", "t1_c0": "5", "t1_c1": "25",
            "t2_knocker": "R2", "t2_kind": "knock", "t2_c0": "4", "t2_c1": "24"}
    problems = refusal(CAPTAINS, {"tables": [
        {"knocker": "R1", "deadwood": {"R1": 5, "B1": 25}},
        {"knocker": "R2", "deadwood": {"R2": 4, "B2": 24}}]})
    assert [(p.code, p.field) for p in problems] == [("cut_loser_invalid", "cut_loser")]
    assert placed(spec, data, problems) == {"cut_loser": [
        "B1 and B2 each lost 20 points; record who cut the lower card"]}


# -- the start and settings forms ------------------------------------------------------------

def start_form(data: dict) -> GameStartForm:
    form = GameStartForm(data, variant="gin", count=2, player_names=["Ann", "Bob"],
                         session_rate=None, session_per_points=1)
    assert form.is_valid(), form.errors
    return form


def test_setup_problems_land_on_the_start_forms_fields():
    form = start_form({"p1": "Ann", "p2": "Bob", "first_dealer": "Ann", "preset": "standard",
                       "rate": "0.01", "stake_p2": "0.02"})
    problems = refusal({**GIN, "rules": {"target": 0, "knock_limit": 99},
                        "setup": {"first_dealer": "Cy"},
                        "stakes": {"rate": "0.01", "players": {"Bob": "-1"}}})
    assert {(p.code, p.field, p.player) for p in problems} == {
        ("setting_invalid", "rules.target", None),
        ("setting_invalid", "rules.knock_limit", None),
        ("money_invalid", "stakes.players", "Bob")}
    form.add_problems(problems)
    assert form.errors == {
        "rule_target": ["0 is out of range (1 to 100000)"],
        "rule_knock_limit": ["99 is out of range (0 to 98)"],
        "stake_p2": ["must not be negative (-1)"],
    }
    problems = refusal({**GIN, "setup": {"first_dealer": "Cy"}})
    form = start_form({"p1": "Ann", "p2": "Bob", "first_dealer": "Ann", "preset": "standard"})
    form.add_problems(problems)
    assert form.errors == {"first_dealer": ["'Cy' is not one of Ann, Bob"]}


@pytest.mark.django_db
def test_settings_problems_land_on_the_settings_forms_fields(session, keeper):
    game = gin_game(session, keeper, first_dealer="Ann")
    seats = list(game.seats.select_related("player").order_by("seat"))
    data = {"rate": "0.01", "per_points": "1", "reason": "typo",
            **{f"rule_{name}": value for name, value in (
                ("target", "100"), ("gin_bonus", "25"), ("undercut_bonus", "25"),
                ("big_gin_bonus", "0"), ("box_bonus", "25"), ("game_bonus", "100"),
                ("shutout_mode", "double_total"), ("knock_limit", "99"),
                ("undercut_on_tie", "yes"), ("dealer_rule", "winner_deals"))}}
    form = GameSettingsForm(data, game=game, seats=seats)
    assert form.is_valid(), form.errors
    with pytest.raises(RecordRefused) as caught:
        services.game_change_settings(game=game, changed_by=keeper, rules=form.rule_changes(),
                                      reason="typo")
    form.add_problems(caught.value.details)
    assert form.errors == {"rule_knock_limit": ["99 is out of range (0 to 98)"]}
    # a refusal of the services (before the core): at its field too
    form = GameSettingsForm(data, game=game, seats=seats)
    assert form.is_valid()
    with pytest.raises(RecordRefused) as caught:
        services.game_change_stake(game=game, changed_by=keeper, player_stakes={"Bob": "0"})
    assert [(p.code, p.field, p.player) for p in caught.value.details] == [
        ("money_invalid", "stakes.players", "Bob")]
    form.add_problems(caught.value.details)
    assert form.errors == {f"stake_{seats[1].seat}": ["a stake must be above zero, not 0"]}


def test_the_start_form_shows_the_chosen_presets_real_values():
    # issue 11 item 4: with Classic picked the settings show 20 / 10 / 20, as the game plays
    form = GameStartForm({"preset": "classic"}, variant="gin", count=2,
                         player_names=["Ann", "Bob"], session_rate=None, session_per_points=1)
    shown = {name: form.fields[f"rule_{name}"].widget.attrs["placeholder"]
             for name in ("gin_bonus", "undercut_bonus", "box_bonus", "target")}
    assert shown == {"gin_bonus": "20", "undercut_bonus": "10", "box_bonus": "20",
                     "target": "100"}
    assert form.fields["rule_shutout_mode"].choices[0] == ("", "game bonus double (preset)")
    assert form.fields["rule_gin_bonus"].widget.attrs["data-preset-values"] == (
        '{"classic": "20", "scarne_lump": "25", "simple": "25", "standard": "25", '
        '"straight": "25", "straight_classic": "20"}')  # gin's presets (RULES 3.10 too)
    simple = GameStartForm(initial={"preset": "simple"}, variant="box", count=3,
                           player_names=["Ann", "Bob", "Cy"], session_rate=None,
                           session_per_points=1)
    assert simple.fields["rule_box_bonus"].widget.attrs["placeholder"] == "0"
    # the variant's own target replaces the preset's: Oklahoma plays to 150
    oklahoma = GameStartForm(variant="oklahoma", count=2, player_names=["Ann", "Bob"],
                             session_rate=None, session_per_points=1)
    assert oklahoma.fields["rule_target"].widget.attrs["placeholder"] == "150"
    assert oklahoma.fields["rule_undercut_bonus"].widget.attrs["placeholder"] == "25"


@pytest.mark.django_db
def test_a_classic_game_started_empty_plays_what_the_form_showed(client, session, keeper):
    from django.urls import reverse

    for name in ("Ann", "Bob"):
        services.player_get_or_create(table=session.table, name=name)
    client.force_login(keeper)
    url = reverse("ledger:game_start", args=[session.pk, "gin", 2])
    refused = client.post(url, {"p1": "Ann", "p2": "", "first_dealer": "Ann",
                                "preset": "classic"})
    assert refused.status_code == 422
    import re

    page = refused.content.decode()
    field = re.search(r'<input[^>]*name="rule_undercut_bonus"[^>]*>', page).group(0)
    assert 'placeholder="10"' in field  # Standard's would be 25
    started = client.post(url, {"p1": "Ann", "p2": "Bob", "first_dealer": "Ann",
                                "preset": "classic"})
    assert started.status_code == 302
    rules = session.games.get().rules
    assert (rules["gin_bonus"], rules["undercut_bonus"], rules["box_bonus"]) == (20, 10, 20)


@pytest.mark.django_db
def test_a_setting_out_of_range_is_refused_at_its_field_in_the_cores_words(client, session,
                                                                           keeper):
    from django.urls import reverse

    for name in ("Ann", "Bob"):
        services.player_get_or_create(table=session.table, name=name)
    client.force_login(keeper)
    url = reverse("ledger:game_start", args=[session.pk, "gin", 2])
    response = client.post(url, {"p1": "Ann", "p2": "Bob", "first_dealer": "Ann",
                                 "preset": "standard", "rule_target": "-5",
                                 "rule_knock_limit": "99"})
    assert response.status_code == 422
    page = response.content.decode()
    assert 'id="id_rule_target_error"' in page and "-5 is out of range (1 to 100000)" in page
    assert "99 is out of range (0 to 98)" in page
    assert not session.games.exists()


def _phone_field(place: dict, problem: Problem, spec: dict) -> str:
    """The field the phone's ``fieldOf`` (static/ledger/queue/scoring.js) puts a problem
    at, from the places ``hand_making`` gives it."""
    if "field" in place:
        return place["field"]
    if place.get("round"):
        return f"pts_{spec['players'].index(problem.player)}"
    if "table" in place:
        return f"t1_{place['table']}"
    position = spec["duels"][0]["players"].index(problem.player)
    return (f"t1_c{position}", f"t1_cards{position}")[place["seat"]]


@pytest.mark.parametrize("spec", [
    duel_spec(("A", "X"), ("B", "Y"), upcard=True, cut_candidates=["X", "Y"],
              knock_card=True),
    {"rounds": True, "players": ["A", "B", "C", "D"], "contract": "two sets of 3"},
], ids=["tables", "rounds"])
def test_the_phone_and_the_server_put_a_problem_at_the_same_field(spec):
    """Both read the core's places (``PLAY_PLACES``, ``ROUND_PLACES``): for every field of
    the record a problem may name, the server's form (``add_problems``) and the phone's
    queue (``hand_making``'s places) put it at the same field of the form."""
    from ledger.forms.queue import hand_making
    from ledger.rules.schema import PLAY_PLACES, ROUND_PLACES

    form = HandForm({"key": str(uuid.uuid4()), "number": 1}, spec=spec)
    places = hand_making(form)["places"]
    core = ROUND_PLACES if spec.get("rounds") else PLAY_PLACES
    assert set(places) == set(core)
    for field, place in places.items():
        problem = Problem("tables_invalid", "wrong", hand=1, table=1, player="A", field=field)
        server, _ = form._place(problem)
        assert server == _phone_field(place, problem, spec), field
        assert server in form.fields, field
