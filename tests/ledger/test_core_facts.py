"""The core says every fact of a game (issue 20): the result carries a play's ``doubled``,
the game's ``facts`` and each player's ``stats``; the screens and the book read them; the
hand form leaves the rules to the core, whose problems land at the fields."""

from __future__ import annotations

import html
import json
import re
import uuid
from pathlib import Path

import pytest
from django.urls import reverse

from ledger import services
from ledger.book.stats import standings_from_result
from ledger.forms.start import slots_for
from ledger.models import Hand
from ledger.presentation.catalog import game_facts
from ledger.rules import score_record
from ledger.selectors.games import game_result

DATA = Path(__file__).resolve().parents[1] / "data"


def case(name: str) -> dict:
    return score_record(json.loads((DATA / f"{name}.json").read_text()))


@pytest.mark.parametrize(("variant", "players", "want"), [
    ("gin", 2, {"tables": 1, "table_game": False, "lower_wins": False, "stake": "rate",
                "ante_staked": False, "roles_vary": False, "hand_noun": "Hand",
                "setup": "first_dealer", "layout": "duel", "upcard": False}),
    ("oklahoma", 2, {"upcard": True, "layout": "duel", "roles_vary": False}),
    ("hollywood", 2, {"columns": True, "layout": "hollywood"}),
    ("box", 3, {"roles_vary": True, "setup": "seats", "dealer_rule": False,
                "hand_roles": ("box", "captain", "sits_out"), "sides": False}),
    ("captain", 3, {"tables": 1, "table_game": False, "roles_vary": True, "sides": True,
                    "named_sides": False, "hand_roles": ("sits_out",), "layout": "captain"}),
    ("captain", 5, {"tables": 2, "table_game": True, "setup": "captain_tables",
                    "layout": "tables", "dealer_rule": False}),
    ("captain", 7, {"tables": 3, "table_game": True, "max_tables": 3}),
    ("partnership", 4, {"tables": 2, "table_game": True, "named_sides": True,
                        "setup": "sides", "roles_vary": True}),
    ("partnership", 6, {"tables": 3, "ante_staked": False}),
    ("cap-it", 4, {"lower_wins": True, "stake": "ante", "ante_staked": True, "presets": False,
                   "rounds": True, "hand_noun": "Round", "cards_entry": False, "layout": "capit",
                   "roles_vary": False}),
])
def test_game_facts(variant, players, want):
    facts = game_facts(variant, players)
    assert {key: getattr(facts, key) for key in want} == want
    assert len(facts.seats) == players


def test_no_facts_for_a_game_the_rules_do_not_have():
    with pytest.raises(ValueError):
        game_facts("captain", 4)
    with pytest.raises(ValueError):
        game_facts("rummy", 2)


def test_the_setup_seats_are_the_cores():
    assert slots_for("box", 3) == [("p1", "High card: in the box"),
                                   ("p2", "Middle card: captain"), ("p3", "Low card: sits out")]
    assert [seat.role for seat in game_facts("box", 3).seats] == ["box", "captain", "sits_out"]
    assert slots_for("captain", 5)[-1] == ("sitter", "Black Ace: sits out")
    assert [s.table for s in game_facts("partnership", 6).seats] == [1, 2, 3, 1, 2, 3]


def test_the_result_carries_its_facts_and_whether_it_takes_more_hands():
    done = case("gin-standard-game")
    assert done["complete"] is True
    assert done["facts"]["accepts_hands"] is False
    assert done["facts"]["hand_noun"] == "Hand" and done["facts"]["variant"] == "gin"
    record = json.loads((DATA / "gin-standard-game.json").read_text())
    record["hands"] = record["hands"][:1]
    assert score_record(record)["facts"]["accepts_hands"] is True
    record["abandoned"] = True
    assert score_record(record)["facts"]["accepts_hands"] is False
    assert case("cap-it-pot")["facts"]["lower_wins"] is True


