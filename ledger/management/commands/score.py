"""``manage.py score FILE`` prints the result of a game record as JSON (``-`` reads
standard input). It never touches the database; a record that breaks a rule is refused
with exit status 1 and one line per problem on standard error.

``manage.py`` runs ``score`` without setting Django up at all (see ``ledger.rules.cli``);
this command is the same thing for ``call_command`` and ``django-admin``.
"""

import sys

from django.core.management.base import BaseCommand

from ledger.rules.cli import run


class Command(BaseCommand):
    help = "Score a game record (JSON) and print the result, without touching the database."
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("file", help="the game record, or - for standard input")

    def handle(self, *args, file, **options):
        status = run([file], stdout=self.stdout, stderr=self.stderr)
        if status:
            sys.exit(status)
