"""Reading a game record (docs/game-record.md): the checks that concern the whole record.

``read_record`` turns the record's JSON data into a ``Game`` or collects one problem
line per thing that is wrong, naming the field (``stakes.rate: ...``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from .money import minor_exponent
from .problems import Problem, as_problem, record_problem
from .settings import PLAYER_COUNTS, VARIANTS, resolve_rules
from .variants import ANTE, declared

RECORD_FORMAT = "tablestakes.game/1"
RESULT_FORMAT = "tablestakes.result/1"

# ASCII digits only: \d also matches "٠.٠٥" and "０.０５" (Decimal() reads them too)
_MONEY = re.compile(r"[0-9]+(?:\.[0-9]+)?")
_CURRENCY = re.compile(r"^[A-Z]{3}$")


class RecordError(ValueError):
    """A game record that breaks a rule: ``details`` are the problems as data (where, code,
    words; ``problems.Problem``), ``problems`` their lines, one per problem."""

    def __init__(self, problems: list):
        self.details: list[Problem] = [as_problem(p) for p in problems]
        self.problems = [p.line for p in self.details]
        super().__init__("\n".join(self.problems))


@dataclass
class Stakes:
    """Money per point for each player (already divided by ``per_points``)."""

    currency: str
    rate: Fraction  # the table's stake per point
    per_points: int
    rate_text: str
    players: dict[str, Fraction] = field(default_factory=dict)  # explicit stakes per point
    ante_units: int = 0  # CAP-IT ante in minor units
    lump_sum: Fraction = Fraction(0)  # a lump-sum game's or match's stake (RULES 3.10)

    @property
    def scale(self) -> int:
        """Minor units per currency unit."""
        return 10 ** minor_exponent(self.currency)

    def of(self, player: str) -> Fraction:
        return self.players.get(player, self.rate)

    def has_own(self, player: str) -> bool:
        return player in self.players


@dataclass
class Game:
    variant: str
    preset: str
    rules: dict
    players: list[str]
    stakes: Stakes | None
    setup: dict
    abandoned: bool
    hands: list


def parse_money(value, where: str, problems: list, *, field: str | None = None,
                player: str | None = None) -> Decimal | None:
    """A money amount: a decimal string (an integer is tolerated); never a float."""

    def bad(text: str) -> None:
        problems.append(record_problem("money_invalid", where, text, field=field,
                                       player=player))

    if isinstance(value, bool) or isinstance(value, float):
        bad(f"money must be a decimal string like \"0.01\", not the number {value!r}")
        return None
    if isinstance(value, int):
        if value < 0:
            bad(f"must not be negative ({value})")
            return None
        return Decimal(value)
    if not isinstance(value, str):
        bad(f"money must be a decimal string like \"0.01\", not {value!r}")
        return None
    text = value.strip()
    if text.startswith("-"):
        bad(f"must not be negative ({value})")
        return None
    if not _MONEY.fullmatch(text):
        bad(f"{value!r} is not a decimal amount like \"0.01\"")
        return None
    return Decimal(text)


def read_record(record) -> Game:
    """Check the record's top level and return the ``Game``; raises ``RecordError``."""
    problems: list[Problem] = []
    if not isinstance(record, dict):
        raise RecordError([record_problem("record_not_object", "record",
                                          "must be a JSON object", field=None)])
    fmt = record.get("format", RECORD_FORMAT)
    if fmt != RECORD_FORMAT:
        problems.append(record_problem("format_unknown", "format",
                                       f"expected {RECORD_FORMAT!r}, got {fmt!r}"))
    variant = record.get("variant")
    if variant not in VARIANTS:
        problems.append(record_problem(
            "variant_unknown", "variant",
            f"{'missing' if variant is None else repr(variant) + ' is unknown'}"
            f" (one of {', '.join(VARIANTS)})"
        ))
    if not isinstance(variant, str) or variant not in VARIANTS:
        variant = None  # reported above; a list or object must not reach a lookup
    players = _read_players(record.get("players"), variant, problems)
    preset = record.get("preset")
    if preset is not None and not isinstance(preset, str):
        problems.append(record_problem("preset_unknown", "preset",
                                       f"must be a preset name, not {preset!r}"))
        preset = None
    preset, rules = resolve_rules(  # a record of no known variant is refused: any will do
        variant or VARIANTS[0], preset, record.get("rules"),
        len(players), problems,
    )
    spec = declared(variant)
    lump = spec is not None and spec.straight and (
        rules.get("money_mode") == "lump_sum" or rules.get("straight_format") == "best_of")
    stakes = _read_stakes(record.get("stakes"), players, variant, problems, lump=lump)
    setup = record.get("setup", {})
    if setup is None:
        setup = {}
    if not isinstance(setup, dict):
        problems.append(record_problem("setup_invalid", "setup", "must be an object"))
        setup = {}
    abandoned = record.get("abandoned", False)
    if not isinstance(abandoned, bool):
        problems.append(record_problem("abandoned_invalid", "abandoned",
                                       f"must be true or false, not {abandoned!r}"))
        abandoned = False
    hands = record.get("hands", [])
    if not isinstance(hands, list):
        problems.append(record_problem("hands_invalid", "hands", "must be a list of hands"))
        hands = []
    if problems:
        raise RecordError(problems)
    return Game(variant, preset, rules, players, stakes, setup, abandoned, hands)


