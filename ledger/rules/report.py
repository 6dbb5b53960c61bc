"""A report from one card table's phone (issue 23): one table's part of the next hand of a
table game (captain play for 5 and 7, partnership gin), or one player's part of the next
CAP-IT round, checked as the core checks a hand, before it reaches the scorekeeper.

``report_parts`` says which parts a game's next hand has (from the result's ``facts`` and
``next``); ``check_report`` returns the core's problems of a part as data (the same codes
and words as a whole hand refused: a knock over the limit, a gin with deadwood, a card in
both hands, a count that cards cannot make). Pure: no Django, no database.
"""

from __future__ import annotations

from .capit import _read_round, card_values, reachable_points
from .cards import capit_points
from .hand import read_gin_hand, score_gin_hand
from .problems import At, Problem, table_at

__all__ = ["check_report", "confirm_players", "part_reported", "report_parts",
           "report_points", "reported_table", "round_end_reported"]


def report_parts(result: dict) -> dict:
    """The parts of the next hand that can be reported from the tables' phones:
    ``{"kind": "tables", "number": n, "tables": [[a, b], ...]}`` for a table game,
    ``{"kind": "players", "number": n, "players": [...]}`` for CAP-IT's rounds, or
    ``{"kind": None}`` for a game whose hand is played at one table, or that takes no
    more hands."""
    facts = result["facts"]
    nxt = result.get("next") or {}
    number = len(result["hands"]) + 1
    if not facts.get("accepts_hands", True):
        return {"kind": None, "number": number}
    if facts["rounds"]:
        return {"kind": "players", "number": number, "players": list(result["players"])}
    if facts["table_game"] and isinstance(nxt.get("tables"), list):
        tables = [list(t["players"] if isinstance(t, dict) else t) for t in nxt["tables"]]
        return {"kind": "tables", "number": number, "tables": tables}
    return {"kind": None, "number": number}


def part_reported(parts: dict, *, table: int | None = None) -> bool:
    """Whether the next hand (``report_parts``) has the part a link reports: card table
    ``table`` (1-based) of a table game, or with ``table`` None each player's own points of
    a CAP-IT round."""
    if table is None:
        return parts.get("kind") == "players"
    return parts.get("kind") == "tables" and 1 <= table <= len(parts["tables"])


def check_report(result: dict, *, table: int | None = None, player: str | None = None,
                 part) -> list[Problem]:
    """The core's problems of ``part`` reported for ``table`` (1-based) or by ``player``
    (CAP-IT) as the next hand of the game whose result is ``result``; [] when the core
    would take it.

    A table's part is the record's table object (``{"knocker": "Ann", "deadwood": {...}}``,
    ``{"draw": true}``, with ``cards`` and ``gin``/``big_gin`` as the record writes them).
    A CAP-IT player's part is the round object as the record writes it, for that player
    alone: ``{"went_out": "Ann" or None, "points": {"Ann": 25}}`` (or ``"cards"``)."""
    parts = report_parts(result)
    number = parts["number"]
    problems: list[Problem] = []
    if parts["kind"] == "tables":
        tables = parts["tables"]
        if table is None or not 1 <= table <= len(tables):
            return [At(number).problem("tables_invalid",
                                       f"{len(tables)} tables are playing, not table {table}",
                                       field="tables")]
        where = table_at(number, table)
        hand = read_gin_hand(part, where, problems)
        if hand is None:
            return problems
        pair = tuple(tables[table - 1])
        score_gin_hand(hand, pair, where, problems, result["rules"],
                       describe=f"table {table} is {pair[0]} against {pair[1]}")
        return problems
    if parts["kind"] == "players":
        players = parts["players"]
        where = At(number, round=number)
        if player not in players:
            return [where.problem("round_player_unknown",
                                  f"{player!r} is not a player of this game", field="points",
                                  player=player if isinstance(player, str) else None)]
        if not isinstance(part, dict):
            return [where.problem("hand_not_object", "must be an object")]
        went_out = part.get("went_out")
        if went_out not in (None, player):
            return [where.problem("went_out_unknown", f"{player} reports his own part: "
                                  f"whether he went out, not whether {went_out!r} did",
                                  path="went_out", field="went_out")]
        raw: dict = {"went_out": went_out}
        for field in ("cards", "points"):
            given = part.get(field)
            if given is None:
                continue
            if not isinstance(given, dict) or set(given) != {player}:
                return [where.problem("round_player_unknown",
                                      f"{player} reports his own {field} only",
                                      path=field, field=field, player=player)]
            raw[field] = given
        if "cards" not in raw and "points" not in raw and went_out == player:
            raw["points"] = {player: 0}
        ace = result["rules"]["capit_ace_value"]
        _read_round(raw, players, ace, card_values(ace), reachable_points(ace), where,
                    problems)
        # the others' parts are theirs to report
        return [p for p in problems
                if p.code != "round_player_missing" and p.player in (None, player)]
    return [At(number).problem("refused", "this game's hands are not reported by table")]


