"""The knock card picked once for a deal on the partnership and streets hand form (RULES 3.7),
sent as the deal's ``knock_card`` and scored by the core (the knock limit of every table)."""

from __future__ import annotations

import json
import uuid

import pytest

from ledger.forms import next_hand_form
from ledger.rules import score_record
from tests.rules.helpers import DATA


def _result(hands=2):
    record = json.loads((DATA / "club" / "streets-game.json").read_text())
    record["hands"] = record["hands"][:hands]
    return record, score_record(record)


def _post(result, **extra):
    tables = result["next"]["tables"]
    data = {"key": str(uuid.uuid4()), "number": str(len(result["hands"]) + 1)}
    for i, table in enumerate(tables, start=1):
        a, b = table["players"]
        data.update({f"t{i}_knocker": a, f"t{i}_kind": "knock", f"t{i}_c0": "3",
                     f"t{i}_c1": "20"})
    data.update(extra)
    return data


def test_the_knock_card_goes_with_the_deal():
    record, result = _result()
    assert result["facts"]["knock_card"] is True
    form = next_hand_form(result, _post(result, kc_rank="5", kc_suit="S"))
    assert "kc_rank" in form.fields
    assert form.is_valid(), form.errors
    entry = form.entry()
    assert entry["knock_card"] == "5S"
    record["hands"].append(entry)
    scored = score_record(record)["hands"][-1]
    assert (scored["knock_card"], scored["knock_limit"], scored["doubled"]) == ("5S", 5, True)


def test_no_knock_card_no_key():
    _, result = _result()
    form = next_hand_form(result, _post(result))
    assert form.is_valid(), form.errors
    assert "knock_card" not in form.entry()


def test_a_rank_without_a_suit_is_asked_for():
    _, result = _result()
    form = next_hand_form(result, _post(result, kc_rank="5"))
    assert not form.is_valid()
    assert form.errors["kc_suit"] == ["Tap the knock card's suit."]


@pytest.mark.parametrize("variant", ["gin", "oklahoma"])
def test_other_games_have_no_knock_card(variant):
    record = {"format": "tablestakes.game/1", "variant": variant, "players": ["A", "B"],
              "setup": {"first_dealer": "A"}, "hands": []}
    result = score_record(record)
    assert result["facts"]["knock_card"] is False
    assert "kc_rank" not in next_hand_form(result).fields
