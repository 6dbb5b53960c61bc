"""Every input cleaned or refused, in one place, with a message that names the field.

Forms (through ``CleanInputMixin``), services and the record imports all call this module,
so a value is judged the same way whichever door it came in by:

- **Text** is refused when it holds a NUL, another control character (a line break in a
  one-line field), a lone surrogate (a broken character) or an invisible direction control;
  otherwise it is put in Unicode's composed form (NFC) and the spaces and zero-width
  characters around it are removed.
- **Names** (players, sides, the account's display name) also lose the invisible characters
  inside them (zero-width spaces and joiners, soft hyphens, direction marks) and runs of
  spaces; two names are the same person's when they differ only by case, width
  (``Ａnn``/``Ann``) or invisible characters: ``name_key`` (NFKC, case-folded) compares them.
- **Numbers** are written with the ASCII digits 0-9 only: ``1_0``, ``²``, ``١`` and ``1e3``
  are refused (Python's ``int()`` and ``Decimal()`` would accept them).
- **Currencies** come from ISO 4217 (``ledger.currencies``); ``XXX`` means "no currency".
- **Records** (JSON imports and hand entries) are refused, before any scoring, when nested
  too deeply, holding fields the format does not have, junk inside a hand, or any of the
  above in a name; nothing of a refused record is stored.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from django import forms

from .currencies import ISO_4217
from .exceptions import LedgerError, RecordRefused

#: The most points a stake may be "per": every target is at most 100000 points, and the
#: database column (an integer) must hold it.
MAX_PER_POINTS = 100_000
MAX_NAME = 60
#: Nesting of an imported record: session > games > game > hands > hand > tables > table >
#: deadwood > count is 8 levels; anything deeper is junk.
MAX_DEPTH = 10
MAX_RECORD_TEXT = 2000  # any one string of a record (notes are the longest)
MAX_RECORD_INT = 2 ** 53  # beyond this JSON readers disagree


class Refused(LedgerError, ValueError):
    """A value refused; ``message`` names the field and the reason. A LedgerError, so a
    service may let it through to the screen as it is."""


# -- characters ------------------------------------------------------------------------------

_DIRECTION_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Removed around every text and anywhere in names: zero-width space, non-joiner, joiner,
# word joiner, BOM, soft hyphen, Mongolian vowel separator, direction marks.
_INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e\u200e\u200f\u061c"


def bad_character(text: str, *, multiline: bool = False) -> str | None:
    """What is wrong with ``text``'s characters, in words, or None."""
    for char in text:
        category = unicodedata.category(char)
        if category == "Cs":
            return "a broken character (a lone surrogate)"
        if category == "Cc":
            if multiline and char in "\n\r\t":
                continue
            if char == "\x00":
                return "a NUL character"
            if char in "\r\n":
                return "a line break"
            return f"a control character (U+{ord(char):04X})"
        if char in _DIRECTION_CONTROLS:
            return f"an invisible direction control (U+{ord(char):04X})"
    return None


def _trim(text: str) -> str:
    previous = None
    while previous != text:
        previous = text
        text = text.strip().strip(_INVISIBLE)
    return text


def _shown(value: Any, limit: int = 24) -> str:
    """A value quoted for a message, short and with anything odd escaped."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 4] + "...'"


def clean_text(value: Any, *, what: str, max_length: int, multiline: bool = False,
               required: bool = False) -> str:
    """``value`` as stored text (NFC, trimmed), or Refused."""
    if not isinstance(value, str):
        raise Refused(f"{what} must be text, not {_shown(value)}.")
    bad = bad_character(value, multiline=multiline)
    if bad:
        raise Refused(f"{what} contains {bad}; type it again without it.")
    text = _trim(unicodedata.normalize("NFC", value))
    if required and not text:
        raise Refused(f"{what} is empty.")
    if len(text) > max_length:
        raise Refused(f"{what} is {len(text)} characters long; at most {max_length}.")
    return text


def clean_name(value: Any, *, what: str = "The name", max_length: int = MAX_NAME) -> str:
    """A person's (or side's) name: text with no invisible characters inside and single
    spaces, or Refused (also when nothing visible is left)."""
    text = clean_text(value, what=what, max_length=10 * max_length)
    text = "".join(char for char in text
                   if char not in _INVISIBLE and unicodedata.category(char) != "Cf")
    text = " ".join(text.split())
    if not text:
        raise Refused(f"{what} has no visible character.")
    if len(text) > max_length:
        raise Refused(f"{what} is {len(text)} characters long; at most {max_length}.")
    return text


def name_key(name: str) -> str:
    """The key two names are compared by: 'Ann', 'ANN', 'Ａnn', 'Ann\\u200b' and ' ann '
    are the same person's."""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(char for char in text
                   if char not in _INVISIBLE and unicodedata.category(char) != "Cf")
    return unicodedata.normalize("NFKC", " ".join(text.split()).casefold())


