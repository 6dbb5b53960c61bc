"""Issue 18, item 2: no request of one account holds a worker on names.

Players per table and per imported record, names per form and bytes per field are limits
(``ledger/limits.py``); each refusal names the field and stores nothing; and below the limits
checking n names costs n look-ups (counted here), not n² comparisons as before (a "new table"
with 3,000 names ran 30 s, an import of 10,000 players 411 s)."""

from __future__ import annotations

import copy
import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from ledger import cleaning, limits, services
from ledger.cleaning import text as cleaning_text
from ledger.exceptions import LedgerError, RecordRefused
from ledger.forms.tables import TableForm
from ledger.models import Player, Session, Table
from ledger.presentation.refusals import refusal_words
from tests.refusing import refuses

from .conftest import load_case

pytestmark = pytest.mark.django_db


def test_the_defaults(settings):
    assert (settings.TABLESTAKES_MAX_PLAYERS_PER_TABLE, settings.TABLESTAKES_MAX_RECORD_PLAYERS,
            settings.TABLESTAKES_MAX_NAMES_PER_REQUEST,
            settings.TABLESTAKES_MAX_FIELD_BYTES) == (200, 50, 50, 16384)


@pytest.fixture
def count_keys(monkeypatch):
    """How many times a name's key is computed (every module that compares names)."""
    calls = {"n": 0}
    real = cleaning_text.name_key

    def counted(name):
        calls["n"] += 1
        return real(name)

    import ledger.cleaning.records
    import ledger.forms.tables
    import ledger.services.tables
    for module in (cleaning_text, cleaning, ledger.cleaning.records, ledger.forms.tables):
        monkeypatch.setattr(module, "name_key", counted)
    monkeypatch.setattr(ledger.services.tables.cleaning, "name_key", counted)
    return calls


# -- the "new table" form ----------------------------------------------------------------------

def test_3000_names_are_refused_at_the_players_field_and_nothing_is_stored(logged_in):
    names = "\n".join(f"Player number {i}" for i in range(3000))  # 50 KB as in the audit
    response = logged_in.post(reverse("ledger:home"), {"name": "Big", "players": names})
    assert response.status_code == 422
    errors = response.context["form"].errors
    assert list(errors) == ["players"]
    assert "bytes long; at most 16,384 bytes" in errors["players"][0]
    assert not Table.objects.exists() and not Player.objects.exists()


def test_too_many_short_names_are_refused_before_any_is_read(logged_in, count_keys):
    names = ",".join(f"P{i}" for i in range(1000))  # 5 KB: under the bytes limit
    response = logged_in.post(reverse("ledger:home"), {"name": "Big", "players": names})
    assert response.status_code == 422
    assert response.context["form"].errors["players"] == [
        "Players: 1,000 names at once; at most 50 here. Add the others later on the table's "
        "page."]
    assert count_keys["n"] == 0
    assert not Table.objects.exists()


def test_fifty_names_make_the_table(logged_in):
    names = "\n".join(f"Player {i}" for i in range(50))
    response = logged_in.post(reverse("ledger:home"), {"name": "Fifty", "players": names})
    assert response.status_code == 302
    table = Table.objects.get(name="Fifty")
    assert sorted(table.players.values_list("name", flat=True)) == sorted(
        f"Player {i}" for i in range(50))


def test_the_name_check_is_linear(settings, count_keys):
    settings.TABLESTAKES_MAX_NAMES_PER_REQUEST = 2000
    settings.TABLESTAKES_MAX_PLAYERS_PER_TABLE = 2000
    settings.TABLESTAKES_MAX_FIELD_BYTES = 10 ** 6
    names = [f"Player {i}" for i in range(2000)]
    form = TableForm({"name": "Big", "players": "\n".join(names)})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["players"] == names
    assert count_keys["n"] == len(names)  # one key per name; quadratic was ~4,000,000


def test_the_same_person_twice_is_still_refused(settings):
    form = TableForm({"name": "T", "players": "Ann\nBob\nＡnn"})
    assert not form.is_valid()
    assert form.errors["players"] == ["Ａnn is listed twice (as Ann)."]
    form = TableForm({"name": "T", "players": "Ann, Bob, Ann"})
    assert not form.is_valid()
    assert form.errors["players"] == ["Ann is listed twice."]


def test_name_key_keeps_its_meaning_on_the_ascii_fast_path():
    assert cleaning.name_key("  Ann   Lee ") == cleaning.name_key("ann lee") == "ann lee"
    assert cleaning.name_key("Ａnn\u200b") == cleaning.name_key("ANN") == "ann"
    assert cleaning.name_key("Ann\tLee") == "ann lee"


# -- bytes per field ---------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["x" * 16385, "é" * 8193])
def test_a_field_above_the_bytes_limit_is_refused_at_its_field(logged_in, text):
    response = logged_in.post(reverse("ledger:home"), {"name": text, "players": "Ann"})
    assert response.status_code == 422
    errors = response.context["form"].errors
    assert errors["name"] == ["Table name is 16,386 bytes long; at most 16,384 bytes here."] \
        if text[0] == "é" else ["Table name is 16,385 bytes long; at most 16,384 bytes here."]
    assert not Table.objects.exists()


