"""The core's catalog for the screens: variants and their player counts and names, presets
and their values, settings with their kinds, labels, choices and limits, CAP-IT's contracts
and the roles in words. Screens import these from here, never from ``ledger.rules``."""

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

__all__ = [
    "CAPIT_CONTRACTS", "FIRST_DEALER_CHOSEN", "PRESET_NAMES", "ROLE_WORDS", "SETTINGS",
    "SETTING_LABELS",
    "VARIANT_COUNTS", "VARIANT_NAMES", "VARIANT_SETTINGS", "Setting", "default_preset",
    "hand_kinds", "preset_values", "settings_of", "variants",
]
