"""French elision before a name put into a sentence: "Points de %(name)s" with Eve reads
"Points d’Eve", with Bob "Points de Bob".

A catalog writes "de %(name)s" (the translator cannot know the name); French drops the
vowel of "de", "que", "jusque" before a word that begins with a vowel. ``gettext`` and
``ngettext`` here are Django's, but their message fills its placeholders (``%``) with that
rule: a module that puts players' names into its sentences imports them instead of
Django's. Other languages' messages are filled as Python fills them.
"""

from __future__ import annotations

import re

from django.utils import translation

__all__ = ["Elided", "elide", "gettext", "ngettext"]

#: A word that loses its vowel before a vowel, then the placeholder after it.
_ELIDABLE = re.compile(r"(?<![\w’'])([Dd]e|[Qq]ue|[Jj]usque|[Ll]orsque|[Pp]uisque) "
                       r"%\((\w+)\)s")
#: A vowel (or a mute h would be, but names are not told apart by it: none is elided).
_VOWEL = re.compile(r"[AEIOUÀÂÄÆÉÈÊËÎÏÔÖŒÙÛÜaeiouàâäæéèêëîïôöœùûü]")
APOSTROPHE = "\u2019"


def elide(message: str, values) -> str:
    """``message % values``, in French with "de", "que"... elided before a value that
    begins with a vowel ("d’Eve", "qu’Anna")."""
    message = str(message)
    if isinstance(values, dict) and (translation.get_language() or "").startswith("fr"):
        def cut(match: re.Match) -> str:
            value = values.get(match.group(2))
            if isinstance(value, str) and _VOWEL.match(value):
                return f"{match.group(1)[:-1]}{APOSTROPHE}%({match.group(2)})s"
            return match.group(0)
        message = _ELIDABLE.sub(cut, message)
    return message % values


class Elided(str):
    """A translated message whose ``%`` fills it by ``elide``."""

    def __mod__(self, values):
        return elide(str(self), values)


def gettext(message: str) -> Elided:
    return Elided(translation.gettext(message))


def ngettext(singular: str, plural: str, number: int) -> Elided:
    return Elided(translation.ngettext(singular, plural, number))
