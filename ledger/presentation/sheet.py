"""A whole game as people read it: ``game_sheet`` gathers the column structure of its
variant, its hand rows (live and voided), its totals, its scores, its money and where it
stands, and its shape as a grid (``GameSheet.grid``, ``presentation.grid``). The screen
(django-tables2), the CSV/XLSX, the printed sheet and the share page all write out this one
``GameSheet`` and its grid; none of them builds rows, columns or words of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from django.utils.translation import gettext

from ledger.models import Game, GameStatus
from ledger.selectors.games import game_record, game_seats, score
from ledger.selectors.hands import game_history

from . import money as money_
from .catalog import CAPIT_CONTRACTS, contract_text
from .grid import SheetGrid, sheet_grid
from .rows import Duel, HandRow, all_rows, hand_row
from .words import key_label, names, status_line, unnamed_sides, variant_title, winner_text


@dataclass
class Layout:
    """What a game's sheet is drawn from: whose scores and how they are headed, and the
    shape the core declares (``shape``: ``facts["shape"]``, the flags
    ``presentation.grid.sheet_grid`` composes the columns from), with the facts beside it
    that add a column (an up-card, the roles by hand, whether who deals is written)."""

    keys: list[str]                     # whose scores: players, or sides
    labels: list[str]                   # the keys as headed ("Captains")
    shape: dict[str, bool] = field(default_factory=dict)  # the core's sheet shape flags
    upcard: bool = False                # an up-card each hand
    roles: tuple[str, ...] = ()         # the roles written each hand ("box", "sits_out"...)
    players: list[str] = field(default_factory=list)
    noun: str = "hand"                  # what one hand is called: "hand", CAP-IT's "round"
    dealer_column: bool = True          # who deals changes (not in the box: the box deals)

    @property
    def pairs(self) -> list[tuple[str, str]]:
        return list(zip(self.keys, self.labels, strict=True))


def side_label(result: dict, key: str) -> str:
    """A column of scores as ``key_label`` heads it, in the language in force where the
    words are the app's (captain play's "Captains", "Opponents", "Captain"); a player's or
    a side's own name as it was typed."""
    label = key_label(result, key)
    if unnamed_sides(result) and key in (result.get("sides") or {}):
        return gettext(label)
    return label


def layout_of(result: dict) -> Layout:
    """What the sheet is drawn from, as the core's facts of the game say (its ``shape``)."""
    keys = list(result["totals"])
    facts = result["facts"]
    return Layout(keys=keys, labels=[side_label(result, key) for key in keys],
                  shape=dict(facts["shape"]), upcard=facts["upcard"],
                  roles=tuple(facts["hand_roles"]), players=list(result["players"]),
                  noun=facts["hand_noun"].lower(),
                  dealer_column=facts["dealer_rule"] or facts["table_game"])


@dataclass
class GameSheet:
    game: Game
    record: dict
    result: dict
    title: str
    layout: Layout
    rows: list[HandRow]
    scores: list[money_.Score]
    totals: list[money_.TotalsRow]
    columns: list[money_.GameColumn]
    capit_totals: list[money_.CapitTotal]
    money: money_.Money
    status: str
    winner: str
    ended: bool
    abandoned: bool

    @property
    def variant(self) -> str:
        return self.result["variant"]

    @cached_property
    def grid(self) -> SheetGrid:
        """The sheet's shape (``presentation.grid``), in the language in force when first
        read: every medium writes this."""
        return sheet_grid(self.layout)

    @property
    def live_rows(self) -> list[HandRow]:
        return [row for row in self.rows if not row.void]

    @property
    def voided_rows(self) -> list[HandRow]:
        return [row for row in self.rows if row.void]

    @property
    def net(self) -> dict[str, int]:
        """Hollywood: each player's net points over the three games (the core's)."""
        return dict(self.result.get("net") or {})


def game_sheet(game: Game, *, record: dict | None = None, result: dict | None = None,
               history=None, owner: bool = True, last: int | None = None) -> GameSheet:
    """The sheet of ``game``; ``record``, ``result`` and ``history`` (every Hand row, voided
    ones too) are read when not given. ``owner`` False (a share page) leaves out who
    corrected a hand: account names stay the table's business. ``last``: the rows of the
    last ``last`` hands alone, no voided ones (a Save's answer sends the new row; the rest
    of the sheet is on the page already); not for CAP-IT, whose five rounds go together."""
    seats = None
    if record is None and history is None and last is None:
        # every Hand row and the seats, once: the live rows (in number order) are the
        # record's hands
        history, seats = game_history(game), game_seats(game)
        record = game_record(game, seats=seats, hands=[hand.entry for hand in history
                                                       if hand.voided_at is None])
    record = game_record(game) if record is None else record
    result = score(record) if result is None else result
    if last is not None and not result["facts"]["rounds"]:
        rows = [hand_row(hand, result) for hand in result["hands"][-last:]] if last else []
    else:
        history = game_history(game) if history is None else history
        rows = all_rows(game, result, record, history, owner=owner, contracts=CAPIT_CONTRACTS,
                        seats=seats)
    abandoned = game.status == GameStatus.ABANDONED or bool(result.get("abandoned"))
    return GameSheet(
        game=game, record=record, result=result,
        title=variant_title(game.variant, result.get("preset")),
        layout=layout_of(result),
        rows=rows,
        scores=money_.scores(result), totals=money_.totals(result),
        columns=money_.game_columns(result), capit_totals=money_.capit_totals(result),
        money=money_.game_money(result, record), status=status_line(result),
        winner=winner_text(result),
        ended=bool(result.get("complete")) or abandoned, abandoned=abandoned,
    )


def blank_rows(result: dict, count: int) -> list[HandRow]:
    """Empty rows for a sheet to fill in by hand: the first dealer (table games: the first
    seating, a dealer at each table) on the first; CAP-IT's contracts on its five."""
    nxt = result.get("next") or {}
    dealers = nxt.get("dealer")
    rows = []
    for number in range(1, count + 1):
        row = HandRow(number=number, played=False)
        if result["facts"]["rounds"] and number <= len(CAPIT_CONTRACTS):
            row.contract = contract_text(CAPIT_CONTRACTS[number - 1])
        if number == 1:
            row.dealer = names(dealers)
            for i, table in enumerate(nxt.get("tables") or [], start=1):
                pair = table.get("players", []) if isinstance(table, dict) else table
                dealer = table.get("dealer") if isinstance(table, dict) else (
                    dealers[i - 1] if isinstance(dealers, list) and len(dealers) >= i else "")
                row.duels.append(Duel(table=i, players=list(pair), dealer=dealer or "",
                                      text="", score=""))
        rows.append(row)
    return rows
