"""The browser's own logic, tested without a browser: the offline queue's sender (a state
machine), store, lock, list and form schema (static/ledger/queue/), tested by
``tests/js/*.test.mjs`` under
Node's own test runner, ``node --test``. No npm package is needed. Skipped only where Node
is missing and CI is not set; on CI a missing Node fails."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNITS = sorted((ROOT / "tests" / "js").glob("*.test.mjs"))


def test_there_are_js_unit_tests():
    assert [p.relative_to(ROOT).as_posix() for p in UNITS] == [
        "tests/js/queue.test.mjs", "tests/js/scoring.test.mjs"]


def test_node_test_passes():
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("node is not installed; the JavaScript unit tests cannot run")
        pytest.skip("node is not installed")
    run = subprocess.run([node, "--test", *map(str, UNITS)], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "# fail 0" in run.stdout
    passed = int(next(line for line in run.stdout.splitlines()
                      if line.startswith("# pass ")).split()[-1])
    assert passed >= 15, run.stdout[-2000:]
