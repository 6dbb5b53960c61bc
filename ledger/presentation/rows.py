"""Hand rows: one ``HandRow`` per hand of a game, live or voided, in the order people read
them (a voided hand just before the hand that replaced it).

A voided hand (corrected or undone) is shown one way everywhere: scored in its place (the
live hands before it, then it, as the core would have scored it), in the same words as a
live hand, with its points and running totals of that moment, struck through, with the
reason and who voided it and when. When it can no longer be scored in its place (the hands
before it were corrected since), it reads from its entry, without points.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.utils.translation import gettext, pgettext

from ledger import rules as core
from ledger.selectors.games import entry_as_played, game_seats

from .cardtext import card_text, hand_layout_lines
from .catalog import contract_text
from .club import deal_line
from .dates import format_moment
from .money import format_money, money_words
from .words import (
    duel_text,
    gains_text,
    hand_text,
    matchup_text,
    names,
    person_name,
    result_word,
    win_verb,
)


@dataclass
class Duel:
    """One table of a hand in a table game."""

    table: int
    players: list[str]
    dealer: str
    text: str          # "Ann knocks 5 v Bob 17"
    score: str         # "Ann 12", "" for a draw


@dataclass
class HandRow:
    number: int
    dealer: str = ""
    text: str = ""                 # the hand in words (a table game: its tables, " / ")
    result: str = ""               # "Knock", "Gin ×2"...
    upcard: str = ""               # Oklahoma, "Q♠"
    matchup: str = ""              # box / captain 3: "Ann (box) v Bob"
    roles: dict[str, str] = field(default_factory=dict)   # role -> names
    duels: list[Duel] = field(default_factory=list)       # table games
    note: str = ""                 # captain play: who sits out, a substitution
    deal: str = ""                 # a club deal: knock card, boxes, streets (club.py)
    points: dict[str, int] = field(default_factory=dict)
    running: dict[str, int] = field(default_factory=dict)
    winner: str = ""
    winner_points: int = 0
    columns: list[int] = field(default_factory=list)            # Hollywood: games entered
    column_running: list[dict] = field(default_factory=list)    # Hollywood: each game's
    contract: str = ""             # CAP-IT
    went_out: str = ""             # CAP-IT: "Ann out", "Stock ran out"
    cards_left: dict[str, str] = field(default_factory=dict)    # CAP-IT: name -> cards
    shares: dict[str, str] = field(default_factory=dict)        # CAP-IT: name -> "2,00 €"
    share_numbers: dict[str, str] = field(default_factory=dict)  # the same, "2,00": paper
    melds: list[str] = field(default_factory=list)              # entered with the cards
    played: bool = True            # False: a CAP-IT round still to come
    next_up: bool = False          # the CAP-IT round to be played next
    void: bool = False
    void_kind: str = ""            # "Corrected" / "Undone"
    void_reason: str = ""
    void_by: str = ""              # empty on share pages: account names stay private
    void_at: datetime | None = None
    scored: bool = True            # a voided hand that could be scored in its place

    @property
    def lines(self) -> list[str]:
        """The lines under the hand's text: who played whom, the tables, the melds."""
        out = []
        if self.upcard:
            out.append(gettext("%(card)s up") % {"card": self.upcard})
        if self.matchup:
            out.append(self.matchup)
        if self.duels:
            out += [duel_line(duel) for duel in self.duels]
        if self.note:
            out.append(self.note)
        if self.deal:
            out.append(self.deal)
        return out + self.melds

    @property
    def void_note(self) -> str:
        """"Corrected: a king was missed — Kim, 23 Nov 2026 21:04"."""
        if not self.void:
            return ""
        text = f"{self.void_kind}: {self.void_reason}"
        if self.void_by:
            text += f" \u2014 {self.void_by}"
        if self.void_at is not None:
            text += f", {when_text(self.void_at)}"
        return text


def duel_line(duel: Duel) -> str:
    """A table of a hand in one line: "T1 Ann knocks 5 v Bob 17 · Ann 12"."""
    return f"{table_tag(duel.table)} {duel.text}" + (
        f" \u00b7 {duel.score}" if duel.score else "")


def table_tag(number) -> str:
    """A card table in a hand's line: "T1" ("table 1", short)."""
    return pgettext("card table, short", "T%(n)s") % {"n": number}


def when_text(moment: datetime) -> str:
    """A moment of the game's history, in the table's zone and the locale in force."""
    return format_moment(moment)


