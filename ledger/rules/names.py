"""A record's player names mapped to others (a player renamed since the game began): the
record's schema says where a name stands, in a hand entry (the knocker, the counts' and
cards' keys, each table's) and in the setup (the dealer, captains, opponents, sitter, the
members of each side). Pure: no Django."""

from __future__ import annotations

from .facts import SETUP_PLAYER_KEYS, SETUP_PLAYER_LISTS


def _rename(value, mapping: dict[str, str]):
    return mapping.get(value, value) if isinstance(value, str) else value


def _rename_keys(value, mapping: dict[str, str]):
    if not isinstance(value, dict):
        return value
    return {mapping.get(key, key): item for key, item in value.items()}


def rename_entry(entry, mapping: dict[str, str]):
    """A hand entry with its player names mapped (``knocker``, ``deadwood``, ``cards``,
    ``went_out``, ``points``, ``cut_loser`` and each table's); other fields as they are."""
    if not mapping or not isinstance(entry, dict):
        return entry
    out = {}
    for key, value in entry.items():
        if key in ("knocker", "went_out", "cut_loser"):
            value = _rename(value, mapping)
        elif key in ("deadwood", "cards", "points"):
            value = _rename_keys(value, mapping)
        elif key == "tables" and isinstance(value, list):
            value = [rename_entry(part, mapping) for part in value]
        out[key] = value
    return out


def rename_setup(setup, mapping: dict[str, str]):
    """A game's setup with its player names mapped (dealer, captains, opponents, sitter,
    the members of each side; side names are not players' and stay)."""
    if not mapping or not isinstance(setup, dict):
        return setup
    out = {}
    for key, value in setup.items():
        if key in SETUP_PLAYER_KEYS:
            value = _rename(value, mapping)
        elif key in SETUP_PLAYER_LISTS and isinstance(value, list):
            value = [_rename(name, mapping) for name in value]
        elif key == "sides" and isinstance(value, dict):
            value = {side: [_rename(name, mapping) for name in members]
                     if isinstance(members, list) else members
                     for side, members in value.items()}
        out[key] = value
    return out
