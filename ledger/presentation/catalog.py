"""The core's catalog for the screens: variants and their player counts and names, presets
and their values, settings with their kinds, labels, choices and limits, CAP-IT's contracts
and the roles in words, and what a game of a variant is (``game_facts``: tables, stake kind,
seats, the noun for a hand...; a result carries the same under ``result["facts"]``).
Screens import these from here, never from ``ledger.rules``; this is the one module outside
the core that may name a variant (the architecture test).

One set of names: a variant's name (``VARIANT_NAMES``, also the model's choices) with its
short form for narrow columns (``VARIANT_SHORT_NAMES``), one word per role
(``ROLE_WORDS``), one label per setting (``SETTING_LABELS``: the setup and settings forms,
the list of changes and the printed rules panel, ``header.rule_lines``, all read it)."""

from __future__ import annotations

from ledger.rules.catalog import (
    BIG_GIN,
    BOX,
    CAPIT_CONTRACTS,
    CAPTAIN,
    FIRST_DEALER_CHOSEN,
    GIN,
    HAND_KINDS,
    KNOCK,
    OPPONENT,
    PRESET_NAMES,
    ROLE_ORDER,
    ROLE_WORDS,
    SETTINGS,
    SITS_OUT,
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
from ledger.rules.facts import (
    FIRST_SIDE,
    MAX_TABLES,
    PRESET_VARIANTS,
    SECOND_SIDE,
    GameFacts,
    Seat,
    game_facts,
    setup_from_seats,
    setup_sides,
)

#: The variants' names where a column is narrow (the book's tables).
VARIANT_SHORT_NAMES = {"gin": "Gin", "oklahoma": "Oklahoma", "hollywood": "Hollywood",
                       "box": "In the box", "captain": "Captain", "partnership": "Partners",
                       "cap-it": "CAP-IT"}
assert set(VARIANT_SHORT_NAMES) == set(VARIANT_NAMES)

#: Every setting's label: the forms' fields, the list of changes, the printed rules panel.
SETTING_LABELS = {
    "target": "Game to", "gin_bonus": "Gin bonus", "undercut_bonus": "Undercut bonus",
    "big_gin_bonus": "Big gin bonus", "box_bonus": "Box bonus",
    "game_bonus": "Game bonus", "shutout_mode": "Shutout", "knock_limit": "Knock limit",
    "undercut_on_tie": "A tie is an undercut", "dealer_rule": "Next dealer",
    "oklahoma_ace": "Ace up-card", "spade_double": "Spade up-card doubles",
    "hollywood_third_double": "Third column counts double",
    "three_hand_money": "Money between three", "balance_division": "Unequal stakes",
    "capit_ace_value": "Ace counts", "capit_round_share": "Round share",
    "capit_round_winner": "Round winner by",
}
assert set(SETTING_LABELS) == set(SETTINGS)
#: A setting field's hint, where its values need one.
SETTING_HELP = {"big_gin_bonus": "0 = off",
                "capit_round_share": '"10%" of the pot or an amount like "2.00"'}

__all__ = [
    "FIRST_SIDE", "MAX_TABLES", "PRESET_VARIANTS", "SECOND_SIDE", "GameFacts", "Seat",
    "facts_for", "game_facts", "setup_from_seats", "setup_sides",
    "BIG_GIN", "GIN", "HAND_KINDS", "KNOCK", "ROLE_ORDER",
    "BOX", "CAPTAIN", "OPPONENT", "SITS_OUT",
    "CAPIT_CONTRACTS", "FIRST_DEALER_CHOSEN", "PRESET_NAMES", "ROLE_WORDS", "SETTINGS",
    "SETTING_HELP", "SETTING_LABELS",
    "VARIANT_COUNTS", "VARIANT_NAMES", "VARIANT_SETTINGS", "VARIANT_SHORT_NAMES", "Setting",
    "default_preset",
    "hand_kinds", "preset_values", "settings_of", "variants",
]


def facts_for(game) -> GameFacts:
    """The facts of a stored game (anything with ``variant`` and ``players``, a list or a
    count; a model ``Game`` counts its players)."""
    players = game.players if hasattr(game, "players") else None
    if players is not None and not isinstance(players, int):
        players = len(players) if isinstance(players, list | tuple) else players.count()
    return game_facts(game.variant, players)
