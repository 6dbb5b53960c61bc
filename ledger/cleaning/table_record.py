"""A whole table's document (``tablestakes.table/1``, docs/table-export.md): refused, before
anything is stored, when a field is missing, unknown or of the wrong kind, a text holds
what a form refuses, a name is reserved or twice the same person's, a date is out of
range, a reference points nowhere or a limit is passed. Every problem names its place
(``sessions[2].games[1].hands[4].recorded_at``); at most 20 are listed.

One walker checks every kind of row the document holds (``kinds``: the record's
``selectors.table_rows.ROW_KINDS``), each by its ``shape`` (the ``*_fields`` here).

Linear in the size of the document (names compare by a set of ``name_key``s, never pair
by pair). The history's consistency (scores, money, settlements) is the service's to check
once the rows are in (``services.table_import``).
"""

from __future__ import annotations

import datetime
import re
import uuid
from collections.abc import Callable, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from ..exceptions import RecordRefused, refusal_problem
from ..rules.settings import VARIANTS
from .base import Refused, _shown
from .records import MAX_RECORD_INT, _hand_problems, _tree_problems
from .text import MAX_NAME, bad_character, clean_name, clean_text, name_key
from .values import MAX_PER_POINTS, clean_currency

TABLE_FORMAT = "tablestakes.table/1"
MAX_PROBLEMS = 20
#: Fields a document written before they were added lacks: a game's lump-sum stake
#: (migration 0022, RULES 3.10), read as none when absent.
OPTIONAL_FIELDS = frozenset({"lump_sum_stake"})
#: Names the hand form uses as values among the players' names (services.tables).
RESERVED_NAMES = frozenset({"-draw-", "-nobody-"})
#: Dates a table's evening may carry (a form offers nothing else sensible).
FIRST_DATE = datetime.date(1900, 1, 1)
LAST_DATE = datetime.date(2999, 12, 31)
_STAMP = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})\Z")
_DECIMAL = re.compile(r"\d{1,5}(\.\d{1,4})?\Z")
_USERNAME = re.compile(r"[\w.@+-]{1,150}\Z")


class _Stop(Exception):
    """Enough problems were found."""


