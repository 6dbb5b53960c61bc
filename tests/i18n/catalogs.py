"""The message catalogs as the tests read them: which languages ship, which of them are
translated in full, and the one makemessages command that makes the catalogs (the Makefile's
``make messages`` runs the same)."""

from __future__ import annotations

import functools
import re
from pathlib import Path

from babel.messages.pofile import read_po
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "locale"

# The catalogs not translated yet. A language leaves this list when its catalog is complete
# (every msgid translated, its glossary written in docs/glossary/): the tests that expect it
# complete are then run for it; while it is here they are expected to fail (xfail, strict:
# a catalog completed but still listed here fails too, so the list stays true).
EXPECTED_INCOMPLETE: list[str] = []

TRANSLATED = [code for code, _ in settings.LANGUAGES if code != "en"]

# What makemessages looks at: the app's code and templates, not the tests, scripts or the
# static files (the scripts' words are handed over by the pages, not a JavaScript catalog).
MAKEMESSAGES_ARGS = ["--add-location=file", "--no-obsolete",
                     "-i", "tests", "-i", "bench", "-i", "static", "-i", "staticfiles",
                     "-i", "scripts", "-i", "node_modules", "-i", "fixtures"]

PLACEHOLDER = re.compile(r"%\((\w+)\)s|%s|%d")


def po_path(code: str, root: Path = LOCALE) -> Path:
    return root / code / "LC_MESSAGES" / "django.po"


def catalog(code: str, root: Path = LOCALE):
    """The catalog of ``code`` under ``root``, read once per version of its file: Babel's
    reader takes about 0.2 s per catalog, and the screens' tests ask for it per page.
    (Callers only read it.)"""
    path = po_path(code, root)
    stat = path.stat()
    return _read(path, code, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=32)
def _read(path: Path, code: str, mtime_ns: int, size: int):
    with path.open("rb") as f:
        return read_po(f, locale=code)


def key(message) -> tuple:
    """A message's identity: its context and its msgid (with its plural, if any)."""
    return message.context, message.id if isinstance(message.id, str) else tuple(message.id)


def params() -> list:
    """pytest parameters: each translated language, the incomplete ones as strict xfail."""
    import pytest
    return [pytest.param(code, marks=pytest.mark.xfail(
                strict=True, reason=f"{code}: catalog not translated yet (EXPECTED_INCOMPLETE)"))
            if code in EXPECTED_INCOMPLETE else code for code in TRANSLATED]
