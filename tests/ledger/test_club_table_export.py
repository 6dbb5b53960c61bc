"""The club formats' games in a whole table's export (issue 40): a table holding every
club record of tests/data/club (streets with a target change, club boxes with a doubled
deal, straight gin, a best-of match with its lump sum), settled, exported with
``export_table``, imported into an empty server with ``import_table`` and exported again:
the same document, the same book, and each game scores as its sample says."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from ledger import services
from ledger.book.export import table_export
from ledger.book.selectors import book_json, table_books
from ledger.models import Game, Session, Table
from ledger.selectors.games import game_result

from .conftest import DATA
from .test_table_export import _check_deferred, wipe_everything

pytestmark = pytest.mark.django_db

CLUB = DATA / "club"
SAMPLES = sorted(path.stem for path in CLUB.glob("*.json")
                 if not path.stem.endswith(".expected") and not path.stem.startswith("bad-"))


def test_a_table_of_club_games_exports_imports_and_exports_the_same(table, session, keeper,
                                                                    tmp_path):
    for name in SAMPLES:
        record = json.loads((CLUB / f"{name}.json").read_text())
        services.game_import(session=session, record=record, imported_by=keeper)
    services.session_settle(session=session, settled_by=keeper)
    path = tmp_path / "club.json"
    call_command("export_table", table.pk, output=str(path))
    document = json.loads(path.read_text())
    books = book_json(table_books(table))
    variants = sorted(g["variant"] for s in document["sessions"] for g in s["games"])
    assert variants == ["gin", "gin", "partnership", "streets", "streets"]
    wipe_everything()
    call_command("import_table", str(path), same_accounts=True)
    _check_deferred()
    (again,) = Table.objects.all()
    assert table_export(again) == document
    assert book_json(table_books(again)) == books
    for game in Game.objects.filter(session__table=again):
        result = game_result(game)
        name = next(n for n in SAMPLES
                    if json.loads((CLUB / f"{n}.json").read_text())["hands"]
                    == [h["entry"] for h in game_export_hands(document, game.sequence)])
        expected = json.loads((CLUB / f"{name}.expected.json").read_text())
        for key in ("money", "winner", "game_points", "match"):
            if key in expected:
                assert result[key] == expected[key], (name, key)


def game_export_hands(document: dict, sequence: int) -> list[dict]:
    (game,) = [g for s in document["sessions"] for g in s["games"] if g["sequence"] == sequence]
    return [h for h in game["hands"] if not h["voided_at"]]


def test_a_document_written_before_the_lump_sum_stake_still_imports(table, session, keeper,
                                                                     tmp_path):
    record = json.loads((CLUB / "streets-game.json").read_text())
    services.game_import(session=session, record=record, imported_by=keeper)
    document = table_export(table)
    for s in document["sessions"]:
        for g in s["games"]:
            assert g.pop("lump_sum_stake") is None
    path = tmp_path / "old.json"
    path.write_text(json.dumps(document))
    wipe_everything()
    call_command("import_table", str(path), same_accounts=True)
    (again,) = Table.objects.all()
    (game,) = Game.objects.filter(session__table=again)
    assert game.lump_sum_stake is None
    assert game_result(game)["game_points"] == {"WE": 1100, "THEY": -1100}


def test_an_evening_of_club_games_exports_imports_and_exports_the_same(session, keeper,
                                                                       tmp_path):
    for name in SAMPLES:
        record = json.loads((CLUB / f"{name}.json").read_text())
        services.game_import(session=session, record=record, imported_by=keeper)
    first = tmp_path / "first.json"
    call_command("export_session", session.pk, output=str(first))
    out = io.StringIO()
    call_command("import_session", str(first), stdout=out)
    (copy,) = [s for s in Session.objects.all() if s.pk != session.pk]
    second = tmp_path / "second.json"
    call_command("export_session", copy.pk, output=str(second))
    assert json.loads(second.read_text()) == json.loads(first.read_text())
    games = json.loads(first.read_text())["games"]
    assert [g["stakes"].get("lump_sum_stake") for g in games].count("10.00") == 1
    assert any(h.get("knock_card") == "7S" for g in games for h in g["hands"])
    assert any(h.get("target") == 75 for g in games for h in g["hands"])
