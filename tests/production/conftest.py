"""The production settings as a club's server runs them: ``tablestakes.settings.prod`` with
the environment it requires, and the static files as ``collectstatic`` writes them for
WhiteNoise's manifest storage (hashed, compressed names) in a temporary STATIC_ROOT, made
once per test run and shared by the modules here."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HOST = "rummy.example.org"


def prod_env(**extra) -> dict:
    """A server's environment: this one without any DJANGO_* or TABLESTAKES_* variable, plus
    what tablestakes.settings.prod requires; ``None`` removes a variable."""
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("DJANGO_", "TABLESTAKES_"))}
    env.update(DJANGO_SETTINGS_MODULE="tablestakes.settings.prod",
               DJANGO_SECRET_KEY=secrets.token_urlsafe(50), DJANGO_ALLOWED_HOSTS=HOST,
               TABLESTAKES_PROXY_COUNT="1")
    env.update(extra)
    return {key: value for key, value in env.items() if value is not None}


def manage(*args, env: dict, timeout: int = 180) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="session")
def collected_static(tmp_path_factory) -> Path:
    """STATIC_ROOT after ``collectstatic`` under the production settings. The admin's files
    (Django's own, a third of the time) are left out; everything of the app and of
    django-htmx is there."""
    root = tmp_path_factory.mktemp("staticfiles")
    run = manage("collectstatic", "--noinput", "--ignore", "admin",
                 env=prod_env(DJANGO_STATIC_ROOT=str(root)))
    assert run.returncode == 0, run.stdout + run.stderr
    return root


@pytest.fixture(scope="session")
def static_manifest(collected_static) -> dict[str, str]:
    """WhiteNoise's manifest: source name -> hashed name."""
    return json.loads((collected_static / "staticfiles.json").read_text())["paths"]