def _roles(hand: dict) -> dict[str, str]:
    by_role: dict[str, list[str]] = {}
    for name, role in (hand.get("roles") or {}).items():
        by_role.setdefault(role, []).append(name)
    return {role: names(people) for role, people in by_role.items()}


def _games_of(row: HandRow, hand: dict) -> None:
    """The games side by side a hand counted in and each one's running score: Hollywood's
    columns, or the open streets a deal of streets counted in (RULES §3.9), whether the hand
    is one duel or a line per card table."""
    if "columns" in hand:  # a drawn hand counts in no game and keeps every game's score
        row.columns = list(hand["columns"] or [])
        row.column_running = [dict(c) for c in hand.get("column_running") or []]
    elif "streets" in hand:
        row.columns = list(hand["streets"] or [])
        row.column_running = [dict(c) for c in hand.get("street_points") or []]


def hand_row(hand: dict, result: dict, entry: dict | None = None) -> HandRow:
    """The row of one hand of the core's result (``entry``: what was typed, for CAP-IT's
    cards left)."""
    facts = result["facts"]
    row = HandRow(number=hand["number"], dealer=names(hand.get("dealer")),
                  points=dict(hand.get("points") or {}), running=dict(hand.get("running") or {}),
                  roles=_roles(hand))
    winner = hand.get("winner")
    if isinstance(winner, str):
        row.winner = winner
        row.winner_points = (hand.get("points") or {}).get(winner, 0)
    if facts["rounds"]:
        row.contract = contract_text(hand.get("contract"))
        row.went_out = (gettext("%(name)s out") % {"name": hand["went_out"]}
                        if hand.get("went_out") else gettext("Stock ran out"))
        row.text = row.went_out
        row.result = gettext("Round")  # CAP-IT: a round, as the core calls it
        row.cards_left = {name: str(cards) for name, cards in
                          ((entry or {}).get("cards") or {}).items() if cards}
        currency = result.get("currency", "")
        shares = hand.get("shares") or {}
        row.shares = {name: money_words(amount, currency) for name, amount in shares.items()}
        # the paper's share column is narrow: the number alone, as the language writes
        # it (its currency is on the sheet's stakes and money lines)
        row.share_numbers = {name: format_money(amount, currency)
                             for name, amount in shares.items()}
        return row
    if "tables" in hand:
        for table in hand["tables"]:
            won = table.get("winner")
            row.duels.append(Duel(
                table=table["table"], players=list(table["players"]),
                dealer=table.get("dealer") or "", text=duel_text(table),
                score=f"{won} {table['points'][won]}" if won else ""))
        row.text = " / ".join(f"{table_tag(duel.table)} {duel.text}" for duel in row.duels)
        row.result = pgettext("card table", "Tables")
        notes = []
        if not facts["named_sides"] and row.roles.get("sits_out"):
            notes.append(gettext("%(name)s sits out") % {"name": row.roles["sits_out"]})
        sub = hand.get("substitution")
        if sub:
            notes.append(gettext("%(in)s in for %(out)s at table %(table)s") % {
                "in": sub["in"], "out": sub["out"], "table": sub["table"]})
        row.note = "; ".join(notes)
        row.deal = deal_line(hand, result)
    else:
        row.text = hand_text(hand, result)
        row.result = result_word(hand, result)
        if facts["upcard"]:
            row.upcard = card_text(hand.get("upcard"))
        row.matchup = matchup_text(row.roles)
    _games_of(row, hand)
    row.melds = hand_layout_lines(hand)
    return row


def entry_row(number: int, entry: dict) -> HandRow:
    """A voided hand that can no longer be scored in its place, from what was typed."""
    if "tables" in entry:
        text = " / ".join(f"{table_tag(i)} " + (gettext("Draw") if part.get("draw")
                                                  else _entry_duel(part))
                          for i, part in enumerate(entry["tables"], start=1))
    elif "went_out" in entry or "points" in entry:
        counts = entry.get("points") or entry.get("cards") or {}
        listed = ", ".join(f"{name} {value}" for name, value in counts.items())
        text = (gettext("%(name)s out; %(counts)s") % {"name": entry["went_out"], "counts": listed}
                if entry.get("went_out") else gettext("Nobody out; %(counts)s") % {
                    "counts": listed})
    elif entry.get("draw"):
        text = gettext("Draw")
    else:
        text = _entry_duel(entry)
    return HandRow(number=number, text=text, scored=False)


