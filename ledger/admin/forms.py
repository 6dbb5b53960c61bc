"""The admin's forms clean input as the screens do (``ledger.cleaning``): no control or
invisible characters, players' names normalised and refused when they are another player's
written differently, ISO 4217 currencies."""

from __future__ import annotations

from django import forms
from django.forms.models import BaseInlineFormSet
from django.utils.translation import gettext

from ledger.forms.clean_input import CleanInputMixin
from ledger.presentation.refusals import refusal_words

from ..cleaning import (
    MAX_PER_POINTS,
    Refused,
    clean_currency,
    clean_date,
    clean_name,
    clean_text,
    clean_time_zone,
    name_clash,
    name_key,
    plain_int,
    same_name,
)
from ..services.tables import player_name_problem, table_named


class CleanModelForm(CleanInputMixin, forms.ModelForm):
    """Every raw value checked (see ``CleanInputMixin``) before the model's fields see it."""


class TableAdminForm(CleanModelForm):
    """A table's name is unique among each of its scorekeepers' tables (as the services
    hold it): refused at the field, for the keepers it has and those it will have."""

    #: The staff member who saves (he keeps the tables he adds); set by the admin.
    saver = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("language", "time_zone"):  # left out: the table's own, or the default
            if name in self.fields:
                self.fields[name].required = False

    def clean_language(self) -> str:
        return self.cleaned_data.get("language") or self.instance.language

    def clean_time_zone(self) -> str:
        value = self.cleaned_data.get("time_zone") or self.instance.time_zone
        try:
            return clean_time_zone(value)
        except Refused as exc:
            raise forms.ValidationError(refusal_words(exc)) from None

    def clean_scorekeepers(self):
        """A staff member who is not a superuser may add keepers to a table he keeps, never
        take one away: he could not give the table back (he no longer sees the other
        keeper's account), and only the keeper himself or a superuser should end his
        keeping."""
        chosen = self.cleaned_data.get("scorekeepers")
        if self.saver is None or not self.instance.pk or chosen is None:
            return chosen
        removed = [user.get_username() for user in
                   self.instance.scorekeepers.exclude(pk=self.saver.pk).order_by("username")
                   if user not in set(chosen)]
        if removed:
            raise forms.ValidationError(
                gettext("Only a superuser may take a table from its scorekeepers: keep "
                        "%(keepers)s chosen (you may add keepers).")
                % {"keepers": ", ".join(removed)})
        return chosen

    def clean(self):
        data = super().clean()
        name = data.get("name")
        if not name or (self.instance.pk and "name" not in self.changed_data
                        and "scorekeepers" not in self.changed_data):
            return data
        keepers = set(data.get("scorekeepers") or ())
        if self.saver is not None:
            keepers.add(self.saver)
        if self.instance.pk:
            keepers |= set(self.instance.scorekeepers.all())
        for keeper in sorted(keepers, key=lambda user: user.pk) or [None]:
            other = table_named(name=name, scorekeeper=keeper)
            if other is not None and other.pk != self.instance.pk:
                self.add_error("name", f"{keeper.get_username()} already keeps a table "
                               f"called {name!r}." if keeper else "A table that nobody "
                               f"keeps is already called {name!r}.")
                break
        return data


class PlayerAdminForm(CleanModelForm):
    def clean_name(self) -> str:
        try:
            return clean_name(self.cleaned_data.get("name", ""), what="The name")
        except Refused as exc:
            raise forms.ValidationError(refusal_words(exc)) from None

    def clean(self):
        data = super().clean()
        table = data.get("table")
        if table is None and self.instance.table_id:
            table = self.instance.table  # a change form (the table is read-only there)
        name = data.get("name")
        if table is not None and table.pk and name:  # (a new table has no players yet)
            others = table.players.exclude(pk=self.instance.pk).values_list("name", flat=True)
            twin = same_name(name, others)
            if twin is not None:
                self.add_error("name", refusal_words(name_clash(name, twin)))
            elif name in others:
                self.add_error("name", f"{name} already plays at this table.")
            elif problem := player_name_problem(table_id=table.pk, name=name,
                                                player=self.instance if self.instance.pk
                                                else None):
                self.add_error("name", refusal_words(problem))  # kept for the hand form
        return data


class SessionAdminForm(CleanModelForm):
    def clean_date(self):
        value = self.cleaned_data.get("date")
        if value is None or (self.instance.pk and value == self.instance.date):
            return value  # (an old evening keeps its date)
        try:
            return clean_date(value)
        except Refused as exc:
            raise forms.ValidationError(refusal_words(exc)) from None

    def clean_notes(self) -> str:
        try:  # the notes are a text column without a length; the services keep 5000
            return clean_text(self.cleaned_data.get("notes", ""), what="The notes",
                              max_length=5000, multiline=True)
        except Refused as exc:
            raise forms.ValidationError(refusal_words(exc)) from None

    def clean_per_points(self) -> int:
        try:  # the column holds more; the services keep MAX_PER_POINTS
            return plain_int(self.cleaned_data.get("per_points"), what="Per points",
                             minimum=1, maximum=MAX_PER_POINTS)
        except Refused as exc:
            raise forms.ValidationError(refusal_words(exc)) from None

    def clean_currency(self) -> str:
        try:
            return clean_currency(self.cleaned_data.get("currency"))
        except Refused as exc:
            raise forms.ValidationError(refusal_words(exc)) from None


class PlayerInlineFormSet(BaseInlineFormSet):
    """The players typed in a table's form are refused when two of them are the same
    person's name written differently (each form checks the players already stored)."""

    def clean(self):
        super().clean()
        seen: dict[str, str] = {}
        for form in self.forms:
            name = getattr(form, "cleaned_data", {}).get("name")
            if not name:
                continue
            if name_key(name) in seen:
                form.add_error("name", refusal_words(name_clash(name, seen[name_key(name)])))
            else:
                seen[name_key(name)] = name
