"""Per-player figures of one game, read off the core's result of that game.

Nothing here scores: every number is copied (the plays' counts: the result's ``stats``,
``ledger.rules.facts.hand_stats``) or counted from the result dict that
``ledger.rules.score_record`` returned (formats/game-record.md), the same dict the services
post money from. Pure Python (no Django), so the services, the data migration and the bench
all call this one function and store the same thing.

Definitions (per player):

- ``hands_played``: hands in which the player had a role other than ``sits_out``.
- A *play* is one gin-family deal: the hand itself, or each entry of a table game's
  ``tables``. ``hands_won`` counts the plays (and CAP-IT rounds) the player won himself
  (three-player captain: ``player_winner``); ``gins``/``big_gins`` the plays he won by gin /
  big gin (``gins`` includes big gins); ``undercuts_made`` the plays he won by undercutting
  the knocker, ``undercuts_suffered`` those where he knocked and was undercut.
- ``boxes``: the boxes the score gave him (``totals[name].hands_won``; Hollywood counts a box
  per column). In side games (captain, partnership), his own ``hands_won``.
- ``won``: he is the game's ``winner`` or on the winning side (CAP-IT: among the winners).
- ``shutout``: he won and the totals mark the win as a shutout.
- ``hand_points``, ``final_points``: from ``totals`` (his own, or his side's in side games,
  where ``hand_points`` is what his own plays scored).
- ``money_minor``: the result's money in minor units once the game has ended (complete or
  abandoned), else 0, exactly as ``services.posting`` posts it.
"""

from __future__ import annotations

from typing import Any

from ledger.rules.catalog import plays_hand
from ledger.rules.facts import STAT_FIELDS, hand_stats
from ledger.rules.money import to_minor

FIELDS = ("won", "hands_played", "hands_won", "boxes", "gins", "big_gins", "undercuts_made",
          "undercuts_suffered", "shutout", "hand_points", "final_points", "money_minor")


def _plays(hand: dict) -> list[dict]:
    """The gin-family deals of a hand: its tables in a table game, else the hand itself."""
    tables = hand.get("tables")
    if isinstance(tables, list):
        return tables
    return [hand]


def _play_winner(play: dict) -> Any:
    return play.get("player_winner", play.get("winner"))


def standings_from_result(result: dict, *, ended: bool) -> dict[str, dict[str, Any]]:
    """``{player name: {field: value}}`` for every player of the result (FIELDS)."""
    players: list[str] = list(result.get("players") or [])
    sides: dict[str, list[str]] = result.get("sides") or {}
    side_of = {member: side for side, members in sides.items() for member in members}
    totals: dict[str, dict] = result.get("totals") or {}
    stats = {name: dict.fromkeys(FIELDS, 0) for name in players}
    for row in stats.values():
        row["won"] = row["shutout"] = False

    plays = result.get("stats") or hand_stats(result)  # the core's count of each one's plays
    for name, counted in plays.items():
        if name in stats:
            stats[name].update({field: counted[field] for field in STAT_FIELDS})
    for hand in result.get("hands") or []:
        for name, role in (hand.get("roles") or {}).items():
            if name in stats and plays_hand(role):
                stats[name]["hands_played"] += 1
        if not sides:
            continue
        for play in _plays(hand):
            winner = _play_winner(play)
            for name in winner if isinstance(winner, list) else [winner]:
                if name in stats and isinstance(play.get("points"), dict):
                    points = play["points"].get(name)
                    if points is None:  # three-player captain: points are keyed by side
                        points = play["points"].get(side_of.get(name), 0)
                    stats[name]["hand_points"] += int(points or 0)

    game_winner = result.get("winner")
    game_winners = set(game_winner) if isinstance(game_winner, list) else {game_winner}
    money = result.get("money") or {}
    currency = result.get("currency") or "USD"
    for name, row in stats.items():
        key = side_of.get(name, name)
        total = totals.get(key) or {}
        row["won"] = key in game_winners
        row["shutout"] = bool(row["won"] and total.get("shutout"))
        row["final_points"] = int(total.get("final") or 0)
        if "game_points" in result:  # RULES 3.9: a streets game's score is its G, not the
            # sum of its street totals (1372 where G is +1100)
            row["final_points"] = int((result["game_points"] or {}).get(key, 0))
        if not sides:
            row["hand_points"] = int(total.get("hand_points") or 0)
            row["boxes"] = int(total.get("hands_won") or 0)
        else:
            row["boxes"] = row["hands_won"]
        row["money_minor"] = to_minor(money.get(name, "0"), currency) if ended else 0
    return stats
