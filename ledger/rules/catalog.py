"""What the core offers, for the screens to list: the variants with their player counts and
names, the presets with their values, every setting with its kind, choices and limits,
CAP-IT's contracts and the names of the roles (RULES §2, §3, §6).

Nothing here decides a score: it describes the rules that ``settings.py``, ``capit.py`` and
the scorers apply, from the same tables, so a screen never keeps a copy of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from .capit import CONTRACTS
from .roles import BOX, CAPTAIN, OPPONENT, PLAYER, ROLE_ORDER, ROLE_WORDS, SITS_OUT
from .settings import (
    ALL_SETTING_NAMES,
    CHOICES,
    FLAGS,
    NUMBER_OR_WORD,
    NUMBERS,
    PLAYER_COUNTS,
    PRESETS,
    VARIANTS,
    club_setting,
    default_preset,
    resolve_rules,
)
from .variants import REGISTRY

__all__ = [
    "BOX", "CAPTAIN", "OPPONENT", "PLAYER", "SITS_OUT",
    "BIG_GIN", "CAPIT_CONTRACTS", "FIRST_DEALER_CHOSEN", "GIN", "HAND_KINDS", "KNOCK",
    "PRESET_NAMES", "ROLE_ORDER", "ROLE_WORDS", "SETTINGS",
    "VARIANT_COUNTS", "VARIANT_NAMES", "VARIANT_SETTINGS", "VARIANT_SHORT_NAMES", "Setting",
    "default_preset",
    "first_dealer_chosen", "hand_kinds", "hand_pair", "in_the_box", "opponents",
    "plays_hand", "preset_values", "setting_now", "settings_of", "sitting_out", "variants",
]

#: The variants in the order a "new game" chooser lists them, with their names (in English:
#: the presentation says them in the reader's language), in full and for narrow columns.
VARIANT_NAMES = {name: variant.title for name, variant in REGISTRY.items()}
VARIANT_SHORT_NAMES = {name: variant.short for name, variant in REGISTRY.items()}
assert tuple(VARIANT_NAMES) == VARIANTS

#: How many players each variant takes.
VARIANT_COUNTS = {variant: PLAYER_COUNTS[variant] for variant in VARIANTS}

PRESET_NAMES = tuple(PRESETS)


def presets_of(variant: str) -> tuple[str, ...]:
    """The presets a game of ``variant`` may start under, in the order a screen lists them
    (RULES §2: the gin family's three, and straight gin's or streets' own); none for a
    variant played without a preset or a name that is no variant."""
    spec = REGISTRY.get(variant)
    return spec.presets if spec else ()

#: The variants whose setup names who deals first (``setup.first_dealer``); in the others
#: the seats decide: the box player deals every hand, three-handed captain play opens with
#: the captain, table games with the second side (or ``setup.first_dealer_side``).
FIRST_DEALER_CHOSEN = tuple(name for name, variant in REGISTRY.items()
                            if variant.first_dealer_chosen)

def first_dealer_chosen(variant: str) -> bool:
    """Whether the game's setup names who deals first (``FIRST_DEALER_CHOSEN``)."""
    return variant in FIRST_DEALER_CHOSEN


# What a hand's ``roles`` (name -> role, the result's ``next`` or a hand's) say, asked of
# the core: no one else compares a role's name.

def plays_hand(role: str | None) -> bool:
    """Whether a player of this role plays the hand: all but the one who sits it out."""
    return role != SITS_OUT


def sitting_out(roles: dict[str, str]) -> list[str]:
    """Who sits the hand out, in the order of ``roles``."""
    return [name for name, role in roles.items() if not plays_hand(role)]


def hand_pair(roles: dict[str, str]) -> list[str]:
    """Who plays the hand at a three-player table, who plays first first (``ROLE_ORDER``:
    in the box before his captain)."""
    return sorted((name for name, role in roles.items() if plays_hand(role)),
                  key=lambda name: ROLE_ORDER.index(roles[name]))


def in_the_box(roles: dict[str, str]) -> str | None:
    """Who is in the box for the hand, if anyone."""
    return next((name for name, role in roles.items() if role == BOX), None)


def opponents(roles: dict[str, str]) -> list[str]:
    """Captain play's opponents in the hand, in the order of ``roles``."""
    return [name for name, role in roles.items() if role == OPPONENT]

#: How a knocker may end a hand, each the entry's own flag but the plain knock (``"gin":
#: true``, ``"big_gin": true``); ``hand_kinds`` says which a game's rules offer.
KNOCK, GIN, BIG_GIN = "knock", "gin", "big_gin"
HAND_KINDS = (KNOCK, GIN, BIG_GIN)

#: CAP-IT's five contracts, round by round.
CAPIT_CONTRACTS = CONTRACTS

#: The settings that matter to each variant, in the order a screen shows them.
VARIANT_SETTINGS = {name: variant.settings for name, variant in REGISTRY.items()}


@dataclass(frozen=True)
class Setting:
    """One rule setting: ``kind`` is "flag" (true/false), "number" (whole, ``low`` to
    ``high``), "choice" (one of ``choices``), "number_or_word" (a whole number ``low`` to
    ``high`` or the one ``word``: the street bonus is a number or "target") or "share"
    (CAP-IT's round share: "10%" of the pot or an amount like "2.00"). Its label is the
    presentation's (``ledger.presentation.catalog.SETTING_LABELS``)."""

    name: str
    kind: str
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    word: str | None = None


def _setting(name: str) -> Setting:
    if name in FLAGS:
        return Setting(name, "flag")
    if name in NUMBERS:
        low, high = NUMBERS[name]
        return Setting(name, "number", low=low, high=high)
    if name in CHOICES:
        return Setting(name, "choice", choices=tuple(CHOICES[name]))
    if name in NUMBER_OR_WORD:
        word, low, high = NUMBER_OR_WORD[name]
        return Setting(name, "number_or_word", low=low, high=high, word=word)
    return Setting(name, "share")


#: Every setting, by name: the gin family's and the club formats' (RULES §3.7-3.10).
SETTINGS = {name: _setting(name) for name in ALL_SETTING_NAMES}


def setting_now(rules: dict, name: str):
    """A setting's value in a game's resolved ``rules``; a club format's setting that the
    rules do not list (a gin game started without it) has its default."""
    return rules[name] if name in rules else club_setting(rules, name)


def settings_of(variant: str) -> tuple[Setting, ...]:
    return tuple(SETTINGS[name] for name in VARIANT_SETTINGS[variant])


def hand_kinds(rules: dict, *, limit_from_a_card: bool = False) -> tuple[str, ...]:
    """How a knocker may end a hand under ``rules``: a big gin only counts as its own kind
    with a big gin bonus (RULES §6: with ``big_gin_bonus`` 0 it scores as a gin); with
    ``knock_limit`` 0 only gin ends a hand (RULES §3.10, straight gin), unless a card
    turned for the hand sets its limit (``limit_from_a_card``: Oklahoma's up-card, a
    deal's knock card)."""
    kinds = HAND_KINDS if rules.get("big_gin_bonus", 0) > 0 else HAND_KINDS[:2]
    if rules.get("knock_limit") == 0 and not limit_from_a_card:
        kinds = tuple(kind for kind in kinds if kind != KNOCK)
    return kinds


def variants() -> list[tuple[str, str, tuple[int, ...]]]:
    """(variant, name, player counts) for each variant."""
    return [(variant, VARIANT_NAMES[variant], VARIANT_COUNTS[variant]) for variant in VARIANTS]


def preset_values(variant: str, preset: str | None, player_count: int) -> dict:
    """Every setting's value in a game of ``variant`` for ``player_count`` players under
    ``preset`` (None: the variant's default preset), before any change: exactly what a game
    started so would play (the variant's own target replaces the preset's)."""
    problems: list = []
    _, rules = resolve_rules(variant, preset, None, player_count, problems)
    return rules

