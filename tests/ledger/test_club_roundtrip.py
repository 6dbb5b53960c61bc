"""The club formats' records (tests/data/club: streets, club boxes and knock cards, straight
gin, best of N with its lump sum) through import_game and export_game: export -> import ->
export gives identical JSON, and the stored game scores to the sample's numbers."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ledger.models import Game
from ledger.selectors.games import game_result

from .conftest import DATA

pytestmark = pytest.mark.django_db

CLUB = DATA / "club"
CASES = sorted(path.stem for path in CLUB.glob("*.json")
               if not path.stem.endswith(".expected") and not path.stem.startswith("bad-"))


def run(command, *args) -> str:
    out = io.StringIO()
    call_command(command, *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


@pytest.mark.parametrize("name", CASES)
def test_club_round_trip_is_identical(name, tmp_path):
    game_id = run("import_game", str(CLUB / f"{name}.json"))
    first = run("export_game", game_id)
    path = tmp_path / "first.json"
    path.write_text(first)
    assert run("export_game", run("import_game", str(path))) == first
    record, given = json.loads(first), json.loads((CLUB / f"{name}.json").read_text())
    assert record["hands"] == given["hands"]  # knock cards and target changes kept
    assert record["stakes"] == {**given["stakes"], **record["stakes"]}
    expected = json.loads((CLUB / f"{name}.expected.json").read_text())
    result = game_result(Game.objects.get(pk=int(game_id)))
    for key in ("money", "complete", "winner", "game_points", "match"):
        if key in expected:
            assert result[key] == expected[key], key


def test_the_lump_sum_stake_is_stored_and_written_back():
    game_id = run("import_game", str(CLUB / "straight-best-of-seven.json"))
    assert str(Game.objects.get(pk=int(game_id)).lump_sum_stake) == "10.0000"
    assert json.loads(run("export_game", game_id))["stakes"]["lump_sum_stake"] == "10.00"


def test_a_knock_in_straight_gin_is_refused_on_import():
    with pytest.raises(CommandError, match="hand 3: knocker deadwood 4 is above the knock "
                                           "limit 0: only gin ends a hand"):
        run("import_game", str(CLUB / "bad-straight-gin-knock.json"))
    assert not Game.objects.exists()
