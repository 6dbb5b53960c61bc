"""A date as the screens and the services' messages say it (the services cannot use the
presentation layer's views of a game, so they come here; the words are the presentation's
one date formatter's, ``ledger.presentation.dates``, in the locale and zone in force)."""

from __future__ import annotations

import datetime

from ledger.presentation.dates import format_clock, format_day


def evening_words(day: datetime.date, *, standing_alone: bool = False) -> str:
    """An evening's date as the screens, the dialogs and the paper say it: "Friday,
    November 27, 2026" (English), "Freitag, 27. November 2026" (German), "пятница,
    27 ноября 2026 г." in a sentence and "Пятница, 27 ноября 2026 г." standing alone
    (a title: ``standing_alone``)."""
    return format_day(day, standing_alone=standing_alone)


def date_words(day: datetime.date) -> str:
    """A date without its weekday, as a message names it: "Nov 27, 2026", "27.11.2026"."""
    return format_day(day, "medium")


def clock_words(moment: datetime.datetime) -> str:
    """The time of day in the table's zone: "9:13 PM" (English), "21:13" (German)."""
    return format_clock(moment)
