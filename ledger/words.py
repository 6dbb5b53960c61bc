"""A date as the screens and the services' messages say it (the services cannot use the
presentation layer, which sits above them)."""

from __future__ import annotations

import datetime

from django.utils import dateformat


def evening_words(day: datetime.date) -> str:
    """A date as the screens say it: "Monday 23 November 2026"."""
    return dateformat.format(day, "l j F Y")
