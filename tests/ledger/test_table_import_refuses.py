"""import_table refuses hostile or broken documents with a message naming the place and
the reason, and stores nothing (docs/table-export.md, "What an import refuses")."""

from __future__ import annotations

import copy
import io
import json
import time

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from ledger import services
from ledger.book.export import table_export
from ledger.models import Hand, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def document(keeper, case):
    """A small table: one evening, a gin game with a correction, settled, a payment paid."""
    table = services.table_create(name="Tuesday", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="USD", rate="0.01",
                                      place="Bea's", created_by=keeper)
    record = case("gin-standard-game")
    game = services.game_import(session=session, record=record, imported_by=keeper)
    services.hand_correct(hand=game.hands.get(number=1), entry=record["hands"][0],
                          corrected_by=keeper, reason="typed twice")
    settled = services.session_settle(session=session, settled_by=keeper)
    services.settlement_payment_mark_paid(payment=settled.payments.first(), paid_by=keeper)
    doc = table_export(table)
    services.table_rename(table=table, name="Tuesday (old)", renamed_by=keeper)
    return doc


def _game(doc):
    return doc["sessions"][0]["games"][0]


def _payment(doc):
    return doc["sessions"][0]["settlements"][0]["payments"][0]


def _post(doc):
    return [b for b in _game(doc)["batches"] if b["kind"] == "post"][-1]


def _set(path_fn, key, value):
    def change(doc):
        path_fn(doc)[key] = value
    return change


def _deep(doc):
    entry: dict = {"knocker": "A"}
    inner = entry
    for _ in range(30):
        inner["deadwood"] = {"x": {}}
        inner = inner["deadwood"]["x"]
    _game(doc)["hands"][0]["entry"] = entry


def _forge_money(doc):
    for posting in _post(doc)["postings"]:
        posting["amount_minor"] += 100 if posting["amount_minor"] > 0 else -100


def _unbalanced_nets(doc):
    nets = doc["sessions"][0]["settlements"][0]["nets"]
    first = next(iter(nets))
    nets[first] += 1


CASES = [
    ("format", _set(lambda d: d, "format", "tablestakes.table/9"),
     "format: expected 'tablestakes.table/1'"),
    ("missing", lambda d: d["players"][0].pop("created_at"),
     "players[0]: the field 'created_at' is missing"),
    ("unknown", _set(_game, "evil", 1), "sessions[0].games[0]: 'evil' is not a field"),
    ("reserved", _set(lambda d: d["players"][0], "name", "-draw-"),
     "players[0].name: '-draw-' is kept for the hand form"),
    ("twin", lambda d: d["players"][1].update(name=d["players"][0]["name"].upper()),
     "players[1].name: 'A' is another player's name again"),
    ("far date", _set(lambda d: d["sessions"][0], "date", "9999-12-31"),
     "sessions[0].date: 9999-12-31 is outside 1900-01-01 to 2999-12-31"),
    ("moment", _set(lambda d: _game(d)["hands"][0], "recorded_at", "yesterday"),
     "sessions[0].games[0].hands[0].recorded_at: 'yesterday' is not a moment"),
    ("dangling", _set(lambda d: _game(d)["hands"][-1], "replaces", 999),
     "sessions[0].games[0].hands[" ),
    ("money", _forge_money, "differs from the score of its hands"),
    ("nets", _unbalanced_nets, "sessions[0].settlements[0].nets: they sum to 1, not 0"),
    ("paid mark", _set(_payment, "paid_at", None),
     "payments[0]: paid_at and paid_by must repeat its latest paid mark"),
    ("NUL", _set(lambda d: d["sessions"][0], "place", "Bea\x00s"), "a NUL character"),
    ("deep", _deep, "nested too deeply"),
    ("status", _set(_game, "status", "in_progress"),
     "sessions[0].games[0].status: its hands make it complete, not in_progress"),
    ("big number", _set(lambda d: _post(d)["postings"][0], "amount_minor", 2 ** 60),
     "amount_minor: 1152921504606846976 is not between"),
    ("same id", lambda d: d["players"][1].update(id=d["players"][0]["id"]),
     "players[1].id: player 1 appears twice"),
    ("username", lambda d: d["accounts"][0].update(username="a b; DROP"),
     "accounts[0].username: 'a b; DROP' is not a username"),
    ("stake", _set(lambda d: d["sessions"][0], "rate", "1e3"),
     "sessions[0].rate: '1e3' is not an amount"),
    ("live gap", lambda d: _game(d)["hands"].pop(), "the live hands are numbered"),
    ("no keeper", lambda d: d["table"]["scorekeepers"].__setitem__(0, None),
     "table.scorekeepers[0]: None is not one of the document's accounts"),
    ("unvoided twin", _set(lambda d: _game(d)["hands"][0], "voided_at", None),
     "sessions[0].games[0]"),
]


@pytest.mark.parametrize("name,change,message", CASES, ids=[c[0] for c in CASES])
def test_refused_with_the_place_and_nothing_stored(document, tmp_path, name, change, message):
    doc = copy.deepcopy(document)
    change(doc)
    path = tmp_path / "table.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    before = (Table.objects.count(), get_user_model().objects.count(), Hand.objects.count())
    with pytest.raises(CommandError) as refused:
        call_command("import_table", str(path), same_accounts=True)
    text = str(refused.value)
    assert message in text and text.endswith("Nothing was stored."), text
    assert (Table.objects.count(), get_user_model().objects.count(),
            Hand.objects.count()) == before


