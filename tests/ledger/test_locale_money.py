"""Issue 22, money by locale: one formatter (``presentation.money.format_money``) writes
every amount as CLDR says for the locale (Babel): thousands separators, the decimal comma,
the currency's symbol and its place, the sign; the currency's minor units are the core's.
Typed amounts are read the same way, and one that could be read two ways is refused."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest
from django import forms
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.cleaning import Refused, read_amount
from ledger.forms.fields import stake_field
from ledger.models import Session
from ledger.presentation.dates import format_clock, format_day, format_moment
from ledger.presentation.money import MINUS, format_money
from ledger.presentation.refusals import refusal_words
from ledger.templatetags import money as filters

NBSP, NNBSP = "\u00a0", "\u202f"  # CLDR's no-break space and narrow no-break space
LOCALES = ("en", "de", "es", "fr", "ru")


# -- written --------------------------------------------------------------------------------

@pytest.mark.parametrize(("locale", "currency", "expected"), [
    ("de", "EUR", f"1.234,50{NBSP}€"),
    ("fr", "EUR", f"1{NNBSP}234,50{NBSP}€"),
    ("en_US", "USD", "$1,234.50"),
    ("en", "USD", "$1,234.50"),
    ("ru", "RUB", f"1{NBSP}234,50{NBSP}₽"),
    ("es", "EUR", f"1.234,50{NBSP}€"),
    ("en", "EUR", "€1,234.50"),
    ("de", "USD", f"1.234,50{NBSP}$"),
])
def test_an_amount_in_each_locale(locale, currency, expected):
    assert format_money(Decimal("1234.5"), currency, show_currency=True,
                        locale=locale) == expected


def test_negative_and_signed_amounts_keep_the_sign_where_the_locale_puts_it():
    assert format_money("-1234.50", "USD", show_currency=True, locale="en") == \
        f"{MINUS}$1,234.50"
    assert format_money("-1234.50", "EUR", show_currency=True, locale="de") == \
        f"{MINUS}1.234,50{NBSP}€"
    assert format_money("12000.00", sign=True, locale="de") == "+12.000,00"
    assert format_money("12000.00", sign=True, locale="fr") == f"+12{NNBSP}000,00"
    assert format_money("-2.02", locale="ru") == f"{MINUS}2,02"
    assert format_money("-2.02", minus="-", locale="en") == "-2.02"
    assert format_money("0.00", sign=True, locale="de") == "0,00"  # zero has no sign


def test_a_symbol_of_letters_stands_apart_from_the_digits():
    """CLDR's currency spacing (Babel leaves it out): "CHF 1.00", not "CHF1.00"; a symbol
    of signs keeps to its number ("$1.00", "CA$1.00")."""
    assert format_money("1.00", "CHF", show_currency=True, locale="en") == f"CHF{NBSP}1.00"
    assert format_money("-0.5", "KWD", show_currency=True, locale="en") == \
        f"{MINUS}KWD{NBSP}0.500"
    assert format_money("1.00", "CAD", show_currency=True, locale="en") == "CA$1.00"
    assert format_money("1.00", "CHF", show_currency=True, locale="de") == f"1,00{NBSP}CHF"


@pytest.mark.parametrize(("code", "stake", "ante", "pays"), [
    ("en", "$0.05 per point", "Ante $1.00 each", "Bob pays Ann $1,234.50"),
    ("de", f"0,05{NBSP}$ pro Punkt", f"Einsatz 1,00{NBSP}$ je Spieler",
     f"Bob zahlt Ann 1.234,50{NBSP}$"),
    ("fr", f"0,05{NBSP}$US par point", f"Mise 1,00{NBSP}$US chacun",
     f"Bob paie Ann 1{NNBSP}234,50{NBSP}$US"),
])
def test_the_sentences_write_money_with_its_symbol(code, stake, ante, pays):
    """Issue 22: the stake, the ante and who pays whom carry the currency's symbol where
    the language writes it, never the code after the number ("0.05 USD per point")."""
    from ledger.presentation.stakes import ante_sentence, stake_sentence
    with translation.override(code):
        assert stake_sentence("0.05", "USD") == stake
        assert ante_sentence("1.00", "USD", each=True) == ante
        template = "{% load i18n money %}{% blocktranslate with payer='Bob' payee='Ann' " \
            "amount=a|money:'USD' %}{{ payer }} pays {{ payee }} {{ amount }}" \
            "{% endblocktranslate %}"
        assert Template(template).render(Context({"a": "1234.50"})) == pays


def test_the_minor_units_are_the_cores():
    """JPY has none, KWD three, whatever CLDR's own currency digits say."""
    assert format_money(123456, "JPY", minor=True, show_currency=True, locale="en") == \
        "¥123,456"
    assert format_money(1234500, "KWD", minor=True, locale="de") == "1.234,500"
    assert format_money(Decimal("5"), "EUR", locale="fr") == "5,00"
    assert format_money("0.0125", "USD", locale="en") == "0.0125"  # a stake's 4 decimals


def test_the_language_in_force_is_the_default(rf):
    with translation.override("de"):
        assert format_money("1234.50", "EUR", show_currency=True) == f"1.234,50{NBSP}€"
        assert filters.money("1234.50", "EUR") == f"1.234,50{NBSP}€"
        assert filters.signed("-1234.50") == f"{MINUS}1.234,50"
    with translation.override("en"):
        assert filters.money("1234.50", "USD") == "$1,234.50"
        assert filters.signed("12000.00") == "+12,000.00"


