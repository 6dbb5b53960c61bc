"""One declaration per variant (issue 39): the core's tables are the registry's, every
variant's sheet has a shape as flags, and a declaration is checked when it is made."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ledger.rules import game_facts, score_record
from ledger.rules.catalog import (
    FIRST_DEALER_CHOSEN,
    ROLE_ORDER,
    SETTINGS,
    VARIANT_NAMES,
    VARIANT_SETTINGS,
    VARIANT_SHORT_NAMES,
)
from ledger.rules.facts import ANTE_VARIANTS, LOWER_WINS_VARIANTS, MAX_TABLES, PRESET_VARIANTS
from ledger.rules.game import scorer_of
from ledger.rules.settings import (
    PLAYER_COUNTS,
    PRESETS,
    VARIANTS,
    default_preset,
    resolve_rules,
    variant_target,
)
from ledger.rules.variants import (
    LAYOUTS,
    REGISTRY,
    SETUPS,
    SheetShape,
    Variant,
    declared,
)

DATA = Path(__file__).resolve().parents[1] / "data"
EVERY_GAME = [(name, count) for name in VARIANTS for count in PLAYER_COUNTS[name]]

#: The shape of every variant's sheet at every count (RULES §3): Hollywood's three games a
#: column each, the table games' line per card table, the moving roles of the box and of
#: captain play for three, captain play's sitters, CAP-IT's rounds.
SHAPES = {
    ("gin", 2): set(), ("oklahoma", 2): set(), ("hollywood", 2): {"games_per_column"},
    ("box", 3): {"hand_roles"}, ("captain", 3): {"hand_roles", "sitters"},
    ("captain", 5): {"lines_per_table", "sitters"}, ("captain", 7): {"lines_per_table", "sitters"},
    ("partnership", 4): {"lines_per_table"}, ("partnership", 6): {"lines_per_table"},
    ("cap-it", 4): {"rounds"}, ("cap-it", 5): {"rounds"}, ("cap-it", 6): {"rounds"},
    ("streets", 2): set(), ("streets", 4): {"lines_per_table"},
    ("streets", 6): {"lines_per_table"},
}


def test_the_core_lists_the_eight_variants_in_the_choosers_order():
    assert VARIANTS == ("gin", "oklahoma", "hollywood", "box", "captain", "partnership",
                        "cap-it", "streets")
    assert PLAYER_COUNTS == {"gin": (2,), "oklahoma": (2,), "hollywood": (2,), "box": (3,),
                             "captain": (3, 5, 7), "partnership": (4, 6), "cap-it": (4, 5, 6),
                             "streets": (2, 4, 6)}
    assert tuple(REGISTRY) == tuple(VARIANT_NAMES) == tuple(VARIANT_SETTINGS) == VARIANTS
    assert VARIANT_NAMES["box"] == "Three-handed (in the box)"
    assert VARIANT_SHORT_NAMES["partnership"] == "Partners"
    assert FIRST_DEALER_CHOSEN == ("gin", "oklahoma", "hollywood", "cap-it")
    assert PRESET_VARIANTS == tuple(v for v in VARIANTS if v != "cap-it")
    assert ANTE_VARIANTS == LOWER_WINS_VARIANTS == ("cap-it",)
    assert MAX_TABLES == 3  # captain play for 7, partnership for 6


@pytest.mark.parametrize(("variant", "players", "target"), [
    ("gin", 2, None), ("oklahoma", 2, 150), ("hollywood", 2, None), ("box", 3, None),
    ("captain", 3, None), ("captain", 5, 125), ("captain", 7, 150),
    ("partnership", 4, 125), ("partnership", 6, 150), ("cap-it", 4, None),
    ("streets", 2, None), ("streets", 4, None), ("streets", 6, None),
])
def test_a_variants_own_target_replaces_the_presets(variant, players, target):
    # RULES §2: Oklahoma 150; two card tables 125, three 150
    assert variant_target(variant, players) == target
    _, rules = resolve_rules(variant, None, None, players, [])
    assert rules["target"] == (target or 100)


def test_the_box_starts_under_the_simple_preset_and_the_rest_under_the_standard():
    # streets under its own (RULES §2: `streets` is its default preset)
    assert {name: default_preset(name) for name in VARIANTS} == {
        name: {"box": "simple", "streets": "streets"}.get(name, "standard")
        for name in VARIANTS}
    assert default_preset("no such game") == default_preset(None) == "standard"


@pytest.mark.parametrize(("variant", "players"), EVERY_GAME)
def test_every_sheet_has_its_shape_as_flags(variant, players):
    facts = game_facts(variant, players)
    flags = {name for name, on in facts.shape.as_dict().items() if on}
    assert flags == SHAPES[variant, players]
    # the flags agree with the facts a sheet was drawn from before (``layout``, the booleans)
    assert facts.shape.games_per_column == facts.columns
    assert facts.shape.lines_per_table == facts.table_game
    assert facts.shape.rounds == facts.rounds
    assert facts.shape.hand_roles == bool(facts.hand_roles)
    assert facts.shape.sitters == facts.sitters
    assert facts.layout in LAYOUTS


def test_a_result_carries_the_shape_as_a_dict():
    result = score_record(json.loads((DATA / "captain-five-money.json").read_text()))
    assert result["facts"]["shape"] == {"games_per_column": False, "lines_per_table": True,
                                        "rounds": False, "hand_roles": False, "sitters": True}
    assert json.loads(json.dumps(result["facts"])) == result["facts"]


@pytest.mark.parametrize(("variant", "players"), EVERY_GAME)
def test_every_declaration_is_whole(variant, players):
    spec = declared(variant, players)
    assert callable(scorer_of(spec.scorer))
    assert spec.setup in SETUPS
    assert len(spec.seats(players)) == players
    assert {seat.key for seat in spec.seats(players)} == {
        seat.key for seat in game_facts(variant, players).seats}
    assert set(spec.settings) <= set(SETTINGS)
    assert set(spec.presets) <= set(PRESETS) and spec.preset in PRESETS
    assert set(spec.hand_roles) <= set(ROLE_ORDER)
    assert spec.tables * 2 <= players or spec.tables == 1


def test_captain_play_is_scored_by_its_tables_scorer_at_five_and_seven():
    assert declared("captain", 3).scorer == "captain:score_captain"
    assert declared("captain", 5).scorer == declared("captain", 7).scorer \
        == "multitable:score_captain_tables"
    assert declared("captain").scorer == "captain:score_captain"  # as declared, for 3
    assert declared("no such game") is None and declared(["gin"]) is None


def test_a_declaration_is_checked_when_it_is_made():
    def made(**changes):
        fields = dict(name="made-up", title="Made up", short="Made", counts=(2, 4),
                      scorer="gin:score_two_hand", seats=lambda count: (), layout="duel")
        fields.update(changes)
        return Variant(**fields)

    with pytest.raises(ValueError, match="by_count"):
        made(by_count={3: {"tables": 1}})
    with pytest.raises(ValueError, match="setup"):
        made(setup="first dealer")
    with pytest.raises(TypeError):
        made(by_count={4: {"no_such_field": 1}}).at(4)
    # a count's own fields replace the declaration's, the others keep them
    spec = made(by_count={4: {"tables": 2, "shape": SheetShape(games_per_column=True,
                                                                lines_per_table=True)}})
    assert spec.at(2).tables == 1 and spec.at(2).shape == SheetShape()
    assert spec.at(4).tables == 2 and spec.at(4).shape.lines_per_table
    assert spec.at(4).shape.games_per_column and spec.at(4).name == "made-up"
