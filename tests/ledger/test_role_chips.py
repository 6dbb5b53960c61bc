"""The next hand's matchup marks the player in the box and the captain with the catalog's
role words (``presentation.words.role_chip``), not words of its own."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ledger.presentation.words import role_chip
from tests.pages import text

from .conftest import load_case, start_empty

pytestmark = pytest.mark.django_db


def test_the_chips_are_the_catalogs_role_words():
    assert role_chip("box") == {"word": "in the box", "css": "chip chip-box"}
    assert role_chip("captain") == {"word": "captain", "css": "chip"}
    assert role_chip("opponent") is None and role_chip(None) is None


def test_the_box_game_marks_who_is_in_the_box_and_the_captain(logged_in, session, keeper):
    record = load_case("box-rotation")
    game = start_empty(session, keeper, record)
    page = logged_in.get(reverse("ledger:game_detail", args=[game.pk]))
    html = page.content.decode()
    assert '<span class="chip chip-box">in the box</span>' in html
    assert '<span class="chip">captain</span>' in html
    assert "in the box" in text(page)
