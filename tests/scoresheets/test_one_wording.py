"""One stake sentence and one set of setting labels (issue 20): the screen and the paper
take them from the one place in the presentation layer, so that changing it there changes
both. (The hands' CSV carries neither a stake nor the settings.)"""

from __future__ import annotations

import pytest
from django.urls import reverse

from ledger.presentation import stakes
from ledger.presentation.catalog import SETTING_LABELS
from scoresheets import documents
from tests.pages import text

from .conftest import demo_game, pdf_text

# The words on the screen and on paper: the same on any engine (SQLite only in CI).
pytestmark = pytest.mark.engine_independent


def _words(value: str) -> str:
    return " ".join(value.split())


def _screen(client, game) -> str:
    return _words(text(client.get(reverse("ledger:game_settings", kwargs={"pk": game.pk}))))


def _paper(game) -> str:
    return _words(pdf_text(documents.game_sheet_pdf(game)[0]))


def _evening(client, session) -> str:
    return _words(text(client.get(reverse("ledger:session_detail", kwargs={"pk": session.pk}))))


@pytest.mark.django_db
def test_the_screen_and_the_paper_say_the_same_stake_sentence(logged_in, demo):
    game = demo_game(demo, 1)  # gin at 0.01 USD
    sentence = stakes.stake_sentence("0.01", "USD")
    assert sentence == "$0.01 per point"
    assert f"Now: {sentence}" in _screen(logged_in, game)
    assert sentence in _evening(logged_in, demo)
    assert sentence in _paper(game)
    blank = _words(pdf_text(documents.blank_sheet_pdf(game)[0]))
    assert sentence in blank


@pytest.mark.django_db
def test_changing_the_stake_words_changes_the_screen_and_the_paper(logged_in, demo,
                                                                   monkeypatch):
    monkeypatch.setattr(stakes, "per_points_words",
                        lambda per_points=1: f"for every {per_points or 1} pt")
    game = demo_game(demo, 1)
    assert "Now: $0.01 for every 1 pt" in _screen(logged_in, game)
    assert "$0.01 for every 1 pt" in _evening(logged_in, demo)
    paper = _paper(game)
    assert "$0.01 for every 1 pt" in paper and "per point" not in paper


@pytest.mark.django_db
def test_one_label_per_setting_on_the_screen_and_the_paper(logged_in, demo, monkeypatch):
    game = demo_game(demo, 1)
    label = SETTING_LABELS["undercut_on_tie"]
    assert label == "A tie is an undercut"
    assert label in _screen(logged_in, game)
    assert f"{label} yes" in _paper(game) or f"{label} no" in _paper(game)
    assert "Tie on a knock" not in _paper(game)  # the panel's own short label is gone

    monkeypatch.setitem(SETTING_LABELS, "undercut_on_tie", "Ties go to the undercutter")
    screen = _screen(logged_in, game)
    paper = _paper(game)
    assert "Ties go to the undercutter" in screen and label not in screen
    assert "Ties go to the undercutter" in paper and label not in paper
    # the setup form of a new game reads the same label
    start = reverse("ledger:game_start", kwargs={"pk": demo.pk, "variant": "gin", "count": 2})
    page = _words(text(logged_in.get(start)))
    assert "Ties go to the undercutter" in page
