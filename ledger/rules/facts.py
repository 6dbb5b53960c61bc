"""What a game of a variant is, for everything around the core to read instead of comparing
the variant's name (RULES §2, §3): how many tables a hand is played at, whether the lowest
total wins, how it is staked, who sits where at setup, whether the roles change between
hands, what a hand is called, the shape of its sheet. ``game_facts`` answers before a hand is
played (a form, a blank sheet) from the variant's declaration (``variants.py``); the result
of a game carries the same answers under ``"facts"`` (``facts_of``).

Pure: no Django, no database.
"""

from __future__ import annotations

import functools
from dataclasses import asdict, dataclass

from .roles import FIRST_SIDE, SECOND_SIDE, SITTER
from .seating import Seat
from .settings import PLAYER_COUNTS, VARIANTS
from .sides import CAPTAINS, OPPONENTS
from .variants import ANTE, REGISTRY, SheetShape, declared

__all__ = ["ANTE_VARIANTS", "LOWER_WINS_VARIANTS", "ante_staked", "MAX_TABLES", "PRESET_VARIANTS",
           "lower_wins", "GameFacts", "Seat", "SheetShape", "facts_of", "game_facts",
           "hand_stats", "setup_from_seats", "setup_sides", "FIRST_SIDE", "SECOND_SIDE",
           "SITTER", "SETUP_PLAYER_KEYS", "SETUP_PLAYER_LISTS"]

#: The setup's keys that name one player, and those that list players (a rename follows them).
SETUP_PLAYER_KEYS = ("first_dealer", SITTER)
SETUP_PLAYER_LISTS = (CAPTAINS, OPPONENTS)

#: The most card tables a hand is played at (captain play for 7: three tables, §3.6).
MAX_TABLES = max(spec.at(count).tables for spec in REGISTRY.values() for count in spec.counts)


@dataclass(frozen=True)
class GameFacts:
    """What a game of ``variant`` for ``players`` players is.

    - ``tables``: card tables a hand is played at (1, or 2-3 in table games);
      ``table_game``: more than one (each hand lists its tables' results).
    - ``lower_wins``: the lowest total wins (CAP-IT); else the highest.
    - ``stake``: "ante" (every player puts an ante in the pot: CAP-IT) or "rate" (money per
      points); ``presets``: whether the variant plays under a preset (not CAP-IT).
    - ``roles_vary``: whose seat it is depends on earlier hands (box, captain, partnership).
    - ``setup``: what the setup names besides the seats: "first_dealer", "captain_tables"
      (captains, opponents and the sitter), "sides" (two named sides), "seats" (nothing).
    - ``seats``: the seats in the record's player order.
    - ``sides``: the game is scored by sides; ``named_sides``: the setup names them
      (partnership), else they are the captains and the opponents (captain play).
    - ``columns``: Hollywood's three games side by side, scored at once.
    - ``upcard``: every hand has an up-card (Oklahoma).
    - ``knock_card``: a deal may carry a knock card for all its tables (RULES §3.7:
      partnership and streets).
    - ``lump_sum``: its money may be a lump sum, ``stakes.lump_sum_stake`` (RULES §3.10:
      gin's ``money_mode`` ``lump_sum`` and its best-of match): the forms ask for it.
    - ``hand_noun``: what one hand of the game is called ("Round" in CAP-IT, else "Hand").
    - ``dealer_rule``: the ``dealer_rule`` setting decides who deals next (not in the box,
      where the box deals every hand, nor in table games, where the seating does).
    - ``hand_roles``: the roles a score sheet shows hand by hand, because they move: in the
      box who is in the box, captain and sits out; in captain play for 3 who sits out.
    - ``rounds``: its hands are CAP-IT's rounds (who went out, contracts, shares of the pot).
    - ``cards_entry``: hands can be entered from the cards (the gin family, not CAP-IT).
    - ``sitters``: a player may sit a hand out and a sitter may come in for him (captain
      play): the sheet notes who sits out and who changes.
    - ``layout``: the kind of its score sheet, by name (``variants.LAYOUTS``), until every
      sheet is composed from ``shape``.
    - ``shape``: the shape of its score sheet as flags (``variants.SheetShape``: games per
      column, lines per card table, rounds, hand roles, sitters); a dict in a result.
    - ``cover``: captain play's cover (RULES §3.5, §3.6), (opponents, captains): a captain
      who has no stake of his own plays at the opponents' stakes together divided among the
      captains, i.e. at the game's stake x opponents/captains: (2, 1) "2x" for 3 players,
      (3, 2) "3:2" for 5, (4, 3) "4:3" for 7 (the sitter counts with his side); None in
      the other games.
    """

    variant: str
    players: int
    tables: int
    table_game: bool
    lower_wins: bool
    stake: str
    presets: bool
    roles_vary: bool
    setup: str
    seats: tuple[Seat, ...]
    sides: bool
    named_sides: bool
    columns: bool
    upcard: bool
    hand_noun: str
    dealer_rule: bool
    hand_roles: tuple[str, ...]
    rounds: bool
    cards_entry: bool
    layout: str
    sitters: bool = False
    max_tables: int = MAX_TABLES
    cover: tuple[int, int] | None = None
    shape: SheetShape = SheetShape()
    knock_card: bool = False
    lump_sum: bool = False

    @property
    def ante_staked(self) -> bool:
        """Staked by an ante every player puts in the pot (``stake`` "ante"), not by a rate:
        the forms, the settings and the blank sheet ask for an ante instead of a rate."""
        return self.stake == ANTE

    def as_dict(self) -> dict:
        out = asdict(self)
        out["seats"] = [asdict(seat) for seat in self.seats]
        out["hand_roles"] = list(self.hand_roles)  # JSON-ready: lists, as ``score`` prints
        out["cover"] = list(self.cover) if self.cover else None
        out["shape"] = self.shape.as_dict()
        return out


