"""Counts of a game's hands as the screens say them, in the language in force.

    {% load counts %}
    {{ row.hands|hands_of:row.noun }}   "7 hands", "5 rounds" (CAP-IT), "1 hand"
"""

from __future__ import annotations

from django import template

from ledger.presentation.columns import hands_count

register = template.Library()


@register.filter
def hands_of(number, noun: str) -> str:
    """``number`` hands, named by ``noun`` ("hand" or "round", the core's hand noun)."""
    return hands_count(noun, int(number or 0))
