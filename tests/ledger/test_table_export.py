"""A whole table out and back in (export_table / import_table, docs/table-export.md).

Three tables with every kind of history row (tests/ledger/table_history.py) are exported,
the database is emptied (ledger and accounts), the documents imported, and exported again:
the documents are identical (every hand with the voided ones, every change, batch, posting,
settlement, void, paid mark, book settlement and share link, with their times and their
order), and so are the books. Runs on SQLite and on PostgreSQL (where the history triggers
check the inserted rows, deferred ones included)."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection

from ledger.book.export import table_export
from ledger.book.selectors import book_json, table_books
from ledger.management.commands.backup_summary import summary
from ledger.models import (
    BookSettlement,
    GameChange,
    Hand,
    PaymentMark,
    SettlementVoid,
    ShareLink,
    Table,
)

from .table_history import build_tables

pytestmark = pytest.mark.django_db


def _check_deferred():
    """What COMMIT would check on PostgreSQL (the deferred constraint triggers), now."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")


def wipe_everything():
    """An empty server: every ledger row and every account gone (raw SQL: the models and
    PostgreSQL's triggers refuse deleting history; TRUNCATE fires no row trigger)."""
    from django.apps import apps

    tables = [model._meta.db_table for model in apps.get_app_config("ledger").get_models()]
    tables += [Table.scorekeepers.through._meta.db_table, get_user_model()._meta.db_table]
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute(f"TRUNCATE {', '.join(quote(t) for t in tables)} CASCADE")
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")  # as in a fresh transaction
        else:  # foreign keys are checked at commit, and the test never commits
            for name in tables:
                cursor.execute(f"DELETE FROM {quote(name)}")


@pytest.fixture
def tables(keeper, django_user_model):
    other = django_user_model.objects.create_user("other", password="pw", first_name="Olga",
                                                  last_name="Ortiz")
    return build_tables(keeper, other)


def _export_files(tables, tmp_path) -> dict[str, tuple]:
    out = {}
    for table in tables:
        path = tmp_path / f"table-{table.pk}.json"
        call_command("export_table", table.pk, output=str(path))
        out[table.name] = (path, json.loads(path.read_text()), book_json(table_books(table)))
    return out


def _rows(doc: dict, *path: str) -> int:
    """How many rows of one kind a document holds (e.g. "games", "hands")."""
    total = 0
    for session in doc["sessions"]:
        if path == ("settlements",):
            total += len(session["settlements"])
        for game in session["games"]:
            if path and path[0] in game:
                total += len(game[path[0]])
    return total


def test_the_data_set_has_every_kind_of_history(tables):
    friday = table_export(tables[0])
    hands = [h for s in friday["sessions"] for g in s["games"] for h in g["hands"]]
    assert len([h for h in hands if h["voided_at"]]) == 2  # a correction and an undo
    assert len([h for h in hands if h["replaces"]]) == 1
    assert {c["kind"] for s in friday["sessions"] for g in s["games"]
            for c in g["changes"]} == {"rule", "stake", "abandon"}
    batches = [b for s in friday["sessions"] for g in s["games"] for b in g["batches"]]
    assert {b["kind"] for b in batches} == {"post", "reversal"}
    settlements = [st for s in friday["sessions"] for st in s["settlements"]]
    assert len(settlements) == 4 and len([st for st in settlements if st["void"]]) == 1
    marks = [m for st in settlements for p in st["payments"] for m in p["marks"]]
    assert [m["paid"] for m in marks].count(False) == 1 and len(marks) >= 4
    assert len(friday["book_settlements"]) == 1 and friday["book_settlements"][0]["cleared"]
    assert [link["revoked_at"] is None for link in friday["share_links"]] == \
        [False, True, True]
    assert [p["name"] for p in friday["players"] if p["archived_at"]] == ["Dora"]
    assert {p["name"] for p in friday["players"]} == {"Ann", "Bob", "Cyril", "Dora"}
    mardi = table_export(tables[2])
    assert {s["currency"] for s in mardi["sessions"]} == {"EUR"}
    # who reported what (issue 38.7): the links, revoked ones too, their reports (replaced,
    # withdrawn, kept with the saved hand) and the confirm link's answer
    links = mardi["report_links"]
    assert [(link["part"], link["revoked_at"] is None) for link in links] == [
        (99, True), (1, False), (2, False), (3, False), (1, True), (2, True), (3, True)]
    reports = [r for link in links for r in link["reports"]]
    assert [(r["table"], r["replaced_at"] is not None, r["withdrawn_at"] is not None,
             r["hand"] is not None) for r in sorted(reports, key=lambda r: r["id"])] == [
        (1, True, False, True), (3, False, True, True), (1, False, False, True),
        (2, False, False, True), (3, False, False, True)]
    assert [r["replaces"] for r in sorted(reports, key=lambda r: r["id"])] == [
        None, None, 1, None, None]
    assert [(a["player"], a["correct"]) for a in links[0]["confirmations"]] == [
        ("Yann", True)]


def test_round_trip_into_an_empty_server_keeps_every_row_and_every_book(tables, tmp_path,
                                                                        capsys):
    files = _export_files(tables, tmp_path)
    counts_before = {name: value for name, value in summary()["rows"].items()}
    history_before = (Hand.objects.count(), GameChange.objects.count(),
                      PaymentMark.objects.count(), SettlementVoid.objects.count(),
                      BookSettlement.objects.count(), ShareLink.objects.count())
    wipe_everything()
    assert Table.objects.count() == 0 and get_user_model().objects.count() == 0

    for path, _, _ in files.values():  # the accounts the first import made are theirs
        call_command("import_table", str(path), same_accounts=True)
    _check_deferred()
    err = capsys.readouterr().err
    assert "New accounts without a password" in err and "keeper" in err

    assert Table.objects.count() == 3
    for table in Table.objects.all():
        _, document, books = files[table.name]
        again = table_export(table)
        assert again == document, table.name
        assert book_json(table_books(table)) == books
    assert (Hand.objects.count(), GameChange.objects.count(), PaymentMark.objects.count(),
            SettlementVoid.objects.count(), BookSettlement.objects.count(),
            ShareLink.objects.count()) == history_before
    assert summary()["rows"] == counts_before  # the standings caches too
    users = get_user_model().objects.order_by("username")
    assert [(u.username, u.has_usable_password()) for u in users] == [
        ("keeper", False), ("other", False)]
    assert users.get(username="other").get_full_name() == "Olga Ortiz"