def same_name(name: str, others) -> str | None:
    """The first of ``others`` that is ``name`` written differently (not identical)."""
    key = name_key(name)
    return next((other for other in others if other != name and name_key(other) == key),
                None)


def clash_message(name: str, other: str) -> str:
    return (f"{other} already plays at this table: {name} differs from it only in capitals, "
            "width, spaces or invisible characters, so it is the same player.")


# -- numbers, currencies, tokens -------------------------------------------------------------

_PLAIN_INT = re.compile(r"[+-]?[0-9]{1,30}")  # a longer one is refused as too large
_PLAIN_DECIMAL = re.compile(r"[+-]?(?:[0-9]{1,30}(?:\.[0-9]{0,30})?|\.[0-9]{1,30})")


_DECIMAL_CHARACTERS = re.compile(r"[+-]?[0-9.,]*[0-9][0-9.,]*")


def is_plain_int(text: str) -> bool:
    return bool(_PLAIN_INT.fullmatch(text))


def is_plain_decimal(text: str) -> bool:
    return bool(_PLAIN_DECIMAL.fullmatch(text))


def plain_int(value: Any, *, what: str, minimum: int | None = None,
              maximum: int | None = None) -> int:
    """A whole number given as an int or as ASCII digits, within bounds, or Refused."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise Refused(f"{what}: a whole number, not {_shown(value)}.")
    if isinstance(value, str):
        text = value.strip()
        if not is_plain_int(text):
            raise Refused(f"{what}: write a whole number with the digits 0-9, like 25, "
                          f"not {_shown(value)}.")
        value = int(text)
    if minimum is not None and value < minimum:
        raise Refused(f"{what}: {value} is below {minimum}.")
    if maximum is not None and value > maximum:
        raise Refused(f"{what}: {value} is above {maximum}, the most allowed.")
    return value


def clean_currency(value: Any, *, what: str = "Currency") -> str:
    """An ISO 4217 code (upper case), or Refused."""
    text = value.strip().upper() if isinstance(value, str) else None
    if text == "XXX":
        raise Refused(f"{what}: XXX means 'no currency'; give the code of the money played "
                      "for, such as USD or EUR.")
    if text is None or text not in ISO_4217:
        raise Refused(f"{what}: {_shown(value)} is not an ISO 4217 currency code, such as "
                      "USD, EUR or GBP.")
    return text


_TOKEN = re.compile(r"[A-Za-z0-9_-]{8,64}")


def is_token(value: str) -> bool:
    """Could ``value`` be a share link's token? (URL-safe base64, 8-64 characters.)"""
    return isinstance(value, str) and bool(_TOKEN.fullmatch(value))


def safe_filename(text: str, default: str = "export") -> str:
    """A file name for Content-Disposition: ASCII letters, digits, '.', '-' and '_' only
    (accents dropped, anything else, line breaks included, becomes '_')."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    name = re.sub(r"_+", "_", re.sub(r"[^A-Za-z0-9._-]", "_", ascii_text)).strip("._")
    return name[:150] or default


# -- forms -----------------------------------------------------------------------------------

def _label(field: forms.Field, name: str) -> str:
    return str(field.label or name.replace("_", " ").capitalize())


def _numeric_kind(field: forms.Field) -> str | None:
    """'int', 'decimal' or None: how a field's raw text must be written."""
    if isinstance(field, forms.DecimalField | forms.FloatField):  # IntegerField's subclasses
        return "decimal"
    if isinstance(field, forms.IntegerField):
        return "int"
    mode = getattr(field.widget, "attrs", {}).get("inputmode")
    return {"numeric": "int", "decimal": "decimal"}.get(mode)


