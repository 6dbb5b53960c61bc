"""A table's clock and voice: its time zone for every time and "today" it shows, its language
for what it prints and shares.

Stored times stay UTC. Each request starts on the site's zone (UTC,
``ledger.middleware.TableClockMiddleware``); as soon as a view has loaded a table
(``ledger.access``, a share link), ``use_table_clock`` makes that table's zone the current
one, so Django's ``localtime``/``localdate``, the templates' ``date`` and ``time`` filters,
the presentation's date formatter and the services' "today" (a new evening's date) all
follow it. Paper and share pages also speak the table's language (``speak_as_table``,
``table_voice``); the screens speak the account's.
"""

from __future__ import annotations

import datetime
import zoneinfo
from collections.abc import Iterator
from contextlib import contextmanager

from django.utils import timezone, translation

from .models import DEFAULT_TIME_ZONE, Language

UTC = zoneinfo.ZoneInfo("UTC")


def table_zone(table) -> zoneinfo.ZoneInfo:
    """The table's time zone (UTC for a name zoneinfo does not know: none is stored, the
    services refuse one)."""
    name = getattr(table, "time_zone", "") or DEFAULT_TIME_ZONE
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return UTC


def table_language(table) -> str:
    language = getattr(table, "language", "") or Language.EN
    return language if language in Language.values else Language.EN


def use_table_clock(table) -> None:
    """From now on in this request, times and "today" are the table's."""
    timezone.activate(table_zone(table))


def speak_as_table(table) -> None:
    """From now on in this request, the table's clock and language (its share pages)."""
    use_table_clock(table)
    translation.activate(table_language(table))


@contextmanager
def table_voice(table) -> Iterator[None]:
    """The table's clock and language for what is rendered inside (its printed sheets)."""
    with timezone.override(table_zone(table)), translation.override(table_language(table)):
        yield


def table_today(table) -> datetime.date:
    """Today's date where the table plays."""
    return timezone.localdate(timezone=table_zone(table))
