"""Table games: two sides play at two or three tables at once, one gin hand per table
(captain play for 5 and 7 players, RULES §3.6; partnership gin, §3.7).

A hand's result is the side's net over the tables (a drawn table counts 0); the side with
a positive net wins the hand and gets its box; a net of exactly 0 wins nothing.
"""

from __future__ import annotations

from .club import boxes_for, club_boxes_on, doubled_by, read_knock_card
from .common import Play, result, settle_sides
from .hand import read_gin_hand, score_gin_hand
from .limits import knock_limit
from .problems import record_problem, table_at
from .record import Game
from .roles import CAPTAIN, OPPONENT, SITS_OUT
from .sides import CAPTAINS, OPPONENTS, captain_stake


class CaptainSeating:
    """Captains keep their tables; opponents come and go with the sitter (§3.6)."""

    knock_cards = False  # the club's knock cards and boxes are partnership's (§3.7)

    def __init__(self, game: Game, problems: list):
        setup = game.setup
        self.ok = False
        captains, opponents, sitter = (setup.get("captains"), setup.get("opponents"),
                                       setup.get("sitter"))
        n = len(game.players) // 2
        count = len(problems)
        for name, value, size in (("captains", captains, n), ("opponents", opponents, n)):
            if not isinstance(value, list) or len(value) != size:
                problems.append(record_problem(
                    "setup_invalid", f"setup.{name}",
                    f"must list {size} players for {len(game.players)}-player captain play"))
        if not isinstance(sitter, str):
            problems.append(record_problem("setup_invalid", "setup.sitter",
                                           "missing (the player who sits out first: the "
                                           "black Ace)"))
        if len(problems) > count:
            return
        named = list(captains) + list(opponents) + [sitter]
        for name in named:
            if not isinstance(name, str) or name not in game.players:
                problems.append(record_problem("setup_invalid", "setup",
                                               f"{name!r} is not a player of this game",
                                               player=name if isinstance(name, str) else None))
        if len(problems) > count and not all(isinstance(name, str) for name in named):
            return
        if len(set(named)) != len(named) or set(named) != set(game.players):
            problems.append(record_problem("setup_invalid", "setup",
                                           "every player must be exactly one of the captains, "
                                           "the opponents or the sitter"))
        if len(problems) > count:
            return
        self.ok = True
        self.side_a, self.side_b = CAPTAINS, OPPONENTS
        self.sides = {CAPTAINS: list(captains), OPPONENTS: list(opponents) + [sitter]}
        self.captains = list(captains)
        self.active = list(opponents)
        self.sitter = sitter
        # Who deals at each table: the opponents deal the opening hand.
        self.dealing = [OPPONENTS] * n
        self.players = game.players
        self.rules = game.rules

    def pairs(self, number):
        return list(zip(self.captains, self.active, strict=False))

    def dealers(self):
        return [c if side == CAPTAINS else o
                for c, o, side in zip(self.captains, self.active, self.dealing, strict=False)]

    def roles(self):
        roles = dict.fromkeys(self.captains, CAPTAIN)
        roles.update(dict.fromkeys(self.active, OPPONENT))
        roles[self.sitter] = SITS_OUT
        return {p: roles[p] for p in self.players}

    def describe(self, table):
        return (f"table {table + 1} is captain {self.captains[table]} against "
                f"{self.active[table]}")

    def advance(self, outcomes, net_winner, raw, where, problems):
        """Dealers for the next hand, then the substitution when the captains won."""
        for i, outcome in enumerate(outcomes):
            if outcome.winner is None:
                continue
            won = CAPTAINS if outcome.winner == self.captains[i] else OPPONENTS
            if self.rules["dealer_rule"] == "winner_deals":
                self.dealing[i] = won
            else:
                self.dealing[i] = OPPONENTS if self.dealing[i] == CAPTAINS else CAPTAINS
        cut_loser = raw.get("cut_loser")
        # Points lost at a table = the captain's points there.
        lost = {self.active[i]: o.points for i, o in enumerate(outcomes)
                if o.winner == self.captains[i] and o.points > 0}
        if net_winner != CAPTAINS or not lost:
            if cut_loser is not None:
                problems.append(where.problem(
                    "cut_loser_invalid", "no cut is needed, as the captains did not win this "
                    "hand", path="cut_loser", field="cut_loser"))
            return None
        most = max(lost.values())
        tied = [p for p in self.active if lost.get(p) == most]
        if len(tied) == 1:
            if cut_loser is not None:
                problems.append(where.problem(
                    "cut_loser_invalid", f"no cut is needed; {tied[0]} alone lost the most "
                    f"points ({most})", path="cut_loser", field="cut_loser"))
                return None
            out = tied[0]
        else:
            if cut_loser is None:
                problems.append(where.problem(
                    "cut_loser_invalid", f"{' and '.join(tied)} each lost {most} points; "
                    f"record who cut the lower card", path="cut_loser", field="cut_loser"))
                return None
            if cut_loser not in tied:
                problems.append(where.problem(
                    "cut_loser_invalid", f"{cut_loser!r} is not one of the tied players "
                    f"({', '.join(tied)})", path="cut_loser", field="cut_loser"))
                return None
            out = cut_loser
        table = self.active.index(out)
        incoming = self.sitter
        self.active[table], self.sitter = incoming, out
        return {"in": incoming, "out": out, "table": table + 1}

    def next_extra(self):
        return {}

    def stake_of(self, game):
        return captain_stake(game, self.captains, self.sides[OPPONENTS])