@functools.lru_cache(maxsize=64)
def game_facts(variant: str, players: int) -> GameFacts:
    """The facts of a game of ``variant`` for ``players`` players, from its declaration
    (``variants.REGISTRY``); ValueError for a variant or a player count the rules do not
    have. Kept once made (they are frozen, and a page of a player's book asks for them once
    per game he played: thousands of times)."""
    spec = declared(variant)
    if spec is None or players not in spec.counts:
        raise ValueError(f"no {variant} game for {players} players")
    spec = spec.at(players)
    return GameFacts(
        variant=variant, players=players, tables=spec.tables, table_game=spec.tables > 1,
        lower_wins=spec.lower_wins, stake=spec.stake, presets=bool(spec.presets),
        roles_vary=spec.roles_vary, setup=spec.setup, seats=spec.seats(players),
        sides=spec.sides, named_sides=spec.named_sides, columns=spec.columns,
        upcard=spec.upcard, hand_noun=spec.hand_noun, rounds=spec.rounds,
        cards_entry=spec.cards_entry, dealer_rule=spec.dealer_rule,
        hand_roles=spec.hand_roles, layout=spec.layout, sitters=spec.sitters,
        cover=spec.cover, shape=spec.shape, knock_card=spec.knock_card,
        lump_sum=spec.straight)


#: The variants played under a preset (every one but CAP-IT).
PRESET_VARIANTS = tuple(v for v in VARIANTS if game_facts(v, PLAYER_COUNTS[v][0]).presets)
#: The variants staked by an ante (CAP-IT); the others by a rate.
ANTE_VARIANTS = tuple(v for v in VARIANTS if game_facts(v, PLAYER_COUNTS[v][0]).ante_staked)


def ante_staked(variant: str) -> bool:
    """Whether a game of ``variant`` is staked by an ante (``ANTE_VARIANTS``), not a rate;
    False for a name that is no variant."""
    return variant in ANTE_VARIANTS


#: The variants scored low (CAP-IT's penalty points and rounds): the standings keep them
#: apart from the gin family's points, hands and boxes.
LOWER_WINS_VARIANTS = tuple(v for v in VARIANTS
                            if game_facts(v, PLAYER_COUNTS[v][0]).lower_wins)


