"""The core's problems as data: where (hand, round, table, player, field), a stable code,
and the words.

``Problem.line`` is the refusal's line exactly as ``manage.py score`` prints it and
``RecordError.problems`` lists it (docs/game-record.md): the line opens with where it is
("hand 3, table 2: deadwood.Ann") and goes on with the words (``text``). A screen puts a
problem at the field that ``hand``, ``table``, ``player`` and ``field`` name, and shows
``shown`` (the words at that field); it never reads the words to find the place.

``field`` is the record's name of the thing at fault, without the player: "deadwood",
"cards", "knocker", "upcard", "big_gin", "gin", "draw", "tables", "cut_loser",
"went_out", "points", "setup.first_dealer", "rules.target", "stakes.rate",
"stakes.players" (with ``player``) ...; None when the problem is with a whole hand or the
whole record.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as _field
from typing import NamedTuple

#: Every code the core gives, and what it means. A code never changes meaning; the words
#: may be reworded without moving a problem to another field.
CODES = {
    # the record's top level
    "record_not_object": "the record is not a JSON object",
    "format_unknown": "the record's format is not tablestakes.game/1",
    "variant_unknown": "the variant is missing or unknown",
    "players_invalid": "the players are not a list of names",
    "player_name_invalid": "a player's name is empty or not a string",
    "player_twice": "a player's name appears twice",
    "player_count": "the variant is not played by this many players",
    "preset_unknown": "the preset is not a preset name",
    "rules_not_object": "the rules are not an object of settings",
    "setting_unknown": "a rule setting that does not exist",
    "setting_invalid": "a setting's value is of the wrong kind, out of range or not a choice",
    "setup_invalid": "the setup is not an object, or misses or misnames a seat",
    "first_dealer_missing": "nobody is named to deal first",
    "first_dealer_invalid": "the first dealer cannot deal first",
    "abandoned_invalid": "abandoned is not true or false",
    "hands_invalid": "the hands are not a list",
    # stakes
    "stakes_invalid": "the stakes are not an object, or an object of the wrong shape",
    "currency_invalid": "the currency is not a three-letter code",
    "money_invalid": "an amount is not a decimal string, or is negative",
    "money_missing": "a stake or the ante is missing",
    "per_points_invalid": "per_points is not a whole number of 1 or more",
    "stake_player_unknown": "a stake for someone who does not play",
    "ante_not_minor_units": "the ante is not a whole number of minor units",
    "round_share_invalid": "CAP-IT's round share cannot be paid from the pot",
    # a hand
    "hand_not_object": "a hand (or round, or table) is not an object",
    "hand_after_end": "a hand after the one that ended the game",
    "abandoned_but_complete": "the record is marked abandoned but the game was complete",
    "flag_invalid": "draw, gin or big_gin is not true or false",
    "draw_with_knocker": "a drawn hand names a knocker",
    "knocker_missing": "no knocker (and not a draw)",
    "knocker_not_playing": "the knocker does not play this hand",
    "upcard_missing": "an Oklahoma hand without its up-card",
    "upcard_unreadable": "the up-card is not a card",
    "deadwood_missing": "neither counts nor cards were given",
    "deadwood_invalid": "the counts are not an object of names and counts",
    "deadwood_not_a_count": "a count is not a whole number",
    "deadwood_out_of_range": "a count is below 0 or above what 10 cards can hold",
    "count_missing": "a player's count is missing",
    "player_not_playing": "counts or cards for someone who does not play this hand",
    "cards_invalid": "the cards are not an object of names and cards",
    "cards_missing": "a player's cards are missing",
    "cards_unreadable": "a player's cards cannot be read (a card, a count of cards)",
    "cards_illegal_knock": "the knocker's cards make no legal knock",
    "cards_counts_disagree": "counts given with the cards are not possible with them",
    "gin_with_deadwood": "a gin or big gin whose knocker counted deadwood",
    "big_gin_not_melded": "a big gin whose 11 cards are not all melded",
    "knock_over_limit": "the knocker's deadwood is above the hand's knock limit",
    "knock_gin_only": "only gin may end this hand (an Oklahoma Ace), and the knocker had some",
    "tables_invalid": "a table game's hand does not list one hand per table",
    "cut_loser_invalid": "the cut for the sitter is missing, not needed or names the wrong one",
    "knock_card_unreadable": "a deal's knock card is not a card",
    "knock_card_not_here": "a knock card on a hand of a game that has none",
    "target_invalid": "a streets target change is not a whole number of 1 or more, or not an "
                      "entry of its own",
    "target_passed": "a new target that a side already has in an open street",
    # CAP-IT rounds
    "rounds_over": "a sixth round",
    "went_out_missing": "who went out is not said",
    "went_out_unknown": "who went out is not a player",
    "round_counts_missing": "neither cards nor points were given for a round",
    "round_player_unknown": "cards or points for someone who is not a player",
    "round_player_missing": "a player who did not go out is not listed",
    "capit_cards_unreadable": "a player's CAP-IT cards cannot be read",
    "capit_points_invalid": "points are not a whole number of 0 or more",
    "capit_points_impossible": "points that no cards can make",
    "went_out_holds_cards": "the player who went out was given points",
    "capit_cards_points_disagree": "a round's cards and points for a player disagree",
    # anything the services check before the core (an amount, a name)
    "refused": "a refusal that names no place the core knows",
}


@dataclass(frozen=True)
class Problem:
    """One problem of a record: where it is, its code and its words."""

    code: str
    text: str  # the words after ``opening`` in the line
    hand: int | None = None
    table: int | None = None
    player: str | None = None
    field: str | None = None
    round: int | None = None
    opening: str = ""  # the line's opening, e.g. "hand 3, table 2: deadwood.Ann"
    hint: str | None = None  # the whole words at the field, when a form should not say
    # "<player>'s count: <text>" (or cards, points) there
    values: dict = _field(default_factory=dict, compare=False, hash=False)
    # the numbers of the words, by name ({"count": 12, "limit": 10}), for a screen that
    # says the problem in words of its own (another language) and keeps the numbers

    def __post_init__(self):
        if self.code not in CODES:
            raise ValueError(f"unknown problem code {self.code!r}")

    @property
    def line(self) -> str:
        """The problem's line, as the refusal of a record writes it."""
        return f"{self.opening}: {self.text}" if self.opening else self.text

    def __str__(self) -> str:
        return self.line


