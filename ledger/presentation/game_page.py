"""The game page as people read it, made once: ``GamePage``, the view-model of a game (its
sheet, the next hand's panel and form spec, the chart, the score) from which the views
draw the whole page (``context``) and what a Save changes of it (``saved``).

``hand_spec`` says what the hand form asks for; ``next_panel`` who deals, who plays whom
and who sits out; ``sheet_chart`` the running totals drawn. The screens only lay these out
(django-tables2 tables, the form's fields, the template)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TypedDict

from django.utils.translation import gettext, pgettext

from ledger.models import Game, GameStatus, Hand, ShareLink

from .catalog import (
    KNOCK,
    VARIANT_NAMES,
    contract_text,
    hand_kinds,
    hand_pair,
    in_the_box,
    opponents,
    sitting_out,
)
from .charts import running_chart
from .dates import format_day
from .flash import open_games_text, winner_sentence
from .match import match_line
from .questions import (
    abandon_question,
    delete_question,
    rematch_question,
    revoke_question,
    undo_question,
)
from .sheet import GameSheet, game_sheet
from .streets import streets_block
from .words import names, role_chip


class HandSpec(TypedDict, total=False):
    """What the hand form asks for. CAP-IT's rounds: ``rounds`` True, the ``players`` and
    the round's ``contract`` in words. Every other game: ``rounds`` False, the ``duels``
    (each table's two players, its label, dealer and role chips), whether the ``upcard`` is
    asked (``oklahoma``), whether a ``big_gin`` can be chosen, whether a knock can end a
    hand (``knocking``: not in straight gin, only gin), the game's ``rules`` (the core
    works the knock limit out from them), ``tables`` for several card tables and the
    ``cut_candidates`` of captain play."""

    rounds: bool
    players: list[str]
    contract: str
    upcard: bool
    oklahoma: bool
    big_gin: bool
    knocking: bool
    rules: dict
    tables: bool
    knock_card: bool
    duels: list[dict]
    cut_candidates: list[str]


def hand_spec(result: dict, info: dict) -> HandSpec:
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
    spec: HandSpec = {"rounds": False, "upcard": facts["upcard"],
                      "oklahoma": facts["upcard"],
                      "big_gin": "big_gin" in hand_kinds(rules), "rules": dict(rules),
                      # straight gin: only gin ends a hand (RULES 3.10)
                      "knocking": KNOCK in hand_kinds(
                          rules, limit_from_a_card=facts["upcard"] or facts["knock_card"])}
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
        if facts.get("knock_card"):  # one knock card for the deal, picked once (RULES 3.7)
            spec["knock_card"] = True
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


def next_hand_spec(result: dict) -> HandSpec:
    """What the form of the hand the game is at asks for (the core's ``next``)."""
    return hand_spec(result, result["next"])


def next_panel(result: dict) -> dict:
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
    for duel in hand_spec(result, nxt)["duels"]:
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


def sheet_chart(sheet: GameSheet, result: dict):
    """The running totals drawn, or None: Hollywood's hands count in up to three games at
    once, so no one line per player would be a total the page shows anywhere else."""
    facts = result["facts"]
    if facts["columns"] or result.get("streets"):  # streets: a deal counts in several
        return None
    lower_wins = facts["lower_wins"]
    # each played hand's running totals, as its row of the sheet has them (whether or not
    # the sheet was built with every row: a Save's answer builds the new row alone)
    return running_chart(
        sheet.layout.keys, [dict(hand.get("running") or {}) for hand in result["hands"]],
        # a best-of match has no target (RULES 3.10)
        target=None if lower_wins or result.get("match") else result["rules"].get("target"),
        title=gettext("Running totals (lowest wins)") if lower_wins else gettext("Running totals"),
        unit=facts["hand_noun"].lower(), labels=list(sheet.layout.labels))


@dataclass
class GamePage:
    """One game as its page shows it, for the scorekeeper (``owner``) or a share link's
    reader. ``settled``: the game's evening is settled (nothing offered changes a game).
    Made with ``GamePage.of``; drawn whole with ``context`` or, after a Save, as its changed
    parts with ``saved``."""

    game: Game
    result: dict
    sheet: GameSheet
    owner: bool
    settled: bool = False

    @classmethod
    def of(cls, game: Game, result: dict, *, owner: bool, settled: bool = False,
           history=None, record: dict | None = None, last: int | None = None) -> GamePage:
        """``history``: every Hand row of the game (read when needed and not given);
        ``record``: the game's record scored for ``result``; ``last``: the sheet's last
        ``last`` hands alone (a Save's answer: the new row)."""
        return cls(game=game, result=result, owner=owner, settled=settled,
                   sheet=game_sheet(game, record=record, result=result, history=history,
                                    owner=owner, last=last))

    @property
    def ended(self) -> bool:
        return self.sheet.ended

    @cached_property
    def panel(self) -> dict:
        """Who deals and plays the next hand (also for an ended game: a Save's answer)."""
        return next_panel(self.result)

    @cached_property
    def chart(self):
        return sheet_chart(self.sheet, self.result)

    def _shared(self) -> dict:
        game, result, sheet = self.game, self.result, self.sheet
        return {"game": game, "session": game.session, "table": game.session.table,
                "result": result, "keys": sheet.layout.keys, "view": sheet,
                "owner": self.owner, "scoreboard": sheet.scores,
                "target": result["rules"].get("target"), "chart": self.chart,
                "last_number": len(result["hands"]),
                "streets": streets_block(result), "match": match_line(result)}

    def context(self) -> dict:
        """The words and numbers of the whole page (the views add the sheet's tables)."""
        sheet, result = self.sheet, self.result
        return {
            **self._shared(),
            "facts": result["facts"],
            "variant_label": VARIANT_NAMES.get(self.game.variant, self.game.variant),
            "money": sheet.money,
            "ended": sheet.ended, "abandoned": sheet.abandoned,
            "panel": None if sheet.ended else self.panel,
            "corrections": sheet.voided_rows,
            "settled": self.settled,
            "winner_text": sheet.winner,
            "winner_sentence": winner_sentence(result),  # the same words for all readers
        }

    def owner_parts(self, *, last: Hand | None, empty: bool, share_link: ShareLink | None,
                    rematch: dict | None) -> dict:
        """What the scorekeeper's page asks and says besides the sheet: the questions
        before undoing the ``last`` hand, abandoning the game or deleting it (``empty``:
        no hand at all and no report from its tables, started by mistake), revoking the
        game's ``share_link``, opening a new evening for a rematch (``rematch``: the
        players, ``today`` and the new evening's ``number``, when one would be opened);
        the settled evening's date, the open games, the winner. Nothing that changes a
        game in a settled evening."""
        game, result, settled = self.game, self.result, self.settled
        playing = game.status == GameStatus.IN_PROGRESS
        return {
            "undo_question": None if settled else undo_question(game, result, last=last),
            "abandon_question": (abandon_question(game, result)
                                 if not settled and playing and not empty else None),
            "delete_question": delete_question(game) if not settled and empty else None,
            "revoke_question": revoke_question(share_link) if share_link else None,
            "settled_text": format_day(game.session.date) if settled else "",
            "open_games_text": open_games_text(result),
            "rematch": self.ended,
            "rematch_question": (rematch_question(game, rematch["players"],
                                                  today=rematch["today"],
                                                  number=rematch["number"])
                                 if self.ended and settled and rematch else None),
            "winner_sentence": winner_sentence(result),
        }

    def saved(self, text: str, *, whole: bool, last: Hand | None) -> dict:
        """What a saved hand changes of the page (``ledger/_hand_saved.html``): the next
        hand's panel, the score, the chart, the undo and abandon questions; ``text``: the
        saved hand in words; ``whole``: the sheet goes whole; ``last``: the game's last
        live hand (its undo question)."""
        return {
            **self._shared(),
            "panel": self.panel, "saved_text": text, "oob": True, "whole": whole,
            "ended": False, "abandoned": False,
            # the panel's line of Hollywood's open games, as the whole page has it
            "open_games_text": open_games_text(self.result),
            "undo_question": undo_question(self.game, self.result, last=last),
            # a hand was just saved: the game is abandoned now, not deleted
            "abandon_question": abandon_question(self.game, self.result),
            "delete_question": None,
        }