class _Check:
    def __init__(self, max_players: int, max_hands: int):
        self.problems: list[str] = []
        self.max_players = max_players
        self.max_hands = max_hands
        self.usernames: set[str] = set()
        self.ids: dict[str, set[int]] = {}
        self.refs: list[tuple[str, int, str]] = []
        self.name_keys: set[str] = set()  # the players' names, compared by name_key

    def problem(self, where: str, text: str) -> None:
        self.problems.append(f"{where}: {text}")
        if len(self.problems) >= MAX_PROBLEMS:
            raise _Stop

    # -- containers -------------------------------------------------------------------------

    def obj(self, value: Any, where: str, fields: dict[str, Any]) -> dict | None:
        if not isinstance(value, dict):
            self.problem(where, f"must be a JSON object, not {_shown(value)}")
            return None
        for key in value:
            if key not in fields:
                self.problem(where, f"{_shown(key)} is not a field of this document")
        for key, check in fields.items():
            if key not in value:
                if key not in OPTIONAL_FIELDS:
                    self.problem(where, f"the field {key!r} is missing")
            else:
                check(value[key], f"{where}.{key}")
        return value

    def items(self, value: Any, where: str, limit: int | None = None) -> list:
        if not isinstance(value, list):
            self.problem(where, f"must be a list, not {_shown(value)}")
            return []
        if limit is not None and len(value) > limit:
            self.problem(where, f"{len(value):,} entries; at most {limit:,} here")
            return []
        return value

    def row_id(self, kind: str, value: Any, where: str) -> None:
        if not self.whole(value, where, minimum=1):
            return
        seen = self.ids.setdefault(kind, set())
        if value in seen:
            self.problem(where, f"{kind} {value} appears twice")
        seen.add(value)

    # -- values -----------------------------------------------------------------------------

    def whole(self, value: Any, where: str, *, minimum: int = 0,
              maximum: int = MAX_RECORD_INT, null: bool = False) -> bool:
        if value is None and null:
            return True
        if isinstance(value, bool) or not isinstance(value, int):
            self.problem(where, f"must be a whole number, not {_shown(value)}")
            return False
        if not minimum <= value <= maximum:
            self.problem(where, f"{value} is not between {minimum} and {maximum}")
            return False
        return True

    def flag(self, value: Any, where: str) -> None:
        if not isinstance(value, bool):
            self.problem(where, f"must be true or false, not {_shown(value)}")

    def text(self, value: Any, where: str, *, max_length: int, multiline: bool = False,
             required: bool = False, choices: frozenset | None = None) -> None:
        try:
            clean = clean_text(value, what=where, max_length=max_length, multiline=multiline,
                               required=required)
        except Refused as exc:
            self.problems.append(refusal_problem(exc))
            if len(self.problems) >= MAX_PROBLEMS:
                raise _Stop from None
            return
        # Text is taken as stored (a reason cut at 300 characters may end in a space); only
        # what a form refuses outright is refused here.
        del clean
        if choices is not None and value not in choices:
            self.problem(where, f"{_shown(value)} is not one of {', '.join(sorted(choices))}")

    def stamp(self, value: Any, where: str, *, null: bool = False) -> None:
        if value is None and null:
            return
        if not isinstance(value, str) or not _STAMP.match(value):
            self.problem(where, f"{_shown(value)} is not a moment such as "
                                "2026-01-08T20:15:00+00:00 (ISO 8601 with its time zone)")
            return
        try:
            moment = datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            self.problem(where, f"{_shown(value)} is not a real moment")
            return
        if not FIRST_DATE <= moment.date() <= LAST_DATE:
            self.problem(where, f"{value} is outside {FIRST_DATE} to {LAST_DATE}")

    def date(self, value: Any, where: str) -> None:
        try:
            day = datetime.date.fromisoformat(value) if isinstance(value, str) and \
                len(value) == 10 else None
        except ValueError:
            day = None
        if day is None:
            self.problem(where, f"{_shown(value)} is not a date such as 2026-01-08")
        elif not FIRST_DATE <= day <= LAST_DATE:
            self.problem(where, f"{value} is outside {FIRST_DATE} to {LAST_DATE}")

    def amount(self, value: Any, where: str) -> None:
        """A stake: null, or a positive decimal string of at most 5 digits and 4 decimals."""
        if value is None:
            return
        if not isinstance(value, str) or not _DECIMAL.match(value):
            self.problem(where, f"{_shown(value)} is not an amount such as \"0.0100\"")
            return
        try:
            if Decimal(value) <= 0:
                self.problem(where, f"{value} must be above zero")
        except InvalidOperation:
            self.problem(where, f"{_shown(value)} is not an amount")

    def user(self, value: Any, where: str, *, required: bool = False) -> None:
        if value is None and not required:
            return
        if not isinstance(value, str) or value not in self.usernames:
            self.problem(where, f"{_shown(value)} is not one of the document's accounts")

    def currency(self, value: Any, where: str) -> None:
        try:
            clean_currency(value, what=where)
        except Refused as exc:
            self.problems.append(refusal_problem(exc))
            if len(self.problems) >= MAX_PROBLEMS:
                raise _Stop from None

    def json_tree(self, value: Any, where: str, depth: int) -> None:
        found: list[str] = []
        _tree_problems(value, where, depth, found)
        for line in found:
            self.problems.append(line)
            if len(self.problems) >= MAX_PROBLEMS:
                raise _Stop


def table_document_problems(document: Any, *, kinds: Sequence[Any], max_players: int,
                            max_hands: int) -> list[str]:
    """What is wrong with a table document's shape, in words that name the place. ``kinds``
    are the document's kinds of row (``selectors.table_rows.ROW_KINDS``: each with its
    ``key``, ``parent``, ``single``/``optional``/``required`` and ``shape``, one of the
    ``*_fields`` here)."""
    check = _Check(max_players, max_hands)
    try:
        _document(check, document, list(kinds))
        if not check.problems:
            for kind, value, where in check.refs:
                if value not in check.ids.get(kind, ()):
                    check.problem(where, f"there is no {kind} {value} in the document")
    except _Stop:
        pass
    return check.problems


