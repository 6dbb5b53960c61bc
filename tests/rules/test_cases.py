"""The public game-record cases (copied from ../shared/cases into tests/data), checked
the way ../shared/tools/check-records checks them, through ``manage.py score``."""

import json
import subprocess
import sys
from decimal import Decimal, InvalidOperation
from pathlib import Path

import pytest

from .helpers import DATA

ROOT = Path(__file__).resolve().parents[2]
CASES = sorted(p for p in DATA.glob("*.json") if not p.name.endswith(".expected.json"))


def same(want, got):
    if isinstance(want, str) and isinstance(got, str):
        try:
            return Decimal(want) == Decimal(got)
        except InvalidOperation:
            return want == got
    if isinstance(want, bool) or isinstance(got, bool):
        return want is got
    return want == got


def diff(want, got, path="$"):
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return [f"{path}: expected an object"]
        return [line for key, value in want.items()
                for line in ([f"{path}.{key}: missing"] if key not in got
                             else diff(value, got[key], f"{path}.{key}"))]
    if isinstance(want, list):
        if not isinstance(got, list) or len(got) < len(want):
            return [f"{path}: expected a list of at least {len(want)}"]
        return [line for i, value in enumerate(want) for line in diff(value, got[i],
                                                                      f"{path}[{i}]")]
    return [] if same(want, got) else [f"{path}: expected {want!r}, got {got!r}"]


def score(path: Path):
    return subprocess.run([sys.executable, "manage.py", "score", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_public_case(case):
    want = json.loads(case.with_name(case.stem + ".expected.json").read_text())
    run = score(case)
    if "error" in want:
        assert run.returncode != 0
        hand = want["error"].get("hand")
        if hand is not None:
            assert f"hand {hand}" in run.stderr
        assert run.stdout == ""
    else:
        assert run.returncode == 0, run.stderr
        assert diff(want, json.loads(run.stdout)) == []


def test_score_reads_standard_input():
    record = (DATA / "gin-standard-game.json").read_text()
    run = subprocess.run([sys.executable, "manage.py", "score", "-"], cwd=ROOT, input=record,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0
    assert json.loads(run.stdout)["money"] == {"A": "2.02", "B": "-2.02"}


def test_score_refuses_with_one_line_per_problem(tmp_path):
    record = json.loads((DATA / "gin-standard-game.json").read_text())
    record["stakes"]["rate"] = 0.01
    record["rules"] = {"gin_bonnus": 20}
    record["hands"][1]["deadwood"]["A"] = 120
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    run = score(path)
    assert run.returncode == 1
    assert run.stderr.splitlines() == [
        "rules.gin_bonnus: unknown setting",
        "stakes.rate: money must be a decimal string like \"0.01\", not the number 0.01",
    ]


def test_score_refuses_a_hand_problem(tmp_path):
    record = json.loads((DATA / "gin-standard-game.json").read_text())
    record["hands"][1]["deadwood"]["A"] = 120
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    run = score(path)
    assert run.returncode == 1
    assert run.stderr.splitlines() == [
        "hand 2: deadwood.A: 120 is above 98, the most a 10-card hand can hold"]


def test_score_refuses_what_is_not_json(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{nope")
    run = score(path)
    assert run.returncode == 1 and "not valid JSON" in run.stderr
    run = score(tmp_path / "missing.json")
    assert run.returncode == 1 and "No such file" in run.stderr


def test_score_through_call_command(capsys):
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("score", str(DATA / "box-rotation.json"), stdout=out)
    assert json.loads(out.getvalue())["money"] == {"P": "1.55", "Q": "-1.63", "R": "0.08"}
