"""A blank sheet printed from the evening's screen, for a game that does not exist yet: a
chosen variant with its players in the seats the scorekeeper chose (scoresheets.forms), the
preset and the evening's stake (or CAP-IT's ante).

Nothing is stored. The core scores the would-be record with no hands: a setup it would not
start is refused here the same way (``RecordError`` with its problems, which the form puts
at the fields they name)."""

from __future__ import annotations

from django.db.models import Max
from django.utils.translation import gettext as _

from ledger.models import Game, Session
from ledger.presentation.catalog import game_facts
from ledger.presentation.money import decimal_text, money_words
from ledger.presentation.stakes import BLANK_AMOUNT, ante_sentence, stake_sentence

from .selectors import blank_sheet_context

RECORD_FORMAT = "tablestakes.game/1"


def blank_record(session: Session, variant: str, players: list[str], setup: dict,
                 preset: str = "", ante=None) -> dict:
    record: dict = {"format": RECORD_FORMAT, "variant": variant}
    if preset:
        record["preset"] = preset
    record["rules"] = {}
    record["players"] = list(players)
    ante_staked = game_facts(variant, len(players)).ante_staked
    if not ante_staked and session.rate is not None:
        record["stakes"] = {"rate": decimal_text(session.rate, session.currency),
                            "per_points": session.per_points, "currency": session.currency}
    elif ante_staked and ante is not None:
        record["stakes"] = {"ante": decimal_text(ante, session.currency),
                            "currency": session.currency}
    record["setup"] = dict(setup)
    record["abandoned"] = False
    record["hands"] = []
    return record


def evening_blank_context(session: Session, variant: str, players: list[str], setup: dict,
                          preset: str = "", ante=None) -> tuple[dict, int]:
    """The blank sheet's context, and the number the game would have in the evening.
    Raises the core's ``RecordError`` (a ValueError, with ``details``: its problems) if it
    would not start this game."""
    sequence = (session.games.aggregate(n=Max("sequence"))["n"] or 0) + 1
    record = blank_record(session, variant, players, setup, preset, ante)
    ante_staked = game_facts(variant, len(players)).ante_staked
    game = Game(session=session, sequence=sequence, variant=variant, preset=preset,
                rules={}, setup=record["setup"], currency=session.currency,
                rate=None if ante_staked else session.rate,
                per_points=session.per_points, ante=ante if ante_staked else None)
    context = blank_sheet_context(game, record=record)
    if "stakes" not in record:  # no ante typed, or an evening without a stake: to write in
        money = session.currency
        context["stakes"] = ([ante_sentence(BLANK_AMOUNT, money, each=True),
                              _("Pot %(amount)s") % {
                                  "amount": money_words(BLANK_AMOUNT, money)}] if ante_staked
                             else [_("Stake %(stake)s") % {
                                 "stake": stake_sentence(BLANK_AMOUNT, money)}])
    return context, sequence
