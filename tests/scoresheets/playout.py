"""Games played out with the core, hand by hand, for the paper tests and
``scripts/render-all-pdfs``: long names, every variant and count, large numbers when asked.
Each hand is checked by the core as it is added (an illegal one is drawn again)."""

from __future__ import annotations

import random

NAMES = ["Maximiliana Featherstonehaugh", "Bartholomew Cholmondeley-Smythe",
         "Anastasia Wolfeschlegelstein", "Christophe Vanderbilt-Ashworth",
         "Guinevere Montmorency-Lloyd", "Theodora Abernathy-Fitzwilliam",
         "Wilhelmina Papadopoulou"]
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["S", "H", "D", "C"]


def setup_of(variant: str, players: list[str]) -> dict:
    """The setup the core's facts of the game ask for (who deals first, captains and
    opponents, two named sides), whatever the variant is called."""
    from ledger.rules.facts import game_facts
    from ledger.rules.variants import CAPTAIN_TABLES, FIRST_DEALER, SIDES

    setup = game_facts(variant, len(players)).setup
    if setup == FIRST_DEALER:
        return {"first_dealer": players[0]}
    if setup == CAPTAIN_TABLES:
        half = len(players) // 2
        return {"captains": players[:half], "opponents": players[half:2 * half],
                "sitter": players[-1]}
    if setup == SIDES:
        half = len(players) // 2
        return {"sides": {"Our Magnificent Side": players[:half],
                          "Their Formidable Side": players[half:]}}
    return {}


def duel(pair: list[str], rng: random.Random, big: bool, upcard: str | None = None) -> dict:
    winner = rng.choice(pair)
    loser = pair[1] if winner == pair[0] else pair[0]
    limit = 10
    if upcard:
        rank = upcard[:-1]
        limit = 0 if rank == "A" else min(10, 10 if rank in "JQK" else int(rank))
    knock = 0 if rng.random() < 0.25 else rng.randint(0, limit)
    high = 95 if big else 40
    entry = {"knocker": winner, "deadwood": {winner: knock, loser: rng.randint(knock + 1, high)}}
    if upcard:
        entry["upcard"] = upcard
    return entry


def next_entry(variant: str, result: dict, players: list[str], rng: random.Random,
               big: bool) -> dict:
    nxt = result.get("next") or {}
    facts = result["facts"]
    if facts["rounds"]:  # CAP-IT's rounds: who went out, the others' cards
        went_out = rng.choice(players)
        return {"went_out": went_out,
                "cards": {p: " ".join(rng.choice(RANKS + ["JK"]) for _ in range(rng.randint(1, 6)))
                          for p in players if p != went_out}}
    if nxt.get("tables"):
        return {"tables": [duel(list(pair["players"] if isinstance(pair, dict) else pair), rng,
                                big) for pair in nxt["tables"]]}
    if rng.random() < 0.05:
        return {"draw": True}
    roles = nxt.get("roles") or {}
    pair = [p for p in players if roles.get(p) != "sits_out"] if roles else players
    upcard = f"{rng.choice(RANKS)}{rng.choice(SUITS)}" if facts["upcard"] else None
    return duel(pair, rng, big, upcard)


def play(variant: str, players: list[str], *, stakes: dict, rules: dict, hands: int | None,
         seed: int, big: bool) -> dict:
    """A record of ``variant`` played until the core says it is complete (or ``hands``
    hands, for a game in progress), each hand checked by the core as it is added."""
    from ledger.rules import RecordError, score_record

    rng = random.Random(seed)
    record = {"format": "tablestakes.game/1", "variant": variant, "rules": dict(rules),
              "players": list(players), "stakes": stakes,
              "setup": setup_of(variant, players), "abandoned": False, "hands": []}
    try:
        result = score_record(record)
    except RecordError:
        record["rules"] = {}
        result = score_record(record)
    for _ in range(400):
        if result["complete"] or (hands is not None and len(record["hands"]) >= hands):
            break
        for _attempt in range(50):
            entry = next_entry(variant, result, players, rng, big)
            trial = {**record, "hands": [*record["hands"], entry]}
            try:
                result = score_record(trial)
            except RecordError as exc:
                if "tables" not in entry or not any(
                        "cut" in (p.field or "") + p.code for p in exc.details):
                    continue
                losers = [next(p for p in t["deadwood"] if p != t["knocker"])
                          for t in entry["tables"]]
                entry["cut_loser"] = rng.choice(losers)
                try:
                    result = score_record({**record, "hands": [*record["hands"], entry]})
                except RecordError:
                    continue
            record["hands"].append(entry)
            break
        else:
            raise SystemExit(f"{variant}: no legal hand found after {len(record['hands'])}")
    if hands is None and not result["complete"]:
        record["abandoned"] = True
    return record
