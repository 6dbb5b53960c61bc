"""SQLite as a server with several workers keeps it (tablestakes/settings/base.py,
``SQLITE_OPTIONS``): the write-ahead log, so a reader and the writer do not wait for each
other, and IMMEDIATE transactions, so two writers queue for the lock instead of one failing
with "database is locked"."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db.utils import ConnectionHandler

from tablestakes.settings.base import SQLITE_OPTIONS


def connect(path, **options):
    handler = ConnectionHandler({"default": {
        "ENGINE": "django.db.backends.sqlite3", "NAME": str(path),
        "OPTIONS": {**SQLITE_OPTIONS, **options}}})
    connection = handler["default"]
    connection.ensure_connection()
    return connection


def test_the_settings_give_sqlite_its_options():
    database = settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.sqlite3":
        pytest.skip("the suite runs on another engine")
    assert database["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in database["OPTIONS"]["init_command"]


def test_a_reader_does_not_wait_for_the_writer(tmp_path, django_db_blocker):
    with django_db_blocker.unblock():  # a file of its own, not the test database
        writer, reader = connect(tmp_path / "club.sqlite3"), connect(tmp_path / "club.sqlite3")
        _read_while_writing(writer, reader)


def _read_while_writing(writer, reader):
    try:
        with writer.cursor() as cursor:
            assert cursor.execute("PRAGMA journal_mode").fetchone() == ("wal",)
            assert cursor.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL
            cursor.execute("CREATE TABLE hand (n integer)")
            cursor.execute("INSERT INTO hand VALUES (1)")
        writer.set_autocommit(False)
        with writer.cursor() as cursor:  # a Save under way, not committed
            cursor.execute("INSERT INTO hand VALUES (2)")
        with reader.cursor() as cursor:  # in rollback-journal mode: "database is locked"
            assert cursor.execute("SELECT count(*) FROM hand").fetchone() == (1,)
        writer.commit()
        with reader.cursor() as cursor:
            assert cursor.execute("SELECT count(*) FROM hand").fetchone() == (2,)
    finally:
        writer.close()
        reader.close()
