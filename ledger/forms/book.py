"""Forms of the book screens: reopen an evening, settle up the book, tidy a table."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ledger.cleaning import is_ascii_number
from ledger.forms.clean_input import CleanInputMixin


class ReopenForm(CleanInputMixin, forms.Form):
    reason = forms.CharField(
        max_length=300, label=_("Why reopen it?"),
        help_text=_("Kept with the voided settlement, with who and when."),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def clean_reason(self) -> str:
        reason = self.cleaned_data["reason"].strip()
        if not reason:
            raise ValidationError(_("Say why the evening is reopened."))
        return reason


class BookSettleForm(CleanInputMixin, forms.Form):
    """The outstanding payments the page showed (ids), so a stale page changes nothing."""

    currency = forms.CharField(max_length=3, widget=forms.HiddenInput)
    expected = forms.CharField(widget=forms.HiddenInput, required=False)

    def clean_expected(self) -> list[int]:
        raw = self.cleaned_data["expected"].strip()
        parts = [part.strip() for part in raw.split(",") if part.strip()]
        if not all(is_ascii_number(part) for part in parts):  # int() reads '١٢' as 12
            raise ValidationError(_("The page was damaged; open the book again."))
        return [int(part) for part in parts]


class TableRenameForm(CleanInputMixin, forms.Form):
    name = forms.CharField(max_length=100, label=_("Table name"),
                           widget=forms.TextInput(attrs={"autocomplete": "off"}))
