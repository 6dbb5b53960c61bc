"""Dates and times as every page prints them: template filters over the presentation
layer's one date formatter (``ledger.presentation.dates``), in the locale and the table's
time zone in force. No template uses Django's ``date`` or ``time`` filters (a test looks).

    {% load dates %}
    {{ session.date|day }}           Friday, November 27, 2026 · Freitag, 27. November 2026
    {{ session.date|day:"short" }}   Fri, Nov 27, 2026 · Fr., 27. Nov. 2026
    {{ session.date|day:"medium" }}  Nov 27, 2026 · 27.11.2026
    {{ change.at|moment }}           Nov 27, 2026, 9:13 PM · 27.11.2026, 21:13
    {{ hand.voided_at|clock }}       9:13 PM · 21:13

A date the ``day`` filter writes stands alone (a title, a list's line, a crumb): it begins
with a capital ("Пятница, 27 ноября 2026 г.").
"""

from __future__ import annotations

from django import template

from ledger.presentation.dates import format_clock, format_day, format_moment

register = template.Library()


@register.filter
def day(value, style: str = "full") -> str:
    return "" if value in (None, "") else format_day(value, style or "full",
                                                     standing_alone=True)


@register.filter
def moment(value) -> str:
    return "" if value in (None, "") else format_moment(value)


@register.filter
def clock(value) -> str:
    return "" if value in (None, "") else format_clock(value)