def _entry_duel(entry: dict) -> str:
    deadwood = entry.get("deadwood") or {}
    knocker = entry.get("knocker")
    others = ", ".join(f"{name} {value}" for name, value in deadwood.items() if name != knocker)
    said = {"knocker": knocker, "count": deadwood.get(knocker, ""), "others": others}
    if others:
        return gettext("%(knocker)s knocks %(count)s v %(others)s") % said
    return gettext("%(knocker)s knocks %(count)s") % said


def capit_rows(result: dict, record: dict, contracts: tuple[str, ...]) -> list[HandRow]:
    """CAP-IT's five rounds: the played ones, then the ones to come (the next one marked)."""
    entries = record.get("hands") or []
    played = {hand["number"]: hand for hand in result["hands"]}
    nxt = result.get("next") or {}
    rows = []
    for number, contract in enumerate(contracts, start=1):
        if number in played:
            entry = entries[number - 1] if number <= len(entries) else None
            rows.append(hand_row(played[number], result, entry))
            continue
        row = HandRow(number=number, contract=contract_text(contract), played=False)
        if nxt.get("round") == number and not result.get("complete"):
            row.next_up = True
            row.dealer = names(nxt.get("dealer"))
        rows.append(row)
    return rows


def voided_rows(game, history, record: dict, *, owner: bool, seats=None) -> list[HandRow]:
    """Every voided hand of ``history`` (all the game's Hand rows), scored in its place;
    ``seats`` (the game's, if the caller has them) are read at the first voided hand."""
    rows = []
    replaced = {hand.replaces_id for hand in history if hand.replaces_id}
    for hand in history:
        if hand.voided_at is None:
            continue
        seats = game_seats(game) if seats is None else seats
        corrected = hand.pk in replaced
        attempt = dict(record, hands=record["hands"][: hand.number - 1] + [
            entry_as_played(game, hand.entry, seats)], abandoned=False)
        try:
            scored = core.score_record(attempt)
            row = hand_row(scored["hands"][-1], scored, attempt["hands"][-1])
        except (core.RecordError, IndexError, KeyError):
            row = entry_row(hand.number, attempt["hands"][-1])
        row.void = True
        row.void_kind = gettext("Corrected") if corrected else gettext("Undone")
        row.void_reason = hand.void_reason
        row.void_by = person_name(hand.voided_by) if owner and hand.voided_by_id \
            else ""
        row.void_at = hand.voided_at
        rows.append(row)
    return rows


def all_rows(game, result: dict, record: dict, history, *, owner: bool,
             contracts: tuple[str, ...] = (), seats=None) -> list[HandRow]:
    """Live rows with each voided hand just before the live hand of its number."""
    if result["facts"]["rounds"]:
        live = capit_rows(result, record, contracts)
    else:
        live = [hand_row(hand, result) for hand in result["hands"]]
    voided = voided_rows(game, history, record, owner=owner, seats=seats)
    by_number: dict[int, list[HandRow]] = {}
    for row in voided:
        by_number.setdefault(row.number, []).append(row)
    out: list[HandRow] = []
    for row in live:
        out += by_number.pop(row.number, [])
        out.append(row)
    for number in sorted(by_number):  # an undone last hand has no live hand after it
        out += by_number[number]
    return out


__all__ = ["Duel", "HandRow", "all_rows", "capit_rows", "duel_line", "entry_row", "hand_row",
           "voided_rows", "when_text"]


def preview_words(hand: dict, result: dict) -> dict[str, str]:
    """A hand not yet saved, as the hand form's live preview says it: the hand in words
    ("Ann knocks 5 v Bob 17"), its points ("Ann +12"), who sits out or comes in, and, when
    it would end the game, who wins. ``hand`` is the last of ``result["hands"]``."""
    row = hand_row(hand, result)
    text = row.text or " / ".join(duel_line(duel) for duel in row.duels)
    if row.matchup and not row.duels:
        text = f"{row.matchup}: {text}"
    after = ""
    if result.get("complete"):
        winner = result.get("winner")
        after = (gettext("Game over: %(who_wins)s.") % {"who_wins": win_verb(result, winner)}
                 if winner else gettext("Game over: a tie."))
    return {"text": text, "gains": gains_text(hand), "note": row.note, "after": after}
