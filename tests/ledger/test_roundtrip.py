"""import_game / export_game / import_session / export_session: all or nothing, and
export -> import -> export gives identical JSON."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ledger.models import Game, Hand, Session
from ledger.selectors.games import game_result

from .conftest import DATA, DEMO_SESSION, load_expected

pytestmark = pytest.mark.django_db

CASES = sorted(
    path.stem for path in DATA.glob("*.json")
    if not path.stem.endswith(".expected") and not path.stem.startswith("bad-")
)


def run(command, *args) -> str:
    out = io.StringIO()
    call_command(command, *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


@pytest.mark.parametrize("name", CASES)
def test_game_round_trip_is_identical(name, tmp_path):
    game_id = run("import_game", str(DATA / f"{name}.json"))
    first = run("export_game", game_id)
    path = tmp_path / "first.json"
    path.write_text(first)
    second = run("export_game", run("import_game", str(path)))
    assert second == first
    # The stored game scores to the record's expected numbers.
    expected = load_expected(name)
    result = game_result(Game.objects.get(pk=int(game_id)))
    for key in ("money", "complete", "winner"):
        if key in expected:
            assert result[key] == expected[key], key


def test_export_keeps_the_key_order_of_the_format(tmp_path):
    game_id = run("import_game", str(DATA / "gin-standard-game.json"))
    record = json.loads(run("export_game", game_id))
    assert list(record) == ["format", "variant", "preset", "rules", "players", "stakes",
                            "setup", "abandoned", "hands"]
    assert record["hands"] == json.loads((DATA / "gin-standard-game.json").read_text())["hands"]


def test_import_is_all_or_nothing():
    with pytest.raises(CommandError, match="hand 2: knocker deadwood 12 is above"):
        run("import_game", str(DATA / "bad-knock-above-limit.json"))
    assert not Game.objects.exists() and not Hand.objects.exists()
    assert not Session.objects.exists()


def test_session_round_trip_is_identical(tmp_path):
    session_id = run("import_session", str(DEMO_SESSION))
    first = run("export_session", session_id)
    path = tmp_path / "session.json"
    path.write_text(first)
    again = run("import_session", str(path))
    assert run("export_session", again) == first
    assert json.loads(first)["players"] == ["Ann", "Bob", "Carla", "Dev", "Eve", "Finn"]


def test_settled_session_round_trip_keeps_payments_and_paid_marks(tmp_path, keeper):
    from ledger import services

    session = services.session_import(record=json.loads(DEMO_SESSION.read_text()))
    settlement = services.session_settle(session=session, settled_by=keeper)
    services.settlement_payment_mark_paid(payment=settlement.payments.first(), paid_by=keeper)
    first = run("export_session", str(session.pk))
    assert json.loads(first)["settlement"]["payments"][0]["paid"] is True
    path = tmp_path / "settled.json"
    path.write_text(first)
    assert run("export_session", run("import_session", str(path))) == first


def test_session_import_refusal_names_the_game(tmp_path):
    record = json.loads(DEMO_SESSION.read_text())
    record["games"][1]["hands"][0]["deadwood"]["Carla"] = 13
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    with pytest.raises(CommandError, match=r"games\[2\]: hand 1: "):
        run("import_session", str(path))
    assert not Session.objects.exists()
