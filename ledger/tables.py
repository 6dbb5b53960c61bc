"""The live score sheet as django-tables2 tables.

Every number in these rows is read from the scoring core's result (``selectors.game_result``
or the result a service returned); nothing is added up here. The rows are plain dicts so that
one ``SheetTable`` serves every variant: the columns are made per game (one per player or
side, Hollywood's three columns, CAP-IT's round grid).

On screen each player's cell shows the running total with the hand's points under it; the CSV
export (``TableExport``) gets them as separate plain columns (``pts_*``/``run_*``, invisible
on screen) so a spreadsheet can check every total.
"""

from __future__ import annotations

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django_tables2 import utils as tables_utils

from .cardtext import card_text
from .rules.capit import CONTRACTS

# django-tables2 calls inspect.signature() on the render function of every cell (and on the
# row_attrs callables of every row): a third of the time of a 300-hand sheet. A function's
# signature never changes, so remember it per function (bound methods by their function).
_uncached_signature = tables_utils.signature
_SIGNATURES: dict = {}


def _cached_signature(fn):
    key = getattr(fn, "__func__", fn)
    try:
        return _SIGNATURES[key]
    except (KeyError, TypeError):
        result = _uncached_signature(fn)
        try:
            _SIGNATURES[key] = result
        except TypeError:  # unhashable callable
            pass
        return result


if tables_utils.signature is _uncached_signature:
    tables_utils.signature = _cached_signature

ROLE_WORDS = {"box": "in the box", "captain": "captain", "sits_out": "sits out",
              "opponent": "opponent", "player": "plays"}


def names(value) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return " & ".join(value)
    return str(value)


def duel_text(hand: dict, *, with_opponent: bool = False) -> str:
    """How a gin-family hand went, from the result's fields (what was entered + outcome).

    ``with_opponent`` names the opponent before his count (tables of side games).
    """
    result = hand.get("result")
    if result == "draw":
        return "Draw"
    knocker = hand.get("knocker")
    deadwood = hand.get("deadwood") or {}
    k = deadwood.get(knocker)
    opponent = next((name for name in deadwood if name != knocker), None)
    o = deadwood.get(opponent)
    against = f"{opponent} {o}" if with_opponent else f"{o}"
    if result == "gin":
        return f"{knocker} gin v {against}"
    if result == "big_gin":
        return f"{knocker} big gin v {against}"
    if result == "undercut":
        return f"{hand.get('winner')} undercuts: {knocker} {k} v {against}"
    return f"{knocker} knocks {k} v {against}"


def keys_of(result: dict) -> list[str]:
    """Whose scores the sheet shows: players, or sides in side games."""
    return list(result["totals"])


class ScoreColumn(tables.Column):
    """Running total, with this hand's points beneath (screen only)."""

    def __init__(self, index: int, **kwargs):
        self.index = index
        super().__init__(empty_values=(), orderable=False, exclude_from_export=True,
                         attrs={"td": {"class": "num score"}, "th": {"class": "num"}},
                         **kwargs)

    def render(self, record):
        running = record.get(f"run_{self.index}")
        if running is None:
            return ""
        points = record.get(f"pts_{self.index}")
        if points:
            return format_html('<b>{}</b><small class="plus">+{}</small>', running, points)
        return format_html("<b>{}</b>", running)


class SheetTable(tables.Table):
    """Hands of a game with running totals. Build with ``sheet_table(result)``.

    On a phone every column counts: who dealt and (CAP-IT) who went out are shown under the
    hand's description or the contract; as separate columns they are exported only.
    """

    number = tables.Column("#", orderable=False, attrs={"td": {"class": "num n"}})
    dealer = tables.Column("Deals", orderable=False, visible=False)
    hand = tables.Column("Hand", orderable=False, empty_values=(),
                         attrs={"td": {"class": "hand"}})

    class Meta:
        orderable = False
        template_name = "ledger/sheet_table.html"
        attrs = {"class": "sheet"}
        row_attrs = {"id": lambda record: f"hand-{record['number']}",
                     "class": lambda record: record.get("css", "")}

    def render_hand(self, value, record):
        lines = list(record.get("lines") or [])
        if record.get("dealer"):
            lines.append(f"{record['dealer']} dealt")
        body = format_html_join("", '<span class="line">{}</span>', ((line,) for line in lines))
        return format_html("{}{}", value, body) if value else body

    def value_hand(self, value, record):
        lines = record.get("lines") or []
        return " | ".join(([value] if value else []) + list(lines))


