"""manage.py import_table FILE: store a whole table (tablestakes.table/1), all or nothing."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from ledger.cleaning.records import load_json
from ledger.exceptions import LedgerError
from ledger.services.table_import import table_import

from ._ledger_io import read_bytes, refused, user_named

#: A whole table is larger than one evening's record: its own limit (64 MB by default).
DEFAULT_MAX_BYTES = 64 * 1024 * 1024


class Command(BaseCommand):
    help = (
        "Store a table document (as export_table writes it) as a new table with its whole "
        "history, all or nothing, and print the new table's ID. Accounts are matched by "
        "username; missing ones are made without a password."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the table document, or - for standard input")
        parser.add_argument("--name", help="import the table under this name")
        parser.add_argument("--keeper", action="append", default=[],
                            help="also make this account a scorekeeper (repeatable)")

    def handle(self, *args, **options):
        document = read_document(options["file"])
        keepers = [user_named(name) for name in options["keeper"]]
        try:
            done = table_import(document=document, name=options["name"], keepers=keepers)
        except LedgerError as exc:
            raise refused(exc) from exc
        except DatabaseError as exc:  # a guard of the database (PostgreSQL's triggers)
            raise CommandError(f"The database refused the history: {exc}".strip()
                               + "\nNothing was stored.") from None
        table = done.table
        self.stdout.write(str(table.pk))
        rows = ", ".join(f"{count} {name}" for name, count in done.rows.items())
        self.stderr.write(f"Imported table {table.pk} ({table.name}): {rows}.")
        if done.accounts_created:
            self.stderr.write(
                "New accounts without a password (set one in /admin/ or by a password "
                f"reset before they can log in): {', '.join(done.accounts_created)}.")
        if done.keys_renewed or done.tokens_renewed:
            self.stderr.write(
                f"This server already had {done.keys_renewed} of the hands' submission keys "
                f"and {done.tokens_renewed} of the share links' tokens (a copy of a table "
                "that is here too): those got new ones.")


def read_document(path: str):
    """The document in ``path`` ("-": standard input), refused before it is read when it is
    larger than TABLESTAKES_MAX_TABLE_IMPORT_BYTES, and when it is not UTF-8 JSON (or holds
    NaN, a key twice in one object, or is nested too deeply)."""
    limit = int(getattr(settings, "TABLESTAKES_MAX_TABLE_IMPORT_BYTES", DEFAULT_MAX_BYTES))
    where = "standard input" if path == "-" else path
    data, size = read_bytes(path, limit)
    if size > limit:
        raise CommandError(f"{where} is {size:,} bytes; documents up to {limit:,} bytes are "
                           "imported here (TABLESTAKES_MAX_TABLE_IMPORT_BYTES).\n"
                           "Nothing was stored.")
    try:
        return load_json(data, where=where)
    except LedgerError as exc:
        raise CommandError(f"{exc.message}\nNothing was stored.") from None
