"""manage.py export_session ID: write a whole evening as JSON (tablestakes.session/1)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from ledger.models import Session
from ledger.selectors.exports import dump_json, session_export

from ._ledger_io import write_text


class Command(BaseCommand):
    help = (
        "Write session ID with every game record (and its settlement, if settled) as JSON; "
        "import_session of the output and export again gives identical JSON."
    )

    def add_arguments(self, parser):
        parser.add_argument("id", type=int, help="the session's ID")
        parser.add_argument("-o", "--output", help="write to this file instead of stdout")

    def handle(self, *args, **options):
        session = Session.objects.select_related("table").filter(pk=options["id"]).first()
        if session is None:
            raise CommandError(f"no session {options['id']}")
        write_text(dump_json(session_export(session)), options["output"],
                   self.stdout)
