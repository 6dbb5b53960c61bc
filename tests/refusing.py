"""``refuses(kind, match=...)``: ``pytest.raises`` for a refusal of the record, whose words
are the presentation's (``refusal_words``, in the language in force where the test reads
them): a refusal carries a code and its facts, not words, so ``match`` is searched in what
a page would say."""

from __future__ import annotations

import contextlib
import re

import pytest

from ledger.presentation.refusals import refusal_words


@contextlib.contextmanager
def refuses(kind, match: str | None = None):
    with pytest.raises(kind) as info:
        yield info
    if match is not None:
        said = refusal_words(info.value)
        assert re.search(match, said), f"{match!r} is not in the refusal {said!r}"
