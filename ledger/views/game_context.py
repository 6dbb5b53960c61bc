"""What the game page and the shared game page show: the game loaded with its result,
the next hand's form spec, the panel of who deals and plays next, and the sheet (the
presentation layer's ``GameSheet`` as django-tables2 tables)."""

from __future__ import annotations

from django.db.models import prefetch_related_objects
from django.utils.translation import gettext, pgettext

from ledger.models import Game, Hand
from ledger.presentation.catalog import (
    VARIANT_NAMES,
    contract_text,
    hand_kinds,
    hand_pair,
    in_the_box,
    opponents,
    sitting_out,
)
from ledger.presentation.charts import running_chart
from ledger.presentation.flash import winner_sentence
from ledger.presentation.sheet import game_sheet
from ledger.presentation.words import names, person_name, role_chip
from ledger.selectors.evenings import session_is_settled
from ledger.selectors.games import (
    game_live_entries,
    game_record,
    game_result,
    score,
    seats_with_players,
)
from ledger.selectors.hands import game_history

from .game_settings import change_rows
from .sheet_tables import column_tables, fix_pattern, sheet_table, totals_table

# -- loading a game and its result -----------------------------------------------------------

def load_game(game: Game) -> tuple[dict, list[Hand]]:
    """The core's result for ``game`` and its whole hand history, in a fixed number of
    queries whatever the number of hands (seats with players, and one query for every hand
    ever entered, from which the live ones are taken)."""
    prefetch_related_objects([game], seats_with_players())
    history = game_history(game)
    game.live_hands = sorted((h for h in history if h.voided_at is None),
                             key=lambda h: h.number)
    return game_result(game), history


def load_live(game: Game) -> tuple[dict, list[dict]]:
    """The core's result for ``game`` and the entries of its live hands (number order), read
    without the history: what a hand sent to the game needs before it is stored (its form's
    spec, the next number). ``load_game`` reads every hand as a row with who recorded it,
    for a page that shows them; a Save's answer shows only the new row."""
    prefetch_related_objects([game], seats_with_players())
    entries = game_live_entries(game)
    return score(game_record(game, hands=entries)), entries


def seat_names(game: Game) -> list[str]:
    """The game's players by name, in seat order."""
    return [seat.player.name for seat in game.seats.select_related("player").order_by("seat")]


def hand_spec(variant: str, result: dict, info: dict) -> dict:
    """What the hand form asks for, from ``info``: ``result["next"]`` for the next hand, or a
    hand of ``result["hands"]`` to correct it."""
    players = result["players"]
    facts = result["facts"]
    if facts["rounds"]:
        return {"rounds": True, "players": players,
                "contract": contract_text(info.get("contract"))}
    rules = result["rules"]
    # the game's settings go with the form: the core works the knock limit out from them
    # and the up-card (ledger.presentation.cards.hand_knock_limit)
    spec: dict = {"rounds": False, "upcard": facts["upcard"],
                  "oklahoma": facts["upcard"],
                  "big_gin": "big_gin" in hand_kinds(rules), "rules": dict(rules)}
    roles = info.get("roles") or {}
    tables = info.get("tables")
    if tables:
        dealers = info.get("dealer") or []
        duels = []
        for i, table in enumerate(tables, start=1):
            pair = table["players"] if isinstance(table, dict) else table
            dealer = table.get("dealer") if isinstance(table, dict) else (
                dealers[i - 1] if isinstance(dealers, list) and len(dealers) >= i else None)
            # each player's role chip, for the table's row in the hand form (the matchup
            # is said there, once, next to its fields)
            label = pgettext("card table", "Table %(n)s") % {"n": i}
            duels.append({"players": list(pair), "label": label, "dealer": dealer,
                          "chips": [role_chip(roles.get(name)) for name in pair],
                          "dealer_words": names(dealer)})
        spec["tables"] = True
        spec["duels"] = duels
        if not facts["named_sides"]:  # captain play: the opponents may have to cut
            cutting = set(opponents(roles))
            spec["cut_candidates"] = [name for duel in duels for name in duel["players"]
                                      if name in cutting]
        return spec
    if facts["hand_roles"]:  # three at one table: the two who play, box or captain first
        pair = hand_pair(roles)
    else:
        pair = list(players)
    spec["duels"] = [{"players": pair, "dealer": info.get("dealer")}]
    return spec


