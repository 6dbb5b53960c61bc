"""Dates and times as every page should print them: template filters over the presentation
layer's one date formatter (``ledger.presentation.dates``), in the locale and the table's
time zone in force.

    {% load dates %}
    {{ session.date|day }}          Monday, November 23, 2026 · Montag, 23. November 2026
    {{ session.date|day:"short" }}  Mon, Nov 23, 2026 · Mo., 23. Nov. 2026
    {{ change.at|moment }}          Nov 25, 2026, 12:47 PM · 25.11.2026, 12:47
    {{ hand.voided_at|clock }}      12:47 PM · 12:47
"""

from __future__ import annotations

from django import template

from ledger.presentation.dates import format_clock, format_day, format_moment

register = template.Library()


@register.filter
def day(value, style: str = "full") -> str:
    return "" if value in (None, "") else format_day(value, style or "full")


@register.filter
def moment(value) -> str:
    return "" if value in (None, "") else format_moment(value)


@register.filter
def clock(value) -> str:
    return "" if value in (None, "") else format_clock(value)
