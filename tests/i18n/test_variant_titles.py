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
