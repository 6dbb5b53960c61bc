"""Pieces every game shares: end-of-game bonuses (RULES §2), settling money in minor units,
and the shape of a result."""

from __future__ import annotations

from fractions import Fraction

from .money import allocate_zero_sum, fewest_payments, format_minor, lower_amount_prevails
from .problems import At, Problem, hand_at
from .record import RESULT_FORMAT, Game


def game_totals(hand_points: dict, hands_won: dict, winner, rules: dict, *,
                complete: bool, boxes: dict | None = None) -> dict:
    """Totals per player or side: hand points, boxes, game bonus, shutout and final.

    Bonuses only come with a complete game (``winner`` reached the target). Shutout: every
    other competitor won no hand (in a three-handed game, neither other player). With the
    club boxes on (RULES §3.7) ``boxes`` are each one's boxes (a box a hand won, and the
    extra boxes): the totals list them after ``hands_won`` and the box bonus is worth them.
    """
    totals = {}
    if boxes is not None:
        plain = game_totals(hand_points, hands_won, winner, rules, complete=complete)
        for key, entry in plain.items():
            box_bonus = rules["box_bonus"] * boxes[key] if complete else 0
            final = entry["final"]
            if complete:  # the boxes' worth in place of a box a hand won
                won = rules["box_bonus"] * hands_won[key]
                if entry["shutout"] and rules["shutout_mode"] == "double_total":
                    final += 2 * (box_bonus - won)
                else:
                    final += box_bonus - won
            totals[key] = {"hand_points": entry["hand_points"], "hands_won": hands_won[key],
                           "boxes": boxes[key], "box_bonus": box_bonus,
                           "game_bonus": entry["game_bonus"], "shutout": entry["shutout"],
                           "final": final}
        return totals
    shutout = complete and rules["shutout_mode"] != "none" and all(
        won == 0 for key, won in hands_won.items() if key != winner)
    for key, points in hand_points.items():
        if not complete:
            totals[key] = {"hand_points": points, "hands_won": hands_won[key],
                           "box_bonus": 0, "game_bonus": 0, "shutout": False,
                           "final": points}
            continue
        box_bonus = rules["box_bonus"] * hands_won[key]
        game_bonus = rules["game_bonus"] if key == winner else 0
        is_shutout = shutout and key == winner
        final = points + box_bonus + game_bonus
        if is_shutout:
            mode = rules["shutout_mode"]
            if mode == "double_total":
                final *= 2
            elif mode == "game_bonus_double":
                game_bonus *= 2
                final = points + box_bonus + game_bonus
            elif mode == "double_hand_points":
                final = 2 * points + box_bonus + game_bonus
        totals[key] = {"hand_points": points, "hands_won": hands_won[key],
                       "box_bonus": box_bonus, "game_bonus": game_bonus,
                       "shutout": is_shutout, "final": final}
    return totals


def side_money(net: dict, sides: dict[str, list[str]], stake_of, division: str) -> dict:
    """Exact money of two sides settling ``net`` points (keyed by side) under the lower
    amount prevails rule; ``stake_of(player)`` is his stake per point."""
    (side_a, points_a), (side_b, points_b) = net.items()
    difference = points_a - points_b
    if difference == 0:
        return {p: Fraction(0) for members in sides.values() for p in members}
    winner, loser = (side_a, side_b) if difference > 0 else (side_b, side_a)
    return lower_amount_prevails(
        abs(difference),
        {p: stake_of(p) for p in sides[winner]},
        {p: stake_of(p) for p in sides[loser]},
        division=division,
    )


def settle(game: Game, exact: dict | None) -> tuple[dict, list]:
    """Round exact money per player to minor units (summing to zero) and plan payments."""
    players = game.players
    currency = game.stakes.currency if game.stakes else "USD"
    if exact is None or game.stakes is None:
        units = [0] * len(players)
    else:
        units = allocate_zero_sum([Fraction(exact.get(p, 0)) for p in players],
                                  game.stakes.scale)
    return units_result(players, units, currency)


