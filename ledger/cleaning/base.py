"""What every part of the cleaning shares: the refusal, and how a refused value is quoted."""

from __future__ import annotations

from typing import Any

from ..exceptions import LedgerError


class Refused(LedgerError, ValueError):
    """A value refused; ``message`` names the field and the reason. A LedgerError, so a
    service may let it through to the screen as it is."""


def _shown(value: Any, limit: int = 24) -> str:
    """A value quoted for a message, short and with anything odd escaped."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 4] + "...'"