def confirm_players(result: dict) -> list[str]:
    """The players of a two-hand game, either of whom may confirm each saved hand on his
    phone (a game of more players, or played at several tables: [])."""
    facts = result["facts"]
    players = list(result["players"])
    if facts["rounds"] or facts["table_game"] or len(players) != 2:
        return []
    return players


def report_points(result: dict, *, player: str, part: dict) -> int | None:
    """The points of a CAP-IT player's part that ``check_report`` took: its ``points``, or
    what its ``cards`` are worth by the game's rules (0 for the one who went out); None
    when the part gives neither or the core refuses it."""
    if check_report(result, player=player, part=part):
        return None
    if part.get("went_out") == player:
        return 0
    given = part.get("points") or {}
    if player in given:
        return given[player]
    cards = (part.get("cards") or {}).get(player)
    if cards is None:
        return None
    return capit_points(cards, result["rules"]["capit_ace_value"])


def reported_table(part, rules: dict) -> dict | None:
    """One table's reported part (the record's table object) scored by itself, as the core
    scores a table of a hand: ``{"result": "knock" | "undercut" | "gin" | "big_gin",
    "knocker", "deadwood", "winner", "points"}`` (the counts worked out when the table gave
    its cards), or ``{"result": "draw", ...}``; None when the core would not score it.
    ``rules``: the game's settings (``result["rules"]``). So "who reported what" says a
    gin the way the sheet does ("Ann gin v Bob 30"), never as a knock of 0."""
    problems: list[Problem] = []
    where = At(0)
    hand = read_gin_hand(part, where, problems)
    if hand is None or problems:
        return None
    if hand.draw:
        return {"result": "draw", "knocker": None, "deadwood": {}, "winner": None,
                "points": 0}
    named = [name for name in (hand.deadwood or hand.cards or {}) if name != hand.knocker]
    if len(named) != 1:
        return None
    outcome = score_gin_hand(hand, (hand.knocker, named[0]), where, problems, rules)
    if outcome is None or problems:
        return None
    return {"result": outcome.result, "knocker": outcome.knocker,
            "deadwood": dict(outcome.deadwood), "winner": outcome.winner,
            "points": outcome.points}


def round_end_reported(players: list[str], said: dict) -> dict:
    """How a CAP-IT round ended by its players' own reports (RULES §3.8: one player went
    out, or the stock ran out and nobody did). ``said``: each player who reported, and
    whom his report says went out (himself, or None). Returns ``{"state": ...,
    "players": [...]}``:

    - ``"out"``: one player says he went out (``players``: him);
    - ``"conflict"``: two or more say they went out (``players``: them, in seat order);
      only one can have, the scorekeeper asks the table;
    - ``"stock"``: every player reported and none went out: the stock ran out;
    - ``"open"``: nobody says he went out and some have not reported yet."""
    out = [name for name in players if name in said and said[name] == name]
    if len(out) > 1:
        return {"state": "conflict", "players": out}
    if out:
        return {"state": "out", "players": out}
    if players and all(name in said for name in players):
        return {"state": "stock", "players": []}
    return {"state": "open", "players": []}


def round_went_out(end: dict) -> str | None:
    """The player who went out by ``round_end_reported``'s ``end``, while only one says so;
    None otherwise."""
    return end["players"][0] if end["state"] == "out" else None


def round_stock_out(end: dict) -> bool:
    """Whether every player reported and none went out: the stock ran out."""
    return end["state"] == "stock"


def round_disputed(end: dict) -> list[str]:
    """The players who each say they went out, when two or more do (the scorekeeper asks
    the table); none otherwise."""
    return list(end["players"]) if end["state"] == "conflict" else []