def _read_players(value, variant, problems: list) -> list[str]:
    if not isinstance(value, list) or not value:
        problems.append(record_problem("players_invalid", "players",
                                       "must be a list of player names"))
        return []
    players: list[str] = []
    for i, name in enumerate(value):
        if not isinstance(name, str) or not name.strip():
            problems.append(record_problem("player_name_invalid", f"players[{i}]",
                                           f"must be a non-empty name, not {name!r}",
                                           field="players"))
        elif name in players:
            problems.append(record_problem(
                "player_twice", "players",
                f"{name!r} appears twice; player names must be unique", player=name))
        else:
            players.append(name)
    counts = PLAYER_COUNTS.get(variant)
    if counts and len(value) not in counts:
        wanted = " or ".join(str(c) for c in counts)
        problems.append(record_problem(
            "player_count", "players",
            f"{variant} is played by {wanted} players, not {len(value)}"))
    return players


def _read_stakes(value, players: list[str], variant, problems: list, *,
                 lump: bool = False) -> Stakes | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        problems.append(record_problem("stakes_invalid", "stakes", "must be an object"))
        return None
    before = len(problems)
    spec = declared(variant)
    ante = spec is not None and spec.stake == ANTE  # the pot's ante, not a rate per points
    currency = value.get("currency", "USD")
    if not isinstance(currency, str) or not _CURRENCY.match(currency):
        problems.append(record_problem("currency_invalid", "stakes.currency",
                                       f"{currency!r} is not a three-letter currency code"))
        currency = "USD"
    rate = Decimal(0)
    rate_text = "0"
    if "rate" in value:
        parsed = parse_money(value["rate"], "stakes.rate", problems)
        if parsed is not None:
            rate, rate_text = parsed, str(value["rate"])
    elif not ante and not lump and not (
            isinstance(value.get("players"), dict) and set(players) <= set(value["players"])):
        problems.append(record_problem(
            "money_missing", "stakes.rate",
            "missing (money per per_points points, like \"0.01\"); "
            "it may be left out only when every player has his own stake"))
    per_points = value.get("per_points", 1)
    if isinstance(per_points, bool) or not isinstance(per_points, int) or per_points < 1:
        problems.append(record_problem(
            "per_points_invalid", "stakes.per_points",
            f"must be a whole number of points, 1 or more, not {per_points!r}"))
        per_points = 1
    own: dict[str, Fraction] = {}
    given = value.get("players", {})
    if not isinstance(given, dict):
        problems.append(record_problem("stakes_invalid", "stakes.players",
                                       "must be an object of player names and stakes"))
        given = {}
    for name, stake in given.items():
        if name not in players:
            problems.append(record_problem(
                "stake_player_unknown", f"stakes.players.{name}",
                f"{name!r} is not a player of this game", field="stakes.players",
                player=name))
            continue
        parsed = parse_money(stake, f"stakes.players.{name}", problems,
                             field="stakes.players", player=name)
        if parsed is not None:
            own[name] = Fraction(parsed) / per_points
    ante_units = 0
    if "ante" in value:
        ante = parse_money(value["ante"], "stakes.ante", problems)
        if ante is not None:
            units = Fraction(ante) * 10 ** minor_exponent(currency)
            if units.denominator != 1:
                problems.append(record_problem(
                    "ante_not_minor_units", "stakes.ante",
                    f"{value['ante']} is not a whole number of {currency} minor units"))
            else:
                ante_units = int(units)
    elif ante:
        problems.append(record_problem("money_missing", "stakes.ante",
                                       "missing (each player's ante, like \"5.00\")"))
    lump_sum = Fraction(0)
    if "lump_sum_stake" in value:
        parsed = parse_money(value["lump_sum_stake"], "stakes.lump_sum_stake", problems)
        if parsed is not None:
            lump_sum = Fraction(parsed)
    if len(problems) > before:
        return None
    return Stakes(currency, Fraction(rate) / per_points, per_points, rate_text, own, ante_units,
                  lump_sum)
