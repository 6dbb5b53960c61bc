"""A best-of match as its page says it (RULES 3.10): who leads by how many hands won, and
how many win the match ("Ann leads 3-2, first to 4"), then who won it. Every number is the
core's (``result["match"]``: ``hands_won``, ``needed``, ``best_of``, ``winner``)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext

from .money import format_money
from .words import key_label


@dataclass(frozen=True)
class MatchLine:
    text: str
    leader: str | None      # the key of the player ahead (or who won), None when level
    won: dict[str, int]     # hands won, by key, in the players' order
    needed: int
    best_of: int
    over: bool


def match_line(result: dict) -> MatchLine | None:
    """The match of ``result``, or None for a game that is no best-of match."""
    match = result.get("match")
    if not match:
        return None
    won = {key: match["hands_won"].get(key, 0) for key in result["players"]}
    needed, winner = match["needed"], match.get("winner")
    ordered = sorted(won, key=lambda key: -won[key])
    first, second = ordered[0], ordered[1]
    score = {"won": format_money(won[first]), "lost": format_money(won[second]),
             "needed": format_money(needed)}
    if winner:
        leader = winner
        score["won"], score["lost"] = (format_money(won[winner]),
                                       format_money(max(v for k, v in won.items()
                                                        if k != winner)))
        text = gettext("%(name)s wins the match %(won)s–%(lost)s") % {
            **score, "name": key_label(result, winner)}
    elif won[first] == won[second]:
        leader = None
        text = gettext("Level %(won)s–%(lost)s, first to %(needed)s") % score
    else:
        leader = first
        text = gettext("%(name)s leads %(won)s–%(lost)s, first to %(needed)s") % {
            **score, "name": key_label(result, first)}
    return MatchLine(text=text, leader=leader, won=won, needed=needed,
                     best_of=match["best_of"], over=bool(winner))
