"""Issue 39 part 3: the game page's presentation lives in ``ledger/presentation/``. The hand
form's spec is the presentation's ``HandSpec``, made without the variant; one
``next_hand_form`` makes the form of the hand the game is at; the page and a Save's parts
come from one ``GamePage``; the confirmation questions are words, reading nothing."""

from __future__ import annotations

import ast
import datetime
import inspect
from pathlib import Path

import pytest

from ledger.forms import next_hand_form
from ledger.forms.fields import DRAW
from ledger.presentation import questions
from ledger.presentation.game_page import GamePage, hand_spec, next_hand_spec
from ledger.selectors.games import game_result
from ledger.views.game_context import load_game
from tests.e2e.phone_games import next_entry, play, start
from tests.factories import gin_game

pytestmark = pytest.mark.django_db

VIEWS = Path(__file__).resolve().parents[2] / "ledger" / "views"


def test_the_hand_spec_is_made_from_the_result_alone(session, keeper):
    assert list(inspect.signature(hand_spec).parameters) == ["result", "info"]
    game = start(session, keeper, "captain7")  # captains Sal Vic Ann, opponents Bo Cy Di
    result = play(game, keeper, 2)
    spec = next_hand_spec(result)
    tables = result["next"]["tables"]
    assert len(tables) == 3 and spec["tables"] is True and spec["rounds"] is False
    assert [duel["players"] for duel in spec["duels"]] == [
        list(t["players"] if isinstance(t, dict) else t) for t in tables]
    assert [duel["label"] for duel in spec["duels"]] == ["Table 1", "Table 2", "Table 3"]
    # the opponents may have to cut: the three of them who play this hand
    playing = {name for duel in spec["duels"] for name in duel["players"]}
    assert set(spec["cut_candidates"]) == playing & {"Bo", "Cy", "Di", "Ed"}
    assert len(spec["cut_candidates"]) == 3


def test_next_hand_form_asks_for_the_hand_the_game_is_at(session, keeper):
    game = start(session, keeper, "captain7")
    result = play(game, keeper, 2)
    form = next_hand_form(result, number=3)
    assert form.initial["number"] == 3 and form.initial["key"]
    for i, duel in enumerate(next_hand_spec(result)["duels"], start=1):
        a, b = duel["players"]
        assert [value for value, _ in form.fields[f"t{i}_knocker"].choices] == [a, b, DRAW]
    # a hand just undone comes back in the form, its counts at its players' places
    entry = next_entry(game, 2, result=result)
    again = next_hand_form(result, number=3, again=entry)
    first = entry["tables"][0]
    assert again.initial["t1_knocker"] == first["knocker"]
    a, b = next_hand_spec(result)["duels"][0]["players"]
    assert again.initial["t1_c0"] == str(first["deadwood"][a])
    assert again.initial["t1_c1"] == str(first["deadwood"][b])
    # a form sent: the same spec, its data read
    sent = next_hand_form(result, {"t1_knocker": a})
    assert sent.spec == next_hand_spec(result) and sent.data["t1_knocker"] == a


def test_the_page_and_a_save_come_from_one_view_model(session, keeper):
    game = gin_game(session, keeper, hands=[
        {"knocker": "Ann", "deadwood": {"Ann": 3, "Bob": 20}},
        {"knocker": "Bob", "deadwood": {"Bob": 0, "Ann": 12}}])
    result, history = load_game(game)
    page = GamePage.of(game, result, history=history, owner=True)
    whole, saved = page.context(), page.saved("Hand 2 saved.", whole=True,
                                              last=game.live_hands[-1])
    # Ann's knock of 3 against 20 is 17 to her; Bob's gin on 12 is 12 + the gin bonus
    gin_bonus = result["rules"]["gin_bonus"]
    assert {s.label: s.value for s in whole["scoreboard"]} == {"Ann": 17, "Bob": 12 + gin_bonus}
    for key in ("scoreboard", "panel", "chart", "view", "keys", "last_number", "target"):
        assert whole[key] is saved[key] or whole[key] == saved[key], key
    assert whole["panel"]["number"] == 3 and whole["last_number"] == 2
    assert saved["undo_question"]["title"] == "Undo hand 2?"
    assert saved["abandon_question"]["id"] == "confirm-abandon"
    assert saved["delete_question"] is None and saved["saved_text"] == "Hand 2 saved."


def test_the_questions_read_nothing(session, keeper, django_assert_num_queries):
    game = gin_game(session, keeper, hands=[{"knocker": "Ann",
                                             "deadwood": {"Ann": 3, "Bob": 20}}])
    result = game_result(game)
    last = game.hands.get(number=1)
    game.session.place = ""
    # one query: the settled evening's own number that day (the model's number_suffix);
    # neither the hands nor today's evenings are read
    with django_assert_num_queries(1):
        assert questions.undo_question(game, result, last=None) is None
        undo = questions.undo_question(game, result, last=last)
        rematch = questions.rematch_question(game, ["Ann", "Bob"],
                                             today=datetime.date(2026, 11, 20), number=2)
    assert undo["fields"] == {"number": 1} and undo["button"] == "Undo hand 1"
    assert rematch["words"][1] == (
        "Same players again opens a new evening, Friday, November 20, 2026 (2), in USD with "
        "the same stakes, and starts its game 1: Ann, Bob.")


def _views() -> list[tuple[str, ast.Module]]:
    return [(path.name, ast.parse(path.read_text())) for path in sorted(VIEWS.glob("*.py"))]


def test_no_view_words_a_question_or_makes_the_next_hands_spec():
    questions_made, forms = [], []
    for name, tree in _views():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.endswith("_question"):
                questions_made.append(f"{name}: {node.name}")
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "HandForm"):
                forms.append(name)
    assert questions_made == []
    # the one HandForm a view makes itself corrects a recorded hand; the next hand's form
    # is next_hand_form's
    assert forms == ["corrections.py", "corrections.py"]
