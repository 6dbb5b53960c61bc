"""Small pieces every form uses: input attributes for a phone's keypad, count and stake
fields, name keys, and the reason form."""

from __future__ import annotations

from decimal import Decimal

from babel.numbers import format_decimal
from django import forms
from django.core.exceptions import ValidationError

from ledger.cleaning import (
    MAX_PER_POINTS,
    Refused,
    is_plain_decimal,
    is_plain_int,
    name_key,
    read_amount,
    reserved_name,
)
from ledger.forms.clean_input import CleanInputMixin
from ledger.presentation.locales import babel_locale
from ledger.presentation.refusals import refusal_words

# kept here for the forms that import them
__all__ = ["MAX_PER_POINTS", "name_key", "reserved_name"]

NUMERIC = {"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off",
           "enterkeyhint": "next"}
DECIMAL = {"inputmode": "decimal", "autocomplete": "off"}
CARDS_INPUT = {"autocomplete": "off", "autocapitalize": "characters", "autocorrect": "off",
               "spellcheck": "false", "enterkeyhint": "next", "class": "cards-text",
               "placeholder": "e.g. AS 2S 3S 10H KD"}

# -- small helpers ---------------------------------------------------------------------------


class DateInput(forms.DateInput):
    """A browser's date picker (``<input type="date">``). Its value is always ISO 8601
    ("2026-11-28"), whatever the page's language: the browser drops any other, and Django's
    own date input writes the language's format ("28.11.2026" in German), which left a new
    evening's date empty in every language but English. The picker shows the date the
    device's way; what it sends back is ISO, which every language's form reads."""

    input_type = "date"

    def __init__(self, attrs=None):
        super().__init__(attrs, format="%Y-%m-%d")


class SegmentedRadio(forms.RadioSelect):
    """Radio buttons drawn as big tappable segments (templates/ledger/_seg.html). ``group_name``:
    the group's name for a screen reader when its label alone is not enough (each table's)."""

    group_name = ""

    def __init__(self, *args, columns: int = 0, **kwargs):
        super().__init__(*args, **kwargs)
        self.columns = columns


def count_field(label: str, required: bool = False) -> forms.CharField:
    """A deadwood or points count: a numeric keypad on phones, whole numbers only."""
    return forms.CharField(label=label, required=required, max_length=3,
                           widget=forms.TextInput(attrs={**NUMERIC, "class": "count"}))


def parse_count(value: str) -> int | None:
    value = (value or "").strip()
    if value == "":
        return None
    if not is_plain_int(value) or not value.isdigit():  # '²' and '١' are digits to Python
        raise ValueError(value)
    return int(value)


class MoneyField(forms.DecimalField):
    """An amount of money as people type it in the page's language
    (``ledger.cleaning.read_amount``): "1.234,50" in German, "1 234,50" in French,
    "1,234.50" in English, and "0,05" or "0.05" anywhere (a phone's keypad may give either
    mark). One that could be read two ways ("1,000" in English: a thousand, or one?) is
    refused at the field with both readings, never guessed. The amount the form holds is
    shown back in the same locale, so that sending the form again reads the same amount."""

    def to_python(self, value):
        if isinstance(value, str) and value.strip():
            try:
                value = read_amount(value, what=str(self.label or "Amount"),
                                    locale=babel_locale())
            except Refused as exc:
                raise ValidationError(refusal_words(exc), code="invalid") from None
        return super().to_python(value)

    def prepare_value(self, value):
        """A stored amount (Decimal("0.05"), "1234.50") as the locale writes it, to the
        decimals it has and without grouping: "0,05" and "1234,50" in German."""
        if isinstance(value, str) and is_plain_decimal(value.strip()):
            value = Decimal(value.strip())
        if isinstance(value, Decimal) and value.is_finite():
            text = format(value, "f")
            places = len(text.partition(".")[2])
            return format_decimal(value, format="0." + "0" * places if places else "0",
                                  locale=babel_locale())
        return super().prepare_value(value)


def stake_field(label: str, **kwargs) -> MoneyField:
    """A stake: more than nothing, or empty for no money; a refusal names the field."""
    errors = {
        "min_value": f"{label}: an amount above 0, like 0.05; leave it empty to play for "
                     "no money.",
        "max_digits": f"{label}: at most 5 digits before the decimal mark.",
        "max_decimal_places": f"{label}: at most 4 decimals, like 0.0125.",
        "max_whole_digits": f"{label}: at most 5 digits before the decimal mark.",
        **kwargs.pop("error_messages", {}),
    }
    return MoneyField(label=label, required=False, min_value=Decimal("0.0001"),
                      max_digits=9, decimal_places=4, error_messages=errors,
                      widget=forms.TextInput(attrs=DECIMAL), **kwargs)


DRAW = "-draw-"  # (ledger.cleaning.RESERVED_NAMES)
NOBODY = "-nobody-"


class ReasonForm(CleanInputMixin, forms.Form):
    reason = forms.CharField(max_length=300, required=False)


