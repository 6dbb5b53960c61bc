"""Forms of a table (the group that plays together): its players and its evenings."""

from __future__ import annotations

import re

from django import forms
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ledger import limits
from ledger.cleaning import (
    Refused,
    clean_currency,
    clean_date,
    clean_name,
    clean_time_zone,
    time_zone_choices,
)
from ledger.forms.clean_input import CleanInputMixin
from ledger.models import DEFAULT_TIME_ZONE, Language
from ledger.presentation.refusals import refusal_words

from .fields import (
    MAX_PER_POINTS,
    NUMERIC,
    DateInput,
    name_key,
    reserved_name,
    stake_field,
)

# -- tables, players, sessions ---------------------------------------------------------------

class TableForm(CleanInputMixin, forms.Form):
    name = forms.CharField(max_length=100, label=_("Table name"),
                           widget=forms.TextInput(attrs={"autocomplete": "off"}))
    players = forms.CharField(
        label=_("Players"), required=False,
        help_text=_("One name per line (or separated by commas)."),
        widget=forms.Textarea(attrs={"rows": 4, "autocomplete": "off"}),
    )
    language = forms.ChoiceField(
        label=_("Language of its sheets"), choices=Language.choices, required=False,
        help_text=_("What the printed sheets and share pages speak."))
    # the browser's own zone (Intl.DateTimeFormat), filled in by static/ledger/timezone.js
    time_zone = forms.CharField(required=False, max_length=64,
                                widget=forms.HiddenInput(attrs={"data-browser-time-zone": ""}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        language = (translation.get_language() or "").split("-")[0]
        self.fields["language"].initial = (language if language in Language.values
                                           else Language.EN)

    def clean_language(self) -> str:
        return self.cleaned_data.get("language") or self.fields["language"].initial

    def clean_time_zone(self) -> str:
        """The zone the browser proposed; none, or one this server does not know (an old
        browser's), is UTC: it is changed on the table's page."""
        try:
            return clean_time_zone(self.cleaned_data.get("time_zone") or "")
        except Refused:
            return DEFAULT_TIME_ZONE

    def clean_players(self) -> list[str]:
        """The names, one per line or comma: at most TABLESTAKES_MAX_NAMES_PER_REQUEST
        (counted before any is read), no two the same person's (one look-up of each
        name's key, so linear in the names)."""
        raw = self.cleaned_data["players"]
        names = [name.strip() for name in re.split(r"[\n,]", raw) if name.strip()]
        too_many = limits.names_problem(len(names))
        if too_many:
            raise ValidationError(_("Players: %(problem)s") % {
                "problem": refusal_words(too_many)})
        seen: dict[str, str] = {}
        for name in names:
            try:
                what = gettext("The name %(name)s") % {"name": repr(name[:20])}
                name = clean_name(name, what=what, max_length=10 ** 6)
            except Refused as exc:
                raise ValidationError(refusal_words(exc)) from None
            key = name_key(name)
            first = seen.get(key)
            if first == name:
                raise ValidationError(_("%(name)s is listed twice.") % {"name": name})
            if first:
                raise ValidationError(_("%(name)s is listed twice (as %(first)s).") % {
                    "name": name, "first": first})
            if len(name) > 60:
                raise ValidationError(_("The name %(start)s... is too long.") % {
                    "start": name[:20]})
            if reserved := reserved_name(name, key=key):
                raise ValidationError(refusal_words(reserved))
            seen[key] = name
        return list(seen.values())


class PlayerForm(CleanInputMixin, forms.Form):
    name = forms.CharField(max_length=60, label=_("New player"),
                           widget=forms.TextInput(attrs={"autocomplete": "off"}))

    def __init__(self, *args, table_names: list[str] = (), **kwargs):
        super().__init__(*args, **kwargs)
        self.table_names = list(table_names)

    def clean_name(self) -> str:
        try:
            name = clean_name(self.cleaned_data["name"], what=gettext("The name"))
        except Refused as exc:
            raise ValidationError(refusal_words(exc)) from None
        if reserved := reserved_name(name):
            raise ValidationError(refusal_words(reserved))
        same = next((other for other in self.table_names
                     if name_key(other) == name_key(name) and other != name), None)
        if same:
            raise ValidationError(_(
                "%(name)s already plays at this table: names differing only in capitals, "
                "width, spaces or invisible characters are the same player.") % {"name": same})
        return name


class SessionForm(CleanInputMixin, forms.Form):
    date = forms.DateField(label=_("Date"), widget=DateInput())
    place = forms.CharField(label=_("Place"), max_length=200, required=False)
    currency = forms.CharField(label=_("Currency"), max_length=3, initial="USD",
                               widget=forms.TextInput(attrs={"autocapitalize": "characters",
                                                             "size": 4}))
    rate = stake_field(_("Stake"),
                       help_text=_("Money per points below; empty: not for money."))
    per_points = forms.IntegerField(label=_("per points"), min_value=1, initial=1,
                                    max_value=MAX_PER_POINTS,
                                    widget=forms.TextInput(attrs=NUMERIC))

    def clean_date(self):
        try:  # between 2000 and a year from today, as the services and imports hold it
            return clean_date(self.cleaned_data["date"])
        except Refused as exc:
            raise ValidationError(refusal_words(exc)) from None

    def clean_currency(self) -> str:
        try:
            return clean_currency(self.cleaned_data["currency"])
        except Refused:
            raise ValidationError(_("A currency code of ISO 4217, such as USD or EUR.")) from None


class ZoneInput(forms.TextInput):
    """A time zone typed or chosen from a list a phone's keyboard searches: an input with a
    ``<datalist>`` of the server's zones (``time_zone_choices``), the device's own zone put
    first and offered on a button by static/ledger/timezone.js. A name not in the list is
    still refused by ``clean_time_zone``, with the reason."""

    LIST_ID = "time-zones"

    def __init__(self, attrs=None):
        super().__init__({"autocomplete": "off", "spellcheck": "false",
                          "autocapitalize": "off", "list": self.LIST_ID,
                          "data-browser-time-zone-hint": "", **(attrs or {})})

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        # the button's words, in the page's language (the script writes the zone after them)
        context["widget"]["attrs"]["data-browser-time-zone-label"] = gettext(
            "Use this device's zone: ")
        return context

    def render(self, name, value, attrs=None, renderer=None):
        options = format_html_join("", '<option value="{}">', (
            (zone,) for zone in time_zone_choices()))
        return format_html('{}<datalist id="{}">{}</datalist>',
                           super().render(name, value, attrs, renderer), self.LIST_ID, options)


class TableLocaleForm(CleanInputMixin, forms.Form):
    """A table's language (of its paper and share pages) and its time zone."""

    language = forms.ChoiceField(label=_("Sheets and share pages in"), choices=Language.choices)
    time_zone = forms.CharField(
        label=_("Time zone"), max_length=64,
        help_text=_("Where the table plays: type a city or a region and choose its zone "
                    "from the list (Europe/Berlin, America/New_York); it sets the table's "
                    "times and today's date."),
        widget=ZoneInput())

    def clean_time_zone(self) -> str:
        try:
            return clean_time_zone(self.cleaned_data["time_zone"], what=_("Time zone"))
        except Refused as exc:
            raise ValidationError(refusal_words(exc)) from None