def check_table_document(document: Any, *, kinds: Sequence[Any], max_players: int,
                         max_hands: int) -> None:
    problems = table_document_problems(document, kinds=kinds, max_players=max_players,
                                       max_hands=max_hands)
    if problems:
        raise RecordRefused(problems)


def _document(c: _Check, doc: Any, kinds: list) -> None:
    if not isinstance(doc, dict):
        c.problem("the document", "must be a JSON object")
        return
    if doc.get("format") != TABLE_FORMAT:
        c.problem("format", f"expected {TABLE_FORMAT!r}, not {_shown(doc.get('format'))}")
        return
    # accounts first: every other part names them
    for index, account in enumerate(c.items(doc.get("accounts"), "accounts", 10_000)):
        where = f"accounts[{index}]"
        c.obj(account, where, {
            "username": lambda v, w: (None if isinstance(v, str) and _USERNAME.match(v)
                                      else c.problem(w, f"{_shown(v)} is not a username "
                                                        "(letters, digits and @.+-_)")),
            "first_name": lambda v, w: c.text(v, w, max_length=150),
            "last_name": lambda v, w: c.text(v, w, max_length=150),
        })
        if isinstance(account, dict) and isinstance(account.get("username"), str):
            if account["username"] in c.usernames:
                c.problem(where, f"the account {account['username']!r} appears twice")
            c.usernames.add(account["username"])
    c.obj(doc.get("table"), "table", {
        "name": lambda v, w: c.text(v, w, max_length=100, required=True),
        "paper_size": lambda v, w: c.text(v, w, max_length=10,
                                          choices=frozenset({"auto", "A4", "letter"})),
        "created_at": c.stamp,
        "scorekeepers": lambda v, w: [c.user(name, f"{w}[{i}]", required=True)
                                      for i, name in enumerate(c.items(v, w, 1000))],
    })
    top = [kind for kind in kinds if kind.parent is None]
    for kind in top:
        # (files from before a kind that is not ``required`` have none of it)
        value = doc.get(kind.key) if kind.required else doc.get(kind.key, [])
        for index, row in enumerate(c.items(value, kind.key, kind.shape.limit(c))):
            _row(c, kinds, kind, row, f"{kind.key}[{index}]")
    for key in sorted(set(doc) - {"format", "accounts", "table", *(k.key for k in top)},
                      key=str):
        c.problem("the document", f"{_shown(key)} is not a field of this document")


def _row(c: _Check, kinds: list, kind: Any, row: Any, where: str) -> None:
    """One row's object: its own fields (``kind.shape``), then its children's lists; an
    ``optional`` child (only when the squaring was undone...) is checked first, when there."""
    fields: dict[str, Any] = {}
    own = [child for child in kinds if child.parent == kind.name]
    for child in own:
        if child.optional and isinstance(row, dict) and child.key in row:
            fields[child.key] = lambda v, w, child=child: _row(c, kinds, child, v, w)
    fields.update(kind.shape(c))
    for child in own:
        if child.optional:
            continue
        if child.single:
            fields[child.key] = (lambda v, w, child=child:
                                 None if v is None else _row(c, kinds, child, v, w))
        else:
            fields[child.key] = (lambda v, w, child=child: [
                _row(c, kinds, child, item, f"{w}[{i}]")
                for i, item in enumerate(c.items(v, w, child.shape.limit(c)))])
    c.obj(row, where, fields)
    finish = getattr(kind.shape, "finish", None)
    if finish is not None:
        finish(c, row, where)


def _ref(c: _Check, kind: str, value: Any, where: str) -> None:
    """A reference to a row; checked once every row's id is known."""
    if c.whole(value, where, minimum=1):
        c.refs.append((kind, value, where))


def _token(c: _Check, what: str) -> Callable[[Any, str], None]:
    return lambda v, w: (None if isinstance(v, str) and re.fullmatch(r"[A-Za-z0-9_-]{16,64}", v)
                         else c.problem(w, f"not a {what}'s token"))


