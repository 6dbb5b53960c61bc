"""manage.py import_game FILE: store a game record (docs/game-record.md), all or nothing."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from ledger import cleaning, limits, services
from ledger.exceptions import LedgerError
from ledger.models import Session

from ._ledger_io import read_json, refused, user_named


class Command(BaseCommand):
    help = (
        "Store a JSON game record in the database (all or nothing) and print the new game's "
        "ID. Without --session a new session is opened today at --table."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the game record, or - for standard input")
        parser.add_argument("--session", type=int, help="ID of the session to add the game to")
        parser.add_argument("--table", default="Imported games",
                            help="table of the new session (found or created by name)")
        parser.add_argument("--place", default="", help="place of the new session")
        parser.add_argument("--user", help="username recorded as the importer")

    def handle(self, *args, **options):
        record = read_json(options["file"])
        user = user_named(options["user"])
        try:
            cleaning.check_game_record(record)  # before anything reads it (the session's
            limits.check_record_hands(record)   # currency comes from its stakes)
            with transaction.atomic():
                session = self._session(options, record, user)
                game = services.game_import(session=session, record=record, imported_by=user)
        except LedgerError as exc:
            raise refused(exc) from exc
        self.stdout.write(str(game.pk))
        self.stderr.write(
            f"Imported game {game.pk} ({game.variant}, {game.get_status_display().lower()}, "
            f"{game.hands.count()} hands) into session {session.pk}."
        )

    def _session(self, options, record, user) -> Session:
        if options["session"]:
            try:
                return Session.objects.get(pk=options["session"])
            except Session.DoesNotExist:
                raise CommandError(f"--session: no session {options['session']}") from None
        table = services.table_named(name=options["table"], scorekeeper=user)
        if table is None:
            table = services.table_create(name=options["table"],
                                          scorekeepers=[user] if user else [])
        stakes = record.get("stakes") if isinstance(record, dict) else None
        currency = (stakes or {}).get("currency") or "USD"
        return services.session_create(
            table=table, place=options["place"], currency=currency, created_by=user
        )