def test_the_document_itself_refused(tmp_path, settings):
    path = tmp_path / "t.json"
    for content, message in ((b"\xff\xfe{", "not UTF-8"), (b"[1, 2]", "must be a JSON object"),
                             (b'{"format": NaN}', "NaN"), (b"{", "not valid JSON"),
                             (b'{"format": "a", "format": "b"}',
                              "the key 'format' appears twice in one object")):
        path.write_bytes(content)
        with pytest.raises(CommandError, match=message):
            call_command("import_table", str(path))
    settings.TABLESTAKES_MAX_TABLE_IMPORT_BYTES = 1000
    path.write_bytes(b" " * 1001)
    with pytest.raises(CommandError, match="1,001 bytes.*TABLESTAKES_MAX_TABLE_IMPORT_BYTES"):
        call_command("import_table", str(path))


def test_ten_thousand_players_are_refused_at_once(document, tmp_path, settings):
    settings.TABLESTAKES_MAX_PLAYERS_PER_TABLE = 1000
    doc = copy.deepcopy(document)
    stamp = doc["players"][0]["created_at"]
    doc["players"] = [{"id": n, "name": f"P{n}", "created_at": stamp, "archived_at": None}
                      for n in range(1, 10_001)]
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc))
    start = time.perf_counter()
    with pytest.raises(CommandError, match=r"players: 10,000 entries; at most 1,000"):
        call_command("import_table", str(path))
    assert time.perf_counter() - start < 2


def test_names_are_compared_in_linear_time(document, settings):
    """1,000 players whose last name is the first's written in capitals: found without
    comparing every pair (the old record check took seconds for this)."""
    from ledger.cleaning.table_record import table_document_problems
    from ledger.selectors.table_rows import ROW_KINDS

    doc = copy.deepcopy(document)
    stamp = doc["players"][0]["created_at"]
    doc["players"] = [{"id": n, "name": f"Player {n}", "created_at": stamp,
                       "archived_at": None} for n in range(1, 1000)]
    doc["players"].append({"id": 1000, "name": "PLAYER 1", "created_at": stamp,
                           "archived_at": None})
    start = time.perf_counter()
    problems = table_document_problems(doc, kinds=ROW_KINDS, max_players=1000, max_hands=500)
    assert time.perf_counter() - start < 1
    assert problems == ["players[999].name: 'PLAYER 1' is another player's name again (names "
                        "that differ only in capitals, width or spaces are the same)"]


def test_a_good_document_still_imports(document, tmp_path, capsys):
    """The fixture's document is not refused for some other reason (the cases above each
    break one thing). On the server it came from, its hands' submission keys are taken:
    the copy gets new ones, and everything else is the same."""
    path = tmp_path / "t.json"
    path.write_text(json.dumps(document))
    call_command("import_table", str(path), keeper=["keeper=keeper"])
    assert "already had 8 of the hands' submission keys" in capsys.readouterr().err
    table = Table.objects.get(name="Tuesday")
    again, original = table_export(table), copy.deepcopy(document)
    for doc in (again, original):
        for hand in doc["sessions"][0]["games"][0]["hands"]:
            hand["idempotency_key"] = None
    assert again == original
    assert again["sessions"][0]["games"][0]["hands"][0]["void_reason"] == "typed twice"
    assert table.sessions.get().settlements.get().payments.filter(paid_at__isnull=False) \
        .count() == 1


def test_text_is_taken_as_stored(keeper, case, tmp_path):
    """A reason cut at 300 characters may end in a space (the hand's void reason, the
    batch's memo): the document carries it and the import keeps it, not refused."""
    table = services.table_create(name="Cut", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="USD", rate="0.01",
                                      created_by=keeper)
    record = case("gin-standard-game")
    game = services.game_import(session=session, record=record, imported_by=keeper)
    services.hand_correct(hand=game.hands.get(number=1), entry=record["hands"][0],
                          corrected_by=keeper, reason="x" * 299 + " and more")
    doc = table_export(table)
    voided = [h for h in _game(doc)["hands"] if h["voided_at"]][0]
    assert voided["void_reason"].endswith("x ") and len(voided["void_reason"]) == 300
    services.table_rename(table=table, name="Cut (old)", renamed_by=keeper)
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc))
    call_command("import_table", str(path), same_accounts=True)
    again = table_export(Table.objects.get(name="Cut"))
    assert [h["void_reason"] for h in _game(again)["hands"]] == \
        [h["void_reason"] for h in _game(doc)["hands"]]


def _leaves(value, path=()):
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _leaves(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _leaves(inner, (*path, index))
    if path:
        yield path


@pytest.mark.parametrize("hostile", [None, [], "x"], ids=["null", "list", "text"])
def test_any_field_replaced_is_stored_or_refused_never_a_crash(document, tmp_path, hostile):
    """Every place of the document (about 240) replaced in turn by a value of the wrong
    kind: the import stores the table or refuses it (CommandError, nothing stored); no other
    exception (a null scorekeeper was a KeyError)."""
    path = tmp_path / "table.json"
    crashes = []
    for place in _leaves(document):
        doc = copy.deepcopy(document)
        inner = doc
        for step in place[:-1]:
            inner = inner[step]
        inner[place[-1]] = hostile
        path.write_text(json.dumps(doc), encoding="utf-8")
        try:
            call_command("import_table", str(path), same_accounts=True, stdout=io.StringIO())
        except CommandError:
            pass
        except Exception as exc:  # noqa: BLE001 - the test lists every crash
            crashes.append((place, type(exc).__name__, str(exc)[:80]))
    assert crashes == []