class ContractColumn(tables.Column):
    """CAP-IT: the round's contract, with its dealer and who went out beneath."""

    def render(self, value, record):
        meta = [part for part in (f"{record['dealer']} deals" if record.get("dealer") else "",
                                  record.get("hand", "")) if part]
        if not meta:
            return value
        return format_html('{}<span class="line">{}</span>', value, " · ".join(meta))


def _score_cells(row: dict, keys: list[str], hand: dict) -> None:
    row["played"] = True
    for i, key in enumerate(keys):
        row[f"pts_{i}"] = (hand.get("points") or {}).get(key, 0)
        row[f"run_{i}"] = (hand.get("running") or {}).get(key, 0)


def _rows_duels(result: dict, keys: list[str]) -> list[dict]:
    rows = []
    variant = result["variant"]
    for hand in result["hands"]:
        row = {"number": hand["number"], "dealer": names(hand.get("dealer"))}
        if "tables" in hand:
            lines = []
            for table in hand["tables"]:
                won = table.get("points", {}).get(table.get("winner"), 0)
                gain = f" +{won}" if won else ""
                lines.append(f"T{table['table']} {duel_text(table, with_opponent=True)}{gain}")
            sub = hand.get("substitution")
            if sub:
                lines.append(f"{sub['in']} in for {sub['out']} at table {sub['table']}")
            row["hand"] = ""
            row["lines"] = lines
        else:
            text = duel_text(hand)
            if variant == "oklahoma" and hand.get("upcard"):
                text = f"{card_text(hand['upcard'])} · {text}"
            roles = hand.get("roles") or {}
            if variant == "box":
                box = next((n for n, r in roles.items() if r == "box"), "")
                other = next((n for n, r in roles.items() if r == "captain"), "")
                row["lines"] = [f"{box} (box) v {other}"]
            elif variant == "captain":
                cap = next((n for n, r in roles.items() if r == "captain"), "")
                opp = next((n for n, r in roles.items() if r == "opponent"), "")
                row["lines"] = [f"{cap} (captain) v {opp}"]
            row["hand"] = text
        _score_cells(row, keys, hand)
        if variant == "hollywood":
            for c, column in enumerate(hand.get("column_running") or [], start=1):
                row[f"col_{c}"] = " · ".join(str(column.get(k, 0)) for k in keys)
                row[f"colhit_{c}"] = c in (hand.get("columns") or [])
        rows.append(row)
    return rows


def _rows_capit(result: dict, keys: list[str]) -> list[dict]:
    rows = []
    played = {hand["number"]: hand for hand in result["hands"]}
    for number, contract in enumerate(CONTRACTS, start=1):
        hand = played.get(number)
        row = {"number": number, "contract": contract, "dealer": "", "hand": ""}
        if hand is not None:
            row["dealer"] = names(hand.get("dealer"))
            row["hand"] = f"{hand['went_out']} out" if hand.get("went_out") else "Stock ran out"
            shares = hand.get("shares") or {}
            row["share"] = ", ".join(f"{n} {amount}" for n, amount in shares.items())
            _score_cells(row, keys, hand)
        else:
            row["css"] = "future"
            if result.get("next", {}).get("round") == number:
                row["dealer"] = names(result["next"].get("dealer"))
                row["css"] = "future upnext"
        rows.append(row)
    return rows


class FixColumn(tables.Column):
    """A 44px "✎" link to correct the hand (the scorekeeper's sheet only)."""

    def __init__(self, pattern: str, **kwargs):
        self.pattern = pattern  # a URL with /0/ where the hand number goes
        super().__init__(verbose_name="", empty_values=(), orderable=False,
                         exclude_from_export=True, attrs={"td": {"class": "fixcell"}}, **kwargs)

    def render(self, record):
        if not record.get("played"):
            return ""
        url = self.pattern.replace("/0/", f"/{record['number']}/")
        return format_html('<a class="fix" href="{}" aria-label="Fix hand {}" '
                           'title="Fix this hand">✎</a>', url, record["number"])


