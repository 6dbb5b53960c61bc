"""Streets: partnership Hollywood with street payouts (RULES §3.9 and §6 "Streets").

Two sides of 1, 2 or 3 players play a deal at a card table per pair (partnership's seating,
rotation and dealing, ``multitable``); the side with a positive net wins the deal, and its
net goes into the streets as a Hollywood win goes into the columns (``hollywood``): every
open street the side has entered and the lowest open street it has not. A street ends
when a side's hand points in it reach the target; it is then settled (street bonus, box
advantage, clean sweep). The game points G add the three streets' nets (the third double
with ``hollywood_third_double``), doubled by an all-streets sweep. Between deals an entry
``{"target": N}`` changes the target of every open street.
"""

from __future__ import annotations

from .common import abandoned_complete_message, result, settle, side_money
from .hollywood import COLUMNS, columns_for_win
from .multitable import PartnershipSeating, score_deal
from .problems import hand_at
from .record import Game
from .schema import HAND_FIELDS
from .settings import NUMBERS, club_setting
from .variants import ENTERED_STREETS

__all__ = ["STREETS", "StreetsSeating", "score_streets", "settle_street"]

STREETS = COLUMNS  # three streets, filled like Hollywood's columns


class StreetsSeating(PartnershipSeating):
    """Partnership's seating for sides of 1 to 3; partners rotate by deals, not entries (a
    target change is an entry but no deal)."""

    def pairs(self, number=None):
        a, b = self.sides[self.side_a], self.sides[self.side_b]
        d = self.hand_index
        return [(a[i], b[(i + d) % self.size]) for i in range(self.size)]

    def table_list(self):
        dealers = self.dealers()
        return [{"table": i + 1, "players": list(pair), "dealer": dealers[i]}
                for i, pair in enumerate(self.pairs())]


class Street:
    """One street: each side's hand points, deals entered and boxes; when it ended, who
    went out and the target it ended with."""

    __slots__ = ("hand_points", "hands_won", "boxes", "ended_at", "winner", "target")

    def __init__(self, sides):
        self.hand_points = dict.fromkeys(sides, 0)
        self.hands_won = dict.fromkeys(sides, 0)  # the entered() that columns_for_win asks
        self.boxes = dict.fromkeys(sides, 0)
        self.ended_at = None
        self.winner = None
        self.target = None

    def entered(self, side) -> bool:
        return self.hands_won[side] > 0


def settle_street(street: Street, sides: tuple, rules: dict, target: int) -> dict:
    """Each side's totals in a street: hand points, deals entered, boxes and, once it has
    ended, the bonuses of its settlement (RULES §3.9)."""
    totals = {side: {"hand_points": street.hand_points[side],
                     "hands_won": street.hands_won[side], "boxes": street.boxes[side],
                     "street_bonus": 0, "box_advantage": 0, "clean_sweep": 0,
                     "final": street.hand_points[side]} for side in sides}
    if street.ended_at is None:
        return totals
    w = street.winner
    lose = sides[1] if w == sides[0] else sides[0]
    bonus = club_setting(rules, "street_bonus")
    bonus = street.target if bonus == "target" else bonus
    totals[w]["street_bonus"] = bonus
    more = street.boxes[w] - street.boxes[lose]
    if more:
        ahead = w if more > 0 else lose
        totals[ahead]["box_advantage"] = abs(more) * rules["box_bonus"]
    for side in sides:
        entry = totals[side]
        entry["final"] = entry["hand_points"] + entry["street_bonus"] + entry["box_advantage"]
    if street.hand_points[lose] == 0:
        mode = club_setting(rules, "clean_sweep_mode")
        if mode == "bonus":
            extra = club_setting(rules, "clean_sweep_bonus")
            extra = bonus if extra == "street_bonus" else extra
        elif mode == "double":
            extra = totals[w]["final"]  # the doubling adds as much again
        else:
            extra = 0
        totals[w]["clean_sweep"] = extra
        totals[w]["final"] += extra
    return totals


