"""docs/tablestakes.service, the supervisor the README's club section installs (issue 38):
gunicorn with gunicorn.conf.py, brought back when it fails."""

from __future__ import annotations

import configparser
import shutil
import subprocess

import pytest

from .conftest import ROOT

UNIT = ROOT / "docs" / "tablestakes.service"


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # systemd's keys are case-sensitive
    parser.read_string(UNIT.read_text())
    return parser


def test_the_unit_restarts_gunicorn_with_the_club_settings():
    service = unit()["Service"]
    assert service["Restart"] == "on-failure" and service["RestartSec"] == "5"
    assert service["ExecStart"].endswith(
        "/.venv/bin/gunicorn -c gunicorn.conf.py tablestakes.wsgi:application")
    assert service["Type"] == "notify"  # gunicorn says READY=1 once it listens
    assert service["EnvironmentFile"] == "/etc/tablestakes/env"
    assert "docs/tablestakes.service" in (ROOT / "README.md").read_text()


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="no systemd-analyze")
def test_systemd_reads_the_unit(tmp_path):
    """systemd's own reader, with the paths of this checkout: no unknown key, no key in the
    wrong section."""
    copy = tmp_path / "tablestakes.service"
    copy.write_text(UNIT.read_text().replace("/srv/tablestakes", str(ROOT)))
    run = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0 and run.stderr.strip() == "", run.stderr
