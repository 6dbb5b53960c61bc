"""What depends on where the table is: amounts as people type them in their locale, a
table's time zone and its language.

**Amounts** (``read_amount``) are read in the locale of the page they were typed on:
"1.234,50" in German, "1 234,50" in French, "1,234.50" in English (the locale's own marks,
from CLDR through Babel; any kind of space may stand for a French or Russian group mark).
A number with one mark only is read as people write a small amount on a phone, with either
mark as the decimal one ("0,05" in English, "0.05" in German), unless it could as well be a
thousands separator: "1,234" in English and "1.234" in German or French could mean 1234 or
1.234, and are refused with both readings named, never guessed. A number with several marks
must be grouped as the locale groups (Babel's ``parse_decimal(strict=True)``).
"""

from __future__ import annotations

import re
import zoneinfo
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any

from babel import Locale, UnknownLocaleError
from babel.numbers import (
    NumberFormatError,
    get_decimal_symbol,
    get_group_symbol,
    parse_decimal,
)
from django.conf import settings

from .base import Refused, _shown

#: What people and CLDR put between groups of digits where a space groups them: a space,
#: a no-break space (Russian), a narrow no-break space (French), a thin and a figure space.
SPACES = " \u00a0\u202f\u2009\u2007"
_SPACE_RUN = re.compile(f"[{SPACES}]+")
_ONE_MARK = re.compile(r"([+-]?)([0-9]*)(?:([.,])([0-9]+))?")
_MARKS = re.compile(r"[+-]?[0-9.,]*[0-9][0-9.,]*")
#: A whole part that could be the first group of a grouped number (1 to 3 digits, no
#: leading zero): "1,234" could be 1234, "0,125" could not.
_FIRST_GROUP = re.compile(r"[1-9][0-9]{0,2}")


def _locale(locale: str | Locale) -> Locale:
    if isinstance(locale, Locale):
        return locale
    try:
        return Locale.parse(locale)
    except (UnknownLocaleError, ValueError, TypeError):
        return Locale.parse("en")


def read_amount(value: Any, *, what: Any, locale: str | Locale) -> Decimal:
    """An amount typed in ``locale`` (a CLDR locale id or Babel's Locale), or Refused with a
    message that names the field (``what``); an ambiguous one is refused with both
    readings."""
    where = _locale(locale)
    if not isinstance(value, str):
        raise Refused(code="amount_not_text", what=what, value=_shown(value))
    typed = value.strip().replace("\u2212", "-")
    decimal_mark = get_decimal_symbol(where)
    group = get_group_symbol(where)
    bare = _SPACE_RUN.sub("", typed)
    if not typed or not _MARKS.fullmatch(bare):
        raise Refused(code="amount_digits", what=what, locale=str(where))
    single = _ONE_MARK.fullmatch(typed)  # no space inside, one mark at most
    if single:
        sign, whole, mark, fraction = single.groups()
        if mark and mark != decimal_mark and len(fraction) == 3 \
                and _FIRST_GROUP.fullmatch(whole):
            raise Refused(code="amount_ambiguous", what=what, typed=typed,
                          thousands=whole + fraction,
                          decimal=f"{whole}{decimal_mark}{fraction}", mark=mark,
                          decimal_mark=decimal_mark)
        return Decimal(f"{sign}{whole or '0'}.{fraction or '0'}")
    # several marks, or spaces between digits: grouped as the locale groups, or refused
    grouped = _SPACE_RUN.sub(group if group in SPACES else "", typed)
    try:
        return parse_decimal(grouped, locale=where, strict=True)
    except (NumberFormatError, InvalidOperation, ValueError):
        raise Refused(code="amount_unreadable", what=what, typed=_shown(typed),
                      locale=str(where)) from None


# -- a table's clock and language ------------------------------------------------------------

#: Names the tz database holds that are no place's zone: "localtime" is the server's own
#: clock (a link the system makes: the table's clock would follow whatever the server is set
#: to), "Factory" a placeholder that reads "-00", "posixrules" a file of rules; ``posix/``
#: and ``right/`` hold copies of the others (``right/`` counts leap seconds).
NOT_ZONES = frozenset({"localtime", "Factory", "posixrules"})
NOT_ZONE_FOLDERS = ("posix/", "right/")


@lru_cache(maxsize=1)
def time_zone_names() -> frozenset[str]:
    """Every IANA time zone of a place this server knows (the system's tz database, or
    tzdata), but the names that are no place's zone (``NOT_ZONES``, ``NOT_ZONE_FOLDERS``)."""
    return frozenset(name for name in zoneinfo.available_timezones()
                     if name not in NOT_ZONES and not name.startswith(NOT_ZONE_FOLDERS))


@lru_cache(maxsize=1)
def time_zone_choices() -> tuple[str, ...]:
    """The zones a table's form offers, sorted: the places' names ("Europe/Berlin") and
    UTC, not the old aliases ("US/Eastern", "GB", "Etc/GMT+5"), which are still accepted
    when typed."""
    return tuple(sorted(name for name in time_zone_names()
                        if ("/" in name and not name.startswith(("Etc/", "SystemV/", "US/")))
                        or name == "UTC"))


def clean_time_zone(value: Any, *, what: Any = "Time zone") -> str:
    """An IANA time zone name such as Europe/Berlin, as zoneinfo knows it, or Refused."""
    text = value.strip() if isinstance(value, str) else None
    if text and text in time_zone_names():
        try:
            zoneinfo.ZoneInfo(text)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            pass
        else:
            return text
    raise Refused(code="time_zone_unknown", what=what, value=_shown(value))


def clean_language(value: Any, *, what: Any = "Language") -> str:
    """One of the languages shipped (settings.LANGUAGES: en, de, es, fr, ru), or Refused."""
    codes = [code for code, _name in settings.LANGUAGES]
    text = value.strip().lower() if isinstance(value, str) else None
    if text in codes:
        return text
    raise Refused(code="language_unknown", what=what, value=_shown(value),
                  codes=", ".join(codes))
