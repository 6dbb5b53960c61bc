"""Rule settings, their defaults and the named presets (RULES §2, §3, §6).

A game keeps a snapshot of its resolved settings; ``resolve_rules`` builds it from a
variant, a preset name and the record's overrides, checking every value.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from .problems import record_problem
from .variants import REGISTRY, declared

#: The variants by name, in the order a "new game" chooser lists them (``variants.py``).
VARIANTS = tuple(REGISTRY)

#: Players allowed per variant.
PLAYER_COUNTS = {name: variant.counts for name, variant in REGISTRY.items()}

SHUTOUT_MODES = ("double_total", "game_bonus_double", "double_hand_points", "none")

PRESETS = {
    "standard": {
        "gin_bonus": 25, "undercut_bonus": 25, "big_gin_bonus": 0, "box_bonus": 25,
        "game_bonus": 100, "shutout_mode": "double_total", "target": 100,
    },
    "classic": {
        "gin_bonus": 20, "undercut_bonus": 10, "big_gin_bonus": 0, "box_bonus": 20,
        "game_bonus": 100, "shutout_mode": "game_bonus_double", "target": 100,
    },
    "simple": {
        "gin_bonus": 25, "undercut_bonus": 10, "big_gin_bonus": 0, "box_bonus": 0,
        "game_bonus": 0, "shutout_mode": "none", "target": 100,
    },
}
# the presets that belong to one variant (straight gin's, streets'), from its declaration
PRESETS.update({name: dict(values) for variant in REGISTRY.values()
                for name, values in variant.own_presets.items()})

#: The settings every preset gives (the others a preset may give override ``DEFAULTS``).
PRESET_SETTINGS = tuple(PRESETS["standard"])

# Settings outside the presets, with their defaults.
DEFAULTS = {
    "undercut_on_tie": True,
    "dealer_rule": "winner_deals",
    "knock_limit": 10,
    "oklahoma_ace": "gin_only",
    "spade_double": True,
    "hollywood_third_double": False,
    "three_hand_money": "pairwise",
    "balance_division": "proportional",
    "capit_ace_value": 15,
    "capit_round_share": "10%",
    "capit_round_winner": "round",
}

#: The club formats' settings (RULES §3.7, §3.9, §3.10), with their defaults. A result lists
#: them for ``streets``, elsewhere only those the preset or the record sets
#: (docs/game-record.md), so that the results of the older formats stay as they were;
#: ``club_setting`` reads one with its default.
CLUB_DEFAULTS = {
    "gin_boxes": 0,
    "undercut_boxes": 0,
    "roodle_boxes": 0,
    "double_extra_boxes": True,
    "street_bonus": "target",
    "clean_sweep_mode": "bonus",
    "clean_sweep_bonus": "street_bonus",
    "all_streets_sweep": "double",
    "sweep_condition": "won_all",
    "straight_format": "points",
    "best_of": 7,
    "money_mode": "per_point",
}

CHOICES = {
    "shutout_mode": SHUTOUT_MODES,
    "dealer_rule": ("winner_deals", "alternate"),
    "oklahoma_ace": ("gin_only", "one"),
    "three_hand_money": ("pairwise", "box_team"),
    "balance_division": ("proportional", "equal"),
    "capit_round_winner": ("round", "cumulative"),
    "clean_sweep_mode": ("bonus", "double", "none"),
    "all_streets_sweep": ("double", "none"),
    "sweep_condition": ("won_all", "clean_all"),
    "straight_format": ("points", "best_of"),
    "money_mode": ("per_point", "lump_sum"),
}

FLAGS = ("undercut_on_tie", "spade_double", "hollywood_third_double", "double_extra_boxes")

#: Settings that take a whole number or one word: the word and the number's range.
NUMBER_OR_WORD = {"street_bonus": ("target", 0, 100_000),
                  "clean_sweep_bonus": ("street_bonus", 0, 100_000)}

# Whole-number settings and their allowed range (inclusive).
NUMBERS = {
    "gin_bonus": (0, 10_000),
    "undercut_bonus": (0, 10_000),
    "big_gin_bonus": (0, 10_000),
    "box_bonus": (0, 10_000),
    "game_bonus": (0, 10_000),
    "target": (1, 100_000),
    "knock_limit": (0, 98),
    "capit_ace_value": (0, 100),
    "gin_boxes": (0, 100),
    "undercut_boxes": (0, 100),
    "roodle_boxes": (0, 100),
    "best_of": (1, 99),
}

SETTING_NAMES = PRESET_SETTINGS + tuple(DEFAULTS)
#: Every setting a record may give: ``SETTING_NAMES`` and the club formats'.
ALL_SETTING_NAMES = SETTING_NAMES + tuple(CLUB_DEFAULTS)


def club_setting(rules: dict, name: str):
    """A club format's setting (``CLUB_DEFAULTS``) in a game's resolved ``rules``, its
    default when the rules do not list it."""
    return rules.get(name, CLUB_DEFAULTS[name])

_SHARE = re.compile(r"^(\d+(?:\.\d+)?)%$|^\d+(?:\.\d+)?$")


def default_preset(variant: str) -> str:
    """The preset a game of ``variant`` starts under unless its record names one
    ("standard" for a name that is no variant)."""
    spec = declared(variant)
    return spec.preset if spec else "standard"


def variant_target(variant: str, player_count: int) -> int | None:
    """The variant's own default target, which replaces the preset's (RULES §2)."""
    spec = declared(variant, player_count)
    return spec.target if spec else None


def check_setting(name: str, value, problems: list) -> None:
    """Append a problem if ``value`` is not valid for setting ``name``."""
    where = f"rules.{name}"

    def bad(text: str) -> None:
        problems.append(record_problem("setting_invalid", where, text))

    if name in FLAGS:
        if not isinstance(value, bool):
            bad(f"must be true or false, not {value!r}")
    elif name in NUMBERS:
        low, high = NUMBERS[name]
        if isinstance(value, bool) or not isinstance(value, int):
            bad(f"must be a whole number, not {value!r}")
        elif not low <= value <= high:
            bad(f"{value} is out of range ({low} to {high})")
    elif name in CHOICES:
        if value not in CHOICES[name]:
            bad(f"{value!r} is not one of {', '.join(CHOICES[name])}")
    elif name in NUMBER_OR_WORD:
        word, low, high = NUMBER_OR_WORD[name]
        if value != word and (isinstance(value, bool) or not isinstance(value, int)):
            bad(f"must be a whole number or \"{word}\", not {value!r}")
        elif value != word and not low <= value <= high:
            bad(f"{value} is out of range ({low} to {high})")
    elif name == "capit_round_share":
        if not isinstance(value, str) or not _SHARE.match(value):
            bad(f"must be a percentage of the pot like \"10%\" or a money amount "
                f"like \"2.00\" (a string), not {value!r}")
        elif value.endswith("%"):
            try:
                if Decimal(value[:-1]) > 20:
                    bad(f"five shares of {value} would exceed the pot")
            except InvalidOperation:  # pragma: no cover - the pattern excludes it
                bad(f"{value!r} is not a percentage")
    if name == "best_of" and isinstance(value, int) and not isinstance(value, bool) \
            and value % 2 == 0:
        problems.append(record_problem(
            "setting_invalid", where,
            f"{value} is even; a match is best of an odd number of hands (RULES 3.10)",
            values={"even": value}))


def resolve_rules(
    variant: str, preset: str | None, overrides, player_count: int, problems: list
) -> tuple[str, dict]:
    """The complete settings of a game: preset values, the variant's target, overrides."""
    spec = declared(variant)
    if preset is None:
        preset = default_preset(variant)
    elif preset not in PRESETS:
        problems.append(record_problem("preset_unknown", "preset",
                                       f"unknown preset {preset!r} (known: "
                                       f"{', '.join(PRESETS)})"))
        preset = default_preset(variant)
    elif spec is not None and spec.presets and preset not in spec.presets:
        problems.append(record_problem("preset_unknown", "preset",
                                       f"{preset!r} is not a preset of {variant} (its presets: "
                                       f"{', '.join(spec.presets)})"))
        preset = default_preset(variant)
    values = PRESETS[preset]
    rules = {name: values[name] for name in PRESET_SETTINGS}
    rules.update(DEFAULTS)
    if spec is not None and spec.club:
        rules.update(CLUB_DEFAULTS)
    rules.update(values)  # what the preset sets beyond the common settings
    target = variant_target(variant, player_count)
    if target is not None:
        rules["target"] = target
    if overrides is None:
        overrides = {}
    if not isinstance(overrides, dict):
        problems.append(record_problem("rules_not_object", "rules",
                                       "must be an object of setting names and values"))
        overrides = {}
    for name, value in overrides.items():
        if name not in rules and name not in CLUB_DEFAULTS:
            problems.append(record_problem("setting_unknown", f"rules.{name}",
                                           "unknown setting"))
            continue
        before = len(problems)
        check_setting(name, value, problems)
        if len(problems) == before:
            rules[name] = value
    return preset, rules
