"""JSON records (imports and hand entries): refused, before any scoring, when not UTF-8 or
JSON, nested too deeply, junk inside a hand's known fields, or a bad name or currency.

The game record's fields are the core's (``ledger.rules.schema``), and so is the policy for a
key the format does not have: it is ignored, by ``manage.py score``, an import and a hand
entry alike (docs/rules-decisions.md "Records"); a session record's too."""

from __future__ import annotations

import json
from typing import Any

from .. import limits
from ..exceptions import RecordRefused, refusal_problem
from ..limits import record_hand_count  # noqa: F401  (cleaning's name for it too)
from ..rules.schema import GAME_FIELDS, HAND_FIELDS, PLAY_FIELDS, STAKE_FIELDS, fields_of_kind
from .base import Refused, _shown
from .text import bad_character, clean_name, clean_text, name_key, reserved_name
from .values import MAX_PER_POINTS, clean_currency, clean_date

#: Nesting of an imported record: session > games > game > hands > hand > tables > table >
#: deadwood > count is 8 levels; anything deeper is junk.
MAX_DEPTH = 10
MAX_RECORD_TEXT = 2000  # any one string of a record (notes are the longest)
MAX_RECORD_INT = 2 ** 53  # beyond this JSON readers disagree


def load_json(data: bytes, *, where: str) -> Any:
    """The JSON document in ``data`` (UTF-8), or Refused: not UTF-8, not JSON, NaN or
    Infinity, nested too deeply."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise Refused(code="json_not_utf8", where=where, byte=exc.start) from None

    def no_constant(name):
        raise ValueError(f"{name} is not a number a record may hold")

    def no_twice(pairs):
        keys = set()
        for key, _ in pairs:
            if key in keys:  # json.loads would keep the last one silently
                raise ValueError(f"the key {_shown(key)} appears twice in one object; "
                                 "a record names each field once")
            keys.add(key)
        return dict(pairs)

    try:
        return json.loads(text, parse_constant=no_constant, object_pairs_hook=no_twice)
    except RecursionError:
        raise Refused(code="json_too_deep", where=where) from None
    except json.JSONDecodeError as exc:
        raise Refused(code="json_invalid", where=where, why=str(exc)) from None
    except ValueError as exc:
        raise Refused(f"{where}: {exc}") from None


def _tree_problems(value: Any, where: str, depth: int, problems: list[str]) -> None:
    """Depth, strings (no control characters but line breaks and tabs, no broken ones),
    whole numbers within JSON's safe range and finite floats, everywhere in a record."""
    if len(problems) >= 20:
        return
    at = where or "the record"
    if depth > MAX_DEPTH:
        problems.append(f"{at}: nested too deeply")
        return
    if isinstance(value, str):
        bad = bad_character(value, multiline=True)
        if bad:
            problems.append(f"{at}: {_shown(value)} contains {bad}")
        elif len(value) > MAX_RECORD_TEXT:
            problems.append(f"{at}: text of {len(value)} characters; at most "
                            f"{MAX_RECORD_TEXT}")
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int):
        if abs(value) > MAX_RECORD_INT:
            problems.append(f"{at}: {_shown(value)} is too large a number")
    elif isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            problems.append(f"{at}: {value} is not a number a record may hold")
    elif isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str) or bad_character(key):
                problems.append(f"{at}: the key {_shown(key)} is not a plain name")
                continue
            _tree_problems(item, f"{where}.{key}" if where else key, depth + 1, problems)
    elif isinstance(value, list | tuple):
        for index, item in enumerate(value):
            _tree_problems(item, f"{where}[{index}]", depth + 1, problems)
    else:
        problems.append(f"{at}: {type(value).__name__} is not JSON")


GAME_KEYS = frozenset(GAME_FIELDS)
STAKE_KEYS = frozenset(STAKE_FIELDS)
DUEL_KEYS = frozenset(PLAY_FIELDS)
HAND_KEYS = frozenset(HAND_FIELDS)
SESSION_KEYS = frozenset({"format", "table", "date", "place", "currency", "stakes", "notes",
                          "players", "games", "settlement"})
