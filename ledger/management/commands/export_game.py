"""manage.py export_game ID: write a stored game as a JSON game record."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from ledger.selectors.exports import dump_json
from ledger.selectors.games import game_queryset_for_records, game_record

from ._ledger_io import write_text


class Command(BaseCommand):
    help = (
        "Write game ID as a JSON game record (docs/game-record.md); import_game of the "
        "output and export again gives identical JSON."
    )

    def add_arguments(self, parser):
        parser.add_argument("id", type=int, help="the game's ID")
        parser.add_argument("-o", "--output", help="write to this file instead of stdout")

    def handle(self, *args, **options):
        game = game_queryset_for_records().filter(pk=options["id"]).first()
        if game is None:
            raise CommandError(f"no game {options['id']}")
        write_text(dump_json(game_record(game)), options["output"],
                   self.stdout)