def test_the_bytes_limit_follows_its_setting(settings):
    settings.TABLESTAKES_MAX_FIELD_BYTES = 10
    assert limits.field_bytes_problem("Name", "x" * 10) is None
    assert limits.field_bytes_problem("Name", "ééééé") is None  # 10 bytes
    assert refusal_words(limits.field_bytes_problem("Name", "éééééx")) == \
        "Name is 11 bytes long; at most 10 bytes here."


# -- players per table -------------------------------------------------------------------------

def test_the_table_page_refuses_a_player_beyond_the_limit(settings, logged_in, table):
    settings.TABLESTAKES_MAX_PLAYERS_PER_TABLE = 3
    services.players_get_or_create(table=table, names=["Ann", "Bob", "Cy"])
    response = logged_in.post(reverse("ledger:table_detail", args=[table.pk]),
                              {"add_player": "1", "name": "Dee"})
    assert response.status_code in (200, 422)
    assert response.context["player_form"].errors["name"] == [
        "The table Friday would have 4 players; a table has at most 3 here (archived players "
        "count). Start another table for the others."]
    assert sorted(table.players.values_list("name", flat=True)) == ["Ann", "Bob", "Cy"]
    # a player already at the table is found, not counted again
    assert services.player_get_or_create(table=table, name="Ann").name == "Ann"


def test_players_beyond_the_limit_are_refused_all_or_nothing(settings, table):
    settings.TABLESTAKES_MAX_PLAYERS_PER_TABLE = 3
    services.player_add(table=table, name="Ann")
    with pytest.raises(limits.LimitReached):
        services.players_get_or_create(table=table, names=["Ann", "Bob", "Cy", "Dee"])
    assert list(table.players.values_list("name", flat=True)) == ["Ann"]
    services.players_get_or_create(table=table, names=["Bob", "Cy"])
    with pytest.raises(limits.LimitReached):
        services.player_add(table=table, name="Dee")
    assert table.players.count() == 3


def test_players_get_or_create_is_linear_and_keeps_the_clash_rule(
        settings, table, count_keys, django_assert_max_num_queries):
    settings.TABLESTAKES_MAX_PLAYERS_PER_TABLE = 3000
    services.players_get_or_create(table=table, names=[f"Old {i}" for i in range(1000)])
    count_keys["n"] = 0
    names = [f"New {i}" for i in range(1000)] + ["Old 5"]
    with django_assert_max_num_queries(12):  # not one per name (1,001 names)
        players = services.players_get_or_create(table=table, names=names)
    assert [player.name for player in players] == names
    assert all(player.pk for player in players)
    assert count_keys["n"] == 1000 + 1000  # the table's names once, then each new one
    with refuses(LedgerError, match="Old 7 already plays at this table: OLD 7 differs"):
        services.players_get_or_create(table=table, names=["Brand new", "OLD 7"])
    assert not table.players.filter(name="Brand new").exists()


# -- players per imported record ---------------------------------------------------------------

def _session_record(players: int) -> dict:
    return {"format": "tablestakes.session/1", "table": "Big", "date": "2025-11-21",
            "currency": "USD", "players": [f"Player {i}" for i in range(players)],
            "games": []}


def test_a_record_of_10000_players_is_refused_before_any_name_is_read(count_keys):
    with pytest.raises(RecordRefused) as refused:
        services.session_import(record=_session_record(10_000))
    assert refused.value.problems == [
        "players: 10,000 players listed; a record lists at most 50 here "
        "(TABLESTAKES_MAX_RECORD_PLAYERS)"]
    assert count_keys["n"] == 0
    assert not Table.objects.exists() and not Session.objects.exists()


def test_import_session_says_so_and_stores_nothing(tmp_path):
    path = tmp_path / "big.json"
    path.write_text(json.dumps(_session_record(51)))
    with pytest.raises(CommandError) as refused:
        call_command("import_session", str(path), stdout=io.StringIO())
    assert "players: 51 players listed; a record lists at most 50" in str(refused.value)
    assert "Nothing was stored." in str(refused.value)
    assert not Table.objects.exists()


def test_a_game_record_with_too_many_players_is_refused(settings, session):
    settings.TABLESTAKES_MAX_RECORD_PLAYERS = 1
    record = copy.deepcopy(load_case("gin-standard-game"))
    with pytest.raises(RecordRefused) as refused:
        services.game_import(session=session, record=record)
    assert refused.value.problems == [
        "players: 2 players listed; a record lists at most 1 here "
        "(TABLESTAKES_MAX_RECORD_PLAYERS)"]
    assert not session.games.exists()


def test_below_the_limit_a_big_record_is_checked_in_linear_time(settings, count_keys):
    settings.TABLESTAKES_MAX_RECORD_PLAYERS = 3000
    settings.TABLESTAKES_MAX_PLAYERS_PER_TABLE = 3000
    session = services.session_import(record=_session_record(3000))
    assert session.table.players.count() == 3000
    assert count_keys["n"] == 2 * 3000  # once in the record check, once at the table