def check_form_value(field: forms.Field, name: str, raw: str) -> tuple[str, str | None]:
    """(the value to give the field, a problem or None) for one raw form value."""
    widget = field.widget
    if isinstance(widget, forms.PasswordInput):
        return raw, None  # a password is taken as typed (Django refuses NUL in it)
    label = _label(field, name)
    bad = bad_character(raw, multiline=isinstance(widget, forms.Textarea))
    if bad:
        return "", f"{label} contains {bad}; type it again without it."
    value = _trim(unicodedata.normalize("NFC", raw))
    kind = _numeric_kind(field)
    if kind == "int" and value and not is_plain_int(value):
        return "", f"{label}: write a whole number with the digits 0-9, like 25."
    if kind == "decimal" and value and not _DECIMAL_CHARACTERS.fullmatch("".join(value.split())):
        # (the field itself reads "0,05" and says why "1,000" is ambiguous)
        return "", f"{label}: write an amount with the digits 0-9, like 0.05."
    if isinstance(field, forms.DateField | forms.DateTimeField | forms.TimeField) \
            and not value.isascii():
        return "", f"{label}: write the date with the digits 0-9, like 2025-11-21."
    return value, None


class CleanInputMixin:
    """For any Django form: every raw value goes through ``check_form_value`` before the
    fields see it. A refused value is reported at its field (only that message) and the
    field is left out of ``cleaned_data``; the form is drawn again with what was typed."""

    def full_clean(self):
        problems: dict[str, str] = {}
        if not self.is_bound:
            return super().full_clean()
        typed = self.data
        self.data = self._cleaned_input(problems)
        try:
            super().full_clean()
        finally:
            self.data = typed
        if problems and hasattr(self, "cleaned_data"):
            for name, message in problems.items():
                self.cleaned_data.pop(name, None)
                self._errors[name] = self.error_class([message], renderer=self.renderer)

    def _cleaned_input(self, problems: dict[str, str]):
        data = self.data.copy()
        getlist = getattr(data, "getlist", None)
        for name, field in self.fields.items():
            key = self.add_prefix(name)
            keys = [key] + [k for k in data if isinstance(k, str) and k.startswith(key + "_")
                            and isinstance(field.widget, forms.MultiWidget)]
            for data_key in keys:
                if data_key not in data:
                    continue
                values = getlist(data_key) if getlist else [data[data_key]]
                cleaned = []
                for raw in values:
                    if not isinstance(raw, str):
                        cleaned.append(raw)
                        continue
                    value, problem = check_form_value(field, name, raw)
                    if problem and name not in problems:
                        problems[name] = problem
                    cleaned.append(value)
                if getlist:
                    data.setlist(data_key, cleaned)
                else:
                    data[data_key] = cleaned[0] if len(cleaned) == 1 else cleaned
        return data


# -- JSON records ----------------------------------------------------------------------------

