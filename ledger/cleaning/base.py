"""What every part of the cleaning shares: the refusal, the field it names, and how a refused
value is quoted."""

from __future__ import annotations

from typing import Any, NamedTuple

from ..exceptions import LedgerError


class Refused(LedgerError, ValueError):
    """A value refused: a code and its facts, ``what`` (the field) among them; the
    presentation words it (``refusal_words``). A LedgerError, so a service may let it
    through to the screen as it is."""


class Field(NamedTuple):
    """A field a refusal names (``what``) by its key ("reason", "table_name"; with its
    facts: ``Field("name_called", {"name": "'Ann'"})``); the presentation words it
    (``refusal_sentences.FIELDS``). A ``what`` given as text (a form's label, a place in a
    record such as "players[2]") is said as it is."""

    key: str
    facts: dict = {}


def _shown(value: Any, limit: int = 24) -> str:
    """A value quoted for a message, short and with anything odd escaped."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 4] + "...'"
