"""The table document's kinds of row are declared once (``selectors.table_rows.ROW_KINDS``):
every model that holds a table's history is the model of exactly one kind, a new kind is
one entry (written and stored by the same exporter and importer as the others), and a file
from before a kind was (no list of it) still imports."""

from __future__ import annotations

import copy
import dataclasses

import pytest
from django.apps import apps

from ledger import services
from ledger.book.export import table_export
from ledger.cleaning.table_record import Shape
from ledger.exceptions import RecordRefused
from ledger.models import Player, Table
from ledger.presentation.problems import plain_line
from ledger.selectors import table_rows
from ledger.selectors.table_rows import LAST, ROW_KINDS, Item, RowKind
from ledger.services.table_import import table_import

#: Ledger models that are not a table's history: the table itself (the document's head),
#: the standings (a cache, computed again on import) and what belongs to an account.
NOT_ROWS = {"Table", "GameStanding", "EveningStanding", "AccountPreference", "RenderSlot"}


def test_every_model_with_history_is_exactly_one_kind():
    models = [kind.model.__name__ for kind in ROW_KINDS]
    assert len(models) == len(set(models))
    ledger = {model.__name__ for model in apps.get_app_config("ledger").get_models()}
    assert set(models) == ledger - NOT_ROWS
    assert len({kind.name for kind in ROW_KINDS}) == len(ROW_KINDS)
    names = [kind.name for kind in ROW_KINDS]
    for kind in ROW_KINDS:  # a parent is declared before its children
        assert kind.parent is None or names.index(kind.parent) < names.index(kind.name)


def _table(keeper) -> Table:
    table = services.table_create(name="Toy", scorekeepers=[keeper])
    session = services.session_create(table=table, date="2026-01-08", created_by=keeper)
    game = services.game_start(session=session, variant="gin", players=["Ann", "Bob"],
                               started_by=keeper, setup={"first_dealer": "Bob"})
    services.hand_record(game=game, entry={"knocker": "Ann", "deadwood": {"Ann": 5, "Bob": 17}},
                         recorded_by=keeper, idempotency_key="6c0d3b1e-5e51-4b8e-9d7f-1e1e1e1e1e1e")
    return table


def _nickname_row(item: Item, reader) -> Player:
    return Player(table=reader.table, name=f"{item.data['nickname']} (again)")


#: A kind the document does not have: each player again, by nickname, stored last.
NICKNAMES = RowKind("nickname", "nicknames", Player, "table",
                    dump=lambda row, w: {"nickname": row.name.lower()}, build=_nickname_row,
                    shape=Shape(lambda c: {"id": lambda v, w: c.row_id("nickname", v, w),
                                           "nickname": lambda v, w: c.text(v, w, max_length=20)}),
                    phase=LAST)


@pytest.mark.django_db
def test_a_new_kind_of_row_is_one_entry(keeper, monkeypatch):
    table = _table(keeper)
    monkeypatch.setattr(table_rows, "ROW_KINDS", (*ROW_KINDS, NICKNAMES))
    document = table_export(table)
    # written after the other lists, with its ids, by the exporter that writes all of them
    assert list(document)[-1] == "nicknames"
    assert document["nicknames"] == [{"id": 1, "nickname": "ann"},
                                     {"id": 2, "nickname": "bob"}]
    assert document["players"][0]["name"] == "Ann"
    # checked and stored by the importer that checks and stores all of them
    bad = copy.deepcopy(document)
    bad["nicknames"][1]["nickname"] = "x" * 21
    with pytest.raises(RecordRefused) as refused:
        table_import(document=bad, name="Toy copy", same_accounts=True)
    assert [plain_line(problem) for problem in refused.value.details] == [
        "nicknames[1].nickname is 21 characters long; at most 20"]
    done = table_import(document=document, name="Toy copy", same_accounts=True)
    assert sorted(done.table.players.values_list("name", flat=True)) == [
        "Ann", "Bob", "ann (again)", "bob (again)"]
    assert done.rows == {"player": 2, "session": 1, "game": 1, "hand": 1, "batch": 0,
                         "settlement": 0}


@pytest.mark.django_db
def test_without_the_new_kind_the_document_is_as_it_was(keeper):
    document = table_export(_table(keeper))
    assert list(document) == ["format", "table", "accounts", "players", "sessions",
                              "book_settlements", "share_links", "report_links"]
    game = document["sessions"][0]["games"][0]
    assert list(game)[-4:] == ["seats", "hands", "changes", "batches"]
    assert game["seats"] == [{"player": 1, "played_as": "Ann", "stake": None},
                             {"player": 2, "played_as": "Bob", "stake": None}]
    assert game["hands"][0]["idempotency_key"] == "6c0d3b1e-5e51-4b8e-9d7f-1e1e1e1e1e1e"


@pytest.mark.django_db
def test_a_file_from_before_report_links_still_imports(keeper):
    table = _table(keeper)
    document = table_export(table)
    del document["report_links"]
    done = table_import(document=document, name="Older", same_accounts=True)
    again = table_export(done.table)
    assert again["report_links"] == []
    assert again["sessions"][0]["games"][0]["hands"][0]["entry"] == \
        document["sessions"][0]["games"][0]["hands"][0]["entry"]


def test_kinds_are_frozen_declarations():
    with pytest.raises(dataclasses.FrozenInstanceError):
        ROW_KINDS[0].key = "people"  # type: ignore[misc]
