"""Every screen of the phone tour (test_every_screen.py) on a 360x740 phone whose browser asks
for German, Spanish, French or Russian, the tables speaking that language too (their share
pages and paper follow the table): no English left and nothing cut off or past the edge.

"English left" is any message of the catalog, translated otherwise, whose English words
stand on the page as the page shows them (``innerText``: what is drawn, not hidden markup);
a screen that only half-speaks the language fails with the words it left. The tour also
shows that each page speaks the language (its own words for "Your tables", "Log out"...).

German (the longest words) and Russian (Cyrillic, long words) are toured in one test, Spanish
and French in another, so the two halves run side by side."""

from __future__ import annotations

import html
import re

import pytest
from django.utils import translation
from django.utils.translation import gettext

from ledger import services
from ledger.models import Table

from ..i18n.catalogs import EXPECTED_INCOMPLETE, catalog
from ..i18n.test_screens_translated import shows
from .helpers import FITS, login, shot
from .test_every_screen import NO_WORKER, PHONE, public_screens, screens, world  # noqa: F401

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PLACEHOLDER = re.compile(r"%\(\w+\)s|%s|%d|\{\w*\}")

# English words that are the same thing in the language or are not ours: the brand, the
# games' names as clubs say them, the language switcher's own names for each language.
NOT_LEFTOVERS = {"Tablestakes", "English", "Deutsch", "Español", "Français", "Русский",
                 "CAP-IT", "Oklahoma", "Hollywood", "Gin", "Big gin"}



def speaks(code: str) -> str:
    """What each logged-in page of the language shows when it speaks it: the log-out
    button's word, from the catalog ("Abmelden", "Выйти")."""
    with translation.override(code):
        said = gettext("Log out")
    assert said != "Log out"
    return said


def english_phrases(code: str) -> list[str]:
    """The English of every catalog message translated to something else, as a page shows
    it: markup out, spaces folded, placeholders cut (the parts between them checked)."""
    found = set()
    for message in catalog(code):
        if not isinstance(message.id, str) or not message.id or not message.string:
            continue
        if message.string == message.id:
            continue
        plain = html.unescape(" ".join(re.sub(r"<[^>]+>", " ", message.id).split()))
        for part in PLACEHOLDER.split(plain):
            part = part.strip(" .,:;!?()·—–-\"'")
            # a part of two words or more, or one word long enough to be one of ours
            if (" " in part and len(part) > 5) or len(part) > 7:
                found.add(part)
    return sorted(found - NOT_LEFTOVERS, key=len, reverse=True)


def leftovers(text: str, phrases: list[str]) -> list[str]:
    return [phrase for phrase in phrases if shows(text, phrase)]


def _tour_in(browser, base: str, world, code: str) -> dict:  # noqa: F811
    for table in Table.objects.all():
        services.table_set_locale(table=table, language=code)
    phrases = english_phrases(code)
    assert len(phrases) > 150  # the catalog's words, not an empty list
    problems: dict = {}
    context = browser.new_context(**PHONE, **NO_WORKER, locale=code)
    page = context.new_page()

    def visit(name: str, path: str, then) -> str:
        response = page.goto(base + path)
        assert response is not None and response.status < 500, (code, name)
        if then is not None:
            then(page)
        page.wait_for_load_state("load")
        text = page.inner_text("body")
        found = leftovers(text, phrases) + page.evaluate(FITS)
        if found:
            problems[f"{name}-{code}"] = found[:8]
        shot(page, f"lang-{code}-{name}")
        return text

    for name, path, then in public_screens(world):
        if name != "csrf-403":  # its form is English-independent: the tour's own post
            visit(name, path, then)
    login(page, base, "keeper")
    seen_speaking, word = 0, speaks(code)
    for name, path, then in screens(world):
        if then is not None:
            continue  # what the tour taps there (a dialog's link...) it names in English
        seen_speaking += word in visit(name, path, then)
    context.close()
    assert seen_speaking > 40  # the pages spoke the language, not English everywhere
    return problems


@pytest.mark.parametrize("codes", [("de", "ru"), ("es", "fr")], ids=["de-ru", "es-fr"])
def test_every_screen_speaks_the_language_and_fits_the_phone(browser, live_server,
                                                             world, codes):  # noqa: F811
    problems: dict = {}
    for code in codes:
        if code in EXPECTED_INCOMPLETE:
            continue
        problems.update(_tour_in(browser, live_server.url, world, code))
    assert problems == {}, problems