_NAME_FIELDS = fields_of_kind(HAND_FIELDS, "name")
_CARD_FIELDS = fields_of_kind(HAND_FIELDS, "card")
_FLAG_FIELDS = fields_of_kind(HAND_FIELDS, "flag")
_COUNT_FIELDS = fields_of_kind(HAND_FIELDS, "counts")


def _hand_problems(hand: Any, where: str, problems: list[str], *, in_table: bool = False
                   ) -> None:
    """Junk inside a hand: containers where a name, a flag or a count goes, tables inside
    tables (unknown fields are ignored)."""
    if not isinstance(hand, dict):
        problems.append(f"{where}: a hand must be a JSON object")
        return
    for key in _NAME_FIELDS:
        value = hand.get(key)
        if value is not None and not isinstance(value, str):
            problems.append(f"{where}: {key}: must be a name, not {_shown(value)}")
    for key in _CARD_FIELDS:
        value = hand.get(key)
        if value is not None and not isinstance(value, str):
            problems.append(f"{where}: {key}: must be a card such as 7S, not {_shown(value)}")
    for key in _FLAG_FIELDS:
        value = hand.get(key)
        if value is not None and not isinstance(value, bool):
            problems.append(f"{where}: {key}: must be true or false, not {_shown(value)}")
    for key in _COUNT_FIELDS:
        value = hand.get(key)
        if value is None:
            continue
        if not isinstance(value, dict):
            problems.append(f"{where}: {key}: must be an object of player names")
            continue
        for name, item in value.items():
            if isinstance(item, dict | list):
                problems.append(f"{where}: {key}.{name}: must be a number or cards, "
                                f"not {_shown(item)}")
    tables = hand.get("tables")
    if tables is not None:
        if in_table or not isinstance(tables, list):
            problems.append(f"{where}: tables: must be a list of the tables' hands")
        else:
            for index, part in enumerate(tables, start=1):
                _hand_problems(part, f"{where}, table {index}", problems, in_table=True)


def _names_problems(names: Any, where: str, problems: list[str]) -> list[str]:
    """A list of names, each already clean, no two the same person's; at most
    TABLESTAKES_MAX_RECORD_PLAYERS of them, counted before any is read. Linear: each name
    is compared with the earlier ones by one look-up of its ``name_key``."""
    if not isinstance(names, list):
        problems.append(f"{where}: must be a list of names, not {_shown(names)}")
        return []
    too_many = limits.record_players_problem(len(names), where)
    if too_many:
        problems.append(too_many)
        return []
    good: list[str] = []
    seen: dict[str, str] = {}
    for index, name in enumerate(names):
        at = f"{where}[{index}]"
        try:
            clean = clean_name(name, what=at)
        except Refused as exc:
            problems.append(refusal_problem(exc))
            continue
        if clean != name:
            problems.append(f"{at}: {_shown(name)} has extra or invisible characters; "
                            f"write it as {clean!r}")
            continue
        key = name_key(name)
        if reserved := reserved_name(name, key=key):
            problems.append(refusal_problem(reserved, where=at))
            continue
        twin = seen.get(key)
        if twin is not None:
            problems.append(f"{at}: {name!r} and {twin!r} are the same name (they differ "
                            "only in capitals, width or spaces)")
            continue
        seen[key] = name
        good.append(name)
    return good


def _stakes_problems(stakes: Any, where: str, known: frozenset, problems: list[str]) -> None:
    if stakes is None:
        return
    if not isinstance(stakes, dict):
        problems.append(f"{where}: must be an object (rate, per_points, currency...), "
                        f"not {_shown(stakes)}")
        return
    per_points = stakes.get("per_points")
    if per_points is not None:
        if isinstance(per_points, bool) or not isinstance(per_points, int):
            problems.append(f"{where}.per_points: must be a whole number, not "
                            f"{_shown(per_points)}")
        elif not 1 <= per_points <= MAX_PER_POINTS:
            problems.append(f"{where}.per_points: {per_points} is not between 1 and "
                            f"{MAX_PER_POINTS}")
    if "currency" in stakes:
        try:
            clean_currency(stakes["currency"], what=f"{where}.currency")
        except Refused as exc:
            problems.append(refusal_problem(exc))
    own = stakes.get("players")
    if own is not None and not isinstance(own, dict):
        problems.append(f"{where}.players: must be an object of player names and stakes")