def _player_name(c: _Check, value: Any, where: str) -> None:
    try:
        clean = clean_name(value, what=where, max_length=MAX_NAME)
    except Refused as exc:
        c.problems.append(refusal_problem(exc, where=where, without=f"{where} ", field=""))
        if len(c.problems) >= MAX_PROBLEMS:
            raise _Stop from None
        return
    if clean != value:
        c.problem(where, f"{_shown(value)} has extra or invisible characters; write it as "
                         f"{clean!r}")
    elif value in RESERVED_NAMES:
        c.problem(where, f"{value!r} is kept for the hand form; it cannot be a player's name")
    else:
        key = name_key(value)
        if key in c.name_keys:
            c.problem(where, f"{value!r} is another player's name again (names that differ "
                             "only in capitals, width or spaces are the same)")
        c.name_keys.add(key)


class Shape:
    """A ``RowKind``'s ``shape``: ``fields(c)`` the checks of its own fields in the document's
    order, ``limit(c)`` how many one list may hold, ``finish`` a check of the whole row."""

    def __init__(self, fields: Callable[[_Check], dict], limit: Callable[[_Check], Any] = None,
                 finish: Callable[[_Check, Any, str], None] | None = None):
        self.fields, self.finish, self.limit = fields, finish, limit or (lambda c: None)

    def __call__(self, c: _Check) -> dict:
        return self.fields(c)


def _shape(limit=None, finish=None):
    return lambda fields: Shape(fields, limit, finish)


@_shape(limit=lambda c: c.max_players)
def player_fields(c: _Check) -> dict:
    return {
        "id": lambda v, w: c.row_id("player", v, w),
        "name": lambda v, w: _player_name(c, v, w),
        "created_at": c.stamp,
        "archived_at": lambda v, w: c.stamp(v, w, null=True),
    }


@_shape()
def session_fields(c: _Check) -> dict:
    return {
        "id": lambda v, w: c.row_id("session", v, w),
        "date": c.date,
        "place": lambda v, w: c.text(v, w, max_length=200),
        "currency": c.currency,
        "rate": c.amount,
        "per_points": lambda v, w: c.whole(v, w, minimum=1, maximum=MAX_PER_POINTS),
        "notes": lambda v, w: c.text(v, w, max_length=5000, multiline=True),
        "created_by": c.user,
        "created_at": c.stamp,
    }


@_shape(limit=lambda c: 10_000)
def game_fields(c: _Check) -> dict:
    return {
        "id": lambda v, w: c.row_id("game", v, w),
        "sequence": lambda v, w: c.whole(v, w, minimum=1, maximum=100_000),
        "variant": lambda v, w: c.text(v, w, max_length=20, choices=frozenset(VARIANTS)),
        "preset": lambda v, w: c.text(v, w, max_length=20),
        "rules": lambda v, w: (c.json_tree(v, w, 3) if isinstance(v, dict)
                               else c.problem(w, "must be an object of rule settings")),
        "currency": c.currency,
        "rate": c.amount,
        "per_points": lambda v, w: c.whole(v, w, minimum=1, maximum=MAX_PER_POINTS, null=True),
        "ante": c.amount,
        "lump_sum_stake": c.amount,  # optional (OPTIONAL_FIELDS)
        "setup": lambda v, w: (c.json_tree(v, w, 3) if isinstance(v, dict)
                               else c.problem(w, "must be an object (dealer, sides...)")),
        "status": lambda v, w: c.text(v, w, max_length=12, choices=frozenset({
            "in_progress", "complete", "abandoned"})),
        "started_by": c.user,
        "started_at": c.stamp,
        "finished_at": lambda v, w: c.stamp(v, w, null=True),
    }


@_shape(limit=lambda c: 12)
def seat_fields(c: _Check) -> dict:
    return {
        "player": lambda v, w: _ref(c, "player", v, w),
        "played_as": lambda v, w: c.text(v, w, max_length=MAX_NAME),
        "stake": c.amount,
    }


def _voided_hand(c: _Check, hand: Any, where: str) -> None:
    if isinstance(hand, dict) and hand.get("voided_at") and not hand.get("void_reason"):
        c.problem(where, "a voided hand needs its void_reason")


