"""Small builders for game records in the rules tests."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data"


def knock(knocker, k, opponent, o, **extra):
    return {"knocker": knocker, "deadwood": {knocker: k, opponent: o}, **extra}


def gin(knocker, opponent, o, **extra):
    return knock(knocker, 0, opponent, o, **extra)


def win(winner, loser, points):
    """A hand the winner takes by exactly ``points`` with a plain knock (points <= 88)."""
    return knock(winner, 1, loser, points + 1)


DRAW = {"draw": True}


def record(variant="gin", players=("A", "B"), hands=(), *, preset=None, rules=None,
           stakes=("0.01", 1, "USD"), setup=None, abandoned=None, player_stakes=None):
    rec = {"format": "tablestakes.game/1", "variant": variant, "players": list(players)}
    if preset:
        rec["preset"] = preset
    if rules:
        rec["rules"] = rules
    if stakes is not None:
        rate, per_points, currency = stakes
        rec["stakes"] = {"rate": rate, "per_points": per_points, "currency": currency}
        if player_stakes:
            rec["stakes"]["players"] = player_stakes
    if setup is None:
        setup = {"first_dealer": players[0]} if variant in (
            "gin", "oklahoma", "hollywood", "cap-it") else {}
    rec["setup"] = setup
    if abandoned is not None:
        rec["abandoned"] = abandoned
    rec["hands"] = list(hands)
    return rec


def money(result):
    return {name: Decimal(amount) for name, amount in result["money"].items()}


def load(name):
    return json.loads((DATA / name).read_text())
