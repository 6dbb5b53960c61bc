"""One record schema, one policy for unknown keys (issue 20): ``manage.py score`` and
``manage.py import_game`` read every public case the same way when the record, its stakes,
its setup, each hand and each table carry keys the format does not have (a ``notes`` key
and others): both ignore them, so both accept or both refuse, and the imported game scores
to exactly what ``score`` printed."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ledger.models import Game
from ledger.rules.cli import run
from ledger.selectors import games as game_selectors

CASES_DIR = Path(__file__).resolve().parents[1] / "data"
CASES = sorted(p for p in CASES_DIR.glob("*.json") if not p.name.endswith(".expected.json"))
EXTRA = {"notes": "Played at Bea's; the cat sat on the discard pile.", "x-scorer": 7,
         "owner": "me", "flags": {"late": True}}


def with_unknown_keys(record: dict) -> dict:
    out = copy.deepcopy(record)
    if not isinstance(out, dict):
        return out
    out.update(EXTRA)
    for key in ("stakes", "setup"):
        if isinstance(out.get(key), dict):
            out[key]["notes"] = "unknown here too"
    for hand in out.get("hands") or []:
        if isinstance(hand, dict):
            hand.update(EXTRA)
            for table in hand.get("tables") or []:
                if isinstance(table, dict):
                    table["notes"] = "table 1 was slow"
    return out


def score(record: dict) -> tuple[int, dict | None, str]:
    out, err = io.StringIO(), io.StringIO()
    status = run(["-"], stdin=io.StringIO(json.dumps(record)), stdout=out, stderr=err)
    return status, (json.loads(out.getvalue()) if status == 0 else None), err.getvalue()


def import_game(record: dict, tmp_path: Path) -> tuple[Game | None, str]:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    try:
        call_command("import_game", str(path), stdout=io.StringIO(), stderr=io.StringIO())
    except CommandError as exc:
        return None, str(exc)
    return Game.objects.latest("pk"), ""


def test_the_cases_are_all_here():
    assert len(CASES) >= 18


@pytest.mark.django_db
@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_score_and_import_agree_with_unknown_keys(case, tmp_path):
    record = json.loads(case.read_text())
    plain_status, plain, _ = score(record)
    noted = with_unknown_keys(record)
    status, result, errors = score(noted)
    assert status == plain_status, errors
    game, refusal = import_game(noted, tmp_path)
    if status != 0:
        assert game is None, f"score refused ({errors.strip()}) but the import stored it"
        return
    assert refusal == "", refusal
    assert result == plain  # the unknown keys changed nothing in the result
    stored = game_selectors.score(game_selectors.game_record(game))
    for key in ("variant", "players", "totals", "complete", "winner", "money", "payments",
                "abandoned", "facts", "stats"):
        assert stored[key] == result[key], key
    assert [h["points"] for h in stored["hands"]] == [h["points"] for h in result["hands"]]


def test_an_unknown_key_is_ignored_by_the_hand_service(session, keeper):
    from ledger import services

    game = services.game_start(session=session, variant="gin", players=["Ann", "Bob"],
                               started_by=keeper, setup={"first_dealer": "Bob"})
    outcome = services.hand_record(
        game=game, entry={"knocker": "Ann", "deadwood": {"Ann": 5, "Bob": 17},
                          "notes": "a long one"},
        recorded_by=keeper, idempotency_key=__import__("uuid").uuid4())
    assert outcome.created
    assert outcome.result["hands"][0]["points"] == {"Ann": 12, "Bob": 0}
