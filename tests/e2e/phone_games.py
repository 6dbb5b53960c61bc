"""Games of every variant for the phone tests, played through the services with hands the
core accepts: each hand's players come from the core's ``next`` (via the hand form's spec),
so box, captain and partnership rotations are the real ones."""

from __future__ import annotations

import uuid

from ledger import services
from ledger.presentation.game_page import hand_spec
from ledger.selectors.games import game_result

# (variant, players, setup) for every variant the issue lists, and the wide ones
NAMES = ["Sal", "Vic", "Ann", "Bo", "Cy", "Di", "Ed"]
VARIANTS = {
    "gin": ("gin", 2), "oklahoma": ("oklahoma", 2), "hollywood": ("hollywood", 2),
    "box": ("box", 3), "captain3": ("captain", 3), "captain5": ("captain", 5),
    "partnership4": ("partnership", 4), "capit4": ("cap-it", 4),
    "capit6": ("cap-it", 6), "partnership6": ("partnership", 6), "captain7": ("captain", 7),
}
WIDE = {"capit6", "partnership6", "captain7"}


def _setup(variant: str, players: list[str]) -> dict:
    n = len(players)
    if variant == "partnership":
        return {"sides": {"We": players[: n // 2], "They": players[n // 2:]}}
    if variant == "captain" and n > 3:
        k = (n - 1) // 2
        return {"captains": players[:k], "opponents": players[k:2 * k], "sitter": players[-1]}
    if variant in ("gin", "oklahoma", "hollywood", "cap-it"):
        return {"first_dealer": players[0]}
    return {}


def start(session, keeper, key: str, *, ante: str = "1.00"):
    variant, count = VARIANTS[key]
    players = NAMES[:count]
    extra = {"ante": ante} if variant == "cap-it" else {}
    return services.game_start(session=session, variant=variant, players=players,
                               started_by=keeper, setup=_setup(variant, players), **extra)


def _duel(pair: list[str], i: int, *, big: bool = False) -> dict:
    a, b = pair
    if big:  # the first of each pair goes gin against a lot of deadwood: games end fast
        return {"knocker": a, "deadwood": {a: 0, b: 90}}
    knocker, other = (a, b) if i % 2 == 0 else (b, a)
    return {"knocker": knocker, "deadwood": {knocker: 3 + i % 5, other: 20 + (i * 7) % 30}}


def next_entry(game, i: int, *, big: bool = False, result: dict | None = None) -> dict:
    """The ``i``-th hand to record next in ``game`` (``result``: the core's result of the
    game as it stands, read from the database when not given)."""
    if result is None:
        result = game_result(game)
    if game.variant == "cap-it":
        players = result["players"]
        out = players[i % len(players)]
        return {"went_out": out,
                "points": {p: 5 * (j + 1) + 5 * i for j, p in enumerate(players) if p != out}}
    spec = hand_spec(result, result["next"])
    duels = [_duel(d["players"], i + j, big=big) for j, d in enumerate(spec["duels"])]
    if spec.get("tables"):
        # a tie on points lost needs a cut: avoid it by making the tables' losses differ
        for j, duel in enumerate(duels):
            loser = next(n for n in duel["deadwood"] if n != duel["knocker"])
            duel["deadwood"][loser] += j
        return {"tables": duels}
    if game.variant == "oklahoma":
        return {"upcard": "10H", **duels[0]}
    return duels[0]


def play(game, keeper, hands: int, *, big: bool = False) -> dict:
    """Record ``hands`` hands (fewer if the game ends); the core's result after them (each
    hand's from the service that recorded it: the game is not read and scored again)."""
    result = game_result(game)
    for i in range(hands):
        if result.get("complete"):
            break
        result = services.hand_record(game=game, entry=next_entry(game, i, big=big,
                                                                   result=result),
                                      recorded_by=keeper,
                                      idempotency_key=str(uuid.uuid4())).result
    return result


def finish(game, keeper, limit: int = 60) -> dict:
    result = play(game, keeper, limit, big=True)
    assert result.get("complete"), f"{game.variant} did not finish in {limit} hands"
    return result
