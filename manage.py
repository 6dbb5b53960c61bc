#!/usr/bin/env python
"""Django's command-line utility for Tablestakes."""
import os
import sys


def main():
    if sys.argv[1:2] == ["score"]:
        # Scoring a record needs no database and no Django: skip setting it up, so that
        # the command answers in a fraction of the start-up time.
        from ledger.rules.cli import run

        sys.exit(run(sys.argv[2:]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tablestakes.settings.dev")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
