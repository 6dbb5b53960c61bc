"""The screens of a module drawn once in each language, for all of its tests.

The translation modules check many (screen, language) pairs, each test reading one or two
pages. Made per test, the same table, evening and games were written again for every test
and the English page drawn again for each language compared with it. ``drawn_once`` makes
the module's ``screens`` fixture from the builder it had: the records are written and every
screen drawn in English and in each translated language once, inside a transaction rolled
back before the first test (as tests/scoresheets/test_paper_in_each_language.py does), and
the tests read what was drawn.

A module using it keeps its tests on one xdist worker (``xdist_group``), or each worker that
got one of its tests would draw them all again."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from django.utils import translation

from .catalogs import TRANSLATED

LANGUAGES = ["en", *TRANSLATED]


def drawn_once(build: Callable[[Client, object], dict]):
    """A module-scoped ``screens`` fixture: name -> function(language) -> what ``build``'s
    function for that screen returned in that language, every one drawn before the tests.
    ``build(client, keeper)`` writes the records (as the user "keeper", whom ``client`` may
    log in) and returns name -> function(language) -> the page."""

    @pytest.fixture(scope="module", name="screens")
    def screens(django_db_setup, django_db_blocker) -> dict:
        with django_db_blocker.unblock(), transaction.atomic():
            keeper = get_user_model().objects.create_user("keeper", password="pw")
            drawn = {name: {code: draw(code) for code in LANGUAGES}
                     for name, draw in build(Client(), keeper).items()}
            transaction.set_rollback(True)
        # what the requests left behind: the language they activated, the cache's counts
        translation.activate(settings.LANGUAGE_CODE)
        cache.clear()
        return {name: pages.__getitem__ for name, pages in drawn.items()}

    screens.__doc__ = build.__doc__
    return screens