@_shape(limit=lambda c: 4 * c.max_hands, finish=_voided_hand)
def hand_fields(c: _Check) -> dict:
    def entry(value: Any, at: str) -> None:
        if not isinstance(value, dict) or not value:
            c.problem(at, "a hand must be a non-empty JSON object")
            return
        before = len(c.problems)
        c.json_tree(value, at, 2)
        if len(c.problems) == before:
            found: list[str] = []
            _hand_problems(value, at, found)
            for line in found:
                c.problems.append(line)
                if len(c.problems) >= MAX_PROBLEMS:
                    raise _Stop

    def key(value: Any, at: str) -> None:
        try:
            uuid.UUID(value) if isinstance(value, str) and len(value) == 36 else int("x")
        except ValueError:
            c.problem(at, f"{_shown(value)} is not a UUID")

    return {
        "id": lambda v, w: c.row_id("hand", v, w),
        "number": lambda v, w: c.whole(v, w, minimum=1, maximum=4 * c.max_hands),
        "entry": entry,
        "recorded_by": c.user,
        "recorded_at": c.stamp,
        "idempotency_key": key,
        "voided_at": lambda v, w: c.stamp(v, w, null=True),
        "voided_by": c.user,
        "void_reason": lambda v, w: c.text(v, w, max_length=300),
        "replaces": lambda v, w: None if v is None else _ref(c, "hand", v, w),
    }


@_shape(limit=lambda c: 10_000)
def change_fields(c: _Check) -> dict:
    return {
        "id": lambda v, w: c.row_id("game change", v, w),
        "kind": lambda v, w: c.text(v, w, max_length=10,
                                    choices=frozenset({"rule", "stake", "abandon"})),
        "name": lambda v, w: c.text(v, w, max_length=60, required=True),
        "old": lambda v, w: c.json_tree(v, w, 6),
        "new": lambda v, w: c.json_tree(v, w, 6),
        "reason": lambda v, w: c.text(v, w, max_length=300),
        "after_hand": lambda v, w: c.whole(v, w, maximum=4 * c.max_hands),
        "money_changed": c.flag,
        "changed_by": c.user,
        "changed_at": c.stamp,
    }


@_shape(limit=lambda c: 10_000)
def batch_fields(c: _Check) -> dict:
    return {
        "id": lambda v, w: c.row_id("batch", v, w),
        "number": lambda v, w: c.whole(v, w, minimum=1, maximum=100_000),
        "kind": lambda v, w: c.text(v, w, max_length=10,
                                    choices=frozenset({"post", "reversal"})),
        "reverses": lambda v, w: None if v is None else _ref(c, "batch", v, w),
        "memo": lambda v, w: c.text(v, w, max_length=300),
        "created_by": c.user,
        "created_at": c.stamp,
    }


@_shape(limit=lambda c: 12)
def posting_fields(c: _Check) -> dict:
    return {
        "id": lambda v, w: c.row_id("posting", v, w),
        "player": lambda v, w: _ref(c, "player", v, w),
        "amount_minor": lambda v, w: (
            c.whole(v, w, minimum=-MAX_RECORD_INT) and v == 0
            and c.problem(w, "a posting is never zero")),
    }


@_shape(limit=lambda c: 1000)
def settlement_fields(c: _Check) -> dict:
    return {
        "id": lambda v, w: c.row_id("settlement", v, w),
        "currency": c.currency,
        "nets": lambda v, w: (
            [c.whole(units, f"{w}.{name}", minimum=-MAX_RECORD_INT) for name, units in
             (v.items() if len(v) <= c.max_players else [])] if isinstance(v, dict) and
            all(isinstance(name, str) and not bad_character(name) for name in v)
            else c.problem(w, "must be an object of player names and amounts in minor units")),
        "settled_by": c.user,
        "settled_at": c.stamp,
    }


@_shape(limit=lambda c: c.max_players)
def payment_fields(c: _Check) -> dict:
    return {
        "id": lambda v, w: c.row_id("payment", v, w),
        "order": lambda v, w: c.whole(v, w, minimum=0, maximum=10_000),
        "payer": lambda v, w: _ref(c, "player", v, w),
        "payee": lambda v, w: _ref(c, "player", v, w),
        "amount_minor": lambda v, w: c.whole(v, w, minimum=1),
        "paid_at": lambda v, w: c.stamp(v, w, null=True),
        "paid_by": c.user,
    }


