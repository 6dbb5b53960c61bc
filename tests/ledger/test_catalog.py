"""The core's catalog, as the screens read it (ledger/presentation/catalog.py): one list of
variants, presets, settings, contracts and roles, agreeing with the core and the models."""

from __future__ import annotations

from ledger.models import Variant
from ledger.presentation import catalog
from ledger.rules import score_record
from ledger.rules.capit import CONTRACTS
from ledger.rules.settings import ALL_SETTING_NAMES, PLAYER_COUNTS


def test_variants_names_and_player_counts_agree_with_the_core_and_the_models():
    assert dict(Variant.choices) == catalog.VARIANT_NAMES
    assert catalog.VARIANT_COUNTS == PLAYER_COUNTS
    assert ("captain", "Captain play", (3, 5, 7)) in catalog.variants()


def test_every_setting_has_a_kind_a_label_and_its_limits():
    assert set(catalog.SETTINGS) == set(ALL_SETTING_NAMES)
    assert catalog.SETTINGS["knock_limit"] == catalog.Setting(
        "knock_limit", "number", low=0, high=98)
    assert set(catalog.SETTING_LABELS) == set(ALL_SETTING_NAMES)  # the label: the presentation's
    assert catalog.SETTING_LABELS["knock_limit"] == "Knock limit"
    assert catalog.SETTINGS["undercut_on_tie"].kind == "flag"
    assert catalog.SETTINGS["oklahoma_ace"].choices == ("gin_only", "one")
    assert catalog.SETTINGS["capit_round_share"].kind == "share"
    for variant, names in catalog.VARIANT_SETTINGS.items():
        assert set(names) <= set(ALL_SETTING_NAMES), variant


def test_preset_values_are_what_a_game_so_started_plays():
    for variant, counts in catalog.VARIANT_COUNTS.items():
        for count in counts:
            for preset in catalog.presets_of(variant):  # none for CAP-IT
                players = [f"P{i}" for i in range(count)]
                record = {"variant": variant, "preset": preset, "players": players,
                          "setup": _setup(variant, players), "hands": []}
                assert score_record(record)["rules"] == catalog.preset_values(
                    variant, preset, count), (variant, count, preset)


def _setup(variant: str, players: list[str]) -> dict:
    if variant == "captain" and len(players) > 3:
        half = len(players) // 2
        return {"captains": players[:half], "opponents": players[half:-1],
                "sitter": players[-1]}
    if variant in ("partnership", "streets"):
        half = len(players) // 2
        return {"sides": {"We": players[:half], "They": players[half:]}}
    return {"first_dealer": players[0]}


def test_contracts_roles_and_hand_kinds():
    assert catalog.CAPIT_CONTRACTS == CONTRACTS and len(CONTRACTS) == 5
    assert catalog.ROLE_WORDS["sits_out"] == "sits out"
    assert catalog.hand_kinds({"big_gin_bonus": 0}) == ("knock", "gin")
    assert catalog.hand_kinds({"big_gin_bonus": 50}) == ("knock", "gin", "big_gin")
