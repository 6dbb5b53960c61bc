"""manage.py table_book TABLE_ID [--json]: print a table's book."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from ledger.book.selectors import book_json, table_books
from ledger.models import Table


class Command(BaseCommand):
    help = (
        "Print the book of table TABLE_ID: each player's evenings, games, wins, gins, "
        "undercuts, money over the settled evenings and outstanding (unpaid; positive = owed "
        "to the player), and the fewest payments that clear everything outstanding. "
        "With --json: an object {table, currency, players: [{name, evenings, games, wins, "
        "gins, undercuts, money, outstanding}], owed: [{from, to, amount}]}, money as decimal "
        "strings. A table that plays in several currencies has one book per currency: --json "
        "then prints a list of such objects, the currency with the most evenings first."
    )

    def add_arguments(self, parser):
        parser.add_argument("table_id", type=int, help="the table's ID")
        parser.add_argument("--json", action="store_true", help="print the book as JSON")

    def handle(self, *args, **options):
        table = Table.objects.filter(pk=options["table_id"]).first()
        if table is None:
            raise CommandError(f"no table {options['table_id']}")
        books = table_books(table)
        data = book_json(books) or [
            {"table": table.name, "currency": None, "players": [], "owed": []}]
        if options["json"]:
            out = data[0] if len(data) == 1 else data
            self.stdout.write(json.dumps(out, indent=2, ensure_ascii=False))
            return
        for index, book in enumerate(data):
            if index:
                self.stdout.write("")
            self.stdout.write(f"{book['table']}: the book in {book['currency'] or '-'}")
            rows = [("Player", "Evenings", "Games", "Wins", "Gins", "Undercuts", "Money",
                     "Outstanding")]
            rows += [(p["name"], str(p["evenings"]), str(p["games"]), str(p["wins"]),
                      str(p["gins"]), str(p["undercuts"]), p["money"], p["outstanding"])
                     for p in book["players"]]
            widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
            for row in rows:
                cells = [row[0].ljust(widths[0])] + [
                    cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)]
                self.stdout.write("  ".join(cells).rstrip())
            if book["owed"]:
                self.stdout.write("Owed now (fewest payments):")
                for owed in book["owed"]:
                    self.stdout.write(f"  {owed['from']} pays {owed['to']} {owed['amount']}")
            else:
                self.stdout.write("Nothing is outstanding.")
