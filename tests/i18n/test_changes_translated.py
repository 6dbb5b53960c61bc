"""A game's corrections speak the reader's language (issue 22): the "Stakes and rules"
screen's stake as it stands, the list of changes on the game page and the message after a
change, with amounts written as the language writes them. These words were English in
``presentation/changes.py`` until the German page showed "Changed: Stake 0.05 → 0.10"."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ledger import services
from tests.factories import gin_game
from tests.pages import text

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(keeper):
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="EUR", rate="0.05",
                                      created_by=keeper)
    game = gin_game(session, keeper, preset="standard")
    services.game_change_stake(game=game, changed_by=keeper, rate="0.10",
                               player_stakes={"Bob": "0.02"}, reason="agreed")
    services.game_change_rules(game=game, changes={"gin_bonus": 20}, changed_by=keeper,
                               reason="agreed")
    return game


def test_the_changes_in_english(logged_in, game):
    page = text(logged_in.get(reverse("ledger:game_detail", args=[game.pk])))
    assert "Stake 0.05 → 0.10" in page
    assert "Bob's own stake same as the game → 0.02" in page
    settings = text(logged_in.get(reverse("ledger:game_settings", args=[game.pk])))
    assert "Now: €0.10 per point; own stakes: Bob 0.02" in settings


@pytest.mark.parametrize(("code", "words"), [
    ("de", ["Einsatz 0,05 → 0,10", "Eigener Einsatz von Bob wie die Partie → 0,02",
            "Jetzt: 0,10 € pro Punkt; eigene Einsätze: Bob 0,02"]),
    ("fr", ["0,05 → 0,10", "Actuellement : 0,10 € par point ; mises propres : Bob 0,02"]),
])
def test_the_changes_in_another_language(logged_in, game, code, words):
    pages = [text(logged_in.get(reverse(name, args=[game.pk]), HTTP_ACCEPT_LANGUAGE=code))
             for name in ("ledger:game_detail", "ledger:game_settings")]
    said = " ".join(pages)  # (the no-break spaces read as spaces)
    missing = [w for w in words if w not in said]
    assert missing == [], said[:3000]
    for english in ("Stake 0.05", "same as the game", "own stakes", "per point"):
        assert english not in said


def test_the_evenings_stake_is_written_the_languages_way(logged_in, game):
    """The evening's head ("0,05 € pro Punkt"): the stake filter hands the sentence the
    record's decimal text; handed the German "0,05" it could not read it as a number and
    wrote "0,05 EUR pro Punkt"."""
    url = reverse("ledger:session_detail", args=[game.session.pk])
    assert "0,05 € pro Punkt" in text(logged_in.get(url, HTTP_ACCEPT_LANGUAGE="de"))
    assert "€0.05 per point" in text(logged_in.get(url))
