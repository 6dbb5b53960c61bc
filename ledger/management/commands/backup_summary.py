"""manage.py backup_summary: what a restored copy must agree on, as JSON (docs/backup.md).

Run it on the live database and on the restored one and compare the two outputs (``diff``):
every table's book (``table_book --json``) and who keeps it, the row count of every ledger
table and of the accounts, and on PostgreSQL the ledger's triggers (the database's guards of the
history: a restore that lost them would accept what the app refuses).
"""

from __future__ import annotations

import json

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection

from ledger.book.selectors import book_json, table_books
from ledger.models import Table


def ledger_triggers() -> list[str]:
    """The names of the triggers on the ledger's tables (PostgreSQL; [] elsewhere)."""
    if connection.vendor != "postgresql":
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname || '.' || t.tgname FROM pg_trigger t"
            " JOIN pg_class c ON c.oid = t.tgrelid"
            " WHERE NOT t.tgisinternal AND c.relname LIKE 'ledger\\_%%' ORDER BY 1")
        return [row[0] for row in cursor.fetchall()]


def summary() -> dict:
    rows = {model._meta.db_table: model._base_manager.count()
            for model in apps.get_app_config("ledger").get_models()}
    rows[get_user_model()._meta.db_table] = get_user_model()._base_manager.count()
    return {
        "tables": [{"id": table.pk, "name": table.name,
                    "scorekeepers": sorted(user.get_username()
                                           for user in table.scorekeepers.all()),
                    "books": book_json(table_books(table))}
                   for table in Table.objects.order_by("pk").prefetch_related("scorekeepers")],
        "rows": dict(sorted(rows.items())),
        "triggers": ledger_triggers(),
    }


class Command(BaseCommand):
    help = (
        "Print, as JSON, every table's book and scorekeepers, the row count of every "
        "ledger table and of the accounts, and (PostgreSQL) the ledger's triggers: run it "
        "on the live and on "
        "a restored database and diff the two (docs/backup.md)."
    )

    def handle(self, *args, **options):
        self.stdout.write(json.dumps(summary(), indent=2, ensure_ascii=False))