class PartnershipSeating:
    """Two sides of 2 or 3; partners rotate opponents every hand (§3.7, §6)."""

    knock_cards = True

    def __init__(self, game: Game, problems: list):
        self.ok = False
        sides = game.setup.get("sides")
        count = len(problems)
        if not isinstance(sides, dict) or len(sides) != 2:
            problems.append(record_problem(
                "setup_invalid", "setup.sides", "must name two sides, each with its players, "
                "like {\"We\": [\"A\", \"B\"], \"They\": [\"X\", \"Y\"]}"))
            return
        size = len(game.players) // 2
        for name, members in sides.items():
            if not isinstance(members, list) or len(members) != size:
                problems.append(record_problem("setup_invalid", f"setup.sides.{name}",
                                               f"must list {size} players",
                                               field="setup.sides"))
        if len(problems) > count:
            return
        named = [p for members in sides.values() for p in members]
        for name, members in sides.items():
            for member in members:
                if not isinstance(member, str):
                    problems.append(record_problem("setup_invalid", f"setup.sides.{name}",
                                                   f"{member!r} is not a player's name",
                                                   field="setup.sides"))
        if len(problems) > count:
            return
        if len(set(named)) != len(named) or set(named) != set(game.players):
            problems.append(record_problem("setup_invalid", "setup.sides",
                                           "every player must be on exactly one side"))
            return
        self.side_a, self.side_b = list(sides)
        if self.side_a in game.players or self.side_b in game.players:
            problems.append(record_problem("setup_invalid", "setup.sides",
                                           "a side may not have a player's name"))
        if self.side_a == self.side_b:  # pragma: no cover - JSON keys are unique
            problems.append(record_problem("setup_invalid", "setup.sides",
                                           "the two sides need different names"))
        first = game.setup.get("first_dealer_side", self.side_b)
        if not isinstance(first, str) or first not in sides:
            problems.append(record_problem(
                "first_dealer_invalid", "setup.first_dealer_side",
                f"{first!r} is not one of the sides ({self.side_a}, {self.side_b})"))
        if len(problems) > count:
            return
        self.ok = True
        self.sides = {name: list(members) for name, members in sides.items()}
        self.size = size
        self.dealing = first
        self.hand_index = 0
        self.players = game.players
        self.rules = game.rules

    def pairs(self, number):
        a, b = self.sides[self.side_a], self.sides[self.side_b]
        h = number - 1
        return [(a[i], b[(i + h) % self.size]) for i in range(self.size)]

    def dealers(self, number=None):
        number = self.hand_index + 1 if number is None else number
        seat = 0 if self.dealing == self.side_a else 1
        return [pair[seat] for pair in self.pairs(number)]

    def roles(self):
        return dict.fromkeys(self.players, "player")

    def describe(self, table):
        a, b = self.pairs(self.hand_index + 1)[table]
        return f"table {table + 1} is {a} against {b}"

    def advance(self, outcomes, net_winner, raw, where, problems):
        if raw.get("cut_loser") is not None:
            problems.append(where.problem("cut_loser_invalid",
                                          "only captain play has a cut for the sitter",
                                          path="cut_loser", field="cut_loser"))
        if net_winner is not None:
            if self.rules["dealer_rule"] == "winner_deals":
                self.dealing = net_winner
            else:
                self.dealing = self.side_b if self.dealing == self.side_a else self.side_a
        self.hand_index += 1
        return None

    def next_extra(self):
        return {"dealer_side": self.dealing}

    def stake_of(self, game):
        return game.stakes.of


def score_captain_tables(game: Game, problems: list) -> dict | None:
    return _score_tables(game, problems, CaptainSeating(game, problems))


def score_partnership(game: Game, problems: list) -> dict | None:
    return _score_tables(game, problems, PartnershipSeating(game, problems))


class Deal:
    """One deal of a table game, scored: each table's outcome and line, the sides' net, the
    side that won it (None: a net of 0), its knock card and the boxes it earned."""

    __slots__ = ("outcomes", "tables", "net", "winner", "knock_card", "limit", "doubled",
                 "boxes", "dealers")


