"""Forms: every raw value of any Django form checked (``CleanInputMixin``) before the form's
fields see it, and a refused one reported at its field.

Numbers typed by a person (a count, "per points") are ASCII digits with an optional sign and
spaces around them (trimmed); a hidden number (the hand's number, written by the page) is
read as a parameter is (``read_number``): the digits 0-9 and nothing else."""

from __future__ import annotations

import unicodedata

from django import forms
from django.utils import translation
from django.utils.translation import gettext

from .. import limits
from .local import amount_example
from .text import _trim, bad_character, contains_text
from .values import _DECIMAL_CHARACTERS, is_ascii_number, is_plain_int


def whole_number_text(what: str) -> str:
    return gettext("%(what)s: write a whole number with the digits 0-9, like 25.") % {
        "what": what}


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


def check_form_value(field: forms.Field, name: str, raw: str) -> tuple[str, str | None]:
    """(the value to give the field, a problem or None) for one raw form value."""
    widget = field.widget
    label = _label(field, name)
    too_long = limits.field_bytes_problem(label, raw)  # before anything reads the text
    if too_long:
        return "", too_long
    if isinstance(widget, forms.PasswordInput):
        return raw, None  # a password is taken as typed (Django refuses NUL in it)
    bad = bad_character(raw, multiline=isinstance(widget, forms.Textarea))
    if bad:
        return "", contains_text(label, bad)
    value = _trim(unicodedata.normalize("NFC", raw))
    kind = _numeric_kind(field)
    if kind == "int" and raw and isinstance(widget, forms.HiddenInput) \
            and not is_ascii_number(raw):  # a page's own number, as a parameter's
        return "", whole_number_text(label)
    if kind == "int" and value and not is_plain_int(value):
        return "", whole_number_text(label)
    if kind == "decimal" and value and not _DECIMAL_CHARACTERS.fullmatch("".join(value.split())):
        # (the field itself reads "0,05" and says why "1,000" is ambiguous)
        example = amount_example(translation.to_locale(translation.get_language() or "en"),
                                 large=False)
        return "", gettext("%(what)s: write an amount with the digits 0-9, like %(example)s.") \
            % {"what": label, "example": example}
    if isinstance(field, forms.DateField | forms.DateTimeField | forms.TimeField) \
            and not value.isascii():
        return "", gettext("%(what)s: write the date with the digits 0-9, like 2025-11-21.") \
            % {"what": label}
    return value, None


class CleanInputMixin:
    """For any Django form: every raw value goes through ``check_form_value`` before the
    fields see it. A refused value is reported at its field (only that message) and the
    field is left out of ``cleaned_data``; the form is drawn again with what was typed."""

    def full_clean(self):
        problems: dict[str, str] = {}
        if not self.is_bound:
            return super().full_clean()
        typed = self.data
        self.data = self._cleaned_input(problems)
        try:
            super().full_clean()
        finally:
            self.data = typed
        if problems and hasattr(self, "cleaned_data"):
            for name, message in problems.items():
                self.cleaned_data.pop(name, None)
                self._errors[name] = self.error_class([message], renderer=self.renderer)

    def _cleaned_input(self, problems: dict[str, str]):
        data = self.data.copy()
        getlist = getattr(data, "getlist", None)
        for name, field in self.fields.items():
            key = self.add_prefix(name)
            keys = [key] + [k for k in data if isinstance(k, str) and k.startswith(key + "_")
                            and isinstance(field.widget, forms.MultiWidget)]
            for data_key in keys:
                if data_key not in data:
                    continue
                values = getlist(data_key) if getlist else [data[data_key]]
                cleaned = []
                for raw in values:
                    if not isinstance(raw, str):
                        cleaned.append(raw)
                        continue
                    value, problem = check_form_value(field, name, raw)
                    if problem and name not in problems:
                        problems[name] = problem
                    cleaned.append(value)
                if getlist:
                    data.setlist(data_key, cleaned)
                else:
                    data[data_key] = cleaned[0] if len(cleaned) == 1 else cleaned
        return data
