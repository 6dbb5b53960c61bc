"""The screens speak German (issue 22): each screen whose words go through gettext is drawn
in English and with ``Accept-Language: de``; every phrase of the catalog the English page
shows must be gone from the German page (translated), and the list of the screens' English
words below must not be found on it. Languages whose catalogs are not translated yet are
expected to fail (EXPECTED_INCOMPLETE in catalogs.py)."""

from __future__ import annotations

import functools
import html
import re
import uuid

import pytest
from django.template.loader import get_template
from django.urls import reverse
from django.utils import translation

from ledger import services
from tests.pages import text

from ..ledger.conftest import load_case, start_empty
from .catalogs import catalog, params
from .drawn import drawn_once

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("i18n-screens")]

# English words of the marked screens, each as the screen shows it (checked on the English
# page first, so that the list cannot go stale without failing).
SCREEN_WORDS = {
    "home": ["Your tables", "Playing now", "New table", "Create table", "1 evening",
             "Log out", "Skip to the content", "Language", "Change"],
    "game": ["Hand 2", "Save hand 2", "deals", "Score so far", "Mistakes and more",
             "Stakes and rules", "Print sheet", "Share this game", "Abandon the game", "Tools",
             "Corrections", "Who knocked?", "How", "Knock", "Sheet", "Running totals",
             "In progress",
             "Count from the cards"],
    "finished": ["Game over", "Money", "Next game", "Same players again", "Final score"],
    "evening": ["Games", "The evening's money", "New game", "$0.05 per point",
                "Print a blank sheet to play on paper"],
    "login": ["Log in", "Keep the score at your table.", "Forgot your password?", "New here?"],
    "signup": ["Make an account", "Mail me a link", "Already have one?"],
    "not_found": ["Nothing here", "This page does not exist"],
    "server_error": ["Something went wrong on our side", "Your tables"],
}

# English the Python layers still write on these screens (not marked yet), which a catalog
# phrase of the same spelling would otherwise flag; an entry leaves when its words go
# through gettext (none is left).
NOT_MARKED_YET: dict[str, list[str]] = {}


@functools.cache
def phrases(code: str) -> tuple[tuple[str, str], ...]:
    """(English, translation) of each catalog message without placeholders, as a page shows it
    (worked out once per language: the screens' tests ask for it per page)."""
    found = []
    for m in catalog(code):
        if not isinstance(m.id, str) or not m.id or PLACEHOLDER.search(m.id):
            continue
        plain = html.unescape(" ".join(re.sub(r"<[^>]+>", " ", m.id).split()))
        if len(plain) > 3:
            found.append((plain, m.string))
    return tuple(found)


PLACEHOLDER = re.compile(r"%\(\w+\)s")


def shows(page: str, words: str) -> bool:
    """Whether ``words`` stand on ``page`` as words (not inside a longer word: "Tables" is
    not in "Tablestakes"). The plain substring test first: most of a catalog's thousand
    phrases are not on a page at all, and ``in`` says so far faster than a pattern."""
    return words in page and as_words(words).search(page) is not None


@functools.cache
def as_words(words: str) -> re.Pattern:
    """``words`` as a pattern, compiled once: the catalogs' thousands of phrases are more than
    re's own cache keeps, and compiling them again for each page took most of the time."""
    return re.compile(rf"(?<!\w){re.escape(words)}(?!\w)")


def english_left(english: str, translated: str, code: str, words, ignore=()) -> list[str]:
    """What of ``english`` the ``translated`` page still says in English: the screen's own
    ``words`` (but those the language writes the same: "Total" is French as well), then every
    catalog phrase the English page shows and the translation does not (``ignore``: phrases
    other layers write that a catalog phrase of the same spelling would flag)."""
    known = phrases(code)
    same = {e for e, t in known if e == t}
    left = [w for w in words if shows(translated, w) and w not in same]
    left += [e for e, t in known
             if shows(english, e) and e != t and shows(translated, e) and e not in left
             and e not in ignore]
    return left


def _screens(client, keeper):
    """name -> function(language) returning the page's visible text."""
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="USD", rate="0.05",
                                      created_by=keeper)
    client.force_login(keeper)
    playing = start_empty(session, keeper, load_case("gin-standard-game"))
    hands = load_case("gin-standard-game")["hands"]
    for entry in hands[:2]:
        services.hand_record(game=playing, entry=entry, recorded_by=keeper,
                             idempotency_key=uuid.uuid4())
    services.hand_undo_last(game=playing, undone_by=keeper, reason="typo")
    finished = services.game_import(session=session, record=load_case("gin-standard-game"),
                                    imported_by=keeper)

    def page(url, anonymous=False):
        def draw(code):
            if anonymous:
                client.logout()
            response = client.get(url, HTTP_ACCEPT_LANGUAGE=code)
            client.force_login(keeper)
            return text(response)
        return draw

    def server_error(code):
        with translation.override(code):
            return text(get_template("500.html").render({}))

    return {
        "home": page(reverse("ledger:home")),
        "game": page(reverse("ledger:game_detail", args=[playing.pk])),
        "finished": page(reverse("ledger:game_detail", args=[finished.pk])),
        "evening": page(reverse("ledger:session_detail", args=[session.pk])),
        "login": page(reverse("login"), anonymous=True),
        "signup": page(reverse("signup"), anonymous=True),
        "not_found": page("/no-such-page/"),
        "server_error": server_error,
    }


screens = drawn_once(_screens)


@pytest.mark.parametrize("name", sorted(SCREEN_WORDS))
def test_the_english_screen_shows_its_words(screens, name):
    english = screens[name]("en")
    assert [w for w in SCREEN_WORDS[name] if w not in english] == []


@pytest.mark.parametrize("code", params())
@pytest.mark.parametrize("name", sorted(SCREEN_WORDS))
def test_no_english_word_of_the_screen_is_left(screens, name, code):
    english, translated = screens[name]("en"), screens[name](code)
    left = english_left(english, translated, code, SCREEN_WORDS[name],
                        ignore=NOT_MARKED_YET.get(name, []))
    assert left == [], f"{name} in {code}: English left: {left}\n{translated}"
