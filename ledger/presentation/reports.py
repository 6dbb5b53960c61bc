"""A table's report of its part of a hand in words, for the hand's history ("Who reported
what") on the game page: "Ann gin Bob 0 v Ann 12", "draw", "Ann 12, Bob 30 went out"."""

from __future__ import annotations

from .catalog import BIG_GIN, GIN, KNOCK
from .words import RESULT_WORDS


def report_words(values: dict) -> str:
    """The reported values (the record's shape of one table's part, or a CAP-IT player's
    points) in words."""
    if values.get("draw"):
        return "draw"
    if "knocker" in values:
        counts = values.get("deadwood") or {}
        kind = BIG_GIN if values.get("big_gin") else GIN if values.get("gin") else KNOCK
        text = f"{values['knocker']} {RESULT_WORDS[kind].lower()}"
        if counts:  # the knocker's count first (PostgreSQL's jsonb keeps no key order)
            names = sorted(counts, key=lambda name: name != values["knocker"])
            text += " " + " v ".join(f"{name} {counts[name]}" for name in names)
        elif values.get("cards"):
            text += " (cards)"
        return text
    points = values.get("points") or {}
    went = " went out" if values.get("went_out") else ""
    return ", ".join(f"{name} {value}" for name, value in points.items()) + went
