"""A game's title names its preset in the page's language: the session report printed "Gin
(standard)" and "Джин (standard)" on German and Russian paper, the record's own English
word; English keeps it as it has always been written."""

from __future__ import annotations

import pytest
from django.utils import translation

from ledger.presentation.words import variant_title


@pytest.mark.parametrize(("code", "title"), [
    ("en", "Gin (standard)"), ("de", "Gin (Standard)"), ("ru", "Джин (Стандарт)"),
    ("fr", "Gin (Standard)"), ("es", "Gin (Estándar)")])
def test_the_preset_is_named_in_the_language(code, title):
    with translation.override(code):
        assert variant_title("gin", "standard") == title


def test_a_variant_without_presets_has_no_preset_in_its_title():
    with translation.override("de"):
        assert variant_title("cap-it", "standard") == "CAP-IT"


def test_a_catalog_word_a_test_replaced_and_put_back_is_translated_again(monkeypatch):
    """monkeypatch.setitem puts back the plain string it read: the table takes its marked
    words back, so later tests in the same process still read them translated (a German
    sheet printed "A tie is an undercut" after test_one_wording ran in the same worker)."""
    from ledger.presentation.catalog import SETTING_LABELS, VARIANT_NAMES

    with monkeypatch.context() as patch:
        patch.setitem(SETTING_LABELS, "undercut_on_tie", "Ties go to the undercutter")
        patch.setitem(VARIANT_NAMES, "gin", "Straight gin")
        assert SETTING_LABELS["undercut_on_tie"] == "Ties go to the undercutter"
    with translation.override("de"):
        assert SETTING_LABELS["undercut_on_tie"] == "Gleichstand ist Unterbieten"
    with translation.override("ru"):
        assert VARIANT_NAMES["gin"] == "Джин"
