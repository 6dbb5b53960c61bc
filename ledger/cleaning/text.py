"""Text and names: refused for control, broken or invisible direction characters, otherwise
composed (NFC) and trimmed; names lose invisible characters inside and compare by
``name_key``."""

from __future__ import annotations

import unicodedata
from typing import Any

from django.utils.translation import gettext, gettext_noop, ngettext

from .base import Refused, _shown

MAX_NAME = 60

# -- characters ------------------------------------------------------------------------------

_DIRECTION_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Removed around every text and anywhere in names: zero-width space, non-joiner, joiner,
# word joiner, BOM, soft hyphen, Mongolian vowel separator, direction marks.
_INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e\u200e\u200f\u061c"


def bad_character(text: str, *, multiline: bool = False) -> str | None:
    """What is wrong with ``text``'s characters, in words, or None."""
    for char in text:
        category = unicodedata.category(char)
        if category == "Cs":
            return gettext("a broken character (a lone surrogate)")
        if category == "Cc":
            if multiline and char in "\n\r\t":
                continue
            if char == "\x00":
                return gettext("a NUL character")
            if char in "\r\n":
                return gettext("a line break")
            return gettext("a control character (U+%(code)s)") % {"code": f"{ord(char):04X}"}
        if char in _DIRECTION_CONTROLS:
            return gettext("an invisible direction control (U+%(code)s)") % {
                "code": f"{ord(char):04X}"}
    return None


def _trim(text: str) -> str:
    previous = None
    while previous != text:
        previous = text
        text = text.strip().strip(_INVISIBLE)
    return text


def clean_text(value: Any, *, what: str, max_length: int, multiline: bool = False,
               required: bool = False) -> str:
    """``value`` as stored text (NFC, trimmed), or Refused."""
    if not isinstance(value, str):
        raise Refused(gettext("%(what)s must be text, not %(value)s.")
                      % {"what": what, "value": _shown(value)})
    bad = bad_character(value, multiline=multiline)
    if bad:
        raise Refused(contains_text(what, bad))
    text = _trim(unicodedata.normalize("NFC", value))
    if required and not text:
        raise Refused(gettext("%(what)s is empty.") % {"what": what})
    if len(text) > max_length:
        raise Refused(too_long_text(what, len(text), max_length))
    return text


def contains_text(what: str, bad: str) -> str:
    """"The name contains a line break; type it again without it." """
    return gettext("%(what)s contains %(bad)s; type it again without it.") % {
        "what": what, "bad": bad}


def too_long_text(what: str, length: int, most: int) -> str:
    return ngettext("%(what)s is %(n)s character long; at most %(most)s.",
                    "%(what)s is %(n)s characters long; at most %(most)s.", length) % {
        "what": what, "n": length, "most": most}


def clean_name(value: Any, *, what: str = "The name", max_length: int = MAX_NAME) -> str:
    """A person's (or side's) name: text with no invisible characters inside and single
    spaces, or Refused (also when nothing visible is left)."""
    text = clean_text(value, what=what, max_length=10 * max_length)
    text = "".join(char for char in text
                   if char not in _INVISIBLE and unicodedata.category(char) != "Cf")
    text = " ".join(text.split())
    if not text:
        raise Refused(gettext("%(what)s has no visible character.") % {"what": what})
    if len(text) > max_length:
        raise Refused(too_long_text(what, len(text), max_length))
    return text


def name_key(name: str) -> str:
    """The key two names are compared by: 'Ann', 'ANN', 'Ａnn', 'Ann\\u200b' and ' ann '
    are the same person's."""
    if name.isascii():  # NFKC leaves ASCII as it is and it holds no invisible character
        return " ".join(name.split()).casefold()
    text = unicodedata.normalize("NFKC", name)
    text = "".join(char for char in text
                   if char not in _INVISIBLE and unicodedata.category(char) != "Cf")
    return unicodedata.normalize("NFKC", " ".join(text.split()).casefold())


def same_name(name: str, others) -> str | None:
    """The first of ``others`` that is ``name`` written differently (not identical): one
    pass over ``others`` (to check many names against the same others, key them once with
    ``names_by_key``)."""
    key = name_key(name)
    return next((other for other in others if other != name and name_key(other) == key),
                None)


def names_by_key(names) -> dict[str, str]:
    """{name_key: the first of ``names`` with that key}: comparing a name with all of
    ``names`` is then one dictionary look-up, so checking n names is linear, not n²."""
    keyed: dict[str, str] = {}
    for name in names:
        keyed.setdefault(name_key(name), name)
    return keyed


def clash_message(name: str, other: str) -> str:
    return gettext("%(other)s already plays at this table: %(name)s differs from it only in "
                   "capitals, width, spaces or invisible characters, so it is the same player.") \
        % {"other": other, "name": name}


#: Values the hand form puts among the players' names (its Draw and Nobody buttons): a
#: player called so would knock as a draw. Refused as a player's name by every door (the
#: forms, the admin, the services and the record imports), written in any case or width.
RESERVED_NAMES = {"-draw-": gettext_noop("Draw"), "-nobody-": gettext_noop("Nobody")}


def reserved_name(name: str, *, key: str | None = None) -> str | None:
    """Why ``name`` cannot be a player's (it is one of the hand form's values), or None.
    ``key``: its ``name_key`` when the caller has it already (one key per name)."""
    what = _reserved_keys().get(name_key(name) if key is None else key)
    if what is None:
        return None
    return gettext('"%(name)s" is kept for the hand form\'s %(what)s; give the player another '
                   'name.') % {"name": name, "what": gettext(what)}


def _reserved_keys() -> dict[str, str]:
    global _RESERVED_KEYS
    if _RESERVED_KEYS is None:
        _RESERVED_KEYS = {name_key(reserved): what for reserved, what in RESERVED_NAMES.items()}
    return _RESERVED_KEYS


_RESERVED_KEYS: dict[str, str] | None = None
