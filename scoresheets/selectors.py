"""Context builders: a game's result (and its voided hands) as the rows of a score sheet.

Every number printed comes from the scoring core's result (``ledger.rules.score_record``)
or from stored rows (stakes, settlement payments); nothing here adds or multiplies
points or money. A voided hand is shown with the points the core gives it when it is
scored in its place (the live hands before it, then it), struck through, with the reason.

The builders return plain dicts and lists (``Table``: header groups, columns, row groups)
that the templates lay out; the bench renders the same rows as a plain table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import mark_safe

from ledger import rules as core
from ledger import selectors as ledger_selectors
from ledger.cardtext import hand_layout_lines
from ledger.models import Game, GameStatus, Session, Variant

MINUS = "\u2212"
VARIANT_NAMES = dict(Variant.choices)
RESULT_WORDS = {
    "knock": "Knock", "undercut": "Undercut", "gin": "Gin", "big_gin": "Big gin",
    "draw": "Draw", "round": "Round", "tables": "Tables",
}
PLAY_WORDS = {"knock": "knocks", "undercut": "knocks", "gin": "gins", "big_gin": "big gin"}
ROLE_WORDS = {
    "box": "in the box", "captain": "captain", "sits_out": "sits out",
    "opponent": "opponent", "player": "plays",
}
SHUTOUT_WORDS = {
    "double_total": "winner's total doubled",
    "game_bonus_double": "game bonus doubled",
    "double_hand_points": "hand points doubled",
    "none": "none",
}
SHUTOUT_SHORT = {
    "double_total": "yes, total \u00d72",
    "game_bonus_double": "yes, bonus \u00d72",
    "double_hand_points": "yes, points \u00d72",
    "none": "none",
}
SUITS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
CAPIT_CONTRACTS = (
    "two sets of 3", "a set of 3 and a run of 4", "two runs of 4", "three sets of 3",
    "a run of 3 and a run of 7",
)
TABLE_GAMES = {"partnership"}


# -- small formatting helpers ----------------------------------------------------------------

def signed(amount: str) -> str:
    """A money string from the core with an explicit sign: '2.02' -> '+2.02', '-2.02' ->
    '−2.02' (a real minus sign), zero unsigned."""
    if amount.startswith("-"):
        return MINUS + amount[1:]
    if amount.strip("0.") == "":
        return amount
    return "+" + amount


def names(items) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def upcard_text(upcard: str | None) -> str:
    if not upcard:
        return ""
    return upcard[:-1] + SUITS.get(upcard[-1].upper(), upcard[-1])


def is_table_game(result: dict) -> bool:
    return result["variant"] in TABLE_GAMES or (
        result["variant"] == "captain" and len(result["players"]) > 3)


def fmt_when(moment: datetime | None) -> str:
    if moment is None:
        return ""
    return timezone.localtime(moment).strftime("%d %b %Y %H:%M")


# -- table model -----------------------------------------------------------------------------

def _cell_html(cell) -> str:
    if isinstance(cell, list):
        return mark_safe("<br>".join(escape(line or "") for line in cell))
    return escape(cell)


#: Relative widths of the hand table's columns, by the column's last known css class.
COLUMN_WEIGHTS = {
    "num": 3.2, "name": 6.5, "players": 10, "card": 3.5, "play": 14, "dw": 7.6, "res": 7.6,
    "pts": 4.2, "tot": 4.6, "contract": 12, "share": 7.5, "score": 6.5, "note": 13,
    "cards": 7,
}


@dataclass
class Row:
    cells: list  # str, or list[str] for a cell of several lines (table games)
    void: bool = False
    note: str = ""
    cls: str = ""
    melds: list[str] = field(default_factory=list)  # a hand entered with its cards


@dataclass
class Table:
    columns: list[tuple[str, str]]  # (label, css class)
    groups: list[tuple[str, int]] = field(default_factory=list)  # top header: (label, span)
    bodies: list[list[Row]] = field(default_factory=list)  # runs of rows; void runs alone
    cls: str = ""
    live_rows: int = 0

    @property
    def melds_at(self) -> int:
        """Where a hand's meld lines start: under its play."""
        return next((i for i, (_, cls) in enumerate(self.columns) if "play" in cls.split()), 1)

    @property
    def melds_span(self) -> int:
        return len(self.columns) - self.melds_at

    @property
    def widths(self) -> list[str]:
        """Column widths in % from the columns' kinds: the print stylesheet lays the hand
        table out with ``table-layout: fixed``, which does not measure every cell (on a
        300-hand game that is most of WeasyPrint's work)."""
        weights = [next((COLUMN_WEIGHTS[c] for c in reversed(cls.split()) if c in COLUMN_WEIGHTS),
                        6) for _, cls in self.columns]
        total = sum(weights)
        return [f"{100 * weight / total:.2f}%" for weight in weights]

    def add(self, row: Row) -> None:
        """Append a row; its cells become (css class, safe HTML) pairs, lines joined by
        <br>, so the template does no per-cell logic (a 300-hand sheet has 5,000 cells).
        A voided row, and a hand with meld lines, gets a body of its own, which the print
        stylesheet keeps on one page."""
        row.cells = [
            (cls, _cell_html(cell)) for (_, cls), cell in zip(self.columns, row.cells, strict=True)
        ]
        if not row.void:
            self.live_rows += 1
            if self.live_rows % 2 == 0:  # zebra rows: a class is cheaper to match
                row.cls = f"{row.cls} even".lstrip()  # than :nth-child on every cell
        last = self.bodies[-1][-1] if self.bodies else None
        if row.void or row.melds or last is None or last.void or last.melds:
            self.bodies.append([row])
        else:
            self.bodies[-1].append(row)

    @property
    def rows(self) -> list[Row]:
        return [row for body in self.bodies for row in body]


