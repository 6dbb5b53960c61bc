"""Dates and times as people read them: one formatter for the screens, the paper, the share
pages and the services' messages (through ``ledger.words``), on Babel (CLDR).

Written in the locale in force (the account's on screens, the table's on paper and share
pages: ``locales.babel_locale``) and in the time zone in force (the table's, once a view
has loaded it: ``ledger.clock``). Stored times are UTC; nothing here changes them.

    format_day(day)             Monday, November 23, 2026 · Montag, 23. November 2026
    format_day(day, "short")    Mon, Nov 23, 2026 · Mo., 23. Nov. 2026
    format_moment(moment)       Nov 25, 2026, 12:47 PM · 25.11.2026, 12:47
    format_clock(moment)        12:47 PM · 12:47
"""

from __future__ import annotations

import datetime

from babel import Locale
from babel.dates import format_date, format_skeleton, format_time
from django.utils import timezone

from .locales import babel_locale

__all__ = ["format_clock", "format_day", "format_moment", "format_part"]

#: CLDR skeletons of the short forms (the locale orders and punctuates them)
_SHORT_DAY = "yMMMEd"


def _local(moment: datetime.datetime) -> datetime.datetime:
    """An aware moment in the zone in force (the table's); a naive one is taken as UTC."""
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment, datetime.UTC)
    return timezone.localtime(moment)


def format_day(day: datetime.date | datetime.datetime, style: str = "full", *,
               locale: str | Locale | None = None) -> str:
    """A date as the locale writes it: "full" with the weekday and the month's name (an
    evening's date: "Monday, November 23, 2026"), "short" ("Mon, Nov 23, 2026"). A moment
    gives its date in the zone in force."""
    if isinstance(day, datetime.datetime):
        day = _local(day).date()
    where = babel_locale(locale)
    if style == "short":
        return format_skeleton(_SHORT_DAY, day, locale=where)
    return format_date(day, style, locale=where)


def format_part(day: datetime.date, skeleton: str, *,
                locale: str | Locale | None = None) -> str:
    """Part of a date by a CLDR skeleton, ordered as the locale orders it: "yMMMM"
    ("November 2026", "ноябрь 2026 г."), "yMMM", "MMMd", "yMMMd" (a chart's axis)."""
    return format_skeleton(skeleton, day, locale=babel_locale(locale))


def format_clock(moment: datetime.datetime, *, locale: str | Locale | None = None) -> str:
    """The time of day in the zone in force, as the locale writes it ("12:47 PM", "12:47")."""
    moment = _local(moment)
    return format_time(moment, "short", tzinfo=moment.tzinfo, locale=babel_locale(locale))


def format_moment(moment: datetime.datetime, *, locale: str | Locale | None = None) -> str:
    """A date and its time in the zone in force: the locale's medium date and short time,
    joined as the locale joins them ("Nov 25, 2026, 12:47 PM", "25.11.2026, 12:47")."""
    moment = _local(moment)
    where = babel_locale(locale)
    day = format_date(moment.date(), "medium", locale=where)
    clock = format_time(moment, "short", tzinfo=moment.tzinfo, locale=where)
    pattern = str(where.datetime_formats.get("medium", "{1}, {0}"))
    return pattern.replace("{1}", day).replace("{0}", clock).replace("'", "")
