"""manage.py import_table FILE: store a whole table (tablestakes.table/1), all or nothing."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from ledger.cleaning.records import load_json
from ledger.exceptions import LedgerError
from ledger.presentation.refusals import refusal_words
from ledger.services.table_import import table_import

from ._ledger_io import read_bytes, refused

#: A whole table is larger than one evening's record: its own limit (64 MB by default).
DEFAULT_MAX_BYTES = 64 * 1024 * 1024


class Command(BaseCommand):
    help = (
        "Store a table document (as export_table writes it) as a new table with its whole "
        "history, all or nothing, and print the new table's ID. An account of the document "
        "that this server has too (same username) must be mapped with --keeper OLD=NEW "
        "(OLD=OLD: that same account) or --same-accounts; the others are made without a "
        "password."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the table document, or - for standard input")
        parser.add_argument("--name", help="import the table under this name")
        parser.add_argument("--keeper", action="append", default=[],
                            help="OLD=NEW: the document's account OLD is this server's "
                                 "account NEW (OLD=OLD: the account of that name); NAME: "
                                 "also make this account a scorekeeper (repeatable)")
        parser.add_argument("--same-accounts", action="store_true",
                            help="each account of the document that this server has too is "
                                 "the account of that username (moving a server's tables "
                                 "one by one)")

    def handle(self, *args, **options):
        document = read_document(options["file"])
        keepers, accounts = [], {}
        for value in options["keeper"]:
            old, is_map, new = value.partition("=")
            if is_map:
                if not old or old in accounts:
                    raise CommandError(f"--keeper {value}: say each OLD=NEW once, with both "
                                       "usernames.\nNothing was stored.")
                accounts[old] = account_named(new, value)
            else:
                keepers.append(account_named(value, value))
        try:
            done = table_import(document=document, name=options["name"], keepers=keepers,
                                accounts=accounts, same_accounts=options["same_accounts"])
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


def account_named(username: str, option: str):
    try:
        return get_user_model().objects.get(username=username)
    except get_user_model().DoesNotExist:
        raise CommandError(f"--keeper {option}: this server has no account called "
                           f"{username!r}.\nNothing was stored.") from None


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
        raise CommandError(f"{refusal_words(exc)}\nNothing was stored.") from None