# -- header: stakes, rules, players ----------------------------------------------------------

def stakes_lines(record: dict, result: dict) -> list[str]:
    stakes = record.get("stakes")
    if not stakes:
        return ["No stakes: this game is played for nothing."]
    currency = stakes.get("currency", "")
    lines = []
    if "ante" in stakes:
        lines.append(f"Ante {stakes['ante']} {currency} each")
        if result.get("pot"):
            lines.append(f"Pot {result['pot']} {currency}")
        if result.get("round_share"):
            lines.append(f"Round share {result['round_share']} {currency}")
    if "rate" in stakes:
        per = stakes.get("per_points", 1)
        unit = "a point" if per == 1 else f"per {per} points"
        lines.append(f"{stakes['rate']} {currency} {unit}")
    for name, stake in (stakes.get("players") or {}).items():
        lines.append(f"{name} plays at {stake} {currency}")
    return lines


def rule_lines(result: dict) -> list[tuple[str, str]]:
    """The settings that decide this game's scores, in words."""
    rules = result["rules"]
    variant = result["variant"]
    out: list[tuple[str, str]] = []
    if variant == "cap-it":
        share = rules["capit_round_share"]
        out.append(("Rounds", "five; lowest wins"))
        out.append(("Ace", f"{rules['capit_ace_value']} points"))
        out.append(("Round share", share + (" of the pot" if share.endswith("%") else "")))
        out.append(("Round winner", "lowest in the round" if rules["capit_round_winner"] ==
                    "round" else "lowest cumulative"))
        return out
    out.append(("Game to", f"{rules['target']} points"))
    if variant == "oklahoma":
        out.append(("Knock limit", "the up-card's value"))
        out.append(("Ace up", "gin only" if rules["oklahoma_ace"] == "gin_only" else "1"))
        out.append(("Spade up-card", "doubles the hand" if rules["spade_double"] else "no"))
    else:
        out.append(("Knock limit", str(rules["knock_limit"])))
    out.append(("Gin bonus", str(rules["gin_bonus"])))
    out.append(("Undercut bonus", str(rules["undercut_bonus"])))
    out.append(("Tie on a knock", "undercut" if rules["undercut_on_tie"] else "knocker, 0"))
    out.append(("Big gin", str(rules["big_gin_bonus"]) if rules["big_gin_bonus"] else "off"))
    out.append(("Box bonus", f"{rules['box_bonus']} a hand" if rules["box_bonus"] else "off"))
    out.append(("Game bonus", str(rules["game_bonus"]) if rules["game_bonus"] else "off"))
    out.append(("Shutout", SHUTOUT_WORDS[rules["shutout_mode"]]))
    if variant not in ("box",) and not is_table_game(result):
        out.append(("Deal", "winner deals" if rules["dealer_rule"] == "winner_deals"
                    else "alternate"))
    if variant == "hollywood":
        out.append(("Third column", "counts double" if rules["hollywood_third_double"]
                    else "counts single"))
    if variant == "box":
        out.append(("Money", "each pair settles" if rules["three_hand_money"] == "pairwise"
                    else "box v each"))
    if variant in ("captain", "partnership"):
        out.append(("Unequal stakes", "lower side prevails"))
        out.append(("Division", rules["balance_division"]))
    return out