def test_files_keep_the_plain_number_and_scores_are_grouped_as_the_language_groups():
    with translation.override("de"):
        assert format_money(-123450, "EUR", minor=True, minus="-", plain=True) == "-1234.50"
        # Hollywood's net points, as German writes a number (issue 37.8: "+1440" read as
        # English beside the grouped money)
        assert format_money(1440, sign=True) == "+1.440"
        assert format_money("abc") == "abc"


# -- dates: one formatter, the locale's words -----------------------------------------------

def test_dates_and_times_in_each_locale():
    day = datetime.date(2026, 11, 23)
    moment = datetime.datetime(2026, 11, 25, 11, 47, tzinfo=datetime.UTC)
    assert format_day(day, locale="en") == "Monday, November 23, 2026"
    assert format_day(day, locale="de") == "Montag, 23. November 2026"
    assert format_day(day, locale="fr") == "lundi 23 novembre 2026"
    assert format_day(day, locale="es") == "lunes, 23 de noviembre de 2026"
    assert format_day(day, locale="ru") == "понедельник, 23 ноября 2026\u202fг."
    assert format_moment(moment, locale="de") == "25.11.2026, 11:47"
    assert format_clock(moment, locale="en") == "11:47\u202fAM"


# -- read -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("typed", "locale", "expected"), [
    ("1.234,50", "de", "1234.50"),
    ("1 234,50", "fr", "1234.50"),          # a plain space
    (f"1{NNBSP}234,50", "fr", "1234.50"),   # as CLDR writes it
    (f"12{NBSP}345,67", "ru", "12345.67"),
    ("1.234.567,5", "es", "1234567.5"),
    ("1,234.50", "en", "1234.50"),
    ("1,234,567", "en", "1234567"),
    ("0,05", "en", "0.05"),                 # a phone's decimal comma
    ("0.05", "de", "0.05"),                 # a phone's decimal point
    ("0,125", "en", "0.125"),               # no thousands start with 0
    ("1,234", "fr", "1.234"),               # the French decimal comma
    ("2,5", "en", "2.5"),
])
def test_an_amount_typed_in_each_locale(typed, locale, expected):
    assert read_amount(typed, what="Stake", locale=locale) == Decimal(expected)


@pytest.mark.parametrize(("typed", "locale", "message"), [
    ("1,234", "en", 'Stake: "1,234" could mean 1234 or 1.234: write it without the comma, '
                    "or with a point."),
    ("1.234", "de", 'Stake: "1.234" could mean 1234 or 1,234: write it without the point, '
                    "or with a comma."),
    ("1.234", "fr", 'Stake: "1.234" could mean 1234 or 1,234: write it without the point, '
                    "or with a comma."),
    ("1.23.4", "de", "Stake: '1.23.4' is not an amount as it is written here; write it "
                     "like 0,05 or 1.234,50."),
    ("1 23,5", "fr", "Stake: '1 23,5' is not an amount as it is written here; write it "
                     f"like 0,05 or 1{NNBSP}234,50."),
    ("two", "en", "Stake: write an amount with the digits 0-9, like 0.05 or 1,234.50."),
])
def test_an_ambiguous_or_wrong_amount_is_refused_never_guessed(typed, locale, message):
    with pytest.raises(Refused) as refused:
        read_amount(typed, what="Stake", locale=locale)
    assert refusal_words(refused.value) == message


_CURRENCIES = {"EUR": 2, "USD": 2, "RUB": 2, "KWD": 3}


@settings(max_examples=300, deadline=None)
@given(locale=st.sampled_from(LOCALES), currency=st.sampled_from(sorted(_CURRENCIES)),
       units=st.integers(min_value=-10 ** 12, max_value=10 ** 12))
def test_what_is_written_is_read_back(locale, currency, units):
    """Format then parse gives the same amount, in every shipped locale, for any amount of a
    currency with minor units."""
    written = format_money(units, currency, minor=True, locale=locale)
    amount = Decimal(units).scaleb(-_CURRENCIES[currency])
    assert read_amount(written, what="Amount", locale=locale) == amount


# -- the stake fields read the page's language ----------------------------------------------

def test_the_stake_field_reads_and_shows_amounts_in_the_language_in_force():
    field = stake_field("Stake")
    with translation.override("de"):
        assert field.clean("1.234,50") == Decimal("1234.50")
        assert field.prepare_value(Decimal("0.0500")) == "0,0500"
        assert field.prepare_value("1234.50") == "1234,50"
        with pytest.raises(forms.ValidationError) as refused:
            field.clean("1.234")
        assert refused.value.messages == [  # in German (the catalog); the label is the caller's
            "Stake: „1.234“ kann 1234 oder 1,234 heißen: ohne Punkt schreiben oder mit Komma."]
    with translation.override("fr"):
        assert field.clean("1 234,50") == Decimal("1234.50")
    with translation.override("en"):
        assert field.clean("1,234.50") == Decimal("1234.50")
        assert field.prepare_value("0.05") == "0.05"


@pytest.mark.django_db
def test_a_stake_typed_on_a_german_page(logged_in, table):
    url = reverse("ledger:table_detail", args=[table.pk])
    data = {"new_session": "1", "date": "2026-11-23", "currency": "EUR", "per_points": "1"}
    refused = logged_in.post(url, data | {"rate": "1.000"}, HTTP_ACCEPT_LANGUAGE="de")
    assert refused.status_code == 422
    # the refusal speaks the page's language (the German catalog), its field's label too
    assert "Einsatz: „1.000“ kann 1000 oder 1,000 heißen" in refused.content.decode()
    assert not Session.objects.exists()
    made = logged_in.post(url, data | {"rate": "1.234,50"}, HTTP_ACCEPT_LANGUAGE="de")
    assert made.status_code == 302
    assert Session.objects.get(table=table).rate == Decimal("1234.50")
