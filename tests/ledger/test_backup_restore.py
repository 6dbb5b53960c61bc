"""The backup drill of docs/backup.md, on PostgreSQL: ``pg_dump`` the database (custom
format), ``pg_restore`` it into a new database, and check the copy as a club would before
switching over: ``manage.py check`` passes, ``manage.py backup_summary`` (every table's
book, the row count of every ledger table and of the accounts, the ledger's triggers) is
identical, a table's full export is identical, and the restored triggers still refuse to
rewrite the history. The restored database is dropped at the end."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import quote

import psycopg
import pytest
from django.db import connection

from ledger.book.export import table_export
from ledger.management.commands.backup_summary import summary
from ledger.models import Table

from .table_history import build_tables

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
#: The history triggers of migrations 0002 and 0012 (more may be added, none removed).
TRIGGERS_AT_LEAST = 18


def pg_tool(name: str) -> str:
    """``pg_dump``/``pg_restore`` of the server's major version (Debian keeps each version's
    in /usr/lib/postgresql/N/bin), else the one on PATH."""
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version_num")
        major = int(cursor.fetchone()[0]) // 10000
    own = Path(f"/usr/lib/postgresql/{major}/bin/{name}")
    found = str(own) if own.exists() else shutil.which(name)
    assert found, f"{name} not found in /usr/lib/postgresql/{major}/bin nor on PATH"
    return found


def _params(dbname: str) -> tuple[dict, str]:
    """libpq environment and a DATABASE_URL for ``dbname`` on the test server."""
    db = connection.settings_dict
    env = {**os.environ, "PGHOST": db["HOST"] or "", "PGPORT": str(db["PORT"] or "5432"),
           "PGUSER": db["USER"] or "", "PGPASSWORD": db["PASSWORD"] or "",
           "PGDATABASE": dbname}
    auth = quote(db["USER"] or "") + (f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else "")
    url = f"postgres://{auth}@{db['HOST']}:{db['PORT'] or 5432}/{dbname}"
    return env, url


def _manage(url: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATABASE_URL": url,
           "DJANGO_SETTINGS_MODULE": "tablestakes.settings.test"}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def test_pg_dump_and_pg_restore_give_identical_books_rows_and_triggers(keeper, tmp_path,
                                                                        django_user_model):
    other = django_user_model.objects.create_user("other", password="pw")
    tables = build_tables(keeper, other)
    before = summary()
    friday = table_export(tables[0])
    assert len(before["tables"]) == 3 and before["rows"]["ledger_hand"] > 30
    assert len(before["triggers"]) >= TRIGGERS_AT_LEAST

    source = connection.settings_dict["NAME"]
    restored = f"{source}_restore_{uuid.uuid4().hex[:8]}"
    env, _ = _params(source)
    dump = tmp_path / "tablestakes.dump"
    subprocess.run([pg_tool("pg_dump"), "--format=custom", "--file", str(dump), source],
                   env=env, check=True, capture_output=True, timeout=300)
    assert dump.stat().st_size > 10_000

    with connection.cursor() as cursor:
        cursor.execute(f'CREATE DATABASE "{restored}"')
    try:
        env, url = _params(restored)
        done = subprocess.run([pg_tool("pg_restore"), "--no-owner", "--exit-on-error",
                               "--dbname", restored, str(dump)],
                              env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr

        check = _manage(url, "check")
        assert check.returncode == 0, check.stderr
        after = _manage(url, "backup_summary")
        assert after.returncode == 0, after.stderr
        assert json.loads(after.stdout) == before  # books, row counts, triggers
        export = _manage(url, "export_table", str(tables[0].pk))
        assert json.loads(export.stdout) == friday  # every row of one table's history

        with psycopg.connect(dbname=restored, host=env["PGHOST"], port=env["PGPORT"],
                             user=env["PGUSER"], password=env["PGPASSWORD"] or None) as raw:
            for statement in ("UPDATE ledger_moneyposting SET amount_minor = amount_minor",
                              "DELETE FROM ledger_hand",
                              "UPDATE ledger_sessionsettlement SET nets = '{}'"):
                with pytest.raises(psycopg.errors.IntegrityConstraintViolation,
                                   match="append-only"):
                    with raw.transaction():
                        raw.execute(statement)
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{restored}" WITH (FORCE)')
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_database WHERE datname = %s", [restored])
        assert cursor.fetchone()[0] == 0
    assert Table.objects.count() == 3  # the source is untouched