def next_panel(variant: str, result: dict) -> dict:
    """Who deals, who plays whom, who is in the box, who sits out, the contract: the
    core's ``next`` in words."""
    nxt = result.get("next") or {}
    roles = nxt.get("roles") or {}
    panel: dict = {"number": len(result["hands"]) + 1, "dealer": names(nxt.get("dealer")),
                   "tables": [], "roles": [], "sits_out": sitting_out(roles)}
    if result["facts"]["rounds"]:
        panel["round"] = nxt.get("round")
        panel["contract"] = contract_text(nxt.get("contract"))
        return panel
    spec = hand_spec(variant, result, nxt)
    for duel in spec["duels"]:
        a, b = duel["players"]
        panel["tables"].append({"label": duel.get("label"), "a": a, "b": b,
                                "a_role": roles.get(a), "b_role": roles.get(b),
                                "a_chip": role_chip(roles.get(a)),
                                "b_chip": role_chip(roles.get(b)),
                                "dealer": names(duel.get("dealer"))})
    box = in_the_box(roles)
    if box:
        panel["box"] = box
    if nxt.get("dealer_side"):
        panel["dealer_side"] = nxt["dealer_side"]
    return panel


def sheet_chart(game: Game, sheet, result: dict):
    """The running totals drawn, or None: Hollywood's hands count in up to three games at
    once, so no one line per player would be a total the page shows anywhere else."""
    facts = result["facts"]
    if facts["columns"]:
        return None
    lower_wins = facts["lower_wins"]
    # each played hand's running totals, as its row of the sheet has them (whether or not
    # the sheet was built with every row: a Save's answer builds the new row alone)
    return running_chart(
        sheet.layout.keys, [dict(hand.get("running") or {}) for hand in result["hands"]],
        target=None if lower_wins else result["rules"].get("target"),
        title=gettext("Running totals (lowest wins)") if lower_wins else gettext("Running totals"),
        unit=facts["hand_noun"].lower(), labels=list(sheet.layout.labels))


def game_context(game: Game, result: dict, history: list[Hand], *, owner: bool) -> dict:
    """Everything the sheet shows, for the scorekeeper's page and the shared page alike:
    the presentation layer's ``GameSheet`` laid out as tables."""
    sheet = game_sheet(game, result=result, history=history, owner=owner)
    keys = sheet.layout.keys
    # a settled evening offers nothing that changes a game (no ✎, undo, stakes, next game)
    settled = owner and session_is_settled(game.session)
    return {
        "game": game, "session": game.session, "table": game.session.table,
        "result": result, "facts": result["facts"], "keys": keys, "view": sheet,
        "variant_label": VARIANT_NAMES.get(game.variant, game.variant),
        "sheet": sheet_table(sheet, fix_url=fix_pattern(game.pk)
                             if owner and not settled else None),
        "totals": totals_table(sheet),
        "columns": column_tables(sheet),
        "chart": sheet_chart(game, sheet, result),
        "scoreboard": sheet.scores,
        "target": result["rules"].get("target"),
        "money": sheet.money,
        "ended": sheet.ended, "abandoned": sheet.abandoned,
        "panel": None if sheet.ended else next_panel(game.variant, result),
        "corrections": sheet.voided_rows,
        "changes": [{**row, "by": person_name(row["by"]) if owner else None}
                    for row in change_rows(game.changes.select_related("changed_by"))],
        "last_number": len(result["hands"]),
        "owner": owner,
        "settled": settled,
        "winner_text": sheet.winner,
        "winner_sentence": winner_sentence(result),  # the same words for owner and players
    }
