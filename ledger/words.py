"""A date as the screens and the services' messages say it (the services cannot use the
presentation layer's views of a game, so they come here; the words are the presentation's
one date formatter's, ``ledger.presentation.dates``, in the locale and zone in force)."""

from __future__ import annotations

import datetime

from ledger.presentation.dates import format_clock, format_day


def evening_words(day: datetime.date) -> str:
    """A date as the screens say it: "Monday, November 23, 2026" (English), "Montag,
    23. November 2026" (German)."""
    return format_day(day)


def clock_words(moment: datetime.datetime) -> str:
    """The time of day in the table's zone: "12:47 PM" (English), "12:47" (German)."""
    return format_clock(moment)
