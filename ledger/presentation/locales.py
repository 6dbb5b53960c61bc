"""Which locale a page writes in: the Django language in force, as Babel (CLDR) knows it.

The screens speak the account's language (else the browser's, else English); a table's paper
and share pages speak the table's (``Table.language``, activated around their rendering).
Money, numbers and dates are written by ``money.format_money`` and ``dates`` in that
locale, from CLDR's data: the separators, the currency's symbol and its place, the names of
days and months. Nothing here knows one language from another.
"""

from __future__ import annotations

from functools import lru_cache

from babel import Locale, UnknownLocaleError
from django.conf import settings
from django.utils import translation

__all__ = ["babel_locale", "locale_id"]


def locale_id(language: str | None = None) -> str:
    """The CLDR locale of a Django language code ("de", "en-us", "pt-br" -> "pt_BR"); the
    language in force when none is given, else the site's default."""
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    return translation.to_locale(language)


@lru_cache(maxsize=64)
def _parse(identifier: str) -> Locale:
    try:
        return Locale.parse(identifier)
    except (UnknownLocaleError, ValueError):
        language = identifier.partition("_")[0]
        try:
            return Locale.parse(language)
        except (UnknownLocaleError, ValueError):
            return Locale.parse(translation.to_locale(settings.LANGUAGE_CODE))


def babel_locale(language: str | Locale | None = None) -> Locale:
    """Babel's ``Locale`` for a Django language code or a CLDR locale id ("de", "fr_CA");
    None: the language in force. An unknown one falls back to its language, then to the
    site's default (English)."""
    if isinstance(language, Locale):
        return language
    if language and "_" in language:
        return _parse(language)
    return _parse(locale_id(language))
