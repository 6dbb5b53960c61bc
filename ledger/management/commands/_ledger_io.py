"""Shared helpers of the import/export commands (not a command: the name starts with _)."""

from __future__ import annotations

import sys
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import CommandError

from ledger import cleaning, limits
from ledger.exceptions import LedgerError, RecordRefused
from ledger.presentation.problems import plain_line
from ledger.presentation.refusals import refusal_words


def read_bytes(path: str, limit: int) -> tuple[bytes, int]:
    """The bytes of ``path`` ("-" for standard input) and the file's size, reading no more
    than ``limit`` + 1 bytes (a larger file is not read at all: its size is enough)."""
    try:
        if path == "-":
            stream = getattr(sys.stdin, "buffer", None)
            data = (stream.read(limit + 1) if stream is not None
                    else sys.stdin.read(limit + 1).encode("utf-8", "surrogatepass"))
            return data, len(data)
        size = Path(path).stat().st_size
        if size > limit:
            return b"", size
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
        return data, len(data)
    except OSError as exc:
        raise CommandError(f"{path}: {exc.strerror}") from exc


def read_json(path: str) -> dict:
    """The JSON document in ``path`` ("-" for standard input), refused before it is read
    when it is larger than TABLESTAKES_MAX_IMPORT_BYTES, and when it is not UTF-8 JSON (or
    holds NaN, or is nested too deeply)."""
    data, size = read_bytes(path, settings.TABLESTAKES_MAX_IMPORT_BYTES)
    try:
        limits.check_import_bytes(size, where=path if path != "-" else "standard input")
        return cleaning.load_json(data, where=path)
    except LedgerError as exc:
        raise CommandError(f"{refusal_words(exc)}\nNothing was stored.") from None


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
        return CommandError("\n".join(map(plain_line, exc.details)) + "\nNothing was stored.")
    return CommandError(f"{refusal_words(exc)}\nNothing was stored.")