def pairs(items: list) -> list[list]:
    """Items two by two, for the two-column rules panel."""
    return [items[i:i + 2] for i in range(0, len(items), 2)]


def cast_lines(record: dict, result: dict) -> list[tuple[str, str]]:
    """Who plays, the sides and the roles at the start."""
    variant = result["variant"]
    setup = record.get("setup") or {}
    players = result["players"]
    first = result["hands"][0] if result["hands"] else result["next"]
    roles = first.get("roles") or {}
    out: list[tuple[str, str]] = []
    if variant == "box":
        out.append(("Cut order", ", ".join(players)))
        for name in players:
            out.append((name, ROLE_WORDS.get(roles.get(name), "")))
    elif variant == "captain" and len(players) == 3:
        out.append(("Captain", players[0]))
        out.append(("Opponents", f"{players[1]} and {players[2]} (in cut order)"))
    elif variant == "captain":
        out.append(("Captains", names(setup.get("captains", []))))
        out.append(("Opponents", names(setup.get("opponents", []))))
        out.append(("Sits out first", setup.get("sitter", "")))
    elif variant == "partnership":
        for side, members in (setup.get("sides") or {}).items():
            out.append((side, names(members)))
    else:
        out.append(("Players" if variant != "cap-it" else "Seats", ", ".join(players)))
    dealer = setup.get("first_dealer") or first.get("dealer")
    if dealer:
        out.append(("First dealer", dealer if isinstance(dealer, str) else ", ".join(dealer)))
    return out


# -- hand rows -------------------------------------------------------------------------------

def _play(hand: dict) -> tuple[str, str]:
    """('Ann knocks', '5 v 17') for a gin hand; ('', '') for a draw."""
    if hand["result"] == "draw" or "knocker" not in hand:
        return "", ""
    knocker = hand["knocker"]
    deadwood = hand.get("deadwood") or {}
    other = [name for name in deadwood if name != knocker]
    words = f"{knocker} {PLAY_WORDS.get(hand['result'], 'knocks')}"
    if other:
        words += f" v {other[0]}"
        return words, f"{deadwood.get(knocker, '')} v {deadwood.get(other[0], '')}"
    return words, str(deadwood.get(knocker, ""))


def _pts(value) -> str:
    return str(value) if value else ""


def _dealer(value) -> str:
    if isinstance(value, list):
        return ", ".join(value)
    return value or ""


def hands_table(record: dict, result: dict, voided: list[tuple[int, dict | None, str]]) -> Table:
    """The hand-by-hand table of a game; ``voided`` holds (number, hand result or None,
    note) for every voided hand, shown before the live hand of the same number."""
    variant = result["variant"]
    if variant == "cap-it":
        builder = _capit_table
    elif variant == "hollywood":
        builder = _hollywood_table
    elif is_table_game(result):
        builder = _tables_table
    else:
        builder = _gin_table
    table, make_row = builder(record, result)
    by_number: dict[int, list] = {}
    for number, hand, note in voided:
        by_number.setdefault(number, []).append((hand, note))
    live = {hand["number"]: hand for hand in result["hands"]}
    for number in sorted(set(live) | set(by_number)):
        for hand, note in by_number.get(number, []):
            if hand is None:
                cells = [str(number)] + ["" for _ in table.columns[1:]]
                cells[1] = "(not scored)"
            else:
                cells = make_row(hand)
            table.add(Row(cells, void=True, note=note))
        if number in live:
            table.add(Row(make_row(live[number]), melds=hand_layout_lines(live[number])))
    return table


