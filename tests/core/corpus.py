"""The records the phone's core is checked on against the server's: every public case in
tests/data, and records of every variant played out by tests/scoresheets/playout.py
(finished and in progress), each also spoilt in a few ways (a hand too many, a float for
money, a stranger at the table, no setup), so that refusals are compared as well as
results. The reference is what ``manage.py score -`` prints (ledger.rules.cli.run, in this
process)."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path

from tests.scoresheets.playout import NAMES, play

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"

#: (variant, players) of every variant the core knows, at the counts the club plays.
VARIANTS = [("gin", 2), ("oklahoma", 2), ("hollywood", 2), ("box", 3),
            ("captain", 3), ("captain", 5), ("captain", 7), ("partnership", 4),
            ("partnership", 6), ("cap-it", 4), ("cap-it", 6)]


def _stakes(variant: str) -> dict:
    if variant == "cap-it":
        return {"ante": "2.50", "currency": "EUR"}
    return {"rate": "0.05", "per_points": 1, "currency": "EUR"}


def _spoilt(record: dict) -> list[tuple[str, dict]]:
    more = copy.deepcopy(record)
    if more["hands"]:
        more["hands"].append(copy.deepcopy(more["hands"][-1]))
    floats = copy.deepcopy(record)
    floats["stakes"] = {key: (float(value) if key in ("rate", "ante") else value)
                        for key, value in floats["stakes"].items()}
    stranger = json.loads(json.dumps(record).replace(json.dumps(record["players"][0]),
                                                     json.dumps("A. Stranger")))
    stranger["players"] = record["players"]
    no_setup = copy.deepcopy(record)
    del no_setup["setup"]
    return [("hand-too-many", more), ("float-money", floats), ("stranger", stranger),
            ("no-setup", no_setup)]


def records() -> list[tuple[str, str]]:
    """(name, JSON text) of every record of the corpus."""
    paths = sorted(DATA.glob("*.json")) + sorted((DATA / "club").glob("*.json"))  # the clubs'
    out = [(path.stem, path.read_text(encoding="utf-8")) for path in paths
           if not path.name.endswith(".expected.json")]
    for variant, count in VARIANTS:
        for hands in (None, 3):
            record = play(variant, NAMES[:count], stakes=_stakes(variant), rules={},
                          hands=hands, seed=count, big=False)
            name = f"{variant}-{count}-{'over' if hands is None else 'running'}"
            out.append((name, json.dumps(record, ensure_ascii=False)))
            out += [(f"{name}-{how}", json.dumps(bad, ensure_ascii=False))
                    for how, bad in _spoilt(record)]
    return out


def reference(text: str) -> dict:
    """What ``manage.py score -`` does with ``text``: its exit code, standard output and
    standard error's lines (the worker's answer has the same fields)."""
    from ledger.rules.cli import run

    out, err = io.StringIO(), io.StringIO()
    code = run(["-"], stdin=io.StringIO(text), stdout=out, stderr=err)
    return {"exit": code, "json": out.getvalue() if code == 0 else None,
            "problems": err.getvalue().rstrip("\n").split("\n") if err.getvalue() else []}
