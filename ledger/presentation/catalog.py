"""The core's catalog for the screens: variants and their player counts and names, presets
and their values, settings with their kinds, labels, choices and limits, CAP-IT's contracts
and the roles in words, and what a game of a variant is (``game_facts``: tables, stake kind,
seats, the noun for a hand...; a result carries the same under ``result["facts"]``).
Screens import these from here, never from ``ledger.rules``.

This is the one module outside the core that may name a variant (the architecture test).
"""

from __future__ import annotations

from ledger.rules.catalog import (
    CAPIT_CONTRACTS,
    FIRST_DEALER_CHOSEN,
    PRESET_NAMES,
    ROLE_WORDS,
    SETTING_LABELS,
    SETTINGS,
    VARIANT_COUNTS,
    VARIANT_NAMES,
    VARIANT_SETTINGS,
    Setting,
    default_preset,
    hand_kinds,
    preset_values,
    settings_of,
    variants,
)
from ledger.rules.facts import MAX_TABLES, PRESET_VARIANTS, GameFacts, Seat, game_facts

__all__ = [
    "MAX_TABLES", "PRESET_VARIANTS", "GameFacts", "Seat", "facts_for", "game_facts",
    "CAPIT_CONTRACTS", "FIRST_DEALER_CHOSEN", "PRESET_NAMES", "ROLE_WORDS", "SETTINGS",
    "SETTING_LABELS",
    "VARIANT_COUNTS", "VARIANT_NAMES", "VARIANT_SETTINGS", "Setting", "default_preset",
    "hand_kinds", "preset_values", "settings_of", "variants",
]


def facts_for(game) -> GameFacts:
    """The facts of a stored game (anything with ``variant`` and ``players``, a list or a
    count; a model ``Game`` counts its players)."""
    players = game.players if hasattr(game, "players") else None
    if players is not None and not isinstance(players, int):
        players = len(players) if isinstance(players, list | tuple) else players.count()
    return game_facts(game.variant, players)