def _side_keys(result: dict) -> list[str]:
    return list(result["totals"])


def _gin_table(record: dict, result: dict):
    """Two-hand gin, Oklahoma, in the box and 3-player captain play."""
    variant = result["variant"]
    keys = _side_keys(result)
    columns = [("#", "num"), ("Dealer", "name")]
    groups = [("", 2)]
    box = variant == "box"
    captain = variant == "captain"
    if box:
        columns += [("Box", "name"), ("Captain", "name"), ("Sits out", "name")]
        groups[0] = ("", 5)
    if captain:
        columns += [("Sits out", "name")]
        groups[0] = ("", 3)
    okla = variant == "oklahoma"
    if okla:
        columns.append(("Up", "card"))
        groups[0] = (groups[0][0], groups[0][1] + 1)
    columns += [("Play", "play"), ("Deadwood", "dw"), ("Result", "res")]
    groups.append(("", 3))
    for key in keys:
        columns += [("pts", "pts"), ("total", "tot")]
        groups.append((key if not captain else key.capitalize(), 2))

    def make_row(hand: dict) -> list:
        roles = hand.get("roles") or {}
        cells = [str(hand["number"]), _dealer(hand.get("dealer"))]
        if box:
            for role in ("box", "captain", "sits_out"):
                cells.append(", ".join(n for n, r in roles.items() if r == role))
        if captain:
            cells.append(", ".join(n for n, r in roles.items() if r == "sits_out"))
        if okla:
            cells.append(upcard_text(hand.get("upcard")))
        play, deadwood = _play(hand)
        word = RESULT_WORDS.get(hand["result"], hand["result"])
        if okla and hand.get("upcard", "").upper().endswith("S") and \
                result["rules"]["spade_double"] and hand["result"] != "draw":
            word += " \u00d72"
        cells += [play, deadwood, word]
        for key in keys:
            cells += [_pts(hand["points"].get(key)), str(hand["running"].get(key, ""))]
        return cells

    table = Table(columns=columns, groups=groups, cls=f"hands v-{variant}")
    return table, make_row


def _hollywood_table(record: dict, result: dict):
    keys = _side_keys(result)
    columns = [("#", "num"), ("Dealer", "name"), ("Play", "play"), ("Deadwood", "dw"),
               ("Result", "res"), ("Score", "pts")]
    groups = [("", 6)]
    for column in (1, 2, 3):
        groups.append((f"Game {column}", len(keys)))
        columns += [(key, "tot col-start" if i == 0 else "tot") for i, key in enumerate(keys)]

    def make_row(hand: dict) -> list:
        play, deadwood = _play(hand)
        winner = hand.get("winner")
        score = f"{winner} {hand['points'][winner]}" if winner else ""
        cells = [str(hand["number"]), _dealer(hand.get("dealer")), play, deadwood,
                 RESULT_WORDS.get(hand["result"], hand["result"]), score]
        entered = set(hand.get("columns") or [])
        running = hand.get("column_running") or [{}, {}, {}]
        for column in (1, 2, 3):
            for key in keys:
                cells.append(str(running[column - 1].get(key, "")) if column in entered else "")
        return cells

    return Table(columns=columns, groups=groups, cls="hands v-hollywood"), make_row


def _tables_table(record: dict, result: dict):
    """Partnership and 5/7-player captain play: one line per table inside each hand row."""
    keys = _side_keys(result)
    captain = result["variant"] == "captain"
    columns = [("#", "num"), ("Tbl", "num"), ("Players", "name players"), ("Dealer", "name"),
               ("Play", "play"), ("Deadwood", "dw"), ("Table score", "score")]
    groups = [("", 7)]
    if captain:
        columns.append(("Sits out / change", "note"))
        groups[0] = ("", 8)
    for key in keys:
        columns += [("pts", "pts"), ("total", "tot")]
        groups.append((key.capitalize() if captain else key, 2))

    def make_row(hand: dict) -> list:
        tables = hand.get("tables") or []
        lines: list[list[str]] = [[] for _ in range(6)]
        for table in tables:
            play, deadwood = _play(table)
            if table["result"] == "draw":
                play = "Draw"
            winner = table.get("winner")
            lines[0].append(str(table["table"]))
            lines[1].append(" v ".join(table["players"]))
            lines[2].append(table.get("dealer") or "")
            lines[3].append(play if table["result"] != "undercut" else play + ", undercut")
            lines[4].append(deadwood)
            lines[5].append(f"{winner} {table['points'][winner]}" if winner else "")
        cells: list = [str(hand["number"])] + lines
        if captain:
            roles = hand.get("roles") or {}
            note = [", ".join(n for n, r in roles.items() if r == "sits_out") + " out"]
            sub = hand.get("substitution")
            if sub:
                note.append(f"{sub['in']} in for {sub['out']} (table {sub['table']})")
            cells.append(note)
        for key in keys:
            cells += [_pts(hand["points"].get(key)), str(hand["running"].get(key, ""))]
        return cells

    return Table(columns=columns, groups=groups, cls=f"hands tables v-{result['variant']}"), \
        make_row


