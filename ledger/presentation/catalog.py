"""The core's catalog for the screens: variants and their player counts and names, presets
and their values, settings with their kinds, labels, choices and limits, CAP-IT's contracts
and the roles in words, and what a game of a variant is (``game_facts``: tables, stake kind,
seats, the noun for a hand...; a result carries the same under ``result["facts"]``).
Screens import these from here, never from ``ledger.rules``. The variants are the core's
(``ledger/rules/variants.py``): nothing here is keyed by a variant's name, so a new variant
needs only its names' words below (``_VARIANT_WORDS``).

One set of names: a variant's name (``VARIANT_NAMES``, also the model's choices) with its
short form for narrow columns (``VARIANT_SHORT_NAMES``), one word per role
(``ROLE_WORDS``), one label per setting (``SETTING_LABELS``: the setup and settings forms,
the list of changes and the printed rules panel, ``header.rule_lines``, all read it)."""

from __future__ import annotations

import re
from collections.abc import MutableMapping

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from ledger.rules.catalog import (
    BIG_GIN,
    CAPIT_CONTRACTS,
    GIN,
    HAND_KINDS,
    KNOCK,
    PRESET_NAMES,
    SETTINGS,
    VARIANT_COUNTS,
    VARIANT_SETTINGS,
    Setting,
    default_preset,
    first_dealer_chosen,
    hand_kinds,
    hand_pair,
    in_the_box,
    opponents,
    preset_values,
    presets_of,
    setting_now,
    settings_of,
    sitting_out,
    variants,
)
from ledger.rules.catalog import ROLE_WORDS as _CORE_ROLE_WORDS
from ledger.rules.catalog import VARIANT_NAMES as _CORE_VARIANT_NAMES
from ledger.rules.catalog import VARIANT_SHORT_NAMES as _CORE_VARIANT_SHORT_NAMES
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
from ledger.rules.schema import PLAY_PLACES, ROUND_PLACES, Place


class Said(MutableMapping):
    """A table of words, each said in the language in force when it is read (a plain
    ``str``: ``SETTING_LABELS["target"]`` is "Game to" in English, "Partie bis" in German).
    Its words are marked for the catalogs where the table is written."""

    def __init__(self, words: dict) -> None:
        self._words = dict(words)
        self._marked = dict(words)  # the words as marked, each said in any language

    def __getitem__(self, key) -> str:
        return str(self._words[key])

    def __setitem__(self, key, words) -> None:
        """A test's own words; what it read put back (``monkeypatch.setitem`` restores the
        plain string it got) is the marked words again, said in every language, not an
        English string for the rest of the process."""
        marked = self._marked.get(key)
        self._words[key] = marked if marked is not None and words == str(marked) else words

    def __delitem__(self, key) -> None:
        del self._words[key]

    def __iter__(self):
        return iter(self._words)

    def __len__(self) -> int:
        return len(self._words)

    def __repr__(self) -> str:
        return f"Said({dict(self)!r})"


#: The words of the variants' names, by the core's English (a variant's ``title`` and
#: ``short``), marked for the catalogs; a name that is said the same in every language is
#: in ``_VARIANT_NAMES_AS_IS``.
_VARIANT_WORDS = {
    "Gin": _("Gin"), "Oklahoma gin": _("Oklahoma gin"), "Hollywood gin": _("Hollywood gin"),
    "Three-handed (in the box)": _("Three-handed (in the box)"),
    "Captain play": _("Captain play"), "Partnership gin": _("Partnership gin"),
    "In the box": _("In the box"), "Captain": _("Captain"), "Partners": _("Partners"),
    "Streets": _("Streets"),
}
_VARIANT_NAMES_AS_IS = frozenset({"Oklahoma", "Hollywood", "CAP-IT"})
assert {*_CORE_VARIANT_NAMES.values(), *_CORE_VARIANT_SHORT_NAMES.values()} \
    <= set(_VARIANT_WORDS) | _VARIANT_NAMES_AS_IS, "a variant's name has no words"

#: Each variant's name in the language in force (the core's ``VARIANT_NAMES`` say them in
#: English; the model's choices keep those).
VARIANT_NAMES = Said({variant: _VARIANT_WORDS.get(name, name)
                      for variant, name in _CORE_VARIANT_NAMES.items()})

#: The variants' names where a column is narrow (the book's tables).
VARIANT_SHORT_NAMES = Said({variant: _VARIANT_WORDS.get(name, name)
                            for variant, name in _CORE_VARIANT_SHORT_NAMES.items()})

