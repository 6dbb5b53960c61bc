"""manage.py print_game ID: a game's score sheet (or its blank sheet) as a PDF file."""

from __future__ import annotations

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from ledger.models import Game
from scoresheets import documents


class Command(BaseCommand):
    help = ("Write the score sheet of game ID as a PDF (<table>-<date>-game-<n>.pdf unless "
            "-o is given), on the paper size of its table unless --paper says otherwise.")

    def add_arguments(self, parser):
        parser.add_argument("game_id", type=int)
        parser.add_argument("-o", "--output", help="file to write ('-' for standard output)")
        parser.add_argument("--blank", action="store_true",
                            help="the blank sheet for playing on paper instead")
        parser.add_argument("--paper", choices=["A4", "letter"], help="override the paper size")

    def handle(self, *args, **options):
        game = Game.objects.select_related("session__table").filter(
            pk=options["game_id"]).first()
        if game is None:
            raise CommandError(f"No game {options['game_id']}.")
        try:
            if options["blank"]:
                pdf, name = documents.blank_sheet_pdf(game, paper_size=options["paper"])
            else:
                pdf, name = documents.game_sheet_pdf(game, paper_size=options["paper"])
        except documents.PdfTooLarge as exc:
            raise CommandError(exc.message) from None
        write(self, pdf, options["output"] or name)


def write(command: BaseCommand, pdf: bytes, output: str) -> None:
    if output == "-":
        sys.stdout.buffer.write(pdf)
        sys.stdout.flush()
        return
    Path(output).write_bytes(pdf)
    command.stderr.write(f"Wrote {output} ({len(pdf):,} bytes).")