def _capit_table(record: dict, result: dict):
    players = result["players"]
    columns = [("Rd", "num"), ("Contract", "contract"), ("Dealer", "name"),
               ("Went out", "name")]
    groups = [("", 4)]
    for name in players:
        columns += [("left \u00b7 pts", "pts cards"), ("total", "tot")]
        groups.append((name, 2))
    columns.append(("Share", "share"))
    groups.append(("", 1))
    entries = record.get("hands") or []

    def make_row(hand: dict, entry: dict | None = None) -> list:
        number = hand["number"]
        if entry is None and number <= len(entries):
            entry = entries[number - 1]
        cards = (entry or {}).get("cards") or {}
        cells: list = [str(number), hand.get("contract", ""), _dealer(hand.get("dealer")),
                       hand.get("went_out") or "stock out"]
        for name in players:
            left = cards.get(name)
            points = str(hand["points"].get(name, ""))
            cells.append([left, points] if left else points)
            cells.append(str(hand["running"].get(name, "")))
        shares = hand.get("shares") or {}
        cells.append([f"{n} {amount}" for n, amount in shares.items()])
        return cells

    return Table(columns=columns, groups=groups, cls="hands v-cap-it"), make_row


# -- totals ----------------------------------------------------------------------------------

def totals_rows(result: dict, totals: dict, rules: dict, *, compact: bool = False
                ) -> list[tuple[str, list[str]]]:
    """Rows of the end-of-game block for a gin-family game, or (``compact``: the shutout
    in a few words, the rules panel says the rest) one of Hollywood's three columns."""
    shutout = (SHUTOUT_SHORT if compact else
               {mode: "yes: " + words for mode, words in SHUTOUT_WORDS.items()})
    keys = list(totals)
    box_bonus = rules.get("box_bonus")

    def boxes(t):
        if not box_bonus or not t["box_bonus"]:  # off, or not counted yet (game open)
            return f"{t['hands_won']} won"
        return f"{t['hands_won']} \u00d7 {box_bonus} = {t['box_bonus']}"

    rows = [
        ("Hand points", [str(totals[k]["hand_points"]) for k in keys]),
        ("Boxes", [boxes(totals[k]) for k in keys]),
        ("Game bonus", [str(totals[k]["game_bonus"]) if totals[k]["game_bonus"] else "\u2013"
                        for k in keys]),
        ("Shutout", [shutout[rules["shutout_mode"]] if totals[k]["shutout"] else "\u2013"
                     for k in keys]),
        ("Final total", [str(totals[k]["final"]) for k in keys]),
    ]
    return rows


def status_line(result: dict) -> str:
    winner = result.get("winner")
    if result.get("abandoned"):
        return ("Abandoned before the target: settled on hand points only "
                "(no boxes, game bonus or shutout).")
    if not result.get("complete"):
        return "In progress: no money changes hands until the game ends."
    if isinstance(winner, list):
        return f"Tie for the game: {names(winner)}."
    if result["variant"] == "captain" and winner in ("captains", "opponents"):
        return f"The {winner} win the game."
    if winner in (result.get("sides") or {}):
        return f"{winner} win the game."
    return f"{winner} wins the game."


