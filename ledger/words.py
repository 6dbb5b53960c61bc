"""Small phrases the screens, the services' messages and the printed sheets share."""

from __future__ import annotations

import datetime

from django.utils import dateformat


def evening_words(day: datetime.date) -> str:
    """A date as the screens say it: "Monday 23 November 2026"."""
    return dateformat.format(day, "l j F Y")


def who_did(result: dict, who, singular: str, plural: str) -> str:
    """``who`` (a player, a side or a tie's list) with the verb that agrees with it:
    "Sal wins", "The captains win", "We win", "Sal & Vic win" (the same reading as the
    printed sheet's status line)."""
    if isinstance(who, list):
        return f"{' & '.join(who)} {plural}"
    if result.get("variant") == "captain" and who in ("captains", "opponents"):
        return f"The {who} {plural}"
    if who in (result.get("sides") or {}):
        return f"{who} {plural}"
    return f"{who} {singular}"