def test_a_copy_on_the_same_server_gets_new_keys_and_tokens(tables, tmp_path, capsys,
                                                             django_user_model):
    friday = tables[0]
    path = tmp_path / "friday.json"
    call_command("export_table", friday.pk, output=str(path))
    with pytest.raises(Exception, match="already keeps a table called 'Friday'"):
        call_command("import_table", str(path), keeper=["keeper=keeper"])
    django_user_model.objects.create_user("newkeeper")
    call_command("import_table", str(path), name="Friday (copy)",
                 keeper=["keeper=keeper", "newkeeper"])
    _check_deferred()
    copy = Table.objects.get(name="Friday (copy)")
    assert "got new ones" in capsys.readouterr().err
    assert book_json(table_books(copy))[0]["players"] == \
        book_json(table_books(friday))[0]["players"]
    mine, theirs = table_export(friday), table_export(copy)
    assert sorted(theirs["table"]["scorekeepers"]) == ["keeper", "newkeeper"]
    for doc in (mine, theirs):
        doc["table"] = None
        doc["accounts"] = None
        for link in doc["share_links"]:
            link["token"] = None
        for session in doc["sessions"]:
            for game in session["games"]:
                for hand in game["hands"]:
                    hand["idempotency_key"] = None
    assert mine == theirs
    # the copy's live table link opens the copy, the original's still the original
    live = ShareLink.objects.filter(revoked_at__isnull=True, game__isnull=True)
    assert sorted(link.table_id for link in live) == sorted([friday.pk, copy.pk])


def test_an_account_of_the_same_name_is_not_taken_without_saying_so(tables, tmp_path, capsys,
                                                                   django_user_model):
    """Issue 38.7: import_table gave the table (and whatever the account did in it) to any
    account of this server with the same username, without a word. Now each such account
    is mapped (--keeper OLD=NEW) or nothing is stored."""
    path = tmp_path / "friday.json"
    call_command("export_table", tables[0].pk, output=str(path))
    before = (Table.objects.count(), django_user_model.objects.count())
    for options, message in (
            ({}, "This server already has an account called keeper: a username alone does "
                 "not say it is the same person. Say whose history goes to which account "
                 "(--keeper keeper=keeper: to that account; --keeper keeper=OTHER: to "
                 "another one; --same-accounts: each to the account of its name).\n"
                 "Nothing was stored."),
            ({"keeper": ["keeper=nobody"]},
             "--keeper keeper=nobody: this server has no account called 'nobody'."),
            ({"keeper": ["ghost=keeper"]},
             "'ghost' is not an account of the document (its accounts: keeper).")):
        with pytest.raises(CommandError) as refused:
            call_command("import_table", str(path), name="Friday (theirs)", **options)
        assert message in str(refused.value)
    assert (Table.objects.count(), django_user_model.objects.count()) == before
    django_user_model.objects.create_user("newkeeper")
    call_command("import_table", str(path), name="Friday (theirs)",
                 keeper=["keeper=newkeeper"])
    assert "New accounts" not in capsys.readouterr().err
    theirs = Table.objects.get(name="Friday (theirs)")
    assert [u.username for u in theirs.scorekeepers.all()] == ["newkeeper"]
    document = table_export(theirs)
    assert [a["username"] for a in document["accounts"]] == ["newkeeper"]
    assert {h["recorded_by"] for s in document["sessions"] for g in s["games"]
            for h in g["hands"]} == {"newkeeper", None}


def test_keepers_download_the_whole_table_from_its_tidy_page(tables, logged_in, client,
                                                             django_user_model):
    friday = tables[0]
    tidy = logged_in.get(f"/tables/{friday.pk}/tidy/").content.decode()
    url = f"/tables/{friday.pk}/export.json"
    assert f'href="{url}"' in tidy and "Download the whole table" in tidy
    response = logged_in.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"].startswith(
        f'attachment; filename="table-{friday.pk}-')
    assert response["Cache-Control"] == "no-store, private"
    assert json.loads(response.content) == table_export(friday)
    assert logged_in.post(url).status_code == 405
    # another account, an anonymous visitor: nothing (``client`` is ``logged_in``)
    stranger = django_user_model.objects.create_user("stranger", password="pw")
    client.force_login(stranger)
    assert client.get(url).status_code == 404
    client.logout()
    assert client.get(url).status_code == 302  # to the log-in page


def test_the_backup_summary_says_who_keeps_which_table(tables, django_user_model):
    """Issue 38.7: a restore that lost (or changed) who keeps a table compared equal."""
    before = summary()
    assert [(t["name"], t["scorekeepers"]) for t in before["tables"]] == [
        ("Friday", ["keeper"]), ("Thursday Rummy Club", ["other"]), ("Mardi", ["keeper", "other"])]
    mardi = tables[2]
    mardi.scorekeepers.remove(django_user_model.objects.get(username="other"))
    after = summary()
    assert after["tables"][2]["scorekeepers"] == ["keeper"]
    assert after != before and after["rows"] == before["rows"]
