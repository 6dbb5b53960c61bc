"""Issue 41: the game page hands the phone the words and money formats it needs to say a game
it scored itself with no connection (ledger/presentation/phone.py, ``#phone-words``): the
next hand's panel, the game's end and the core's refusals, in the page's language, from the
catalogs (static/ledger/queue/scoring.js writes no word of its own)."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse
from django.utils import translation

from ledger import services
from ledger.presentation.phone import money_format, phone_words
from tests.factories import gin_game

pytestmark = pytest.mark.django_db


def words_in(html: str) -> dict | None:
    found = re.search(r'<script id="phone-words" type="application/json">(.*?)</script>',
                      html, re.S)
    return json.loads(found.group(1)) if found else None


def test_the_game_page_hands_the_phone_its_words_in_the_pages_language(client, session, keeper):
    game = services.game_start(session=session, variant="box", players=["P", "Q", "R"],
                               started_by=keeper, preset="simple")
    client.force_login(keeper)
    html = client.get(reverse("ledger:game_detail", args=[game.pk]),
                      HTTP_ACCEPT_LANGUAGE="de").content.decode()
    words = words_in(html)
    assert words is not None, "no phone words on the game page"
    assert words["lang"] == "de"
    nxt = words["next"]
    assert nxt["hand"] == "Spiel {number}"  # the panel's own title (_next.html)
    with translation.override("de"):
        from ledger.presentation.words import role_chip
        assert nxt["chips"]["box"] == role_chip("box")
    assert "sits_out" not in nxt["playing"] and nxt["playing"][0] == "box"
    assert words["end"]["winners"]["P"] == "P gewinnt."
    assert words["currency"] == session.currency


def test_no_phone_words_for_a_finished_game(client, session, keeper):
    ended = {"knocker": "Ann", "gin": True, "deadwood": {"Ann": 0, "Bob": 98}}
    game = gin_game(session, keeper, preset="standard", hands=[ended])
    client.force_login(keeper)
    html = client.get(reverse("ledger:game_detail", args=[game.pk])).content.decode()
    assert "Game over" in html
    assert words_in(html) is None


@pytest.mark.parametrize("language, currency, group, decimal", [
    ("en", "USD", ",", "."), ("de", "EUR", ".", ","), ("fr", "EUR", "\u202f", ","),
    ("ru", "RUB", "\u00a0", ","), ("es", "EUR", ".", ",")])
def test_money_is_handed_over_as_the_locales_pattern(language, currency, group, decimal):
    parts = money_format(currency, language)
    assert parts["plain"]["decimal"] == decimal and parts["currency"]["decimal"] == decimal
    assert parts["plain"]["group"] == group
    assert parts["minor"] == 2
    with translation.override(language):
        words = phone_words({"totals": {}, "facts": {}, "players": []}, currency)
    assert words["money"] == parts


@pytest.mark.parametrize("language", ["en", "de", "ru"])
def test_hollywoods_open_games_are_handed_over_in_each_plural_form(language):
    """The phone fills in the sentence of the count's plural form (Intl.PluralRules) with the
    games joined by "and": the same words the server's panel says (flash.open_games_text)."""
    from ledger.presentation.flash import open_games_text
    from ledger.presentation.phone import open_games_words
    from ledger.presentation.queue import plural_samples

    with translation.override(language):
        forms = open_games_words()
        joined = phone_words({"totals": {}}, "USD")["next"]["and"]
        said = open_games_text({"columns": [{"number": 1, "complete": True},
                                            {"number": 2, "complete": False},
                                            {"number": 3, "complete": False}]})
    assert set(forms["still"]) == set(plural_samples(language)) == set(forms["over"])
    category = {"en": "other", "de": "other", "ru": "few"}[language]  # two games
    phone = (forms["still"][category].replace("{games}", joined.replace("{names}", "2")
                                                            .replace("{last}", "3"))
             + " " + forms["over"]["one"].replace("{games}", "1") + ".")
    assert phone == said
    assert said.startswith({"en": "Still open: games 2", "de": "Noch offen: Partien 2",
                            "ru": "Ещё идут: партии 2"}[language])