def units_result(players: list[str], units: list[int], currency: str) -> tuple[dict, list]:
    money = {p: format_minor(u, currency) for p, u in zip(players, units, strict=False)}
    payments = [
        {"from": pay.payer, "to": pay.payee, "amount": format_minor(pay.units, currency)}
        for pay in fewest_payments(dict(zip(players, units, strict=False)))
    ]
    return money, payments


def result(game: Game, *, hands: list, totals: dict, complete: bool, winner, next_: dict,
           money: dict, payments: list, **extra) -> dict:
    out = {
        "format": RESULT_FORMAT,
        "variant": game.variant,
        "preset": game.preset,
        "rules": dict(game.rules),
        "players": list(game.players),
        "abandoned": game.abandoned,
        "hands": hands,
        "totals": totals,
        "complete": complete,
        "winner": winner,
        "next": next_,
        "money": money,
        "payments": payments,
    }
    out.update(extra)
    if game.stakes is not None:
        out["currency"] = game.stakes.currency
    return out


class Play:
    """The walk through a game's hands that every gin variant shares.

    Scoring stops at the first bad hand (the roles of later hands depend on it) but later
    hands are still read, so their own problems are reported too; a hand after the one that
    ended the game is refused. Keeps each competitor's (player's or side's) hand points and
    hands won, and notes the hand at which one of them reached the target.
    """

    def __init__(self, game: Game, problems: list, competitors):
        self.game = game
        self.problems = problems
        self.hand_points = dict.fromkeys(competitors, 0)
        self.hands_won = dict.fromkeys(competitors, 0)
        self.entries: list[dict] = []
        self.ended_at: int | None = None
        self.winner = None
        self.broken = False
        self.boxes: dict | None = None  # with the club boxes on (RULES §3.7): each one's
        self.ending = "when the target was reached"  # what ended it, as a refusal says

    def hands(self):
        """(number, where, hand) for each hand of the record, in order; ``where`` is an
        ``At``, written "hand 3" in a line."""
        for number, raw in enumerate(self.game.hands, 1):
            where = hand_at(number)
            if self.ended_at is not None and not self.broken:
                self.problems.append(ended_message(where, self.ended_at, self.ending))
                return
            yield number, where, raw

    def checked(self, value):
        """``value``, or None once this hand or an earlier one has failed."""
        if value is None or self.broken:
            self.broken = True
            return None
        return value

    def win(self, number: int, competitor, points: int) -> None:
        self.hand_points[competitor] += points
        self.hands_won[competitor] += 1
        if self.ended_at is None and self.hand_points[competitor] >= self.game.rules["target"]:
            self.ended_at, self.winner = number, competitor

    def complete(self) -> bool | None:
        """Whether the game reached its target; None (with a problem) if it can't be scored."""
        if self.broken:
            return None
        if self.ended_at is not None and self.game.abandoned:
            self.problems.append(abandoned_complete_message(self.ended_at))
            return None
        return self.ended_at is not None

    def totals(self, complete: bool) -> dict:
        return game_totals(self.hand_points, self.hands_won, self.winner, self.game.rules,
                           complete=complete, boxes=self.boxes)


def settle_sides(game: Game, totals: dict, complete: bool, sides: dict[str, list[str]],
                 stake_of=None) -> tuple[dict, list]:
    """Money of a two-sided game (two players are two sides of one): the final difference
    when complete, the hand-point difference when abandoned (no bonuses), else nothing."""
    exact = None
    if game.stakes is not None and (complete or game.abandoned):
        key = "final" if complete else "hand_points"
        exact = side_money({side: totals[side][key] for side in sides}, sides,
                           stake_of or game.stakes.of, game.rules["balance_division"])
    return settle(game, exact)


def ended_message(where: At, ended_at: int,
                  ending: str = "when the target was reached") -> Problem:
    return where.problem("hand_after_end",
                         f"the game ended at hand {ended_at}, {ending}; no hand can follow it")


def abandoned_complete_message(ended_at: int) -> Problem:
    return At(ended_at).problem("abandoned_but_complete",
                                "the record is marked abandoned, but the game reached its "
                                "target at this hand", path="abandoned", field="abandoned")
