"""Dates and times as people read them: the one module that writes every date and time a
person reads, on the screens (templates' ``day``/``moment``/``clock`` filters), in the
dialogs, the paper, the share pages, the downloads' words and the services' refusals
(through ``refusals.refusal_words``), from CLDR through Babel. Nothing else formats a date (no
``|date:"D j M"``, no ``%H:%M``): each language gets one way of writing each form.

Written in the locale in force (the account's on screens, the table's on paper and share
pages: ``locales.babel_locale``) and in the time zone in force (the table's, once a view
has loaded it: ``ledger.clock``). Stored times are UTC; nothing here changes them. A date's
value in a form field or a file a program reads stays ISO ("2026-11-27"), not written here.

    format_day(day)             Friday, November 27, 2026 · Freitag, 27. November 2026 ·
                                пятница, 27 ноября 2026 г. (an evening's name: titles,
                                dialogs, the paper, the share pages)
    format_day(day, "short")    Fri, Nov 27, 2026 · Fr., 27. Nov. 2026 · пт, 27 нояб. 2026 г.
                                (lists, the crumbs, a page's title)
    format_day(day, "medium")   Nov 27, 2026 · 27.11.2026 · 27 нояб. 2026 г. (a date in a
                                narrow column, a page's running head)
    format_moment(moment)       Nov 27, 2026, 9:13 PM · 27.11.2026, 21:13 (the medium date
                                with the time)
    format_clock(moment)        9:13 PM · 21:13

A date that stands alone (a title, a list's line, a crumb: ``alone=True``, as the templates'
``day`` filter writes it) begins with a capital, as CLDR's context transforms say for the
languages that write the weekday and the month in lower case inside a sentence ("Пятница,
27 ноября 2026 г." as a title, "the evening of пятница, 27 ноября 2026 г." in a sentence).
"""

from __future__ import annotations

import datetime

from babel import Locale
from babel.dates import format_date, format_skeleton, format_time
from django.utils import timezone

from .locales import babel_locale

__all__ = ["DAY_STYLES", "alone", "format_clock", "format_day", "format_moment",
           "format_part"]

#: CLDR skeletons of the short forms (the locale orders and punctuates them)
_SHORT_DAY = "yMMMEd"
#: The styles of ``format_day``.
DAY_STYLES = ("full", "short", "medium")


def _local(moment: datetime.datetime) -> datetime.datetime:
    """An aware moment in the zone in force (the table's); a naive one is taken as UTC."""
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment, datetime.UTC)
    return timezone.localtime(moment)


def alone(text: str) -> str:
    """Words that stand alone (a title, a list's line) with a capital first letter, as
    CLDR's context transforms ask of a date standing alone ("titlecase-firstword")."""
    return text[:1].upper() + text[1:]


def format_day(day: datetime.date | datetime.datetime, style: str = "full", *,
               locale: str | Locale | None = None, standing_alone: bool = False) -> str:
    """A date as the locale writes it: "full" with the weekday and the month's name (an
    evening's date: "Friday, November 27, 2026"), "short" ("Fri, Nov 27, 2026"), "medium"
    ("Nov 27, 2026", "27.11.2026"). A moment gives its date in the zone in force.
    ``standing_alone``: the date is a title or a list's line on its own (``alone``)."""
    if style not in DAY_STYLES:
        raise ValueError(f"a day's style is one of {', '.join(DAY_STYLES)}, not {style!r}")
    if isinstance(day, datetime.datetime):
        day = _local(day).date()
    where = babel_locale(locale)
    if style == "short":
        text = format_skeleton(_SHORT_DAY, day, locale=where)
    else:
        text = format_date(day, style, locale=where)
    return alone(text) if standing_alone else text


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


# -- the words the screens and the dialogs call a date by ---------------------------------------

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
