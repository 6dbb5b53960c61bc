"""Forms: every raw value of any Django form checked before the form's fields see it
(``ledger.forms.clean_input.CleanInputMixin`` reports a refused one at its field, in words).

Numbers typed by a person (a count, "per points") are ASCII digits with an optional sign and
spaces around them (trimmed); a hidden number (the hand's number, written by the page) is
read as a parameter is (``read_number``): the digits 0-9 and nothing else. A refused value
is a ``Refused`` (a code and its facts); the presentation words it."""

from __future__ import annotations

import unicodedata

from django import forms
from django.utils import translation

from .. import limits
from .base import Refused
from .text import _trim, bad_character, contains
from .values import _DECIMAL_CHARACTERS, is_ascii_number, is_plain_int


def whole_number(what: str) -> Refused:
    return Refused(code="form_whole_number", what=what)


def _label(field: forms.Field, name: str) -> str:
    return str(field.label or name.replace("_", " ").capitalize())


def _numeric_kind(field: forms.Field) -> str | None:
    """'int', 'decimal' or None: how a field's raw text must be written."""
    if isinstance(field, forms.DecimalField | forms.FloatField):  # IntegerField's subclasses
        return "decimal"
    if isinstance(field, forms.IntegerField):
        return "int"
    mode = getattr(field.widget, "attrs", {}).get("inputmode")
    return {"numeric": "int", "decimal": "decimal"}.get(mode)


def check_form_value(field: forms.Field, name: str, raw: str) -> tuple[str, Refused | None]:
    """(the value to give the field, the refusal or None) for one raw form value."""
    widget = field.widget
    label = _label(field, name)
    too_long = limits.field_bytes_problem(label, raw)  # before anything reads the text
    if too_long:
        return "", too_long
    if isinstance(widget, forms.PasswordInput):
        return raw, None  # a password is taken as typed (Django refuses NUL in it)
    bad = bad_character(raw, multiline=isinstance(widget, forms.Textarea))
    if bad:
        return "", contains(label, bad)
    value = _trim(unicodedata.normalize("NFC", raw))
    kind = _numeric_kind(field)
    if kind == "int" and raw and isinstance(widget, forms.HiddenInput) \
            and not is_ascii_number(raw):  # a page's own number, as a parameter's
        return "", whole_number(label)
    if kind == "int" and value and not is_plain_int(value):
        return "", whole_number(label)
    if kind == "decimal" and value and not _DECIMAL_CHARACTERS.fullmatch("".join(value.split())):
        # (the field itself reads "0,05" and says why "1,000" is ambiguous)
        return "", Refused(code="amount_digits", what=label, large=False,
                           locale=translation.to_locale(translation.get_language() or "en"))
    if isinstance(field, forms.DateField | forms.DateTimeField | forms.TimeField) \
            and not value.isascii():
        return "", Refused(code="form_date_digits", what=label)
    return value, None