def money_block(result: dict, record: dict) -> dict:
    currency = result.get("currency") or (record.get("stakes") or {}).get("currency", "")
    sides = result.get("sides") or {}
    side_of = {member: side for side, members in sides.items() for member in members}
    stakes = record.get("stakes") or {}
    player_stakes = stakes.get("players") or {}
    rows = []
    for name in result["players"]:
        rows.append({
            "name": name,
            "side": side_of.get(name, ""),
            "stake": player_stakes.get(name, stakes.get("rate", "")),
            "amount": signed(result["money"][name]),
            "negative": result["money"][name].startswith("-"),
        })
    payments = [f"{p['from']} pays {p['to']} {p['amount']} {currency}"
                for p in result.get("payments") or []]
    return {"currency": currency, "rows": rows, "payments": payments,
            "show_stake": "rate" in stakes}


# -- whole documents -------------------------------------------------------------------------

def _voided_hands(game: Game, record: dict) -> list[tuple[int, dict | None, str]]:
    """Each voided hand scored in its place: the live hands before it, then it."""
    out = []
    history = ledger_selectors.game_history(game)
    for hand in history:
        if hand.voided_at is None:
            continue
        replacement = getattr(hand, "replaced_by", None)  # None for an undo
        attempt = dict(record, hands=record["hands"][: hand.number - 1] + [hand.entry],
                       abandoned=False)
        try:
            scored = core.score_record(attempt)["hands"][-1]
        except core.RecordError:
            scored = None
        who = ledger_selectors.person_name(hand.voided_by) if hand.voided_by_id else ""
        kind = "Corrected" if replacement is not None else "Undone"
        note = f"{kind}: {hand.void_reason}"
        if who:
            note += f" \u2014 {who}"
        note += f", {fmt_when(hand.voided_at)}"
        out.append((hand.number, scored, note))
    return out


def game_title(game: Game, result: dict) -> str:
    name = VARIANT_NAMES.get(game.variant, game.variant)
    if result.get("preset") and game.variant != "cap-it":
        name += f" ({result['preset']})"
    return name


def document_head(session: Session, kind: str, subtitle: str) -> dict:
    table = session.table
    return {
        "club": table.name,
        "kind": kind,
        "subtitle": subtitle,
        "date": session.date.strftime("%A %d %B %Y"),
        "short_date": session.date.isoformat(),
        "place": session.place,
        "printed": timezone.localtime().strftime("%d %b %Y %H:%M"),
        "paper_size": table.paper_size,
    }


def _sheet_context(game: Game, record: dict, result: dict, title: str, head: dict) -> dict:
    """What a game sheet and a blank sheet both print at the top and the bottom."""
    rules = rule_lines(result)
    return {
        "head": head,
        "game": game,
        "title": title,
        "variant": result["variant"],
        "record": record,
        "result": result,
        "stakes": stakes_lines(record, result),
        "rules": rules,
        "rule_pairs": pairs(rules),
        "cast": cast_lines(record, result),
        "keys": _side_keys(result),
        "signers": result["players"],
    }


def game_sheet_context(game: Game) -> dict:
    """Everything the game score sheet prints."""
    record = ledger_selectors.game_record(game)
    result = core.score_record(record)
    voided = _voided_hands(game, record)
    session = game.session
    title = game_title(game, result)
    head = document_head(session, "Score sheet", f"Game {game.sequence}: {title}")
    context = _sheet_context(game, record, result, title, head)
    context.update({
        "hands": hands_table(record, result, voided),
        "corrections": len(voided),
        "status": status_line(result),
        "money": money_block(result, record),
    })
    if result["variant"] == "hollywood":
        context["columns"] = [
            {"number": column["number"],
             "rows": totals_rows(result, column["totals"], result["rules"], compact=True),
             "winner": column.get("winner"),
             "complete": column.get("complete"),
             "weight": column.get("weight", 1)}
            for column in result.get("columns") or []
        ]
        context["net"] = {name: signed(str(value)) for name, value in
                          (result.get("net") or {}).items()}
    elif result["variant"] == "cap-it":
        context["capit"] = [
            {"name": name, "final": t["final"], "rounds_won": t["hands_won"],
             "pot_won": t.get("pot_won", ""), "money": signed(result["money"][name])}
            for name, t in result["totals"].items()
        ]
    else:
        context["totals"] = totals_rows(result, result["totals"], result["rules"])
    return context