def score_streets(game: Game, problems: list) -> dict | None:
    rules = game.rules
    seating = StreetsSeating(game, problems)
    if not seating.ok:
        return None
    sides = (seating.side_a, seating.side_b)
    seating.side_of = {p: side for side, members in seating.sides.items() for p in members}
    streets = [Street(sides) for _ in range(STREETS)]
    target = rules["target"]
    running = dict.fromkeys(sides, 0)
    won = dict.fromkeys(sides, 0)
    boxes = dict.fromkeys(sides, 0)
    entries: list[dict] = []
    ended_at = None
    broken = False
    for number, raw in enumerate(game.hands, 1):
        where = hand_at(number)
        if ended_at is not None and not broken:
            problems.append(where.problem(
                "hand_after_end", f"all three streets ended at hand {ended_at}; no deal or "
                f"target change can follow", values={"ended_at": ended_at}))
            break
        if isinstance(raw, dict) and "target" in raw:
            new = raw["target"]
            low, high = NUMBERS["target"]
            if set(raw) & (set(HAND_FIELDS) - {"target"}):  # other keys are ignored
                problems.append(where.problem(
                    "target_invalid", "a target change is an entry of its own, between two "
                    "deals, not a field of a deal", path="target", field="target"))
                broken = True
                continue
            if isinstance(new, bool) or not isinstance(new, int) or not low <= new <= high:
                problems.append(where.problem(
                    "target_invalid", f"must be a whole number from {low} to {high}, not "
                    f"{new!r}", path="target", field="target"))
                broken = True
                continue
            if broken:
                continue
            passed = [(i + 1, side, s.hand_points[side]) for i, s in enumerate(streets)
                      if s.ended_at is None for side in sides if s.hand_points[side] >= new]
            if passed:
                street, side, points = passed[0]
                problems.append(where.problem(
                    "target_passed", f"target {new} is refused: {side} already has {points} "
                    f"in open street {street}", path="target", field="target",
                    values={"target": new, "street": street, "side": side,
                            "points": points}))
                broken = True
                continue
            target = new
            entries.append({"number": number, "dealer": None, "result": "target",
                            "target": new, "winner": None, "points": dict.fromkeys(sides, 0),
                            "running": dict(running), "roles": seating.roles(),
                            "street_points": [dict(s.hand_points) for s in streets]})
            continue
        if broken:
            # later entries are still read for their own problems
            if isinstance(raw, dict) and isinstance(raw.get("tables"), list):
                continue
            problems.append(where.problem("tables_invalid", "must list one hand per table",
                                          path="tables", field="tables"))
            continue
        dealer_side = seating.dealing
        deal = score_deal(raw, number, where, seating, rules, problems, knock_cards=True,
                          counted_boxes=True)
        if deal is None:
            broken = True
            continue
        roles = seating.roles()
        before = len(problems)
        seating.advance(deal.outcomes, deal.winner, raw, where, problems)
        if len(problems) > before:
            broken = True
            continue
        points = dict.fromkeys(sides, 0)
        entered, ended = [], []
        if deal.winner is not None:
            side = deal.winner
            net = deal.net[side]
            points[side] = net
            running[side] += net
            won[side] += 1
            boxes[side] += deal.boxes[side]
            entered = columns_for_win(streets, side)
            for i in entered:
                street = streets[i]
                street.hand_points[side] += net
                street.hands_won[side] += 1
                street.boxes[side] += deal.boxes[side]
                if street.hand_points[side] >= target:
                    street.ended_at, street.winner, street.target = number, side, target
                    ended.append(i + 1)
        entry = {"number": number, "dealer": deal.dealers, "dealer_side": dealer_side,
                 "result": "tables", "winner": deal.winner, "points": points,
                 "running": dict(running), "roles": roles}
        entry.update(tables=deal.tables, knock_card=deal.knock_card, knock_limit=deal.limit,
                     doubled=deal.doubled, boxes=deal.boxes)
        entry[ENTERED_STREETS] = [i + 1 for i in entered]
        entry.update(ended=ended, street_points=[dict(s.hand_points) for s in streets])
        entries.append(entry)
        if all(s.ended_at is not None for s in streets):
            ended_at = number
    if broken:
        return None
    complete = ended_at is not None
    if complete and game.abandoned:
        problems.append(abandoned_complete_message(ended_at))
        return None
    street_out = []
    weighted = dict.fromkeys(sides, 0)  # each side's street totals, street 3 weighted
    a, b = sides
    for i, street in enumerate(streets):
        totals = settle_street(street, sides, rules, target)
        weight = 2 if i == STREETS - 1 and rules["hollywood_third_double"] else 1
        for side in sides:
            weighted[side] += weight * totals[side]["final"]
        net = totals[a]["final"] - totals[b]["final"]
        street_out.append({
            "number": i + 1, "complete": street.ended_at is not None,
            "winner": street.winner, "ended_at": street.ended_at,
            "target": street.target if street.target is not None else target,
            "clean": street.ended_at is not None
            and street.hand_points[b if street.winner == a else a] == 0,
            "weight": weight, "totals": totals, "net": {a: net, b: -net}})
    sweep = complete and club_setting(rules, "all_streets_sweep") == "double" and any(
        _swept(street_out, side, club_setting(rules, "sweep_condition")) for side in sides)
    factor = 2 if sweep else 1
    finals = {side: weighted[side] * factor for side in sides}
    g = finals[a] - finals[b]
    totals = {side: {"hand_points": sum(s["totals"][side]["hand_points"] for s in street_out),
                     "hands_won": won[side], "boxes": boxes[side], "final": finals[side]}
              for side in sides}
    winner = None
    if complete and g != 0:
        winner = a if g > 0 else b
    exact = None
    if game.stakes is not None and (complete or game.abandoned):
        exact = side_money(finals, seating.sides, game.stakes.of, rules["balance_division"])
    money, payments = settle(game, exact)
    next_ = {"dealer": seating.dealers(), "dealer_side": seating.dealing,
             "tables": seating.table_list(), "roles": {}}
    return result(game, hands=entries, totals=totals, complete=complete, winner=winner,
                  next_=next_, money=money, payments=payments, sides=seating.sides,
                  streets=street_out, game_points={a: g, b: -g}, sweep=sweep)


def _swept(streets: list[dict], side, condition: str) -> bool:
    """Whether ``side`` meets the all-streets sweep's condition: it went out on all three
    streets (``won_all``), or won all three by clean sweeps (``clean_all``)."""
    if condition == "clean_all":
        return all(s["winner"] == side and s["clean"] for s in streets)
    return all(s["winner"] == side for s in streets)


