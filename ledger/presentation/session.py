"""An evening as people read it: each game in a line (its players, scores, result and
money), each player's net, and the payments (the settled ones, or the fewest that would
square the evening). The session page and the printed session report both show this one
``SessionSummary``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from django.utils.translation import gettext, gettext_noop

from ledger.models import Game, GameStatus, Session, SessionSettlement
from ledger.rules.money import fewest_payments
from ledger.selectors.evenings import (
    session_game_records,
    session_nets,
    session_players,
    session_settlement,
    settlement_nets,
)
from ledger.selectors.games import score

from . import money as money_
from .club import match_scores, match_status
from .dates import evening_words
from .header import stakes_lines
from .money import plain_amount
from .rows import when_text
from .sheet import side_label
from .words import hands_count, lead_words, names, status_line, variant_title


@dataclass
class GameLine:
    game: Game
    title: str
    status_word: str
    players: str            # "Ann, Bob and Cy"; sides: "We: Ann and Bob; They: ..."
    hands: int
    scores: list[money_.Score]
    status: str
    winner: str
    money: list[money_.MoneyLine]
    payments: list[money_.PaymentLine]
    stakes: str
    noun: str = "hand"      # what its hands are called ("round" in CAP-IT: the core's facts)
    lead: str = ""          # "Ann wins", "Rosa leads", "Level" (words.lead_words)

    @property
    def hands_words(self) -> str:
        """"5 hands", "1 round", in the language in force."""
        return hands_count(self.noun, self.hands)


@dataclass
class SessionSummary:
    session: Session
    currency: str
    games: list[GameLine]
    players: list[str]
    nets: list[money_.MoneyLine]
    payments: list[money_.PaymentLine]
    settlement: SessionSettlement | None
    open_games: list[int] = field(default_factory=list)

    @property
    def settled(self) -> bool:
        return self.settlement is not None


def _players_text(result: dict) -> str:
    sides = result.get("sides") or {}
    if sides:
        return "; ".join(f"{side_label(result, side)}: {names(members)}"
                         for side, members in sides.items())
    return names(result["players"])


def game_line(game: Game, record: dict, result: dict) -> GameLine:
    money = money_.game_money(result, record)
    return GameLine(
        game=game, title=variant_title(game.variant, result.get("preset")),
        status_word=GameStatus(game.status).label, players=_players_text(result),
        hands=len(result["hands"]),
        scores=match_scores(result)  # RULES 3.10: a match counts hands won
        or [replace(s, label=side_label(result, s.key)) for s in money_.scores(result)],
        status=match_status(result) or status_line(result),
        winner=names(result.get("winner")), money=money.lines, payments=money.payments,
        stakes=", ".join(stakes_lines(record, result)),
        noun=result["facts"]["hand_noun"].lower(), lead=lead_words(result))


def session_summary(session: Session,
                    progress: Callable[[int, int], None] | None = None) -> SessionSummary:
    """Every game of the evening summarised, the nets and the payments, in a fixed number
    of queries whatever the number of games and hands."""
    records = session_game_records(session)
    games = [game for game, _ in records]
    players = session_players(session, games)
    lines = []
    for index, (game, record) in enumerate(records, start=1):
        lines.append(game_line(game, record, score(record)))
        if progress is not None:
            progress(index, len(games))
    currency = session.currency
    settlement = session_settlement(session)
    if settlement is not None:
        units = settlement_nets(settlement, players)
        payments = [money_.PaymentLine(
            payer=p.payer.name, payee=p.payee.name,
            amount=plain_amount(p.amount_minor, settlement.currency), paid=p.is_paid,
            paid_at=_when(p.paid_at), pk=p.pk) for p in settlement.payments.all()]
    else:
        units = session_nets(session, games)
        open_games = [game for game in games if game.status == GameStatus.IN_PROGRESS]
        payments = [] if open_games else [
            money_.PaymentLine(payer=p.payer, payee=p.payee,
                               amount=plain_amount(p.units, currency))
            for p in fewest_payments(units)]
    nets = [money_.MoneyLine(name=name, amount=plain_amount(amount, currency))
            for name, amount in units.items()]
    return SessionSummary(
        session=session, currency=currency, games=lines,
        players=[player.name for player in players], nets=nets, payments=payments,
        settlement=settlement,
        open_games=[game.sequence for game in games if game.status == GameStatus.IN_PROGRESS])


_ORDINALS = {2: gettext_noop("second evening"), 3: gettext_noop("third evening"),
             4: gettext_noop("fourth evening"), 5: gettext_noop("fifth evening")}


def evening_heading(session: Session) -> str:
    """An evening as a share page heads it: "Wednesday, November 25, 2026 · Rosa's", and a
    day's second evening "Wednesday, November 25, 2026, second evening · Rosa's": told
    apart in words, not by a bare "(2)" that reads like a repeat to someone who follows
    the link (``Session.number``; lists set it with ``selectors.set_evening_numbers``)."""
    text = evening_words(session.date, standing_alone=True)
    if session.number > 1:
        ordinal = _ORDINALS.get(session.number)
        text += ", " + (gettext(ordinal) if ordinal
                        else gettext("evening %(n)s") % {"n": session.number})
    if session.place:
        text += f" \u00b7 {session.place}"
    return text


def _when(moment) -> str:
    return "" if moment is None else when_text(moment)
