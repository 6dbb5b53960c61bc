"""manage.py export_table TABLE_ID: everything a table has, as JSON (tablestakes.table/1)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from ledger.book.export import table_export
from ledger.models import Table
from ledger.selectors.exports import dump_json

from ._ledger_io import write_text


class Command(BaseCommand):
    help = (
        "Write table TABLE_ID with its whole history (players, evenings, games, every hand "
        "with the voided ones, changes, money, settlements and their voids, paid marks, book "
        "settlements, share links) as JSON (docs/table-export.md); import_table of the "
        "output on an empty server and export again gives identical JSON."
    )

    def add_arguments(self, parser):
        parser.add_argument("table_id", type=int, help="the table's ID")
        parser.add_argument("-o", "--output", help="write to this file instead of stdout")

    def handle(self, *args, **options):
        table = Table.objects.filter(pk=options["table_id"]).first()
        if table is None:
            raise CommandError(f"no table {options['table_id']}")
        write_text(dump_json(table_export(table)), options["output"], self.stdout)
