"""Text and names: refused for control, broken or invisible direction characters, otherwise
composed (NFC) and trimmed; names lose invisible characters inside and compare by
``name_key``."""

from __future__ import annotations

import unicodedata
from typing import Any, NamedTuple

from .base import Refused, _shown

MAX_NAME = 60

# -- characters ------------------------------------------------------------------------------

_DIRECTION_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Removed around every text and anywhere in names: zero-width space, non-joiner, joiner,
# word joiner, BOM, soft hyphen, Mongolian vowel separator, direction marks.
_INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e\u200e\u200f\u061c"


class Bad(NamedTuple):
    """What is wrong with a text's characters: ``kind`` (surrogate, nul, line_break,
    control, bidi) and the character's code point ("0007"); the presentation words it
    (``refusal_sentences.BAD_CHARACTERS``), ``str()`` is the record's English line."""

    kind: str
    code: str = ""

    def __str__(self) -> str:
        return {"surrogate": "a broken character (a lone surrogate)", "nul": "a NUL character",
                "line_break": "a line break",
                "control": f"a control character (U+{self.code})",
                "bidi": f"an invisible direction control (U+{self.code})"}[self.kind]


def bad_character(text: str, *, multiline: bool = False) -> Bad | None:
    """What is wrong with ``text``'s characters (``Bad``), or None."""
    for char in text:
        category = unicodedata.category(char)
        if category == "Cs":
            return Bad("surrogate")
        if category == "Cc":
            if multiline and char in "\n\r\t":
                continue
            if char == "\x00":
                return Bad("nul")
            if char in "\r\n":
                return Bad("line_break")
            return Bad("control", f"{ord(char):04X}")
        if char in _DIRECTION_CONTROLS:
            return Bad("bidi", f"{ord(char):04X}")
    return None


def _trim(text: str) -> str:
    previous = None
    while previous != text:
        previous = text
        text = text.strip().strip(_INVISIBLE)
    return text


def clean_text(value: Any, *, what: Any, max_length: int, multiline: bool = False,
               required: bool = False) -> str:
    """``value`` as stored text (NFC, trimmed), or Refused."""
    if not isinstance(value, str):
        raise Refused(code="not_text", what=what, value=_shown(value))
    bad = bad_character(value, multiline=multiline)
    if bad:
        raise contains(what, bad)
    text = _trim(unicodedata.normalize("NFC", value))
    if required and not text:
        raise Refused(code="empty", what=what)
    if len(text) > max_length:
        raise too_long(what, len(text), max_length)
    return text


def contains(what: Any, bad: Bad) -> Refused:
    """"The name contains a line break; type it again without it." """
    return Refused(code="contains", what=what, bad=bad)


def too_long(what: Any, length: int, most: int) -> Refused:
    return Refused(code="too_long", what=what, n=length, most=most)


def clean_name(value: Any, *, what: Any = "The name", max_length: int = MAX_NAME) -> str:
    """A person's (or side's) name: text with no invisible characters inside and single
    spaces, or Refused (also when nothing visible is left)."""
    text = clean_text(value, what=what, max_length=10 * max_length)
    text = "".join(char for char in text
                   if char not in _INVISIBLE and unicodedata.category(char) != "Cf")
    text = " ".join(text.split())
    if not text:
        raise Refused(code="no_visible_character", what=what)
    if len(text) > max_length:
        raise too_long(what, len(text), max_length)
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


def name_clash(name: str, other: str) -> Refused:
    """``name`` is ``other``'s, written differently (``same_name``): the same player."""
    return Refused(code="name_clash", name=name, other=other)


#: Values the hand form puts among the players' names (its Draw and Nobody buttons): a
#: player called so would knock as a draw. Refused as a player's name by every door (the
#: forms, the admin, the services and the record imports), written in any case or width.
RESERVED_NAMES = {"-draw-": "draw", "-nobody-": "nobody"}


def reserved_name(name: str, *, key: str | None = None) -> Refused | None:
    """Why ``name`` cannot be a player's (it is one of the hand form's values: the refusal,
    code "name_reserved"), or None. ``key``: its ``name_key`` when the caller has it
    already (one key per name)."""
    button = _reserved_keys().get(name_key(name) if key is None else key)
    if button is None:
        return None
    return Refused(code="name_reserved", name=name, button=button)


def _reserved_keys() -> dict[str, str]:
    global _RESERVED_KEYS
    if _RESERVED_KEYS is None:
        _RESERVED_KEYS = {name_key(reserved): what for reserved, what in RESERVED_NAMES.items()}
    return _RESERVED_KEYS


_RESERVED_KEYS: dict[str, str] | None = None
