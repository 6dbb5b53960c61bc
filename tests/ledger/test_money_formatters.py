"""Issue 42: money formatters are made once per language, currency and number of decimals,
not once per amount (building Babel's pattern for each amount was a third of the book page).
What they write is what Babel writes, character for character."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from babel.numbers import NumberPattern
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.presentation import money
from ledger.presentation.locales import babel_locale
from ledger.presentation.money import format_money

LOCALES = ("en", "de", "es", "fr", "ru", "en_IN", "de_CH", "fr_CA", "ar", "hi")
CURRENCIES = ("", "USD", "EUR", "RUB", "CHF", "JPY", "KWD", "GBP", "INR", "XYZ")


def amounts(rng, n):
    for _ in range(n):
        digits = rng.choice((1, 2, 3, 4, 6, 8, 12, 25))
        whole = rng.randrange(10 ** digits)
        places = rng.choice((0, 1, 2, 3))
        text = str(whole) if not places else f"{whole}.{rng.randrange(10 ** places):0{places}d}"
        yield Decimal(rng.choice(("", "-")) + text)


@pytest.mark.parametrize("locale", LOCALES)
def test_the_formatter_writes_what_babel_writes(locale):
    rng = random.Random(locale)
    where = babel_locale(locale)
    for currency in CURRENCIES:
        for places in (0, 1, 2, 3):
            for grouped in (True, False):
                for number in [Decimal(0), Decimal("-0"), *amounts(rng, 25)]:
                    expected = money._babel_localized(number, places, where, currency,
                                                      grouped=grouped)
                    assert money._localized(number, places, where, currency,
                                            grouped=grouped) == expected


@settings(max_examples=300, deadline=None)
@given(st.decimals(allow_nan=False, allow_infinity=False, places=3,
                   min_value=Decimal("-1e15"), max_value=Decimal("1e15")),
       st.sampled_from(LOCALES), st.sampled_from(CURRENCIES), st.integers(0, 3))
def test_the_formatter_writes_what_babel_writes_hypothesis(number, locale, currency, places):
    where = babel_locale(locale)
    assert (money._localized(number, places, where, currency)
            == money._babel_localized(number, places, where, currency))


def test_a_page_of_amounts_builds_no_pattern_per_amount(monkeypatch):
    """Babel's pattern is not applied once an amount: the formatter is made once for the
    language and currency (the first amount may build it; the next hundred do not)."""
    for language in ("en", "de"):
        with translation.override(language):
            format_money("1.00", "EUR", show_currency=True)
            format_money("-1.00", "USD", sign=True)
    applied = []
    original = NumberPattern.apply
    monkeypatch.setattr(NumberPattern, "apply",
                        lambda self, *a, **k: applied.append(1) or original(self, *a, **k))
    written = []
    for language in ("en", "de"):
        with translation.override(language):
            for cents in range(-50, 50):
                written.append(format_money(f"{cents * 1237 / 100:.2f}", "EUR",
                                            show_currency=True))
                written.append(format_money(f"{cents * 37 / 100:.2f}", "USD", sign=True))
    assert applied == []
    assert written[:2] == ["−€618.50", "−18.50"]
    assert "−618,50\u00a0€" in written and "+18,13" in written