@_shape(limit=lambda c: 10_000)
def mark_fields(c: _Check) -> dict:
    return {
        "id": lambda v, w: c.row_id("paid mark", v, w),
        "paid": c.flag,
        "marked_by": c.user,
        "marked_at": c.stamp,
    }


@_shape()
def void_fields(c: _Check) -> dict:
    return {
        "id": lambda v, w: c.row_id("settlement void", v, w),
        "reason": lambda v, w: c.text(v, w, max_length=300, required=True),
        "voided_by": c.user,
        "voided_at": c.stamp,
    }


@_shape()
def book_settlement_fields(c: _Check) -> dict:
    return {
        "id": lambda v, w: c.row_id("book settlement", v, w),
        "currency": c.currency,
        "payments": lambda v, w: [c.obj(item, f"{w}[{i}]", {
            "from": lambda v, w: _ref(c, "player", v, w),
            "to": lambda v, w: _ref(c, "player", v, w),
            "amount_minor": lambda v, w: c.whole(v, w, minimum=1),
        }) for i, item in enumerate(c.items(v, w, c.max_players))],
        "cleared": lambda v, w: [_ref(c, "payment", item, f"{w}[{i}]")
                                 for i, item in enumerate(c.items(v, w))],
        "settled_by": c.user,
        "settled_at": c.stamp,
    }


@_shape()
def book_undo_fields(c: _Check) -> dict:
    return {
        "restored": lambda v, w: [_ref(c, "payment", item, f"{w}[{i}]")
                                  for i, item in enumerate(c.items(v, w))],
        "undone_by": c.user,
        "undone_at": c.stamp,
    }


@_shape(limit=lambda c: 10_000)
def share_link_fields(c: _Check) -> dict:
    return {
        "id": lambda v, w: c.row_id("share link", v, w),
        "game": lambda v, w: None if v is None else _ref(c, "game", v, w),
        "token": _token(c, "share link"),
        "created_by": c.user,
        "created_at": c.stamp,
        "revoked_at": lambda v, w: c.stamp(v, w, null=True),
    }


@_shape(limit=lambda c: 10_000)
def report_link_fields(c: _Check) -> dict:
    return {
        "id": lambda v, w: c.row_id("report link", v, w),
        "game": lambda v, w: _ref(c, "game", v, w),
        "part": lambda v, w: c.whole(v, w, maximum=99),
        "player": lambda v, w: c.text(v, w, max_length=60),
        "token": _token(c, "report link"),
        "created_by": c.user,
        "created_at": c.stamp,
        "revoked_at": lambda v, w: c.stamp(v, w, null=True),
    }


@_shape(limit=lambda c: 100_000)
def report_fields(c: _Check) -> dict:
    def values(value: Any, at: str) -> None:
        if not isinstance(value, dict):
            c.problem(at, "a report's part must be a JSON object")
        else:
            c.json_tree(value, at, 3)

    return {
        "id": lambda v, w: c.row_id("report", v, w),
        "number": lambda v, w: c.whole(v, w, minimum=1),
        "table": lambda v, w: c.whole(v, w, minimum=1, maximum=99, null=True),
        "player": lambda v, w: c.text(v, w, max_length=60),
        "values": values,
        "reported_at": c.stamp,
        "replaces": lambda v, w: None if v is None else _ref(c, "report", v, w),
        "replaced_at": lambda v, w: c.stamp(v, w, null=True),
        "withdrawn_at": lambda v, w: c.stamp(v, w, null=True),
        "hand": lambda v, w: None if v is None else _ref(c, "hand", v, w),
    }


@_shape(limit=lambda c: 100_000)
def confirmation_fields(c: _Check) -> dict:
    return {
        "id": lambda v, w: c.row_id("confirmation", v, w),
        "hand": lambda v, w: _ref(c, "hand", v, w),
        "player": lambda v, w: c.text(v, w, max_length=60),
        "correct": c.flag,
        "answered_at": c.stamp,
    }
