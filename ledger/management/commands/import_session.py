"""manage.py import_session FILE: store a whole evening (tablestakes.session/1)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from ledger import services
from ledger.exceptions import LedgerError

from ._ledger_io import read_json, refused, user_named


class Command(BaseCommand):
    help = (
        "Store a session record (as export_session writes it): the table, the session, "
        "every game and the settlement, all or nothing. Prints the new session's ID."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the session record, or - for standard input")
        parser.add_argument("--user", help="username recorded as the importer")

    def handle(self, *args, **options):
        record = read_json(options["file"])
        user = user_named(options["user"])
        try:
            session = services.session_import(record=record, imported_by=user)
        except LedgerError as exc:
            raise refused(exc) from exc
        self.stdout.write(str(session.pk))
        self.stderr.write(
            f"Imported session {session.pk} ({session}) with {session.games.count()} games."
        )
