"""The standings filter (django-filter) over the per-evening ``EveningStanding`` sums.

Periods: this month, last month, this year, a season (a calendar year the table played in)
or any dates (from/to, both inclusive); a variant; a currency (the money column is in one
currency; the table's main currency when none is chosen).
"""

from __future__ import annotations

import datetime

import django_filters
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from ledger.forms.fields import DateInput
from ledger.models import EveningStanding, Variant
from ledger.presentation.catalog import VARIANT_NAMES


def _variant_choices() -> list[tuple[str, str]]:
    """The variants, named in the language in force when the form is drawn (the model's
    choices keep the core's English names)."""
    return [(value, VARIANT_NAMES[value]) for value in Variant.values]

PERIODS = (
    ("month", _("This month")),
    ("last_month", _("Last month")),
    ("year", _("This year")),
)

DATE = DateInput()


def period_range(period: str, today: datetime.date) -> tuple[datetime.date, datetime.date]:
    """First and last day of a named period around ``today``."""
    if period == "month":
        start = today.replace(day=1)
    elif period == "last_month":
        start = (today.replace(day=1) - datetime.timedelta(days=1)).replace(day=1)
        return start, today.replace(day=1) - datetime.timedelta(days=1)
    else:  # year
        start = today.replace(month=1, day=1)
    return start, today


class StandingFilter(django_filters.FilterSet):
    period = django_filters.ChoiceFilter(choices=PERIODS, method="filter_period",
                                         empty_label=_("Any time"), label=_("Period"))
    season = django_filters.ChoiceFilter(method="filter_season", empty_label=_("Any season"),
                                         label=_("Season"))
    date_from = django_filters.DateFilter(field_name="date", lookup_expr="gte", widget=DATE,
                                          label=_("From"))
    date_to = django_filters.DateFilter(field_name="date", lookup_expr="lte", widget=DATE,
                                        label=_("To"))
    variant = django_filters.ChoiceFilter(choices=_variant_choices, empty_label=_("Every game"),
                                          label=pgettext_lazy("game of cards", "Game"))
    currency = django_filters.ChoiceFilter(label=_("Currency"), empty_label=None,
                                           method="filter_currency")

    class Meta:
        model = EveningStanding
        fields = ["period", "season", "date_from", "date_to", "variant", "currency"]

    def __init__(self, data=None, *args, currencies: list[str], years: list[int], **kwargs):
        data = data.copy() if data is not None else None
        if data is not None and not data.get("currency") and currencies:
            data["currency"] = currencies[0]
        super().__init__(data, *args, **kwargs)
        self.filters["currency"].extra["choices"] = [(c, c) for c in currencies]
        self.filters["season"].extra["choices"] = [(str(y), str(y)) for y in years]

    def filter_period(self, queryset, name, value):
        if not value:
            return queryset
        start, end = period_range(value, timezone.localdate())
        return queryset.filter(date__gte=start, date__lte=end)

    def filter_season(self, queryset, name, value):
        return queryset.filter(date__year=int(value)) if value else queryset

    def filter_currency(self, queryset, name, value):
        return queryset.filter(currency=value) if value else queryset
