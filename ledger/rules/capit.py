"""CAP-IT (RULES §3.8 and §6 "CAP-IT"): 4 to 6 players, five contract rounds, card points,
lowest cumulative score wins, and a pot shared between round winners and the game winner.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

from .cards import CAPIT_VALUES, CardError, capit_points
from .club import read_knock_card
from .common import result, units_result
from .money import split_evenly, to_minor
from .problems import At, record_problem
from .record import Game

ROUNDS = 5
CONTRACTS = (
    "two sets of 3",
    "a set of 3 and a run of 4",
    "two runs of 4",
    "three sets of 3",
    "a run of 3 and a run of 7",
)
MAX_POINTS = 2000


def card_values(ace_value: int) -> dict:
    values = dict(CAPIT_VALUES)
    values["A"] = ace_value
    return values


def capit_hand_points(text, ace_value: int, where: At, name: str,
                      problems: list) -> int | None:
    """Points of the cards left in ``name``'s hand, by rank (``"K 7 7"``, ``JK`` for a
    joker)."""
    try:
        return capit_points(text, ace_value)
    except CardError as error:
        problems.append(where.problem("capit_cards_unreadable", str(error), field="cards",
                                      player=name, opening=f"{where}, {name}: cards"))
        return None


@lru_cache(maxsize=16)
def reachable_points(ace_value: int, limit: int = MAX_POINTS) -> tuple[bool, ...]:
    """Which totals some cards could make (any number of each rank: several decks)."""
    steps = sorted({v for v in card_values(ace_value).values() if v > 0})
    can = [False] * (limit + 1)
    can[0] = True
    for total in range(1, limit + 1):
        can[total] = any(total >= s and can[total - s] for s in steps)
    return tuple(can)


def round_share_units(game: Game, pot_units: int, problems: list) -> int | None:
    share = game.rules["capit_round_share"]
    if share.endswith("%"):
        units = Fraction(Decimal(share[:-1])) * pot_units / 100
        units = units.numerator // units.denominator  # whole minor units, rounded down
    else:
        try:
            units = to_minor(share, game.stakes.currency)
        except ValueError:
            problems.append(record_problem(
                "round_share_invalid", "rules.capit_round_share",
                f"{share} is not a whole number of {game.stakes.currency} minor units"))
            return None
    if ROUNDS * units > pot_units:
        problems.append(record_problem(
            "round_share_invalid", "rules.capit_round_share",
            f"five shares of {share} exceed the pot ({pot_units} minor units)"))
        return None
    return units


def score_capit(game: Game, problems: list) -> dict | None:
    players = game.players
    n = len(players)
    first = game.setup.get("first_dealer")
    if first is None:
        problems.append(record_problem("first_dealer_missing", "setup.first_dealer",
                                       "missing (who deals the first round)"))
        return None
    if first not in players:
        problems.append(record_problem("first_dealer_invalid", "setup.first_dealer",
                                       f"{first!r} is not one of {', '.join(players)}"))
        return None
    first_seat = players.index(first)
    ace_value = game.rules["capit_ace_value"]
    values = card_values(ace_value)
    can_make = reachable_points(game.rules["capit_ace_value"])
    stakes = game.stakes
    pot = stakes.ante_units * n if stakes else 0
    share = round_share_units(game, pot, problems) if stakes else 0
    if share is None:
        return None
    cumulative = dict.fromkeys(players, 0)
    shares_won = dict.fromkeys(players, 0)
    taken = dict.fromkeys(players, 0)
    paid_out = 0
    hands = []
    broken = False
    for number, raw in enumerate(game.hands, 1):
        if number > ROUNDS:
            problems.append(At(number).problem(
                "rounds_over", f"the game ended after round {ROUNDS}; no round can follow it"))
            break
        where = At(number, round=number)
        dealer_seat = (first_seat + number - 1) % n
        scores = _read_round(raw, players, ace_value, values, can_make, where, problems)
        if scores is None or broken:
            broken = True
            continue
        went_out = raw.get("went_out")
        for p in players:
            cumulative[p] += scores[p]
        basis = scores if game.rules["capit_round_winner"] == "round" else cumulative
        low = min(basis.values())
        winners = [p for p in players if basis[p] == low]
        parts = _split_from_left(share, winners, players, dealer_seat)
        for p, units in parts.items():
            taken[p] += units
            shares_won[p] += 1
        paid_out += share
        hands.append({
            "number": number, "dealer": players[dealer_seat], "result": "round",
            "contract": CONTRACTS[number - 1], "went_out": went_out,
            "winner": winners[0] if len(winners) == 1 else winners,
            "points": dict(scores), "running": dict(cumulative),
            "roles": dict.fromkeys(players, "player"),
            "shares": {p: _fmt(u, game) for p, u in parts.items()},
        })
    if broken:
        return None
    played = len(hands)
    complete = played == ROUNDS
    if complete and game.abandoned:
        problems.append(At(ROUNDS).problem(
            "abandoned_but_complete", "the record is marked abandoned, but all five rounds "
            "were played", path="abandoned", field="abandoned"))
        return None
    winner = None
    last_dealer = (first_seat + max(played, 1) - 1) % n
    if complete:
        low = min(cumulative.values())
        best = [p for p in players if cumulative[p] == low]
        winner = best[0] if len(best) == 1 else best
        for p, units in _split_from_left(pot - paid_out, best, players, last_dealer).items():
            taken[p] += units
    elif game.abandoned:
        # Shares already won are kept; the rest of the pot goes back in equal parts.
        for p, units in _split_from_left(pot - paid_out, players, players,
                                         last_dealer).items():
            taken[p] += units
    currency = stakes.currency if stakes else "USD"
    if stakes and (complete or game.abandoned):
        units = [taken[p] - stakes.ante_units for p in players]
    else:
        units = [0] * n
    money, payments = units_result(players, units, currency)
    totals = {p: {"hand_points": cumulative[p], "hands_won": shares_won[p],
                  "box_bonus": 0, "game_bonus": 0, "shutout": False,
                  "final": cumulative[p], "pot_won": _fmt(taken[p], game)}
              for p in players}
    next_round = played + 1
    next_ = {"dealer": players[(first_seat + played) % n] if not complete else None,
             "roles": dict.fromkeys(players, "player"),
             "round": next_round if not complete else None,
             "contract": CONTRACTS[played] if not complete else None}
    return result(game, hands=hands, totals=totals, complete=complete, winner=winner,
                  next_=next_, money=money, payments=payments,
                  pot=_fmt(pot, game), round_share=_fmt(share, game))


def _fmt(units: int, game: Game) -> str:
    from .money import format_minor

    return format_minor(units, game.stakes.currency if game.stakes else "USD")


def _split_from_left(units: int, winners: list, players: list, dealer_seat: int) -> dict:
    """Split ``units`` equally among ``winners``; leftover units go by seat order starting
    at the dealer's left."""
    n = len(players)
    order = sorted(winners, key=lambda p: (players.index(p) - dealer_seat - 1) % n)
    return dict(zip(order, split_evenly(units, len(order), 0), strict=False))


