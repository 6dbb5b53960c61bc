"""Fixtures of the ledger tests: accounts, a table, a session, and the game records in tests/data/
(copied from the shared cases so the project's tests need nothing outside it)."""

from __future__ import annotations

import copy
import json
import uuid
from pathlib import Path

import pytest

from ledger import services

DATA = Path(__file__).resolve().parents[1] / "data"
ROOT = Path(__file__).resolve().parents[2]
DEMO_SESSION = ROOT / "fixtures" / "demo_session.json"


def load_case(name: str) -> dict:
    return json.loads((DATA / f"{name}.json").read_text())


def load_expected(name: str) -> dict:
    return json.loads((DATA / f"{name}.expected.json").read_text())


def key() -> uuid.UUID:
    return uuid.uuid4()


@pytest.fixture
def other_keeper(django_user_model):
    return django_user_model.objects.create_user("other", password="pw")


@pytest.fixture
def table(keeper):
    return services.table_create(name="Friday", scorekeepers=[keeper])


@pytest.fixture
def session(table, keeper):
    return services.session_create(table=table, currency="USD", rate="0.01", created_by=keeper)


@pytest.fixture
def case():
    """A fresh copy of a case record: case("gin-standard-game")."""
    return lambda name: copy.deepcopy(load_case(name))


def start_empty(session, keeper, record: dict):
    """Start the game of ``record`` with no hands (its hands are to be recorded one by one)."""
    stakes = record.get("stakes") or {}
    return services.game_start(
        session=session, variant=record["variant"], players=record["players"],
        started_by=keeper, preset=record.get("preset", ""), rules=record.get("rules"),
        setup=record.get("setup"), rate=stakes.get("rate"),
        per_points=stakes.get("per_points"), ante=stakes.get("ante"),
        player_stakes=stakes.get("players"),
    )
