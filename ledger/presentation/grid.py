"""A game sheet's shape as data (``SheetGrid``): its header groups, its columns (key,
headers, kind, the media each shows in), its totals blocks, composed once from the shape
flags the core declares for the game (``facts["shape"]``: games per column, lines per card
table, rounds, roles by hand, sitters) and the facts beside them (an up-card, who deals).
Nothing here asks which variant or which kind of sheet it is: each flag adds its columns,
so a variant that combines two shapes gets both.

Three media write the grid out and choose nothing of their own: the screen
(``SCREEN``: ``ledger/views/sheet_tables.py``, django-tables2), the spreadsheet download
(``FILE``: CSV and XLSX, same module) and the paper (``PAPER``: ``scoresheets/grid.py``).
Each column says in which of them it shows (the screen folds a hand's dealer, play and
lines into one "hand" cell, so those are the file's and the paper's; the ✎ is the
screen's), and how each of them reads its cell from a ``HandRow``: ``columns(medium)``
is what a medium writes, in its order. The screen's cells are made here too (HTML, made
once per row).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, pgettext

from .club import match_lines
from .columns import CAPIT_TOTALS, HAND_COLUMNS, ROLE_COLUMNS, TOTALS, hand_header, number_header
from .money import PLAIN_MINUS, format_money
from .reports import REPORTED_HEADER
from .rows import HandRow
from .streets import streets_block

SCREEN, FILE, PAPER = "screen", "file", "paper"
MEDIA = (SCREEN, FILE, PAPER)
#: A paper column's cell on a blank sheet, to be filled in by hand (``cells[BLANK]``).
BLANK = "blank"
_ALL = frozenset(MEDIA)
_FILE_PAPER = frozenset((FILE, PAPER))

#: The shape flags (``facts["shape"]``) and the class each gives a sheet (``.shape-games``
#: ...): the print stylesheet styles by these, never by a variant's name.
SHAPE_CLASSES = {"games_per_column": "shape-games", "lines_per_table": "shape-tables",
                 "rounds": "shape-rounds", "hand_roles": "shape-roles",
                 "sitters": "shape-sitters"}


@dataclass(frozen=True)
class GridColumn:
    """One column of the sheet. ``header``: the file's words (full, "Ann points");
    ``short``: the screen's and the paper's; ``who``: the player's (side's) key of a
    per-player column; ``css``: its classes by medium ("screen_th" for the screen's head);
    ``cells``: how each medium reads its value (``row`` a ``HandRow``; the screen's cell
    also gets the sheet's ``ScreenWords``; the paper's of a table game a ``TableLine``)."""

    key: str
    header: str
    short: str
    kind: str
    media: frozenset[str]
    cells: Mapping[str, Callable[..., Any]]
    who: str | None = None
    css: Mapping[str, str] = field(default_factory=dict)
    optional: bool = False   # the file writes it only when it has something (who reported)


@dataclass(frozen=True)
class GridGroup:
    """A header group: the hand's own columns, a game of Hollywood's, a player's, the end.
    ``label``: the paper's group header ("" none)."""

    key: str
    label: str
    columns: tuple[GridColumn, ...]


@dataclass(frozen=True)
class SheetGrid:
    groups: tuple[GridGroup, ...]
    shape: Mapping[str, bool]
    keys: tuple[str, ...]
    labels: tuple[str, ...]
    #: the end of the game, in blocks: "players" (a row per player, ``TOTALS``),
    #: "rounds" (CAP-IT's ``CAPIT_TOTALS``), "games" (a totals table per game, then the net)
    totals: tuple[str, ...] = ()

    @property
    def lines_per_table(self) -> bool:
        return bool(self.shape.get("lines_per_table"))

    @property
    def rounds(self) -> bool:
        return bool(self.shape.get("rounds"))

    @property
    def classes(self) -> str:
        """"shape-games", "shape-tables shape-sitters"...: the sheet's classes by shape."""
        return " ".join(css for flag, css in SHAPE_CLASSES.items() if self.shape.get(flag))

    def columns(self, medium: str) -> list[GridColumn]:
        return [column for _group, column in self.placed(medium)]

    def placed(self, medium: str) -> list[tuple[GridGroup, GridColumn]]:
        """(group, column) of every column ``medium`` shows, in its order."""
        return [(group, column) for group in self.groups for column in group.columns
                if medium in column.media]

    def header_groups(self, medium: str) -> list[tuple[str, int]]:
        """The groups as (label, span) over the columns ``medium`` shows."""
        spans = [(group.label, sum(medium in c.media for c in group.columns))
                 for group in self.groups]
        return [(label, span) for label, span in spans if span]


@dataclass(frozen=True)
class TotalsBlock:
    """A block of the end of the game, a row per player: ``spec`` its column specification
    (``TOTALS``, CAP-IT's ``CAPIT_TOTALS``), ``keys`` the columns the screen shows, ``css``
    their classes (a number's "num" unless said)."""

    key: str
    spec: Mapping[str, Any]
    keys: tuple[str, ...]
    css: Mapping[str, str]

    def css_of(self, key: str) -> str:
        return self.css.get(key, "num")


#: The totals blocks a grid names (``SheetGrid.totals``; "games" is a "players" block per
#: game, then the net).
TOTALS_BLOCKS = {
    "players": TotalsBlock("players", TOTALS, ("label", "hand_points", "hands_won", "box_bonus",
                                               "game_bonus", "final"),
                           {"label": "who", "final": "num total"}),
    "rounds": TotalsBlock("rounds", CAPIT_TOTALS, ("name", "final", "rounds_won", "pot_won"),
                          {"name": "who", "final": "num total"}),
}


def screen_totals(block: TotalsBlock, rows: list) -> list[list[tuple[str, Any]]]:
    """The screen's cells of a totals block, (class, value) a row: an empty value shows
    "—"; a player's final total is marked when it is a shutout."""
    out = []
    for row in rows:
        cells = []
        for key in block.keys:
            value = getattr(row, key)
            if key == "final" and block.key == "players":
                value = screen_final(row, value)
            elif value in (None, ""):
                value = "\u2014"
            cells.append((block.css_of(key), value))
        out.append(cells)
    return out


@dataclass(frozen=True)
class TableLine:
    """One card table's line of a hand on paper (``duel`` None: a hand without tables);
    ``first``: the hand's first line, which carries its number, note and scores."""

    duel: Any = None
    first: bool = True
    table: int = 0     # the card table's number (a blank sheet's line may have no duel)


@dataclass
class ScreenWords:
    """What the screen's cells of one sheet say, asked once per sheet (a long sheet has
    thousands of cells): ``fix_url`` with ``/0/`` where the hand's number goes."""

    fix_url: str | None = None
    dealt: str = ""
    fix: tuple[str, str] = ("", "")

    @classmethod
    def of(cls, fix_url: str | None) -> ScreenWords:
        return cls(fix_url=fix_url, dealt=gettext("%(name)s dealt"),
                   fix=(gettext("Fix hand %(n)s"), gettext("Fix this hand")))


# -- the screen's cells ---------------------------------------------------------------------

# The cells of a long sheet are many (300 hands, a cell per player): they are written with
# ``conditional_escape`` and joined, not through ``format_html`` for each one (the same
# escaping, a third of the time).
_e = conditional_escape


def _lines(lines: list[str]):
    return format_html_join("", '<span class="line">{}</span>', ((line,) for line in lines))


def screen_score(row: HandRow, key: str):
    """The running total, the hand's points under it."""
    running = row.running.get(key)
    if running is None:
        return ""
    points = row.points.get(key)
    if points:
        return mark_safe(f'<b>{_e(running)}</b><small class="plus">+{_e(points)}</small>')
    return mark_safe(f"<b>{_e(running)}</b>")


def _screen_left_score(row: HandRow, key: str):
    """A round's score with the cards left under it."""
    cell = screen_score(row, key)
    left = row.cards_left.get(key)
    return format_html('{}<span class="line">{}</span>', cell, left) if left else cell


def screen_hand(row: HandRow, words: ScreenWords):
    """The hand in words with its lines (who played whom, the tables, melds, who dealt)."""
    lines = list(row.lines)
    if row.dealer:
        lines.append((words.dealt or gettext("%(name)s dealt")) % {"name": row.dealer})
    text = row.text if not row.duels else ""
    return mark_safe(_e(text) + "".join(f'<span class="line">{_e(line)}</span>'
                                        for line in lines))


def screen_round(row: HandRow, words: ScreenWords | None = None):
    """A round's contract, with who dealt, who went out and the round's share of the pot
    beneath (folded in, so that four players' columns fit a phone)."""
    meta = " \u00b7 ".join(part for part in (
        gettext("%(name)s deals") % {"name": row.dealer} if row.dealer else "",
        row.went_out if row.played else "")
        if part)
    lines = [meta] if meta else []
    if row.shares:
        lines.append(gettext("share: %(shares)s") % {
            "shares": ", ".join(f"{n}\u00a0{a}" for n, a in row.shares.items())})
    return format_html("{}{}", row.contract, _lines(lines))


def _screen_games(games: tuple[int, ...], keys: tuple[str, ...]):
    def cell(row: HandRow, words: ScreenWords | None = None):
        """The games' running scores stacked, one line each ("G1 30 · 0", the game's short
        name in the table's language: "P1" in German), bold in the games the hand scored in;
        a phone's width holds them."""
        lines = []
        for game in games:
            running = row.column_running[game - 1] if len(row.column_running) >= game else {}
            value = " \u00b7 ".join(str(running.get(key, 0)) for key in keys)
            label = pgettext("game of cards, short", "G%(n)s") % {"n": game}
            template = '<span class="game hit">{} <b>{}</b></span>' if game in row.columns \
                else '<span class="game">{} {}</span>'
            lines.append(format_html(template, label, value))
        return format_html_join("", "{}", ((line,) for line in lines))
    return cell


def screen_round_number(row: HandRow, words: ScreenWords):
    """A round's number, a ✎ link to fix the round once it is played."""
    if not words.fix_url or not row.played:
        return row.number
    url = words.fix_url.replace("/0/", f"/{row.number}/")
    return format_html('<a class="fix fix-n" href="{}" aria-label="{}" '
                       'title="{}">{}<span aria-hidden="true">\u270e</span></a>',
                       url, gettext("Fix round %(n)s") % {"n": row.number},
                       gettext("Fix this round"), row.number)


def screen_fix(row: HandRow, words: ScreenWords):
    if not row.played:
        return ""
    label, title = words.fix if words.fix[0] else (gettext("Fix hand %(n)s"),
                                                   gettext("Fix this hand"))
    url = (words.fix_url or "").replace("/0/", f"/{row.number}/")
    return mark_safe(f'<a class="fix" href="{_e(url)}" aria-label="{_e(label % {"n": row.number})}"'
                     f' title="{_e(title)}">\u270e</a>')


def screen_final(row, value):
    """A player's final total at the end, marked when it is a shutout."""
    if row.shutout:
        return format_html('{}<small class="mark">{}</small>', value, gettext("shutout"))
    return value


# -- the file's and the paper's cells ---------------------------------------------------------

def _pts(value) -> str:
    return str(value) if value else ""


def _file_text(row: HandRow) -> str:
    if row.duels:
        text = " / ".join(f"T{d.table} {d.text}" + (f" \u00b7 {d.score}" if d.score else "")
                          for d in row.duels)
        return f"{text} \u00b7 {row.deal}" if row.deal else text
    return row.text


def _first(value: Callable[[HandRow], Any]) -> Callable[..., Any]:
    """A paper cell that only the hand's first line carries (its number, scores, note)."""
    return lambda row, line: value(row) if line.first else ""


def _of_duel(name: str) -> Callable[..., Any]:
    return lambda row, line: getattr(line.duel, name) if line.duel else ""


def _game_running(game: int, key: str) -> Callable[[HandRow], Any]:
    def value(row: HandRow):
        running = row.column_running[game - 1] if len(row.column_running) >= game else {}
        return running.get(key, "") if game in row.columns else ""
    return value


def _empty(row: HandRow, line: TableLine) -> str:
    return ""


def _as_text(value: Callable[[HandRow], Any]) -> Callable[[HandRow], str]:
    return lambda row: str(value(row))


# -- the grid ---------------------------------------------------------------------------------

def _column(key: str, media, cells: dict, *, header: str | None = None,
            short: str | None = None, kind: str | None = None, who: str | None = None,
            css: dict | None = None, optional: bool = False, per_line: bool = False,
            blank: Callable[..., Any] | None = None) -> GridColumn:
    """A column of ``HAND_COLUMNS``' ``key`` (its headers and kind unless given). The
    paper's cell is read on a hand's first line (``TableLine``) unless ``per_line``: a
    card table's own line (its players, dealer, play); ``blank``: its cell on a blank
    sheet (``row, line``; empty unless given)."""
    spec = HAND_COLUMNS.get(key)
    if PAPER in cells and not per_line:
        cells = {**cells, PAPER: _first(cells[PAPER])}
    if PAPER in cells:
        cells = {**cells, BLANK: blank or _empty}
    return GridColumn(key=key, header=header if header is not None else spec.header,
                      short=short if short is not None else spec.short,
                      kind=kind or spec.kind, media=frozenset(media), cells=cells, who=who,
                      css=css or {}, optional=optional)


def sheet_grid(layout) -> SheetGrid:
    """The grid of a game's sheet, from its ``Layout`` (``presentation.sheet``: the keys and
    their labels, the shape flags, the up-card, the roles, who deals), in the language in
    force."""
    shape = dict(layout.shape)
    games_flag, tables = shape.get("games_per_column"), shape.get("lines_per_table")
    rounds = shape.get("rounds")
    keys, labels = tuple(layout.keys), tuple(layout.labels)
    games = (1, 2, 3) if games_flag else ()
    versus = f" {pgettext('versus', 'v')} "

    def players(row: HandRow, line: TableLine) -> str:
        return versus.join(line.duel.players) if line.duel else ""

    hand: list[GridColumn] = [
        _column("number", MEDIA, {
            SCREEN: screen_round_number if rounds else (lambda row, words: row.number),
            FILE: lambda row: row.number, PAPER: lambda row: str(row.number)},
            blank=lambda row, line: str(row.number) if line.first else "",
            header=number_header(layout, short=False),
            short=number_header(layout, short=True),
            css={SCREEN: "num n", "screen_th": "num n", PAPER: "num"}),
        _column("hand", (SCREEN,), {SCREEN: screen_round if rounds else screen_hand},
                header=hand_header(layout), short=hand_header(layout), kind="text",
                css={SCREEN: "contract" if rounds else "hand"}),
    ]
    if rounds:  # the paper heads a round with its contract, the file after who dealt
        hand.append(_column("contract", (PAPER,), {PAPER: lambda row: row.contract},
                            css={PAPER: "contract"}, blank=lambda row, line: row.contract))
    if tables:
        hand += [_column("table", (PAPER,), {PAPER: lambda row, line: str(line.duel.table)
                                             if line.duel else ""}, css={PAPER: "num"},
                         per_line=True, blank=lambda row, line: str(line.table)),
                 _column("players", (PAPER,), {PAPER: players}, css={PAPER: "name players"},
                         per_line=True, blank=players)]
    paper_dealer = (PAPER,) if layout.dealer_column else ()
    dealer = _of_duel("dealer") if tables else (lambda row, line: row.dealer)
    hand.append(_column("dealer", (FILE, *paper_dealer), {
        FILE: lambda row: row.dealer, PAPER: dealer},
        css={PAPER: "name"}, per_line=True, blank=dealer))
    # without a column for who deals, the first role's does (in the box: "Box (deals)")
    hand += [_column(role, (PAPER,), {PAPER: lambda row, role=role: row.roles.get(role, "")},
                     header=ROLE_COLUMNS[role].header, short=ROLE_COLUMNS[role].short,
                     kind="name", css={PAPER: "name"},
                     blank=dealer if i == 0 and not layout.dealer_column else None)
             for i, role in enumerate(layout.roles)]
    if rounds:
        hand += [_column("contract", (FILE,), {FILE: lambda row: row.contract}),
                 _column("went_out", _FILE_PAPER, {
                     FILE: _file_text,
                     PAPER: lambda row: row.went_out if row.played else ""},
                     css={PAPER: "name"})]
    else:
        if layout.upcard:
            hand.append(_column("upcard", _FILE_PAPER, {FILE: lambda row: row.upcard,
                                                        PAPER: lambda row: row.upcard},
                                css={PAPER: "card"}))
        hand += [_column("text", _FILE_PAPER, {
                     FILE: _file_text, PAPER: _of_duel("text") if tables
                     else (lambda row, line: row.text)}, css={PAPER: "play"}, per_line=True),
                 _column("result", (FILE,), {FILE: lambda row: row.result})]
    if tables:
        hand.append(_column("table_score", (PAPER,), {PAPER: _of_duel("score")},
                            css={PAPER: "score"}, per_line=True))
    if games:
        hand.append(_column("score", (PAPER,), {PAPER: HAND_COLUMNS["score"].cell},
                            css={PAPER: "pts score"}))
    if shape.get("sitters") and not layout.roles:  # no roles column says who sits out
        hand.append(_column("note", (PAPER,), {
            PAPER: lambda row: row.note.split("; ") if row.note else ""}, css={PAPER: "note"}))
    groups = [GridGroup("hand", "", tuple(hand))]

    if games:  # the screen stacks the games in one column, the file and paper side by side
        groups.append(GridGroup("games", "", (_column(
            "games", (SCREEN,), {SCREEN: _screen_games(games, keys)},
            header=pgettext("games of cards", "Games"), short=pgettext("games of cards", "Games"),
            kind="total", css={SCREEN: "num games", "screen_th": "num"}),)))
        for game in games:
            groups.append(GridGroup(f"game:{game}", pgettext("game of cards", "Game %(n)s")
                                    % {"n": game}, tuple(
                _column("running", _FILE_PAPER, {
                    FILE: _game_running(game, key),
                    PAPER: _as_text(_game_running(game, key))},
                    header=pgettext("game of cards", "Game %(n)s %(player)s")
                    % {"n": game, "player": key}, short=key, who=key,
                    css={PAPER: "tot who col-start" if i == 0 else "tot who"})
                for i, key in enumerate(keys))))

    for key, label in zip(keys, labels, strict=True):
        player: list[GridColumn] = [] if games else [_column(
            "tally", (SCREEN,),
            {SCREEN: (lambda row, words, key=key: _screen_left_score(row, key)) if rounds
             else (lambda row, words, key=key: screen_score(row, key))},
            header=label, short=label, kind="total", who=key,
            css={SCREEN: "num score", "screen_th": "num"})]
        paper = () if games else (PAPER,)
        if rounds:  # paper writes the cards left over the points, the file apart
            player.append(_column(
                "cards_left", (FILE,), {FILE: lambda row, key=key: row.cards_left.get(key, "")},
                header=HAND_COLUMNS["cards_left"].label(who=label), who=key))
            def points_paper(row, key=key):
                points = str(row.points.get(key, ""))
                left = row.cards_left.get(key)
                return [left, points] if left else points
        else:
            def points_paper(row, key=key):
                return _pts(row.points.get(key))
        player += [
            _column("points", (FILE, *paper), {
                FILE: lambda row, key=key: row.points.get(key, "" if not row.scored else 0),
                PAPER: points_paper},
                header=HAND_COLUMNS["points"].label(who=label),
                short=HAND_COLUMNS["cards_left" if rounds else "points"].short, who=key,
                css={PAPER: "pts cards" if rounds else "pts"}),
            _column("running", (FILE, *paper), {
                FILE: lambda row, key=key: row.running.get(key, ""),
                PAPER: lambda row, key=key: str(row.running.get(key, ""))},
                header=HAND_COLUMNS["running"].label(who=label), who=key, css={PAPER: "tot"})]
        groups.append(GridGroup(f"player:{key}", label, tuple(player)))

    end: list[GridColumn] = []
    if rounds:
        end.append(_column("share", _FILE_PAPER, {
            FILE: lambda row: ", ".join(f"{n} {a}" for n, a in row.shares.items()),
            PAPER: lambda row: [f"{n} {amount}" for n, amount in row.share_numbers.items()]},
            css={PAPER: "share"}))
    else:
        end.append(_column("fix", (SCREEN,), {SCREEN: screen_fix}, header="", short="",
                           kind="text", css={SCREEN: "fixcell"}))
    end += [_column("void", (FILE,), {FILE: lambda row: row.void_note}),
            _column("reported", (FILE,), {}, header=gettext(REPORTED_HEADER),
                    short=gettext(REPORTED_HEADER), kind="text", optional=True)]
    groups.append(GridGroup("end", "", tuple(end)))
    totals = ("rounds",) if rounds else ("games",) if games else ("players",)
    return SheetGrid(groups=tuple(groups), shape=shape, keys=keys, labels=labels, totals=totals)


def file_end_lines(sheet) -> list[list]:
    """The file's lines after the hands (``sheet``: a ``GameSheet``): an empty line, the
    grid's totals blocks (each game's total and the net; CAP-IT's points; the final
    totals), then, once the game is over, the money and the payments (plain "-" signs:
    numbers a spreadsheet reads)."""
    def amount(value) -> str:
        return format_money(value, minus=PLAIN_MINUS, plain=True)

    final = TOTALS["final"].header
    lines: list[list] = [[]]
    blocks = sheet.grid.totals
    if "games" in blocks:
        for column in sheet.columns:
            lines.append([pgettext("game of cards", "Game %(n)s total") % {"n": column.number},
                          *(f"{t.label} {t.final}" for t in column.totals)])
        lines.append([gettext("Net"), *(f"{key} {value}" for key, value in sheet.net.items())])
    if "rounds" in blocks:
        lines.append([final, *(f"{t.name} {t.final}" for t in sheet.capit_totals)])
    if "players" in blocks and sheet.totals and not sheet.result.get("match"):
        lines.append([final, *(f"{t.label} {t.final}" for t in sheet.totals)])
    streets = streets_block(sheet.result)
    if streets:  # RULES 3.9: each street's totals and net, then the game points G
        for card in streets.cards:
            lines.append([card.title, *(f"{s.label} {s.final if card.complete else s.hand_points}"
                                        for s in card.sides),
                          *((f"{gettext('Net')} {card.winner_label} {card.net}",)
                            if card.complete else ())])
        lines.append([gettext("Game points G"), *(f"{g.label} {g.value}"
                                                  for g in streets.game_points)])
    for label, values, _kind in match_lines(sheet.result):  # RULES 3.10: hands won
        lines.append([label, *(f"{key} {value}"
                               for key, value in zip(sheet.result["totals"], values,
                                                     strict=True))])
    if sheet.ended:
        lines += [[gettext("Money"), money.name, amount(money.amount), sheet.money.currency]
                  for money in sheet.money.lines]
        lines += [[gettext("Payment"), payment.payer, payment.payee, amount(payment.amount)]
                  for payment in sheet.money.payments]
    return lines
