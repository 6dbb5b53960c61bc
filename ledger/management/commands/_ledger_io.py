"""Shared helpers of the import/export commands (not a command: the name starts with _)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError

from ledger.exceptions import LedgerError, RecordRefused


def read_json(path: str) -> dict:
    """The JSON document in ``path`` ("-" for standard input)."""
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"{path}: {exc.strerror}") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CommandError(f"{path}: not valid JSON ({exc})") from exc


def write_text(text: str, output: str | None, stdout) -> None:
    if output and output != "-":
        Path(output).write_text(text, encoding="utf-8")
    else:
        stdout.write(text, ending="")


def user_named(username: str | None):
    if not username:
        return None
    try:
        return get_user_model().objects.get(username=username)
    except get_user_model().DoesNotExist:
        raise CommandError(f"--user: no account called {username!r}") from None


def refused(exc: LedgerError) -> CommandError:
    """A refusal as a command error: one line per problem, nothing stored."""
    if isinstance(exc, RecordRefused):
        return CommandError("\n".join(exc.problems) + "\nNothing was stored.")
    return CommandError(f"{exc.message}\nNothing was stored.")