class HollywoodColumn(tables.Column):
    def __init__(self, c: int, **kwargs):
        self.c = c
        super().__init__(empty_values=(), orderable=False,
                         attrs={"td": {"class": "num col"}, "th": {"class": "num"}}, **kwargs)

    def render(self, record):
        value = record.get(f"col_{self.c}", "")
        if record.get(f"colhit_{self.c}"):
            return format_html("<b>{}</b>", value)
        return value


def sheet_table(result: dict, *, fix_url: str | None = None) -> SheetTable:
    """The sheet of ``result`` (the core's result of a game).

    ``fix_url`` is a URL pattern with ``0`` for the hand number ("/games/3/hands/0/fix/");
    without it (a shared, read-only sheet) there is no Fix column.
    """
    keys = keys_of(result)
    capit = result["variant"] == "cap-it"
    rows = _rows_capit(result, keys) if capit else _rows_duels(result, keys)
    extra: list[tuple[str, tables.Column]] = []
    if capit:
        extra.append(("contract", ContractColumn("Round", orderable=False,
                                                 attrs={"td": {"class": "contract"}})))
        extra.append(("hand", tables.Column("Went out", orderable=False, visible=False)))
    for i, key in enumerate(keys):
        extra.append((f"k{i}", ScoreColumn(i, verbose_name=key)))
    if result["variant"] == "hollywood":
        header = " · ".join(keys)
        for c in (1, 2, 3):
            extra.append((f"col{c}", HollywoodColumn(c, verbose_name=f"Game {c} ({header})")))
    if capit:
        extra.append(("share", tables.Column("Share", orderable=False, default="")))
    for i, key in enumerate(keys):
        extra.append((f"pts_{i}", tables.Column(f"{key} points", visible=False, default="")))
        extra.append((f"run_{i}", tables.Column(f"{key} total", visible=False, default="")))
    if fix_url:
        extra.append(("fix", FixColumn(fix_url)))
    sequence = ["number", "contract", "dealer", "hand"] if capit else ["number", "hand", "dealer"]
    table = SheetTable(rows, extra_columns=extra, sequence=[*sequence, "..."])
    return table


class TotalsTable(tables.Table):
    """The end of the game: one row per player (or side) from the result's ``totals``."""

    name = tables.Column("", orderable=False, attrs={"td": {"class": "who"}})
    hand_points = tables.Column("Pts", orderable=False, attrs={"td": {"class": "num"}})
    hands_won = tables.Column("Won", orderable=False, attrs={"td": {"class": "num"}})
    box_bonus = tables.Column("Box", orderable=False, attrs={"td": {"class": "num"}})
    game_bonus = tables.Column("Game", orderable=False, attrs={"td": {"class": "num"}})
    final = tables.Column("Total", orderable=False, attrs={"td": {"class": "num total"}})

    class Meta:
        orderable = False
        template_name = "ledger/sheet_table.html"
        attrs = {"class": "sheet totals"}

    def render_final(self, value, record):
        if record.get("shutout"):
            return format_html('{}<small class="mark">shutout</small>', value)
        return value


class CapitTotalsTable(tables.Table):
    name = tables.Column("", orderable=False, attrs={"td": {"class": "who"}})
    final = tables.Column("Points", orderable=False, attrs={"td": {"class": "num total"}})
    hands_won = tables.Column("Rounds won", orderable=False, attrs={"td": {"class": "num"}})
    pot_won = tables.Column("From the pot", orderable=False, attrs={"td": {"class": "num"}})

    class Meta:
        orderable = False
        template_name = "ledger/sheet_table.html"
        attrs = {"class": "sheet totals"}


def totals_table(result: dict) -> tables.Table:
    rows = [{"name": key, **values} for key, values in result["totals"].items()]
    if result["variant"] == "cap-it":
        return CapitTotalsTable(rows)
    table = TotalsTable(rows)
    return table


def hollywood_columns(result: dict) -> list[dict]:
    """Hollywood's three games for the template: each with its totals rows."""
    out = []
    for column in result.get("columns") or []:
        out.append({
            "number": column["number"], "complete": column.get("complete"),
            "winner": column.get("winner"), "weight": column.get("weight", 1),
            "table": TotalsTable([{"name": k, **v} for k, v in column["totals"].items()]),
        })
    return out


def fix_pattern(game_pk: int) -> str:
    return reverse("ledger:hand_correct", kwargs={"pk": game_pk, "number": 0})