def game_record_problems(record: Any, where: str = "") -> list[str]:
    """What is wrong with a game record's shape (the rules are the core's to check)."""
    problems: list[str] = []
    prefix = f"{where}: " if where else ""
    _tree_problems(record, where, 0, problems)
    if problems:
        return problems
    if not isinstance(record, dict):
        return [f"{prefix}the game record must be a JSON object"]
    for key in ("rules", "setup"):
        if record.get(key) is not None and not isinstance(record[key], dict):
            problems.append(f"{prefix}{key}: must be an object, not {_shown(record[key])}")
    if "players" in record:
        _names_problems(record["players"], f"{prefix}players", problems)
    _stakes_problems(record.get("stakes"), f"{prefix}stakes", STAKE_KEYS, problems)
    hands = record.get("hands")
    if hands is not None:
        if not isinstance(hands, list):
            problems.append(f"{prefix}hands: must be a list of hands")
        else:
            for number, hand in enumerate(hands, start=1):
                _hand_problems(hand, f"{prefix}hand {number}", problems)
                if len(problems) >= 20:
                    break
    return problems


def check_game_record(record: Any, where: str = "") -> None:
    problems = game_record_problems(record, where)
    if problems:
        raise RecordRefused(problems)


def check_hand_entry(entry: Any, number: int) -> dict:
    """A hand as a service receives it: a non-empty JSON object with nothing nested where
    it does not belong (fields the record format does not have are ignored)."""
    where = f"hand {number}"
    if not isinstance(entry, dict) or not entry:
        raise RecordRefused([f"{where}: a hand must be a non-empty JSON object"])
    problems: list[str] = []
    _tree_problems(entry, where, 2, problems)
    if not problems:
        _hand_problems(entry, where, problems)
    if problems:
        raise RecordRefused(problems)
    return entry


def session_record_problems(record: Any) -> list[str]:
    problems: list[str] = []
    _tree_problems(record, "", 0, problems)
    if problems:
        return problems
    if not isinstance(record, dict):
        return ["the session record must be a JSON object"]
    for key, length, multiline in (("table", 100, False), ("place", 200, False),
                                   ("notes", MAX_RECORD_TEXT, True)):
        if record.get(key) is None:
            continue
        try:
            clean = clean_text(record[key], what=key, max_length=length, multiline=multiline)
        except Refused as exc:
            problems.append(refusal_problem(exc))
            continue
        if key == "table" and clean != record[key]:
            problems.append(f"table: {_shown(record[key])} has extra or invisible characters;"
                            f" write it as {clean!r}")
    if record.get("date") is not None:
        try:
            clean_date(record["date"], what="date")
        except Refused as exc:
            problems.append(refusal_problem(exc))
    if record.get("currency") is not None:
        try:
            clean_currency(record["currency"], what="currency")
        except Refused as exc:
            problems.append(refusal_problem(exc))
    if "players" in record:
        _names_problems(record["players"], "players", problems)
    _stakes_problems(record.get("stakes"), "stakes", frozenset({"rate", "per_points"}),
                     problems)
    games = record.get("games")
    if games is not None and not isinstance(games, list):
        problems.append("games: must be a list of game records")
    elif games:
        for index, game in enumerate(games, start=1):
            problems += game_record_problems(game, f"games[{index}]")
    settlement = record.get("settlement")
    if settlement is not None:
        payments = settlement.get("payments") if isinstance(settlement, dict) else None
        if not isinstance(settlement, dict) or not isinstance(payments, list | type(None)):
            problems.append("settlement: must be an object with a list of payments")
        else:
            for index, payment in enumerate(payments or [], start=1):
                if not isinstance(payment, dict) or \
                        set(payment) - {"from", "to", "amount", "paid"}:
                    problems.append(f"settlement.payments[{index}]: must be an object of "
                                    "from, to, amount and paid")
    return problems


def check_session_record(record: Any) -> None:
    problems = session_record_problems(record)
    if problems:
        raise RecordRefused(problems)


