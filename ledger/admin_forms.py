"""The admin's forms clean input as the screens do (``ledger.cleaning``): no control or
invisible characters, players' names normalised and refused when they are another player's
written differently, ISO 4217 currencies."""

from __future__ import annotations

from django import forms

from .cleaning import (
    CleanInputMixin,
    Refused,
    clash_message,
    clean_currency,
    clean_name,
    clean_text,
    same_name,
)


class CleanModelForm(CleanInputMixin, forms.ModelForm):
    """Every raw value checked (see ``CleanInputMixin``) before the model's fields see it."""


class PlayerAdminForm(CleanModelForm):
    def clean_name(self) -> str:
        try:
            return clean_name(self.cleaned_data.get("name", ""), what="The name")
        except Refused as exc:
            raise forms.ValidationError(exc.message) from None

    def clean(self):
        data = super().clean()
        table = data.get("table")
        if table is None and self.instance.table_id:
            table = self.instance.table  # a change form (the table is read-only there)
        name = data.get("name")
        if table is not None and name:
            others = table.players.exclude(pk=self.instance.pk).values_list("name", flat=True)
            twin = same_name(name, others)
            if twin is not None:
                self.add_error("name", clash_message(name, twin))
            elif name in others:
                self.add_error("name", f"{name} already plays at this table.")
        return data


class SessionAdminForm(CleanModelForm):
    def clean_notes(self) -> str:
        try:  # the notes are a text column without a length; the services keep 5000
            return clean_text(self.cleaned_data.get("notes", ""), what="The notes",
                              max_length=5000, multiline=True)
        except Refused as exc:
            raise forms.ValidationError(exc.message) from None

    def clean_currency(self) -> str:
        try:
            return clean_currency(self.cleaned_data.get("currency"))
        except Refused as exc:
            raise forms.ValidationError(exc.message) from None
