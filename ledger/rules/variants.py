"""Every variant of the rules, declared once (RULES §3): its name, the player counts it
takes, the settings and presets it plays under, its own target, how the setup seats its
players, what its game is (``facts.GameFacts``), the shape of its score sheet and the
function that scores it. Everything else in the core derives its tables from ``REGISTRY``
(``settings.VARIANTS``, ``PLAYER_COUNTS``, ``default_preset``, ``variant_target``;
``catalog.VARIANT_NAMES``, ``FIRST_DEALER_CHOSEN``, ``VARIANT_SETTINGS``;
``facts.game_facts``; ``game.score_record``'s dispatch) and the rest of the project asks
those: a variant's name is written here and nowhere else.

Adding a variant is one ``Variant(...)`` below (in the order the "new game" chooser lists
them) and its scorer module; a new setting it takes also goes into ``settings.py``, a new way
of seating into ``seating.py``, and its names' words into the presentation's catalog.

Pure: no Django, and nothing of the core but the names of roles and seats, so that every
other module may import it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, replace
from types import MappingProxyType

from . import seating
from .roles import BOX, CAPTAIN, SITS_OUT
from .seating import Seat

__all__ = [
    "ANTE", "CAPTAIN_TABLES", "ENTERED_STREETS", "FIRST_DEALER", "GIN_PRESETS", "GIN_SETTINGS",
    "LAYOUTS", "RATE",
    "REGISTRY", "SEATS", "SETUPS", "SIDES", "STRAIGHT_PRESETS", "STREETS_PRESETS", "SheetShape",
    "Variant", "declared",
]

#: What a game's setup names besides who sits where (``GameFacts.setup``): who deals first,
#: nothing (the seats decide), captain play's captains, opponents and sitter, two named sides.
FIRST_DEALER, SEATS, CAPTAIN_TABLES, SIDES = "first_dealer", "seats", "captain_tables", "sides"
SETUPS = (FIRST_DEALER, SEATS, CAPTAIN_TABLES, SIDES)

#: How a game is staked (``GameFacts.stake``): money per points, or an ante in the pot.
RATE, ANTE = "rate", "ante"

#: The settings of every gin-family game, in the order a screen shows them.
GIN_SETTINGS = ("target", "gin_bonus", "undercut_bonus", "big_gin_bonus", "box_bonus",
                "game_bonus", "shutout_mode", "knock_limit", "undercut_on_tie", "dealer_rule")
#: The club formats' settings each variant takes (RULES §3.7, §3.9, §3.10), in the order a
#: screen shows them after the gin family's: two-hand games count extra boxes for a gin or an
#: undercut (Oklahoma doubles them with a spade); table games add the roodle and the knock
#: card (its Ace and its spade, as Oklahoma's up-card); streets add the street payouts; gin
#: adds straight gin's match and the lump sum.
CLUB_TWO_HAND = ("gin_boxes", "undercut_boxes")
CLUB_TABLES = (*CLUB_TWO_HAND, "roodle_boxes", "double_extra_boxes", "oklahoma_ace",
               "spade_double")
STREETS_SETTINGS = ("street_bonus", "clean_sweep_mode", "clean_sweep_bonus",
                    "all_streets_sweep", "sweep_condition")
STRAIGHT_SETTINGS = ("straight_format", "best_of", "money_mode")
#: The presets (``settings.PRESETS``) a gin-family game may start under.
GIN_PRESETS = ("standard", "classic", "simple")
#: Two-hand gin's own presets besides: straight gin and Scarne's lump sum (RULES §3.10),
#: with their values (``settings.PRESETS`` takes them from the declaration).
_STRAIGHT_PRESETS = {
    "straight": {
        "gin_bonus": 25, "undercut_bonus": 25, "big_gin_bonus": 0, "box_bonus": 25,
        "game_bonus": 100, "shutout_mode": "double_total", "target": 100, "knock_limit": 0,
    },
    "straight_classic": {
        "gin_bonus": 20, "undercut_bonus": 10, "big_gin_bonus": 0, "box_bonus": 20,
        "game_bonus": 100, "shutout_mode": "game_bonus_double", "target": 100,
        "knock_limit": 0,
    },
    "scarne_lump": {
        "gin_bonus": 25, "undercut_bonus": 10, "big_gin_bonus": 0, "box_bonus": 0,
        "game_bonus": 0, "shutout_mode": "double_total", "target": 100, "knock_limit": 10,
        "money_mode": "lump_sum",
    },
}
#: The presets of streets (RULES §3.9): RCL Gin's street payouts, rummytalk's club play.
_STREETS_PRESETS = {
    "streets": {
        "gin_bonus": 25, "undercut_bonus": 25, "big_gin_bonus": 0, "box_bonus": 25,
        "game_bonus": 100, "shutout_mode": "double_total", "target": 100,
        "hollywood_third_double": False, "gin_boxes": 0, "undercut_boxes": 0,
        "roodle_boxes": 0, "double_extra_boxes": True, "street_bonus": "target",
        "clean_sweep_mode": "bonus", "clean_sweep_bonus": "street_bonus",
        "all_streets_sweep": "double", "sweep_condition": "won_all",
    },
    "streets_club": {
        "gin_bonus": 25, "undercut_bonus": 25, "big_gin_bonus": 0, "box_bonus": 25,
        "game_bonus": 100, "shutout_mode": "double_total", "target": 100,
        "hollywood_third_double": True, "gin_boxes": 2, "undercut_boxes": 1,
        "roodle_boxes": 1, "double_extra_boxes": True, "street_bonus": "target",
        "clean_sweep_mode": "double", "clean_sweep_bonus": "street_bonus",
        "all_streets_sweep": "none", "sweep_condition": "won_all",
    },
}
#: The key under which a streets deal lists the streets it entered (docs/game-record.md):
#: the variant's name too, so it is written here, with the names.
ENTERED_STREETS = "streets"
STRAIGHT_PRESETS = tuple(_STRAIGHT_PRESETS)
STREETS_PRESETS = tuple(_STREETS_PRESETS)


@dataclass(frozen=True)
class SheetShape:
    """The shape of a game's score sheet, as flags the presentation composes a sheet from
    (a variant may combine them: several card tables *and* a game per column):

    - ``games_per_column``: several games scored side by side, a column each (Hollywood);
    - ``lines_per_table``: each hand has a line per card table (table games);
    - ``rounds``: the hands are CAP-IT's rounds (contracts, who went out, shares of the pot);
    - ``hand_roles``: the roles move hand by hand and the sheet shows them (``hand_roles``);
    - ``sitters``: a player sits hands out and a sitter comes in (captain play).
    """

    games_per_column: bool = False
    lines_per_table: bool = False
    rounds: bool = False
    hand_roles: bool = False
    sitters: bool = False

    def as_dict(self) -> dict[str, bool]:
        return asdict(self)


@dataclass(frozen=True)
class Variant:
    """One variant, as it is for every player count it takes; ``by_count`` changes some of
    its fields for one count (``at``), e.g. captain play's card tables for 5 and 7.

    - ``name``: the record's ``variant``; ``title`` and ``short``: its name in English, in
      full (the chooser, the model's choices) and for narrow columns (the presentation says
      both in the reader's language).
    - ``counts``: the player counts it takes.
    - ``scorer``: ``"module:function"`` of ``ledger.rules`` that scores its record
      (``function(game, problems) -> result | None``), imported when a record is scored.
    - ``seats``: the setup's seats for a player count (``seating.py``); ``setup``: what the
      setup names besides (``SETUPS``: ``FIRST_DEALER`` means the setup names who deals
      first, ``catalog.FIRST_DEALER_CHOSEN``).
    - ``settings``: the settings that matter to it, in the order a screen shows them;
      ``presets``: the presets it may start under (none: CAP-IT's rules are its own);
      ``preset``: the one it starts under by default; ``target``: its own target, which
      replaces the preset's (None: the preset's).
    - ``tables``: card tables a hand is played at.
    - ``layout`` (the sheet's kind, by name, until every sheet is composed from ``shape``) and
      ``shape``: its score sheet.
    - The rest are ``GameFacts``' of the same name: ``stake`` (``RATE``/``ANTE``),
      ``lower_wins``, ``hand_noun``, ``cards_entry``, ``roles_vary``, ``sides``,
      ``named_sides``, ``columns``, ``upcard``, ``knock_card``, ``rounds``, ``sitters``,
      ``dealer_rule``, ``hand_roles``, ``cover``.
    - ``club``: a result lists every club setting (RULES §3.7, §3.9, §3.10), not only those
      the preset or the record sets (streets).
    - ``straight``: it takes ``straight_format`` (best of N) and ``money_mode`` (a lump sum),
      RULES §3.10 (two-hand gin).
    - ``own_presets``: the presets only it plays under, with their values (in ``presets``
      too); the gin family's common presets are ``settings.PRESETS``'.
    """

    name: str
    title: str
    short: str
    counts: tuple[int, ...]
    scorer: str
    seats: Callable[[int], tuple[Seat, ...]]
    layout: str
    shape: SheetShape = SheetShape()
    setup: str = SEATS
    settings: tuple[str, ...] = GIN_SETTINGS
    presets: tuple[str, ...] = GIN_PRESETS
    preset: str = "standard"
    target: int | None = None
    tables: int = 1
    stake: str = RATE
    lower_wins: bool = False
    hand_noun: str = "Hand"
    cards_entry: bool = True
    roles_vary: bool = False
    sides: bool = False
    named_sides: bool = False
    columns: bool = False
    upcard: bool = False
    knock_card: bool = False
    rounds: bool = False
    sitters: bool = False
    dealer_rule: bool = True
    hand_roles: tuple[str, ...] = ()
    cover: tuple[int, int] | None = None
    club: bool = False
    straight: bool = False
    own_presets: Mapping[str, Mapping[str, object]] = field(default_factory=dict)
    by_count: Mapping[int, Mapping[str, object]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not set(self.by_count) <= set(self.counts):
            raise ValueError(f"{self.name}: by_count names a count it does not take")
        if self.setup not in SETUPS or self.stake not in (RATE, ANTE):
            raise ValueError(f"{self.name}: unknown setup or stake")
        object.__setattr__(self, "by_count", MappingProxyType(
            {count: MappingProxyType(dict(fields)) for count, fields in self.by_count.items()}))

    def at(self, players: int) -> Variant:
        """The declaration as it stands for ``players`` (``by_count``'s fields for that
        count in place of its own)."""
        changes = self.by_count.get(players)
        return replace(self, **changes, by_count={}) if changes else self

    @property
    def first_dealer_chosen(self) -> bool:
        return self.setup == FIRST_DEALER


# -- the variants, in the order the "new game" chooser lists them --------------------------

_DUEL = dict(counts=(2,), setup=FIRST_DEALER, seats=seating.numbered_players,
             layout="duel", scorer="gin:score_two_hand")
_CAPTAIN_TABLES = dict(setup=CAPTAIN_TABLES, seats=seating.captain_tables, layout="tables",
                       shape=SheetShape(lines_per_table=True, sitters=True), hand_roles=(),
                       dealer_rule=False, scorer="multitable:score_captain_tables")

_DECLARED = (
    # §3.1
    Variant(name="gin", title="Gin", short="Gin", **_DUEL,
            settings=(*GIN_SETTINGS, *CLUB_TWO_HAND, *STRAIGHT_SETTINGS),
            presets=GIN_PRESETS + STRAIGHT_PRESETS, straight=True,
            own_presets=_STRAIGHT_PRESETS),
    # §3.2: every hand has an up-card
    Variant(name="oklahoma", title="Oklahoma gin", short="Oklahoma", **_DUEL,
            settings=(*GIN_SETTINGS, "oklahoma_ace", "spade_double", *CLUB_TWO_HAND,
                      "double_extra_boxes"), target=150,
            upcard=True),
    # §3.3: three games side by side
    Variant(name="hollywood", title="Hollywood gin", short="Hollywood", counts=(2,),
            setup=FIRST_DEALER, seats=seating.numbered_players, scorer="hollywood:score_hollywood",
            settings=(*GIN_SETTINGS, "hollywood_third_double", *CLUB_TWO_HAND), columns=True,
            layout="hollywood", shape=SheetShape(games_per_column=True)),
    # §3.4: the box deals every hand; in the box, his captain and the sitter move
    Variant(name="box", title="Three-handed (in the box)", short="In the box", counts=(3,),
            seats=seating.box_cut, scorer="box:score_box",
            settings=(*GIN_SETTINGS, "three_hand_money"), preset="simple", roles_vary=True,
            dealer_rule=False, hand_roles=(BOX, CAPTAIN, SITS_OUT),
            layout="box", shape=SheetShape(hand_roles=True)),
    # §3.5 at one table, §3.6 at two or three
    Variant(name="captain", title="Captain play", short="Captain", counts=(3, 5, 7),
            seats=seating.captain_cut, scorer="captain:score_captain",
            settings=(*GIN_SETTINGS, "balance_division"), roles_vary=True, sides=True,
            sitters=True, hand_roles=(SITS_OUT,), cover=(2, 1),
            layout="captain", shape=SheetShape(hand_roles=True, sitters=True),
            by_count={5: dict(_CAPTAIN_TABLES, tables=2, target=125, cover=(3, 2)),
                      7: dict(_CAPTAIN_TABLES, tables=3, target=150, cover=(4, 3))}),
    # §3.7: two named sides, a card table per pair
    Variant(name="partnership", title="Partnership gin", short="Partners", counts=(4, 6),
            setup=SIDES, seats=seating.two_sides, scorer="multitable:score_partnership",
            settings=(*GIN_SETTINGS, "balance_division", *CLUB_TABLES), target=150,
            roles_vary=True,
            sides=True, named_sides=True, dealer_rule=False, knock_card=True,
            layout="tables", shape=SheetShape(lines_per_table=True),
            by_count={4: dict(tables=2, target=125), 6: dict(tables=3)}),
    # §3.8: five rounds, an ante in the pot, the lowest total wins
    Variant(name="cap-it", title="CAP-IT", short="CAP-IT", counts=(4, 5, 6),
            setup=FIRST_DEALER, seats=seating.numbered_seats, scorer="capit:score_capit",
            settings=("capit_ace_value", "capit_round_share", "capit_round_winner"),
            presets=(), stake=ANTE, lower_wins=True, hand_noun="Round", cards_entry=False,
            rounds=True, layout="capit", shape=SheetShape(rounds=True)),
    # §3.9: two named sides of 1-3, a card table per pair, three streets filled like
    # Hollywood's columns and settled with street payouts
    Variant(name="streets", title="Streets", short="Streets", counts=(2, 4, 6),
            setup=SIDES, seats=seating.two_sides, scorer="streets:score_streets",
            # RULES 3.9: the street settlement replaces 2's game bonus and shutout
            settings=(*(name for name in GIN_SETTINGS
                        if name not in ("game_bonus", "shutout_mode")),
                      "hollywood_third_double", "balance_division", *CLUB_TABLES,
                      *STREETS_SETTINGS),
            presets=STREETS_PRESETS + GIN_PRESETS, own_presets=_STREETS_PRESETS,
            preset="streets",
            roles_vary=True, sides=True,
            named_sides=True, dealer_rule=False, club=True, knock_card=True,
            layout="tables", shape=SheetShape(lines_per_table=True),
            by_count={2: dict(shape=SheetShape()), 4: dict(tables=2), 6: dict(tables=3)}),
)

#: Every variant by name, in the chooser's order.
REGISTRY: Mapping[str, Variant] = MappingProxyType({v.name: v for v in _DECLARED})
assert len(REGISTRY) == len(_DECLARED), "two variants of one name"

#: Every kind of sheet a variant's ``layout`` names.
LAYOUTS = tuple(dict.fromkeys(v.at(n).layout for v in _DECLARED for n in v.counts))


def declared(variant, players: int | None = None) -> Variant | None:
    """The declaration of ``variant`` (as it stands for ``players``, if given); None for
    anything that is no variant's name."""
    spec = REGISTRY.get(variant) if isinstance(variant, str) else None
    if spec is None or players is None:
        return spec
    return spec.at(players)
