"""``manage.py score FILE`` prints the result of a game record as JSON (or ``-`` for stdin).

It never touches the database. A record that breaks a rule is refused: exit status 1 and
one line per problem on standard error, naming the hand and the field.
"""

import json
import sys

from django.core.management.base import BaseCommand

from ledger.rules import RecordError, score_record


class Command(BaseCommand):
    help = "Score a game record (JSON) and print the result, without touching the database."
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("file", help="the game record, or - for standard input")

    def handle(self, *args, file, **options):
        try:
            if file == "-":
                text = sys.stdin.read()
            else:
                with open(file, encoding="utf-8") as handle:
                    text = handle.read()
        except OSError as error:
            self._fail([f"{file}: {error.strerror}"])
        try:
            record = json.loads(text, parse_float=_keep_float)
        except json.JSONDecodeError as error:
            self._fail([f"{file}: not valid JSON ({error.msg} at line {error.lineno}, "
                        f"column {error.colno})"])
        try:
            out = score_record(record)
        except RecordError as error:
            self._fail(error.problems)
        self.stdout.write(json.dumps(out, indent=2, ensure_ascii=False))

    def _fail(self, problems):
        for line in problems:
            self.stderr.write(line)
        sys.exit(1)


def _keep_float(text):
    # Floats are kept as floats so that the core can refuse them where money is expected.
    return float(text)