class At(NamedTuple):
    """Where in the hands a problem is: ``str(at)`` is how a line names it ("hand 3",
    "hand 3, table 2", "hand 2 (round 2)"). A named tuple: one is made for every hand
    scored, so it must cost next to nothing."""

    hand: int
    table: int | None = None
    round: int | None = None

    def __str__(self) -> str:
        text = f"hand {self.hand}"
        if self.round is not None:
            text += f" (round {self.round})"
        if self.table is not None:
            text += f", table {self.table}"
        return text

    def at_table(self, table: int) -> At:
        return At(self.hand, table, self.round)

    def problem(self, code: str, text: str, *, path: str = "", field: str | None = None,
                player: str | None = None, hint: str | None = None,
                opening: str | None = None, values: dict | None = None) -> Problem:
        """A problem of this hand: the line opens with where, then ``path`` (how the line
        names the field, e.g. "deadwood.Ann"), unless ``opening`` gives it whole."""
        if opening is None:
            opening = f"{self}: {path}" if path else str(self)
        return Problem(code, text, hand=self.hand, table=self.table, player=player,
                       field=field, round=self.round, opening=opening, hint=hint,
                       values=values or {})


_HANDS: list[At] = []  # At(n) for the first hands, made once: one is asked for every hand
_MOST_KEPT = 4096


def hand_at(number: int) -> At:
    """``At(number)``, from a small cache (scoring asks for one for every hand it reads)."""
    if number < len(_HANDS):
        return _HANDS[number]
    if number >= _MOST_KEPT:
        return At(number)
    _HANDS.extend(At(n) for n in range(len(_HANDS), number + 1))
    return _HANDS[number]


_TABLES: dict[tuple[int, int], At] = {}


def table_at(number: int, table: int) -> At:
    """``At(number, table)``, cached like ``hand_at``."""
    at = _TABLES.get((number, table))
    if at is None:
        at = At(number, table)
        if len(_TABLES) < _MOST_KEPT:
            _TABLES[number, table] = at
    return at


def record_problem(code: str, path: str, text: str, *, field: str | None = None,
                   player: str | None = None, values: dict | None = None) -> Problem:
    """A problem of the record's top level: the line opens with ``path`` ("stakes.rate");
    ``field`` defaults to it; ``values``: the numbers of the words, by name."""
    return Problem(code, text, player=player, field=path if field is None else field,
                   opening=path, values=values or {})


def as_problem(item) -> Problem:
    """A Problem, or a line given as text (a refusal that names no place)."""
    if isinstance(item, Problem):
        return item
    return Problem("refused", str(item))
