"""The columns of a game's sheet, specified once for every medium: their words and kinds.
``presentation.grid`` places them in a game's sheet (which columns, in which groups, in
which media) and the screen's django-tables2 tables (``ledger/views/sheet_tables.py``), the
CSV/XLSX download (same module) and the printed grid and totals (``scoresheets/grid.py``,
``scoresheets/selectors.py``) write that grid out.

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

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy


@dataclass(frozen=True)
class Column:
    key: str
    header: str         # marked for translation (gettext_lazy), read in the language in force
    short: str
    kind: str           # "number", "name", "text", "card", "points", "total", "money"
    cell: Callable[..., Any]
    #: the cell in words, where a medium has room for them (the paper's totals); None: the
    #: value as it is
    words: Callable[..., str] | None = None

    def in_words(self, row) -> str:
        """The cell of ``row`` as a medium with room writes it (``words``, else the value)."""
        return self.words(row) if self.words is not None else str(self.cell(row))

    def __getattribute__(self, name: str) -> Any:
        """``header`` and ``short`` are read as plain text in the language in force (the
        screen's, or the table's for its paper and files), never as a lazy string."""
        value = object.__getattribute__(self, name)
        return str(value) if name in ("header", "short") else value

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
HAND_NOUNS = {"hand": (_("Hand"), "#"),
              "round": (_("Round"), pgettext_lazy("short for round", "Rd"))}


def hand_noun(layout) -> str:
    """"round" for CAP-IT's sheet, "hand" for every other (the core's ``hand_noun``)."""
    return layout.noun


#: Every column of a hand's row, by key.
HAND_COLUMNS: dict[str, Column] = {column.key: column for column in (
    Column("number", _("Hand"), "#", "number", _get("number")),
    Column("table", pgettext_lazy("card table", "Table"), pgettext_lazy("card table", "Tbl"),
           "number", _get("table")),
    Column("players", _("Players"), _("Players"), "name", _get("players")),
    Column("dealer", _("Dealer"), _("Dealer"), "name", _get("dealer")),
    Column("upcard", _("Up-card"), _("Up"), "card", _get("upcard")),
    Column("contract", _("Contract"), _("Contract"), "text", _get("contract")),
    Column("went_out", _("Went out"), _("Went out"), "name", _get("went_out")),
    Column("text", pgettext_lazy("what a hand was", "Play"),
           pgettext_lazy("what a hand was", "Play"), "text", _get("text")),
    Column("result", _("Result"), _("Result"), "text", _get("result")),
    Column("table_score", _("Table score"), _("Table score"), "text", _get("score")),
    Column("score", _("Score"), _("Score"), "points",
           lambda row, key=None: f"{row.winner} {row.winner_points}" if row.winner else ""),
    Column("note", _("Sits out / change"), _("Sits out / change"), "text", _get("note")),
    Column("share", pgettext_lazy("share of the pot", "Share"),
           pgettext_lazy("share of the pot", "Share"), "money",
           lambda row, key=None: [f"{n} {a}" for n, a in row.shares.items()]),
    Column("void", _("Voided"), _("Voided"), "text", _get("void_note")),
    # per player (``cell(row, key)``)
    Column("points", _("points"), _("pts"), "points", _of("points", None)),
    Column("running", _("total"), _("total"), "total", _of("running")),
    Column("cards_left", _("cards left"), _("left · pts"), "points", _of("cards_left")),
)}

#: The roles a three-handed sheet prints per hand (``row.roles``), by role.
ROLE_COLUMNS: dict[str, Column] = {column.key: column for column in (
    Column("box", _("Box (deals)"), _("Box (deals)"), "name", _of("roles")),
    Column("captain", _("Captain"), _("Captain"), "name", _of("roles")),
    Column("sits_out", _("Sits out"), _("Sits out"), "name", _of("roles")),
)}

#: The end of a gin-family game (and of each of Hollywood's games), one row per player:
#: the one totals vocabulary.
TOTALS: dict[str, Column] = {column.key: column for column in (
    Column("label", "", "", "name", _get("label")),
    Column("hand_points", _("Hand points"), _("Pts"), "points", _get("hand_points", 0)),
    Column("hands_won", _("Hands won"), _("Won"), "number", _get("hands_won", 0)),
    # in words: "4 × 25 = 100", or "4 won" where boxes score nothing
    Column("box_bonus", _("Boxes"), _("Box"), "points", _get("box_bonus", 0),
           lambda row: row.boxes if row.box_bonus else ngettext(
               "%(n)s won", "%(n)s won", row.hands_won) % {"n": row.hands_won}),
    Column("game_bonus", _("Game bonus"), pgettext_lazy("game bonus", "Game"), "points",
           _get("game_bonus", 0), lambda row: str(row.game_bonus or "\u2013")),
    Column("shutout", _("Shutout"), _("Shutout"), "text", _get("shutout_text")),
    Column("final", _("Final total"), _("Total"), "total", _get("final", 0)),
)}

#: CAP-IT's end: points (lowest wins), rounds won, the pot's shares.
CAPIT_TOTALS: dict[str, Column] = {column.key: column for column in (
    Column("name", "", "", "name", _get("name")),
    Column("final", _("Points"), _("Points"), "total", _get("final", 0)),
    Column("rounds_won", _("Rounds won"), _("Rounds won"), "number", _get("rounds_won", 0)),
    Column("pot_won", _("From the pot"), _("From the pot"), "money", _get("pot_won")),
)}


def hands_count(noun: str, number: int) -> str:
    """``number`` hands as the screens count them: "7 hands", CAP-IT's "5 rounds"."""
    if noun.lower() == "round":
        return ngettext("%(n)s round", "%(n)s rounds", number) % {"n": number}
    return ngettext("%(n)s hand", "%(n)s hands", number) % {"n": number}


def number_header(layout, *, short: bool) -> str:
    """The number column's header: "Hand"/"#", CAP-IT's "Round"/"Rd"."""
    full, brief = HAND_NOUNS[hand_noun(layout)]
    return str(brief if short else full)


def hand_header(layout) -> str:
    """The screen's compound hand column: "Hand", CAP-IT's "Round"."""
    return str(HAND_NOUNS[hand_noun(layout)][0])
