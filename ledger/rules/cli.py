"""The ``score`` command line, kept free of Django so that scoring a record from the shell
starts fast: ``python manage.py score FILE`` (or ``-`` for standard input).

Prints the result JSON on standard output (exit 0), or refuses the record with one line
per problem on standard error (exit 1).
"""

from __future__ import annotations

import json
import sys

from .game import score_record
from .record import RecordError


def run(argv: list[str], stdin=None, stdout=None, stderr=None) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    if len(argv) != 1 or argv[0] in ("-h", "--help"):
        print("usage: manage.py score FILE   (- reads standard input)", file=stderr)
        return 2
    source = argv[0]
    try:
        if source == "-":
            text = stdin.read()
        else:
            with open(source, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as error:
        print(f"{source}: {error.strerror}", file=stderr)
        return 1
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        print(f"{source}: not valid JSON ({error.msg} at line {error.lineno}, column "
              f"{error.colno})", file=stderr)
        return 1
    try:
        result = score_record(record)
    except RecordError as error:
        for line in error.problems:
            print(line, file=stderr)
        return 1
    stdout.write(json.dumps(result, indent=2, ensure_ascii=False))
    stdout.write("\n")
    return 0
