"""A refusal in words: the one function that words what the record refused.

The record (``ledger.exceptions``, the services, the cleaning) raises its refusals as data:
a ``code`` and the facts (numbers, names, dates). ``refusal_words(exc)`` says them in the
language in force, with the dates and times through the one date formatter; the views, the
forms, the print and the commands show a refusal through it, where they show it (the record
imports nothing of this). A refusal given as text (code "refused") keeps its text.

The sentences are ``refusal_sentences``' (by code); a refused record's problems are worded
by ``problems`` (which words a refusal of the cleaning carried inside one through
``refusal_sentences`` too).
"""

from __future__ import annotations

from .problems import lines
from .refusal_sentences import SENTENCES, STALE, said
from .refusal_sentences import WORDS as _SAID_BY_FUNCTIONS


def _record_refused(details) -> str:
    return "; ".join(lines(details))


#: every code the record refuses with that is said by a function of its facts
WORDS = {**_SAID_BY_FUNCTIONS, "record_refused": _record_refused}

__all__ = ["SENTENCES", "STALE", "WORDS", "refusal_words"]


def refusal_words(exc) -> str:
    """``exc`` (a ``LedgerError``) in the words of the language in force: the sentence of its
    code with its facts, a refused record's problems, or the text it was given."""
    if exc.code == "record_refused":
        return _record_refused(**exc.params)
    return said(exc)