#: A player's role in a hand, in words (the core's ``ROLE_WORDS``, translated).
ROLE_WORDS = Said({
    "box": _("in the box"), "captain": _("captain"), "sits_out": _("sits out"),
    "opponent": _("opponent"), "player": _("plays"),
})
assert set(ROLE_WORDS) == set(_CORE_ROLE_WORDS)

#: CAP-IT's five contracts in words, by the core's name (``CAPIT_CONTRACTS``): the next
#: round's panel, the sheet on screen and on paper, the CSV.
CONTRACT_WORDS = Said({
    "two sets of 3": _("two sets of 3"),
    "a set of 3 and a run of 4": _("a set of 3 and a run of 4"),
    "two runs of 4": _("two runs of 4"),
    "three sets of 3": _("three sets of 3"),
    "a run of 3 and a run of 7": _("a run of 3 and a run of 7"),
})
assert set(CONTRACT_WORDS) == set(CAPIT_CONTRACTS)


def contract_text(contract: str | None) -> str:
    """A CAP-IT contract (the core's name) in the language in force; "" for none."""
    return CONTRACT_WORDS.get(contract, contract) if contract else ""


#: The presets by name, as the setup form shows them.
PRESET_LABELS = Said({"standard": _("Standard"), "classic": _("Classic"),
                      "simple": _("Simple"), "straight": _("Straight gin"),
                      "straight_classic": _("Straight gin, classic"),
                      "scarne_lump": _("Scarne, lump sum"), "streets": _("Streets"),
                      "streets_club": _("Streets, club")})
assert set(PRESET_LABELS) == set(PRESET_NAMES)

#: Every setting's label: the forms' fields, the list of changes, the printed rules panel.
SETTING_LABELS = Said({
    "target": _("Game to"), "gin_bonus": _("Gin bonus"), "undercut_bonus": _("Undercut bonus"),
    "big_gin_bonus": _("Big gin bonus"), "box_bonus": _("Box (line) bonus"),
    "game_bonus": _("Game bonus"), "shutout_mode": _("Shutout"),
    "knock_limit": _("Knock limit"),
    "undercut_on_tie": _("A tie is an undercut"), "dealer_rule": _("Next dealer"),
    "oklahoma_ace": _("Ace up-card"), "spade_double": _("Spade up-card doubles"),
    "hollywood_third_double": _("Third column counts double"),
    "three_hand_money": _("Money between three"), "balance_division": _("Unequal stakes"),
    "capit_ace_value": _("Ace counts"), "capit_round_share": _("Round share"),
    "capit_round_winner": _("Round winner by"),
    "gin_boxes": _("Extra boxes for a gin"),
    "undercut_boxes": _("Extra boxes for an undercut"),
    "roodle_boxes": _("Extra boxes for a roodle, per table"),
    "double_extra_boxes": _("A doubled hand doubles the extra boxes"),
    "street_bonus": _("Street bonus"), "clean_sweep_mode": _("Clean sweep"),
    "clean_sweep_bonus": _("Clean sweep bonus"),
    "all_streets_sweep": _("All three streets to one side"),
    "sweep_condition": _("All three streets means"),
    "straight_format": _("Game or match"), "best_of": _("Match: best of (hands)"),
    "money_mode": _("Money"),
})
assert set(SETTING_LABELS) == set(SETTINGS)
#: A setting field's hint, where its values need one.
SETTING_HELP = Said({"big_gin_bonus": _("0 = off"),
                     "capit_round_share": _('"10%" of the pot or an amount like "2.00"'),
                     "best_of": _("an odd number: 7 is won by the first to 4 hands"),
                     "gin_boxes": _("0 = off"), "undercut_boxes": _("0 = off"),
                     "roodle_boxes": _("0 = off")})

