"""Imports refuse what forms refuse (issue 18, item 9): a player named as one of the hand
form's values (``-draw-``, ``-nobody-``, in any case or width), the same JSON key twice in
one object (json.loads would keep the last one silently), an evening's date before 2000 or
more than a year ahead. Through the import commands (there is no import page) and the
services they call; nothing of a refused record is stored. The forms refuse the same."""

from __future__ import annotations

import datetime
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from django.utils import timezone

from ledger import cleaning, services
from ledger.exceptions import LedgerError
from ledger.models import Game, Hand, Player, Session, Table
from tests.refusing import refuses

from .book_scenario import renamed
from .conftest import DEMO_SESSION

pytestmark = pytest.mark.django_db

RESERVED = ["-draw-", "-nobody-", "-DRAW-", "\uff0ddraw\uff0d"]


def counts():
    return (Table.objects.count(), Session.objects.count(), Game.objects.count(),
            Hand.objects.count(), Player.objects.count())


def run(command: str, tmp_path, text: str) -> str:
    path = tmp_path / "record.json"
    path.write_text(text, encoding="utf-8")
    out = io.StringIO()
    call_command(command, str(path), stdout=out, stderr=io.StringIO())
    return out.getvalue()


def refused(command: str, tmp_path, text: str) -> str:
    before = counts()
    with pytest.raises(CommandError) as error:
        run(command, tmp_path, text)
    assert counts() == before
    assert "Nothing was stored." in str(error.value)
    return str(error.value)


def demo() -> dict:
    return json.loads(DEMO_SESSION.read_text())


# -- reserved names --------------------------------------------------------------------------

@pytest.mark.parametrize("name", RESERVED)
def test_import_game_refuses_a_reserved_player_name(tmp_path, name):
    record = renamed("gin-standard-game", {"A": name, "B": "Bob"})
    message = refused("import_game", tmp_path, json.dumps(record))
    assert "players[0]" in message and "is kept for the hand form" in message


@pytest.mark.parametrize("name", RESERVED)
def test_import_session_refuses_a_reserved_player_name(tmp_path, name):
    record = demo()
    record["players"][0] = name
    message = refused("import_session", tmp_path, json.dumps(record))
    assert "players[0]" in message and "is kept for the hand form" in message


def test_a_reserved_name_in_a_sessions_game_is_refused_too(tmp_path):
    record = demo()
    record["games"][0]["players"][0] = "-draw-"
    message = refused("import_session", tmp_path, json.dumps(record))
    assert "games[1]: players[0]" in message and "kept for the hand form" in message


def test_the_services_refuse_a_reserved_name_whoever_calls_them(table, session, keeper):
    with refuses(LedgerError, match="kept for the hand form"):
        services.player_get_or_create(table=table, name="-Draw-")
    with refuses(LedgerError, match="kept for the hand form"):
        services.game_import(session=session, imported_by=keeper,
                             record=renamed("gin-standard-game", {"A": "-draw-", "B": "Bob"}))
    assert not Player.objects.filter(table=table).exists()


def test_the_player_form_refuses_the_same_names(logged_in, table):
    for name in RESERVED:
        response = logged_in.post(reverse("ledger:table_detail", args=[table.pk]),
                                  {"add_player": "1", "name": name})
        assert "is kept for the hand form" in response.content.decode(), name
    assert not Player.objects.filter(table=table).exists()


# -- duplicate keys --------------------------------------------------------------------------

def test_import_game_refuses_a_key_given_twice(tmp_path):
    text = json.dumps(renamed("gin-standard-game", {"A": "Ann", "B": "Bob"}))
    twice = text.replace('"variant": "gin"', '"variant": "gin", "variant": "oklahoma"', 1)
    assert twice != text
    message = refused("import_game", tmp_path, twice)
    assert "the key 'variant' appears twice in one object" in message


def test_a_key_given_twice_inside_a_hand_is_refused(tmp_path):
    text = json.dumps(renamed("gin-standard-game", {"A": "Ann", "B": "Bob"}))
    twice = text.replace('"knocker": "Ann"', '"knocker": "Ann", "knocker": "Bob"', 1)
    message = refused("import_game", tmp_path, twice)
    assert "the key 'knocker' appears twice" in message


def test_import_session_refuses_a_key_given_twice(tmp_path):
    text = json.dumps(demo())
    twice = text.replace('"date": "2025-11-20"', '"date": "2025-11-20", "date": "2025-11-21"')
    message = refused("import_session", tmp_path, twice)
    assert "the key 'date' appears twice" in message


def test_load_json_keeps_equal_keys_in_different_objects():
    assert cleaning.load_json(b'{"a": {"x": 1}, "b": {"x": 2}}', where="f") == \
        {"a": {"x": 1}, "b": {"x": 2}}


# -- dates -----------------------------------------------------------------------------------

def far_ahead() -> str:
    return (timezone.localdate() + datetime.timedelta(days=400)).isoformat()


@pytest.mark.parametrize("date", ["9999-12-31", "1999-12-31", "0202-01-01", "far"])
def test_import_session_refuses_a_date_out_of_range(tmp_path, date):
    record = demo()
    record["date"] = far_ahead() if date == "far" else date
    message = refused("import_session", tmp_path, json.dumps(record))
    assert "date:" in message and "is not between Jan 1, 2000 and" in message


@pytest.mark.parametrize("date", ["2025-１１-20", "20", 20251120])
def test_import_session_refuses_a_date_written_oddly(tmp_path, date):
    record = demo()
    record["date"] = date
    message = refused("import_session", tmp_path, json.dumps(record))
    assert "date:" in message and "2025-11-21" in message


def test_import_session_takes_a_date_in_range(tmp_path):
    record = demo()
    record["date"] = "2000-01-01"
    pk = int(run("import_session", tmp_path, json.dumps(record)))
    assert Session.objects.get(pk=pk).date == datetime.date(2000, 1, 1)


def test_the_services_refuse_a_date_out_of_range(table, session):
    with refuses(LedgerError, match="not between Jan 1, 2000"):
        services.session_create(table=table, date=datetime.date(9999, 12, 31))
    with refuses(LedgerError, match="not between Jan 1, 2000"):
        services.session_change(session=session, date=datetime.date(1970, 1, 1))
    session.refresh_from_db()
    assert session.date == timezone.localdate()


@pytest.mark.parametrize("date", ["9999-12-31", "1999-12-31"])
def test_the_evening_form_refuses_the_same_dates(logged_in, table, date):
    response = logged_in.post(reverse("ledger:table_detail", args=[table.pk]), {
        "new_session": "1", "date": date, "currency": "USD", "rate": "", "per_points": "1"})
    assert "is not between Jan 1, 2000 and" in response.content.decode()
    assert not table.sessions.exists()