def load_json(data: bytes, *, where: str) -> Any:
    """The JSON document in ``data`` (UTF-8), or Refused: not UTF-8, not JSON, NaN or
    Infinity, nested too deeply."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise Refused(f"{where}: not UTF-8 text (byte {exc.start})") from None

    def no_constant(name):
        raise ValueError(f"{name} is not a number a record may hold")

    try:
        return json.loads(text, parse_constant=no_constant)
    except RecursionError:
        raise Refused(f"{where}: nested too deeply") from None
    except json.JSONDecodeError as exc:
        raise Refused(f"{where}: not valid JSON ({exc})") from None
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


GAME_KEYS = frozenset({"format", "variant", "preset", "rules", "players", "stakes", "setup",
                       "abandoned", "hands"})
STAKE_KEYS = frozenset({"rate", "per_points", "currency", "players", "ante"})
DUEL_KEYS = frozenset({"knocker", "deadwood", "big_gin", "gin", "draw", "cards", "upcard"})
HAND_KEYS = DUEL_KEYS | {"tables", "cut_loser", "went_out", "points"}
SESSION_KEYS = frozenset({"format", "table", "date", "place", "currency", "stakes", "notes",
                          "players", "games", "settlement"})
_NAME_FIELDS = ("knocker", "upcard", "cut_loser", "went_out")
_FLAG_FIELDS = ("big_gin", "gin", "draw")
_COUNT_FIELDS = ("deadwood", "cards", "points")


def _unknown(data: dict, known: frozenset, where: str, problems: list[str]) -> None:
    for key in sorted(set(data) - known, key=str):
        problems.append(f"{where}{_shown(key)}: not a field of this record")


def _hand_problems(hand: Any, where: str, problems: list[str], *, in_table: bool = False
                   ) -> None:
    """Junk inside a hand: unknown fields, containers where a name, a flag or a count
    goes, tables inside tables."""
    if not isinstance(hand, dict):
        problems.append(f"{where}: a hand must be a JSON object")
        return
    _unknown(hand, DUEL_KEYS if in_table else HAND_KEYS, f"{where}: ", problems)
    for key in _NAME_FIELDS:
        value = hand.get(key)
        if value is not None and not isinstance(value, str):
            problems.append(f"{where}: {key}: must be a name, not {_shown(value)}")
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
    """A list of names, each already clean, no two the same person's."""
    if not isinstance(names, list):
        problems.append(f"{where}: must be a list of names, not {_shown(names)}")
        return []
    good: list[str] = []
    for index, name in enumerate(names):
        at = f"{where}[{index}]"
        try:
            clean = clean_name(name, what=at)
        except Refused as exc:
            problems.append(exc.message.rstrip("."))
            continue
        if clean != name:
            problems.append(f"{at}: {_shown(name)} has extra or invisible characters; "
                            f"write it as {clean!r}")
            continue
        twin = next((other for other in good if name_key(other) == name_key(name)), None)
        if twin is not None:
            problems.append(f"{at}: {name!r} and {twin!r} are the same name (they differ "
                            "only in capitals, width or spaces)")
            continue
        good.append(name)
    return good


def _stakes_problems(stakes: Any, where: str, known: frozenset, problems: list[str]) -> None:
    if stakes is None:
        return
    if not isinstance(stakes, dict):
        problems.append(f"{where}: must be an object (rate, per_points, currency...), "
                        f"not {_shown(stakes)}")
        return
    _unknown(stakes, known, f"{where}.", problems)
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
            problems.append(exc.message.rstrip("."))
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
    _unknown(record, GAME_KEYS, prefix, problems)
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
    """A hand as a service receives it: a non-empty JSON object with only the fields of
    the record format and nothing nested where it does not belong."""
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
    _unknown(record, SESSION_KEYS, "", problems)
    for key, length, multiline in (("table", 100, False), ("place", 200, False),
                                   ("notes", MAX_RECORD_TEXT, True)):
        if record.get(key) is None:
            continue
        try:
            clean = clean_text(record[key], what=key, max_length=length, multiline=multiline)
        except Refused as exc:
            problems.append(exc.message.rstrip("."))
            continue
        if key == "table" and clean != record[key]:
            problems.append(f"table: {_shown(record[key])} has extra or invisible characters;"
                            f" write it as {clean!r}")
    if record.get("currency") is not None:
        try:
            clean_currency(record["currency"], what="currency")
        except Refused as exc:
            problems.append(exc.message.rstrip("."))
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


def record_hand_count(record: Any) -> int:
    """Hands in a game record, or over every game of a session record."""
    if not isinstance(record, dict):
        return 0
    games = record.get("games")
    if isinstance(games, list):
        return sum(record_hand_count(game) for game in games)
    hands = record.get("hands")
    return len(hands) if isinstance(hands, list) else 0
