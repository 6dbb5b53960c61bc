"""Numbers (ASCII digits only), currencies (ISO 4217, as the scoring core knows them),
share-link tokens and file names."""

from __future__ import annotations

import datetime
import re
import unicodedata
from typing import Any
from urllib.parse import quote

from django.utils import timezone

from ..rules.money import CURRENCIES
from .base import Field, Refused, _shown

#: The most points a stake may be "per": every target is at most 100000 points, and the
#: database column (an integer) must hold it.
MAX_PER_POINTS = 100_000

_PLAIN_INT = re.compile(r"[+-]?[0-9]{1,30}")  # a longer one is refused as too large
_PLAIN_DECIMAL = re.compile(r"[+-]?(?:[0-9]{1,30}(?:\.[0-9]{0,30})?|\.[0-9]{1,30})")


_DECIMAL_CHARACTERS = re.compile(r"[+-]?[0-9.,]*[0-9][0-9.,]*")


def is_plain_int(text: str) -> bool:
    return bool(_PLAIN_INT.fullmatch(text))


def is_plain_decimal(text: str) -> bool:
    return bool(_PLAIN_DECIMAL.fullmatch(text))


_ASCII_NUMBER = re.compile(r"[0-9]{1,18}")


def is_ascii_number(value: Any) -> bool:
    """Is ``value`` a whole number written with the ASCII digits 0-9 only (no sign, no
    spaces, no '²', '١' or '３', which ``str.isdigit()`` and ``int()`` accept)?"""
    return isinstance(value, str) and bool(_ASCII_NUMBER.fullmatch(value))


def read_number(value: Any, *, what: Any, minimum: int = 0,
                maximum: int | None = None) -> int:
    """The one reader of a number sent as a parameter (an id, a hand's number, a count, a
    table of a hand): the ASCII digits 0-9 and nothing else, within bounds, or Refused with
    a message that names the parameter. Read before anything is stored."""
    if not is_ascii_number(value):
        raise _not_whole(what, value)
    number = int(value)
    if number < minimum:
        raise _below(what, number, minimum)
    if maximum is not None and number > maximum:
        raise _above(what, number, maximum)
    return number


#: The evenings a date may name: none before 2000, none more than a year ahead (a typo such
#: as 0202 or 2202). The forms, the services and the record imports use these.
EARLIEST_DATE = datetime.date(2000, 1, 1)
DAYS_AHEAD = 366


def _not_whole(what: Any, value: Any) -> Refused:
    return Refused(code="not_whole", what=what, value=_shown(value))


def _below(what: Any, value: int, minimum: int) -> Refused:
    return Refused(code="below", what=what, value=value, minimum=minimum)


def _above(what: Any, value: int, maximum: int) -> Refused:
    return Refused(code="above", what=what, value=value, maximum=maximum)


def clean_date(value: Any, *, what: Any = None) -> datetime.date:
    """An evening's date (a date, or ISO text such as 2025-11-21) within
    ``EARLIEST_DATE`` and a year from today, or Refused."""
    what = what or Field("date")
    if isinstance(value, str):
        text = value.strip()
        try:
            if not text.isascii():
                raise ValueError
            value = datetime.date.fromisoformat(text)
        except ValueError:
            raise Refused(code="date_unreadable", what=what, value=_shown(value)) from None
    if isinstance(value, datetime.datetime) or not isinstance(value, datetime.date):
        raise Refused(code="not_a_date", what=what, value=_shown(value))
    latest = timezone.localdate() + datetime.timedelta(days=DAYS_AHEAD)
    if not EARLIEST_DATE <= value <= latest:
        raise Refused(code="date_out_of_range", what=what, date=value,
                      earliest=EARLIEST_DATE, latest=latest)
    return value


def plain_int(value: Any, *, what: Any, minimum: int | None = None,
              maximum: int | None = None) -> int:
    """A whole number given as an int or as ASCII digits, within bounds, or Refused."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise Refused(code="not_a_whole_number", what=what, value=_shown(value))
    if isinstance(value, str):
        text = value.strip()
        if not is_plain_int(text):
            raise _not_whole(what, value)
        value = int(text)
    if minimum is not None and value < minimum:
        raise _below(what, value, minimum)
    if maximum is not None and value > maximum:
        raise _above(what, value, maximum)
    return value


def clean_currency(value: Any, *, what: Any = None) -> str:
    """An ISO 4217 code (upper case), or Refused."""
    what = what or Field("currency")
    text = value.strip().upper() if isinstance(value, str) else None
    if text == "XXX":
        raise Refused(code="currency_none", what=what)
    if text is None or text not in CURRENCIES:
        raise Refused(code="currency_unknown", what=what, value=_shown(value))
    return text


_TOKEN = re.compile(r"[A-Za-z0-9_-]{8,64}")


def is_token(value: str) -> bool:
    """Could ``value`` be a share link's token? (URL-safe base64, 8-64 characters.)"""
    return isinstance(value, str) and bool(_TOKEN.fullmatch(value))


def content_disposition(filename: str, *, attachment: bool = True) -> str:
    """The Content-Disposition header of every download (CSV, XLSX, PDF): an ASCII
    ``filename`` (``safe_filename``) for old clients and, when the name has more than
    that, ``filename*=UTF-8''...`` (RFC 6266/5987, percent-encoded) with the name as
    typed, less control characters, quotes, slashes and semicolons. Nothing in a table's
    name can end the header, start another or break out of the quotes."""
    kind = "attachment" if attachment else "inline"
    stem, dot, ext = filename.rpartition(".")
    ext = re.sub(r"[^A-Za-z0-9]", "", ext)[:8] if dot else ""
    stem = stem if dot else filename
    fallback = safe_filename(stem) + (f".{ext}" if ext else "")
    full = "".join(" " if unicodedata.category(ch)[0] in "CZ" and ch != " " else ch
                   for ch in unicodedata.normalize("NFC", stem))
    full = re.sub(r"[\\/\"';:*?<>|]+", "_", " ".join(full.split()))[:150].strip(" ._")
    header = f'{kind}; filename="{fallback}"'
    if full and full != safe_filename(stem):
        header += f"; filename*=UTF-8''{quote(full + (f'.{ext}' if ext else ''), safe='')}"
    return header


def safe_filename(text: str, default: str = "export") -> str:
    """A file name for Content-Disposition: ASCII letters, digits, '.', '-' and '_' only
    (accents dropped, anything else, line breaks included, becomes '_')."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    name = re.sub(r"_+", "_", re.sub(r"[^A-Za-z0-9._-]", "_", ascii_text)).strip("._")
    return name[:150] or default
