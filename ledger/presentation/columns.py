"""The columns of a game's sheet, specified once for every medium: the screen's
django-tables2 tables (``ledger/views/sheet_tables.py``), the CSV download (same module)
and the printed grid and totals (``scoresheets/grid.py``, ``scoresheets/selectors.py``).

A ``Column`` is (key, header, short, kind, cell): ``header`` is the full words (the CSV,
the paper's totals, wherever a column has room), ``short`` the form where space is tight
(the phone's sheet, the paper's narrow hand columns), ``kind`` what the cell holds (its
alignment and width on paper), ``cell`` how to read the value from the presentation's row
(a ``HandRow``, or a ``TotalsRow``; per-player columns get the player's key too). Each
medium chooses which columns it shows and how it writes an empty value; none of them
writes a header or reads a row field of its own.

The totals have one vocabulary: hand points, hands won, boxes, game bonus, shutout, final
total (``TOTALS``), in full words with short forms.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_noop


@dataclass(frozen=True)
class Column:
    key: str
    header: str
    short: str
    kind: str           # "number", "name", "text", "card", "points", "total", "money"
    cell: Callable[..., Any]

    def label(self, *, short: bool = False, who: str = "") -> str:
        """The header; a player's column is headed "<who> <header>" (the CSV)."""
        words = self.short if short else self.header
        return f"{who} {words}" if who else words


def _get(name: str, default: Any = "") -> Callable[..., Any]:
    return lambda row, key=None: getattr(row, name, default)


def _of(name: str, default: Any = "") -> Callable[..., Any]:
    """A per-player figure of a row: ``row.<name>[key]``."""
    return lambda row, key: getattr(row, name).get(key, default)


#: What a hand (a CAP-IT round) is called, in full and short: the number column's header.
HAND_NOUNS = {"hand": (gettext_noop("Hand"), "#"),
              "round": (gettext_noop("Round"), gettext_noop("Rd"))}


def hand_noun(layout) -> str:
    """"round" for CAP-IT's sheet, "hand" for every other (the core's ``hand_noun``)."""
    return layout.noun


#: Every column of a hand's row, by key.
HAND_COLUMNS: dict[str, Column] = {column.key: column for column in (
    Column("number", gettext_noop("Hand"), "#", "number", _get("number")),
    Column("table", gettext_noop("Table"), gettext_noop("Tbl"), "number", _get("table")),
    Column("players", gettext_noop("Players"), gettext_noop("Players"), "name", _get("players")),
    Column("dealer", gettext_noop("Dealer"), gettext_noop("Dealer"), "name", _get("dealer")),
    Column("upcard", gettext_noop("Up-card"), gettext_noop("Up"), "card", _get("upcard")),
    Column("contract", gettext_noop("Contract"), gettext_noop("Contract"),
           "text", _get("contract")),
    Column("went_out", gettext_noop("Went out"), gettext_noop("Went out"),
           "name", _get("went_out")),
    Column("text", gettext_noop("Play"), gettext_noop("Play"), "text", _get("text")),
    Column("result", gettext_noop("Result"), gettext_noop("Result"), "text", _get("result")),
    Column("table_score", gettext_noop("Table score"), gettext_noop("Table score"),
           "text", _get("score")),
    Column("score", gettext_noop("Score"), gettext_noop("Score"), "points",
           lambda row, key=None: f"{row.winner} {row.winner_points}" if row.winner else ""),
    Column("note", gettext_noop("Sits out / change"), gettext_noop("Sits out / change"),
           "text", _get("note")),
    Column("share", gettext_noop("Share"), gettext_noop("Share"), "money",
           lambda row, key=None: [f"{n} {a}" for n, a in row.shares.items()]),
    Column("void", gettext_noop("Voided"), gettext_noop("Voided"), "text", _get("void_note")),
    # per player (``cell(row, key)``)
    Column("points", gettext_noop("points"), gettext_noop("pts"), "points", _of("points", None)),
    Column("running", gettext_noop("total"), gettext_noop("total"), "total", _of("running")),
    Column("cards_left", gettext_noop("cards left"), gettext_noop("left · pts"),
           "points", _of("cards_left")),
)}

#: The roles a three-handed sheet prints per hand (``row.roles``), by role.
ROLE_COLUMNS: dict[str, Column] = {column.key: column for column in (
    Column("box", gettext_noop("Box (deals)"), gettext_noop("Box (deals)"), "name", _of("roles")),
    Column("captain", gettext_noop("Captain"), gettext_noop("Captain"), "name", _of("roles")),
    Column("sits_out", gettext_noop("Sits out"), gettext_noop("Sits out"), "name", _of("roles")),
)}

#: The end of a gin-family game (and of each of Hollywood's games), one row per player:
#: the one totals vocabulary.
TOTALS: dict[str, Column] = {column.key: column for column in (
    Column("label", "", "", "name", _get("label")),
    Column("hand_points", gettext_noop("Hand points"), gettext_noop("Pts"),
           "points", _get("hand_points", 0)),
    Column("hands_won", gettext_noop("Hands won"), gettext_noop("Won"),
           "number", _get("hands_won", 0)),
    Column("box_bonus", gettext_noop("Boxes"), gettext_noop("Box"), "points", _get("box_bonus", 0)),
    Column("game_bonus", gettext_noop("Game bonus"), "Game", "points", _get("game_bonus", 0)),
    Column("shutout", gettext_noop("Shutout"), gettext_noop("Shutout"),
           "text", _get("shutout_text")),
    Column("final", gettext_noop("Final total"), gettext_noop("Total"), "total", _get("final", 0)),
)}

#: CAP-IT's end: points (lowest wins), rounds won, the pot's shares.
CAPIT_TOTALS: dict[str, Column] = {column.key: column for column in (
    Column("name", "", "", "name", _get("name")),
    Column("final", gettext_noop("Points"), gettext_noop("Points"), "total", _get("final", 0)),
    Column("rounds_won", gettext_noop("Rounds won"), gettext_noop("Rounds won"),
           "number", _get("rounds_won", 0)),
    Column("pot_won", gettext_noop("From the pot"), gettext_noop("From the pot"),
           "money", _get("pot_won")),
)}


def number_header(layout, *, short: bool) -> str:
    """The number column's header: "Hand"/"#", CAP-IT's "Round"/"Rd"."""
    full, brief = HAND_NOUNS[hand_noun(layout)]
    return brief if short else full


def hand_header(layout) -> str:
    """The screen's compound hand column: "Hand", CAP-IT's "Round"."""
    return HAND_NOUNS[hand_noun(layout)][0]
