"""The footer's language switcher names each language in its own words, whatever the page's
language: a German page offered "Englisch" (Django's catalog translates the name "English")
beside "Deutsch", "Español"..., so a visitor who reads only English could not find it."""

from __future__ import annotations

import pytest

from tests.pages import Page

pytestmark = pytest.mark.django_db

OWN_NAMES = {"en": "English", "de": "Deutsch", "es": "Español", "fr": "Français",
             "ru": "Русский"}


@pytest.mark.parametrize("code", list(OWN_NAMES))
def test_each_language_is_offered_in_its_own_words(client, code):
    page = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE=code)
    options = Page(page).all("option", lang=True)
    assert {o.get("value"): "".join(o.itertext()).strip() for o in options} == OWN_NAMES
    assert [o.get("value") for o in options if o.get("selected") is not None] == [code]