def test_a_spade_up_card_doubles_the_hand_in_the_result():
    result = case("oklahoma-spades")
    spades = [hand for hand in result["hands"] if (hand.get("upcard") or "").endswith("S")]
    assert spades and all(hand["doubled"] for hand in spades if hand["result"] != "draw")
    others = [hand for hand in result["hands"] if hand.get("knocker")
              and not hand["upcard"].endswith("S")]
    assert all(hand["doubled"] is False for hand in others)
    assert case("gin-standard-game")["hands"][0]["doubled"] is False


@pytest.mark.parametrize("name", ["gin-standard-game", "box-rotation", "captain-three",
                                  "captain-five-money", "cap-it-pot", "hollywood-columns",
                                  "lower-amount-prevails-red-wins"])
def test_the_book_copies_the_cores_play_counts(name):
    result = case(name)
    book = standings_from_result(result, ended=True)
    for player, counted in result["stats"].items():
        for field, value in counted.items():
            assert book[player][field] == value, (player, field)
    # the same numbers when a stored result has no stats (counted by the same function)
    plain = {key: value for key, value in result.items() if key != "stats"}
    assert standings_from_result(plain, ended=True) == book


def test_captain_five_counts_each_table():
    result = case("captain-five-money")
    plays = sum(1 for hand in result["hands"] for table in hand["tables"]
                if table.get("winner"))
    assert sum(s["hands_won"] for s in result["stats"].values()) == plays > 0


# -- the hand form: the core's problems at the fields -----------------------------------------

KNOCKER = "5H 6H 7H QS QD QC 8C 8D 8S 3D"
OPPONENT = "9C 9S 9D 4H 8H QH KD 2C 5S AS"


def field_error(response, field: str) -> str:
    match = re.search(rf'id="id_{field}_error"[^>]*>([^<]*)</p>', response.content.decode())
    assert match, f"no error at {field}"
    return html.unescape(match.group(1))


@pytest.fixture
def gin_game(session, keeper):
    return services.game_start(session=session, variant="gin", players=["Ann", "Bob"],
                               started_by=keeper, setup={"first_dealer": "Bob"})


def post(client, game, **fields):
    data = {"key": str(uuid.uuid4()), "number": 1, "t1_knocker": "Ann", "t1_kind": "knock",
            "t1_c0": "", "t1_c1": "", "t1_cards0": "", "t1_cards1": ""}
    data.update(fields)
    return client.post(reverse("ledger:hand_create", args=[game.pk]), data)


def test_a_gin_with_deadwood_is_refused_by_the_core_at_the_count(logged_in, gin_game):
    response = post(logged_in, gin_game, t1_kind="gin", t1_c0="3", t1_c1="20")
    assert response.status_code == 422
    assert field_error(response, "t1_c0") == (
        "a gin has no deadwood, but the knocker Ann counted 3")
    assert not Hand.objects.filter(game=gin_game).exists()
    # a gin with its count left empty or 0 records as before
    response = post(logged_in, gin_game, t1_kind="gin", t1_c0="", t1_c1="20")
    assert response.status_code == 302
    assert Hand.objects.get(game=gin_game).entry == {"knocker": "Ann",
                                                     "deadwood": {"Ann": 0, "Bob": 20}}
    assert game_result(gin_game)["hands"][0]["points"]["Ann"] == 45


def test_a_card_in_both_hands_is_the_cores_problem_at_the_second_hand(logged_in, gin_game):
    twice = OPPONENT.replace("AS", "3D")
    response = post(logged_in, gin_game, t1_cards0=KNOCKER, t1_cards1=twice)
    assert response.status_code == 422
    assert field_error(response, "t1_cards1") == '"3D" is in both hands: Ann\'s and Bob\'s'
    assert not Hand.objects.filter(game=gin_game).exists()


def test_the_core_finds_a_card_in_both_hands_of_any_size():
    from ledger.rules.cards import parse_cards, shared_card

    assert str(shared_card(parse_cards("AS 2S 9D"), parse_cards("KH 9D 2S"))) == "2S"
    assert shared_card(parse_cards("AS 2S"), parse_cards("KH")) is None
