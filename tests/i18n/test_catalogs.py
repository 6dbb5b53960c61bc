"""The catalogs are current and whole (issue 22): makemessages on this checkout adds no msgid
the committed catalogs lack (and leaves none they keep), every msgid of a complete language is
translated with the same placeholders, and the compiled .mo files say what the .po files say."""

from __future__ import annotations

import gettext
import io
import shutil
import subprocess
import sys

import pytest
from babel.messages.mofile import write_mo

from .catalogs import (
    EXPECTED_INCOMPLETE,
    LOCALE,
    MAKEMESSAGES_ARGS,
    PLACEHOLDER,
    ROOT,
    TRANSLATED,
    catalog,
    key,
    params,
)

COPIED = ["ledger", "scoresheets", "tablestakes", "templates", "manage.py"]


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    """makemessages run on a copy of the code with empty catalogs: the msgids the code marks."""
    root = tmp_path_factory.mktemp("messages")
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, root / name, ignore=shutil.ignore_patterns(
                "__pycache__", "static", "*.pyc"))
        else:
            shutil.copy(source, root / name)
    (root / "locale").mkdir()
    subprocess.run([sys.executable, "manage.py", "makemessages", "-l", "de", *MAKEMESSAGES_ARGS],
                   cwd=root, check=True, capture_output=True)
    return {key(m) for m in catalog("de", root / "locale") if m.id}


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_committed_catalogs_are_current(fresh, code):
    committed = {key(m) for m in catalog(code) if m.id}
    assert fresh - committed == set(), f"{code}: run `make messages` (msgids missing)"
    assert committed - fresh == set(), f"{code}: run `make messages` (msgids no longer used)"


def test_the_code_marks_the_screens_words(fresh):
    # the frame of every page, the game page and the evening page go through gettext
    assert len(fresh) >= 130
    for words in [(None, "Skip to the content"), (None, "Log out"), (None, "Save hand %(n)s"),
                  ("game of cards", "Game %(n)s"), ("table of players", "New table"),
                  (None, ("%(n)s player", "%(n)s players")), (None, "Settle up")]:
        assert words in fresh


@pytest.mark.parametrize("code", params())
def test_every_msgid_is_translated(code):
    untranslated = []
    for m in catalog(code):
        if not m.id:
            continue
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        if m.fuzzy or not all(strings):
            untranslated.append(key(m))
    assert untranslated == [], f"{code}: {len(untranslated)} untranslated, first {untranslated[:5]}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_translation_keeps_its_placeholders(code):
    wrong = []
    for m in catalog(code):
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        wanted = set(PLACEHOLDER.findall(ids[-1]))
        # a plural's form for one may leave the number out ("pro Punkt"), nothing else may
        wrong += [(key(m), s) for s in strings if s and not (
            set(PLACEHOLDER.findall(s)) == wanted
            or (len(ids) > 1 and set(PLACEHOLDER.findall(s)) <= wanted))]
    assert wrong == []


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_compiled_catalog_is_current(code):
    mo = LOCALE / code / "LC_MESSAGES" / "django.mo"
    assert mo.exists(), f"{code}: run `make messages` (no {mo.name})"
    with mo.open("rb") as f:
        committed = gettext.GNUTranslations(f)
    po = catalog(code)
    buffer = io.BytesIO()
    write_mo(buffer, po)
    buffer.seek(0)
    wanted = gettext.GNUTranslations(buffer)
    stale = []
    for m in po:
        if not m.id:
            continue
        if isinstance(m.id, str):
            said = [(t.pgettext(m.context, m.id) if m.context else t.gettext(m.id))
                    for t in (committed, wanted)]
        else:
            said = [[t.npgettext(m.context, m.id[0], m.id[1], n) if m.context
                     else t.ngettext(m.id[0], m.id[1], n) for n in (1, 2, 5, 21)]
                    for t in (committed, wanted)]
        if said[0] != said[1]:
            stale.append(key(m))
    assert stale == [], f"{code}: run `make messages` (django.mo older than django.po): {stale[:5]}"


def test_the_expected_incomplete_list_names_shipped_languages():
    assert set(EXPECTED_INCOMPLETE) <= set(TRANSLATED)