def score_deal(raw, number: int, where, seating, rules: dict, problems: list, *,
               knock_cards: bool, counted_boxes: bool) -> Deal | None:
    """Score one deal (``{"knock_card": ..., "tables": [...]}``) at the tables ``seating``
    seats for it; None with the problems added. ``knock_cards``: the game takes a knock card
    on a deal (partnership, streets); ``counted_boxes``: work out the boxes it earned
    (RULES §3.7)."""
    if not isinstance(raw, dict) or not isinstance(raw.get("tables"), list):
        problems.append(where.problem("tables_invalid", "must list one hand per table",
                                      path="tables", field="tables"))
        return None
    card = read_knock_card(raw, where, problems, allowed=knock_cards)
    pairs = seating.pairs(number)
    if len(raw["tables"]) != len(pairs):
        problems.append(where.problem(
            "tables_invalid", f"{len(pairs)} tables are playing, {len(raw['tables'])} given",
            path="tables", field="tables"))
        return None
    at = [table_at(number, i + 1) for i in range(len(pairs))]
    parsed = [read_gin_hand(t, at[i], problems) for i, t in enumerate(raw["tables"])]
    if None in parsed or card is False:
        return None
    dealers = seating.dealers()
    outcomes = [score_gin_hand(hand, pair, at[i], problems, rules,
                               describe=seating.describe(i), knock_card=card)
                for i, (hand, pair) in enumerate(zip(parsed, pairs, strict=True))]
    if None in outcomes:
        return None
    side_a, side_b = seating.side_a, seating.side_b
    side_of = seating.side_of
    net = {side_a: 0, side_b: 0}
    tables = []
    for i, (outcome, pair) in enumerate(zip(outcomes, pairs, strict=True)):
        points = dict.fromkeys(pair, 0)
        if outcome.winner is not None:
            points[outcome.winner] = outcome.points
            won = side_of[outcome.winner]
            net[won] += outcome.points
            net[side_b if won == side_a else side_a] -= outcome.points
        tables.append({"table": i + 1, "players": list(pair), "dealer": dealers[i],
                       "result": outcome.result, "winner": outcome.winner,
                       "points": points, **outcome.fields()})
    deal = Deal()
    deal.outcomes, deal.tables, deal.net, deal.dealers = outcomes, tables, net, dealers
    # The side with a positive net wins the deal (a net of 0 wins nothing).
    deal.winner = None
    if net[side_a] != 0:
        deal.winner = side_a if net[side_a] > 0 else side_b
    deal.knock_card = card
    deal.limit = knock_limit(rules, knock_card=card).limit
    deal.doubled = doubled_by(card, rules)
    deal.boxes = None
    if counted_boxes:
        deal.boxes = dict.fromkeys((side_a, side_b), 0)
        if deal.winner is not None:
            deal.boxes[deal.winner] = boxes_for(deal.winner, outcomes, side_of.get, rules,
                                                doubled=deal.doubled)
    return deal


def _score_tables(game: Game, problems: list, seating) -> dict | None:
    if not seating.ok:
        return None
    rules = game.rules
    side_a, side_b = seating.side_a, seating.side_b
    seating.side_of = {p: side for side, members in seating.sides.items() for p in members}
    knock_cards = seating.knock_cards
    counted_boxes = knock_cards and club_boxes_on(rules)
    play = Play(game, problems, (side_a, side_b))
    if counted_boxes:
        play.boxes = {side_a: 0, side_b: 0}
    for number, where, raw in play.hands():
        deal = play.checked(score_deal(raw, number, where, seating, rules, problems,
                                       knock_cards=knock_cards, counted_boxes=counted_boxes))
        if deal is None:
            continue
        net_winner = deal.winner
        points = {side_a: 0, side_b: 0}
        roles = seating.roles()
        before = len(problems)
        substitution = seating.advance(deal.outcomes, net_winner, raw, where, problems)
        if play.checked(None if len(problems) > before else True) is None:
            continue
        if net_winner is not None:
            points[net_winner] = deal.net[net_winner]
            play.win(number, net_winner, deal.net[net_winner])
            if counted_boxes:
                play.boxes[net_winner] += deal.boxes[net_winner]
        entry = {"number": number, "dealer": deal.dealers, "result": "tables",
                 "winner": net_winner, "points": points, "running": dict(play.hand_points),
                 "roles": roles, "tables": deal.tables}
        if deal.knock_card:
            entry.update(knock_card=deal.knock_card, knock_limit=deal.limit,
                         doubled=deal.doubled)
        if counted_boxes:
            entry["boxes"] = deal.boxes
        if substitution:
            entry["substitution"] = substitution
        play.entries.append(entry)
    complete = play.complete()
    if complete is None:
        return None
    totals = play.totals(complete)
    money, payments = settle_sides(game, totals, complete, seating.sides,
                                   seating.stake_of(game) if game.stakes else None)
    next_ = {"dealer": seating.dealers(), "roles": seating.roles(),
             "tables": [list(p) for p in seating.pairs(len(game.hands) + 1)]}
    next_.update(seating.next_extra())
    return result(game, hands=play.entries, totals=totals, complete=complete,
                  winner=play.winner, next_=next_, money=money, payments=payments,
                  sides=seating.sides)