def lower_wins(variant: str) -> bool:
    """Whether a game of ``variant`` is scored low (``LOWER_WINS_VARIANTS``: its rounds and
    penalty points are not the gin family's hands and points); False for a name that is no
    variant."""
    return variant in LOWER_WINS_VARIANTS


def facts_of(result: dict) -> dict:
    """The ``"facts"`` a result carries: its game's facts, and ``accepts_hands`` (the game
    takes another hand: neither complete nor abandoned)."""
    out = game_facts(result["variant"], len(result["players"])).as_dict()
    out["accepts_hands"] = not result.get("complete") and not result.get("abandoned")
    return out


def setup_from_seats(facts: GameFacts, chosen: dict[str, str], *,
                     side_names: dict[str, str] | None = None,
                     first_dealer_side: str | None = None) -> dict:
    """The record's ``setup`` for a table game from who sits in each seat (``chosen``: a
    seat's key -> a player's name): captain play's captains, opponents and first sitter,
    partnership's two sides by name (``side_names``: ``FIRST_SIDE``/``SECOND_SIDE`` -> the
    side's name) and the side that deals first if it is not the second. Other games' setup
    names only the first dealer (the form's own field): {}."""
    def members(role: str) -> list[str]:
        return [chosen[seat.key] for seat in facts.seats if seat.role == role]

    if facts.setup == "captain_tables":
        return {CAPTAINS: members(CAPTAINS), OPPONENTS: members(OPPONENTS),
                SITTER: chosen[SITTER]}
    if facts.setup == "sides":
        names = side_names or {}
        setup: dict = {"sides": {names.get(side, side): members(side)
                                 for side in (FIRST_SIDE, SECOND_SIDE)}}
        if first_dealer_side == FIRST_SIDE:
            setup["first_dealer_side"] = names.get(FIRST_SIDE, FIRST_SIDE)
        return setup
    return {}


def setup_sides(facts: GameFacts, setup: dict) -> dict[str, list]:
    """The sides a stored setup names (side -> its members' names, as the setup has them):
    partnership's two named sides; in captain play at several tables the captains against
    the opponents, the first sitter with them; {} for a game without sides (or a setup
    that does not say them)."""
    if facts.named_sides and isinstance(setup.get("sides"), dict):
        return {str(side): members for side, members in setup["sides"].items()}
    if facts.sides and facts.table_game and isinstance(setup.get(CAPTAINS), list) \
            and isinstance(setup.get(OPPONENTS), list):
        return {CAPTAINS: list(setup[CAPTAINS]),
                OPPONENTS: [*setup[OPPONENTS], setup.get(SITTER)]}
    return {}


STAT_FIELDS = ("hands_won", "gins", "big_gins", "undercuts_made", "undercuts_suffered")


def hand_stats(result: dict) -> dict[str, dict[str, int]]:
    """Per player, what his own plays did (a play: a gin-family deal, the hand itself or
    each table of a table game's hand; a CAP-IT round): ``hands_won`` (plays he won himself;
    three-player captain: ``player_winner``), ``gins`` (won by gin or big gin),
    ``big_gins``, ``undercuts_made`` (won by undercutting the knocker),
    ``undercuts_suffered`` (knocked and was undercut)."""
    stats = {name: dict.fromkeys(STAT_FIELDS, 0) for name in result["players"]}
    for hand in result["hands"]:
        tables = hand.get("tables")
        for play in tables if isinstance(tables, list) else [hand]:
            kind = play.get("result")
            winner = play.get("player_winner", play.get("winner"))
            for name in winner if isinstance(winner, list) else [winner]:
                if name not in stats:
                    continue
                stats[name]["hands_won"] += 1
                if kind in ("gin", "big_gin"):
                    stats[name]["gins"] += 1
                if kind == "big_gin":
                    stats[name]["big_gins"] += 1
                if kind == "undercut":
                    stats[name]["undercuts_made"] += 1
            knocker = play.get("knocker")
            if kind == "undercut" and knocker in stats:
                stats[knocker]["undercuts_suffered"] += 1
    return stats