#: The values of the settings that are a choice, in words (the forms' choices, the presets'
#: values the setup form shows).
CHOICE_WORDS = Said({
    "double_total": pgettext_lazy("setting", "double total"),
    "game_bonus_double": pgettext_lazy("setting", "game bonus double"),
    "double_hand_points": pgettext_lazy("setting", "double hand points"),
    "none": pgettext_lazy("setting", "none"),
    "winner_deals": pgettext_lazy("setting", "winner deals"),
    "alternate": pgettext_lazy("setting", "alternate"),
    "gin_only": pgettext_lazy("setting", "gin only"),
    "one": pgettext_lazy("setting", "one"),
    "pairwise": pgettext_lazy("setting", "pairwise"),
    "box_team": pgettext_lazy("setting", "box team"),
    "proportional": pgettext_lazy("setting", "proportional"),
    "equal": pgettext_lazy("setting", "equal"),
    "round": pgettext_lazy("setting", "round"),
    "cumulative": pgettext_lazy("setting", "cumulative"),
    "bonus": pgettext_lazy("setting", "bonus"),
    "double": pgettext_lazy("setting", "double"),
    "won_all": pgettext_lazy("setting", "went out on all three"),
    "clean_all": pgettext_lazy("setting", "all three clean sweeps"),
    "points": pgettext_lazy("setting", "a game"),
    "best_of": pgettext_lazy("setting", "a match"),
    "per_point": pgettext_lazy("setting", "per point"),
    "lump_sum": pgettext_lazy("setting", "lump sum"),
    # the words a number-or-word setting takes (Setting.word): the street bonus is the
    # target, the clean sweep bonus the street bonus
    "target": pgettext_lazy("setting", "the target"),
    "street_bonus": pgettext_lazy("setting", "the street bonus"),
})
assert {value for spec in SETTINGS.values() for value in (*spec.choices, spec.word)
        if value} <= set(CHOICE_WORDS)

#: A flag setting's two values, in words.
YES, NO = pgettext_lazy("setting", "yes"), pgettext_lazy("setting", "no")

#: What each seat of the setup is, by the cut's order (the core's ``Seat.label``, with its
#: number as ``%(n)s``), translated.
_SEAT_LABELS = Said({
    "Player %(n)s": _("Player %(n)s"), "Seat %(n)s": _("Seat %(n)s"),
    "High card: in the box": _("High card: in the box"),
    "Middle card: captain": _("Middle card: captain"),
    "Low card: sits out": _("Low card: sits out"),
    "High card: captain": _("High card: captain"),
    "Second card: plays first": _("Second card: plays first"),
    "Third card": _("Third card"),
    "Captain %(n)s (red)": _("Captain %(n)s (red)"),
    "Opponent %(n)s (black), table %(n)s": _("Opponent %(n)s (black), table %(n)s"),
    "Black Ace: sits out": _("Black Ace: sits out"),
    "First side, table %(n)s": _("First side, table %(n)s"),
    "Second side, table %(n)s": _("Second side, table %(n)s"),
})
assert {re.sub(r"\d+", "%(n)s", seat.label) for variant, counts in VARIANT_COUNTS.items()
        for count in counts for seat in game_facts(variant, count).seats} <= set(_SEAT_LABELS)


def seat_label(seat: Seat) -> str:
    """A seat's label in the language in force ("High card: in the box", "Seat 3")."""
    number = re.search(r"\d+", seat.label)
    return _SEAT_LABELS[re.sub(r"\d+", "%(n)s", seat.label)] % {
        "n": number.group() if number else ""}


def choice_text(value) -> str:
    """A setting's value in words: a choice's words, "yes"/"no" for a flag, else as it is."""
    if value is True or value is False:
        return str(YES if value else NO)
    return CHOICE_WORDS.get(value, str(value).replace("_", " "))


__all__ = [
    "FIRST_SIDE", "MAX_TABLES", "PRESET_VARIANTS", "SECOND_SIDE", "GameFacts", "Seat",
    "facts_for", "game_facts", "setup_from_seats", "setup_sides",
    "BIG_GIN", "GIN", "HAND_KINDS", "KNOCK",
    "CAPIT_CONTRACTS", "PRESET_NAMES", "ROLE_WORDS", "SETTINGS",
    "CHOICE_WORDS", "CONTRACT_WORDS", "NO", "PRESET_LABELS", "SETTING_HELP", "SETTING_LABELS",
    "YES",
    "choice_text", "contract_text", "seat_label",
    "VARIANT_COUNTS", "VARIANT_NAMES", "VARIANT_SETTINGS", "VARIANT_SHORT_NAMES", "Setting",
    "default_preset",
    "first_dealer_chosen", "hand_kinds", "hand_pair", "in_the_box", "opponents",
    "preset_values", "presets_of", "setting_now", "settings_of", "sitting_out", "variants",
    "PLAY_PLACES", "ROUND_PLACES", "Place",
]


def facts_for(game) -> GameFacts:
    """The facts of a stored game (anything with ``variant`` and ``players``, a list or a
    count; a model ``Game`` counts its players)."""
    players = game.players if hasattr(game, "players") else None
    if players is not None and not isinstance(players, int):
        players = len(players) if isinstance(players, list | tuple) else players.count()
    return game_facts(game.variant, players)