"""manage.py print_session ID: the session report as a PDF file, with a progress bar."""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand, CommandError

from ledger.models import Session
from scoresheets import documents

from ._progress import ProgressBar
from .print_game import write


class Command(BaseCommand):
    help = ("Write the report of session ID (every game, each player's net, the payments) as "
            "a PDF (<table>-<date>.pdf unless -o is given). Shows a progress bar on stderr.")

    def add_arguments(self, parser):
        parser.add_argument("session_id", type=int)
        parser.add_argument("-o", "--output", help="file to write ('-' for standard output)")
        parser.add_argument("--paper", choices=["A4", "letter"], help="override the paper size")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")

    def handle(self, *args, **options):
        session = Session.objects.select_related("table").filter(
            pk=options["session_id"]).first()
        if session is None:
            raise CommandError(f"No session {options['session_id']}.")
        bar = ProgressBar("Scoring games", stream=sys.stderr,
                          enabled=not options["no_progress"])
        try:
            pdf, name = documents.session_report_pdf(
                session, paper_size=options["paper"], progress=bar)
        except documents.PdfTooLarge as exc:
            raise CommandError(exc.message) from None
        bar.finish()
        write(self, pdf, options["output"] or name)