def _cell(where: At, name: str, field: str, code: str, text: str, values: dict | None = None):
    """A problem of one player's cards or points in a round ("hand 2 (round 2), B: ...")."""
    return where.problem(code, text, field=field, player=name,
                         opening=f"{where}, {name}: {field}", values=values)


def _read_round(raw, players, ace_value, values, can_make, where, problems) -> dict | None:
    if not isinstance(raw, dict):
        problems.append(where.problem("hand_not_object", "must be an object"))
        return None
    before = len(problems)
    read_knock_card(raw, where, problems, allowed=False)  # RULES §6: none in CAP-IT
    if "went_out" not in raw:
        problems.append(where.problem(
            "went_out_missing", "missing (who went out, or null if the stock ran out)",
            path="went_out", field="went_out"))
        return None
    went_out = raw["went_out"]
    if went_out is not None and went_out not in players:
        problems.append(where.problem(
            "went_out_unknown", f"{went_out!r} is not a player of this game", path="went_out",
            field="went_out"))
        return None
    cards, points = raw.get("cards"), raw.get("points")
    if cards is None and points is None:
        problems.append(where.problem(
            "round_counts_missing", "missing (or points): what each player was left holding",
            path="cards", field="cards"))
        return None
    scores: dict = {}
    for field, given in (("cards", cards), ("points", points)):
        if given is None:
            continue
        if not isinstance(given, dict):
            problems.append(where.problem("round_counts_missing",
                                          "must be an object of player names", path=field,
                                          field=field))
            continue
        for name, value in given.items():
            if name not in players:
                problems.append(where.problem(
                    "round_player_unknown", f"{name!r} is not a player of this game",
                    path=f"{field}.{name}", field=field, player=name))
                continue
            if field == "cards":
                count = capit_hand_points(value, ace_value, where, name, problems)
            elif isinstance(value, bool) or not isinstance(value, int) or value < 0:
                problems.append(_cell(where, name, field, "capit_points_invalid",
                                      f"must be a whole number of points, 0 or more, not "
                                      f"{value!r}"))
                count = None
            elif value > MAX_POINTS or not can_make[value]:
                worth = ", ".join(str(v) for v in sorted(set(values.values())))
                problems.append(_cell(
                    where, name, field, "capit_points_impossible",
                    f"{value} points cannot be made from cards worth {worth}",
                    {"points": value, "values": worth}))
                count = None
            else:
                count = value
            if count is None:
                continue
            if name == went_out and count != 0:
                problems.append(_cell(where, name, field, "went_out_holds_cards",
                                      f"{name} went out and holds no cards, but {count} "
                                      f"points were given"))
                continue
            if name in scores and scores[name] != count:
                problems.append(where.problem(
                    "capit_cards_points_disagree", f"the cards make {scores[name]} points but "
                    f"points says {count}", field="points", player=name,
                    opening=f"{where}, {name}"))
                continue
            scores[name] = count
    if len(problems) > before:
        return None
    for p in players:
        if p not in scores:
            if p == went_out:
                scores[p] = 0
            else:
                problems.append(where.problem(
                    "round_player_missing", "missing; every player but the one who went out "
                    "is listed", path=p, field="points", player=p))
    if len(problems) > before:
        return None
    return {p: scores[p] for p in players}