BLANK_ROWS = {"cap-it": 5}


def blank_sheet_context(game: Game, rows: int | None = None, record: dict | None = None
                        ) -> dict:
    """A sheet for a game about to start: players, rules and stakes, and empty rows.
    ``record`` is given for a game that is not stored (scoresheets.blank)."""
    if record is None:
        record = ledger_selectors.game_record(game, hands=[], abandoned=False)
    result = core.score_record(record)
    title = game_title(game, result)
    head = document_head(game.session, "Blank score sheet", f"Game {game.sequence}: {title}")
    table, _ = {
        "cap-it": _capit_table, "hollywood": _hollywood_table,
    }.get(result["variant"], _tables_table if is_table_game(result) else _gin_table)(
        record, result)
    count = rows or BLANK_ROWS.get(result["variant"], 30 if not is_table_game(result) else 16)
    first_dealer = _dealer(result["next"].get("dealer"))
    seating = result["next"].get("tables") or []
    for number in range(1, count + 1):
        cells: list = [str(number)] + ["" for _ in table.columns[1:]]
        if result["variant"] == "cap-it":
            cells[1] = CAPIT_CONTRACTS[number - 1] if number <= 5 else ""
            if number == 1:
                cells[2] = first_dealer
        elif number == 1 and len(cells) > 1:
            cells[1] = first_dealer
            if is_table_game(result):
                cells[2] = [" v ".join(pair) for pair in seating]
                cells[3] = ""
        if is_table_game(result):
            cells[1] = [str(i) for i in range(1, len(seating) + 1)]
        table.add(Row(cells, cls="blank"))
    context = _sheet_context(game, record, result, title, head)
    context.update({
        "hands": table,
        "currency": (record.get("stakes") or {}).get("currency", game.currency),
        "blank_rows": ["Hand points", "Boxes", "Game bonus", "Shutout", "Final total"],
        "blank": True,
    })
    return context


def session_report_context(session: Session,
                           progress: Callable[[int, int], None] | None = None) -> dict:
    """The evening: every game summarised, each player's net, the payments to make."""
    games = ledger_selectors.session_games(session)
    players = [p.name for p in ledger_selectors.session_players(session, games)]
    summaries = []
    for index, game in enumerate(games, start=1):
        record = ledger_selectors.game_record(game)
        result = core.score_record(record)
        keys = _side_keys(result)
        summaries.append({
            "game": game,
            "title": game_title(game, result),
            "players": result["players"],
            "sides": result.get("sides") or {},
            "hands": len(result["hands"]),
            "finals": [(key, result["totals"][key]["final"]) for key in keys],
            "status": status_line(result),
            "status_word": GameStatus(game.status).label,
            "money": {name: signed(amount) for name, amount in result["money"].items()},
            "payments": money_block(result, record)["payments"],
            "stakes": ", ".join(stakes_lines(record, result)),
        })
        if progress is not None:
            progress(index, len(games))
    nets = ledger_selectors.session_nets(session, games)
    currency = session.currency
    settlement = ledger_selectors.session_settlement(session)
    if settlement is not None:
        net_units = {name: int(units) for name, units in settlement.nets.items()}
        payments = [
            {"from": p.payer.name, "to": p.payee.name,
             "amount": core.format_minor(p.amount_minor, settlement.currency),
             "paid": p.is_paid, "paid_at": fmt_when(p.paid_at)}
            for p in settlement.payments.all()
        ]
        settled = True
    else:
        net_units = nets
        payments = [
            {"from": p.payer, "to": p.payee,
             "amount": core.format_minor(p.units, currency), "paid": False, "paid_at": ""}
            for p in core.fewest_payments(net_units)
        ]
        settled = False
    net_rows = [
        {"name": name, "amount": signed(core.format_minor(units, currency)),
         "negative": units < 0}
        for name, units in net_units.items()
    ]
    head = document_head(session, "Session report", f"{len(games)} games")
    return {
        "head": head,
        "session": session,
        "games": summaries,
        "players": players,
        "nets": net_rows,
        "currency": currency,
        "payments": payments,
        "settled": settled,
        "settled_at": fmt_when(settlement.settled_at) if settlement else "",
        "signers": players,
    }
