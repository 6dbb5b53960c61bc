"""What every captain game shares, with three players at one table or five and seven at
several: the two sides' names and the captain's stake (RULES §3.5, §3.6)."""

from __future__ import annotations

from .record import Game
from .roles import CAPTAINS, OPPONENTS

__all__ = ["CAPTAINS", "OPPONENTS", "captain_stake"]


def captain_stake(game: Game, captains: list[str], opponents: list[str]):
    """Stake per point of a player in a captain game: a captain's default is the sum of
    all opponents' stakes divided by the number of captains (2x, 3:2, 4:3)."""
    stakes = game.stakes
    cover = sum((stakes.of(p) for p in opponents), 0) / len(captains)

    def stake_of(player):
        if player in captains and not stakes.has_own(player):
            return cover
        return stakes.of(player)

    return stake_of
