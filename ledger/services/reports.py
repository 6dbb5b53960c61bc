"""Report links and the tables' reports (issue 23; ``ledger.models.reports``): make and
revoke a game's links, send a table's (or a CAP-IT player's) part of the current hand,
withdraw it. The reports only fill the scorekeeper's form: the hand is recorded by
``hand_record`` alone, which links the live reports of its hand to it
(``reports_attach``).

A report is checked by the core as its part of the next hand (``ledger.rules.report``)
and refused with the core's words; one for any other hand than the next is refused with
``ReportStale`` ("Hand 5 was already recorded; this phone moves on to hand 6"). The game is
locked as ``hand_record`` locks it, so a report and the scorekeeper's Save never cross.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from ledger import cleaning
from ledger.exceptions import LedgerError, RecordRefused, ReportStale
from ledger.models import (
    CONFIRM_PART,
    PLAYERS_PART,
    Game,
    GameStatus,
    Hand,
    HandConfirmation,
    ReportLink,
    TableReport,
)
from ledger.rules.report import (
    check_report,
    confirm_players,
    part_reported,
    report_parts,
    report_points,
)
from ledger.selectors.games import game_result
from ledger.selectors.table_reports import link_parts, report_link_live, report_parts_of

from .base import User, _lock_game, _user


@transaction.atomic
def report_links_get_or_create(*, game: Game, created_by: User | None) -> list[ReportLink]:
    """The live report links of ``game``, one per card table (or one for the players of a
    CAP-IT game), made where missing. Refused for a game whose hands are not reported by
    table, or that takes no more hands."""
    game = _lock_game(game)  # also refuses a settled evening
    if game.status != GameStatus.IN_PROGRESS:
        raise LedgerError(code="no_report_links_game_over")
    parts = link_parts(report_parts_of(game))
    if not parts:
        raise LedgerError(code="no_report_links_one_table")
    live = {link.part: link for link in
            ReportLink.objects.filter(game=game, revoked_at__isnull=True, part__in=parts)}
    by = _user(created_by)
    for part in parts:
        if part not in live:
            try:
                with transaction.atomic():
                    live[part] = ReportLink.objects.create(game=game, part=part, created_by=by)
            except IntegrityError:  # made meanwhile (the game is locked: not expected)
                live[part] = ReportLink.objects.get(game=game, part=part,
                                                    revoked_at__isnull=True)
    return [live[part] for part in parts]


@transaction.atomic
def report_links_revoke(*, game: Game) -> int:
    """Revoke every live report link of ``game`` for good; returns how many."""
    return ReportLink.objects.filter(game=game, revoked_at__isnull=True).update(
        revoked_at=timezone.now())


def _lock_link(link: ReportLink) -> tuple[ReportLink, Game, dict]:
    game = _lock_game(link.game_id)  # a settled evening: SessionSettled
    link = ReportLink.objects.get(pk=link.pk)
    link.game = game
    if not report_link_live(link):
        raise LedgerError(code="report_link_dead")
    return link, game, game_result(game)


def _check_number(parts: dict, number, result: dict) -> None:
    current = parts["number"]
    if number == current:
        return
    # what one hand of the game is called: the core's fact ("Round" in CAP-IT)
    rounds = result["facts"]["hand_noun"].lower() == "round"
    if isinstance(number, int) and not isinstance(number, bool) and 1 <= number < current:
        raise ReportStale(code="round_recorded" if rounds else "hand_recorded",
                          number=current, typed=number, current=current)
    raise ReportStale(code="round_playing" if rounds else "hand_playing",
                      number=current, typed=number, current=current)


def _whose(link: ReportLink, parts: dict, player: str | None) -> dict:
    if link.part == PLAYERS_PART:
        if not part_reported(parts):
            raise LedgerError(code="link_not_for_tables")
        if player not in parts["players"]:
            raise LedgerError(code="pick_your_name")
        return {"table": None, "player": player}
    if not part_reported(parts, table=link.part):
        raise LedgerError(code="table_sits_out")
    return {"table": link.part, "player": ""}


def _live_reports(game: Game, number: int, whose: dict):
    return TableReport.objects.filter(game=game, number=number, replaced_at__isnull=True,
                                      withdrawn_at__isnull=True, **whose)


@transaction.atomic
def report_submit(*, link: ReportLink, number: int, values: dict,
                  player: str | None = None) -> TableReport:
    """Send the part of hand ``number`` that ``link``'s table (or ``player``, on a CAP-IT
    link) says happened. Refused (nothing stored) when the hand is not the current one
    (``ReportStale``), or when the core would refuse the part (``RecordRefused`` with the
    core's problems). A report already live for the same part is replaced (kept, with
    ``replaced_at``; the new one ``replaces`` it); the same part sent again is stored once
    (the report live already is returned)."""
    link, game, result = _lock_link(link)
    parts = report_parts(result)
    _check_number(parts, number, result)
    whose = _whose(link, parts, player)
    values = cleaning.check_hand_entry(values, number)  # no unknown fields, no nested junk
    problems = check_report(result, table=whose["table"], player=whose["player"] or None,
                            part=values)
    if problems:
        raise RecordRefused(problems)
    if whose["player"] and "cards" in values and "points" not in values:
        # a CAP-IT player's cards: kept, with the points the core makes of them (what the
        # scorekeeper's form takes)
        values = {**values, "points": {whose["player"]: report_points(
            result, player=whose["player"], part=values)}}
    now = timezone.now()
    earlier = _live_reports(game, number, whose).order_by("-reported_at", "-id").first()
    if earlier is not None and earlier.values == values:
        return earlier  # the same report sent again (a retry, a queue sent twice): kept once
    _live_reports(game, number, whose).update(replaced_at=now)
    return TableReport.objects.create(link=link, game=game, number=number, values=values,
                                      reported_at=now, replaces=earlier, **whose)


@transaction.atomic
def report_withdraw(*, link: ReportLink, number: int, player: str | None = None) -> int:
    """Withdraw the live report of ``link``'s table (or ``player``) for hand ``number``
    while the hand is not saved; returns how many were withdrawn (0 or 1)."""
    link, game, result = _lock_link(link)
    parts = report_parts(result)
    _check_number(parts, number, result)
    whose = _whose(link, parts, player)
    return _live_reports(game, number, whose).update(withdrawn_at=timezone.now())


@transaction.atomic
def confirm_link_get_or_create(*, game: Game, player: str, created_by: User | None
                               ) -> ReportLink:
    """The live confirm link of a two-hand ``game`` for ``player`` (optional per game: made
    when the scorekeeper asks): that player confirms each saved hand on his phone. Asking
    again for the same player gives the same link; for the other player, a new one (the
    first is revoked)."""
    game = _lock_game(game)  # also refuses a settled evening
    if game.status != GameStatus.IN_PROGRESS:
        raise LedgerError(code="no_confirm_link_game_over")
    players = confirm_players(game_result(game))
    if not players:
        raise LedgerError(code="confirm_two_hand_only")
    if player not in players:
        raise LedgerError(code="confirm_who", players=list(players), given=str(player)[:60])
    live = ReportLink.objects.filter(game=game, part=CONFIRM_PART,
                                     revoked_at__isnull=True).first()
    if live is not None and live.player == player:
        return live
    if live is not None:
        live.revoked_at = timezone.now()
        live.save(update_fields=["revoked_at"])
    return ReportLink.objects.create(game=game, part=CONFIRM_PART, player=player,
                                     created_by=_user(created_by))


@transaction.atomic
def hand_confirm(*, link: ReportLink, number: int, correct: bool) -> HandConfirmation:
    """The confirm link's player says whether saved hand ``number`` (the last saved hand)
    is ``correct``; saying it again changes the answer. Refused with ``ReportStale`` for
    any other hand (a later one was saved meanwhile, or it was undone)."""
    game = _lock_game(link.game_id)
    link = ReportLink.objects.get(pk=link.pk)
    link.game = game
    if link.part != CONFIRM_PART or not report_link_live(link):
        raise LedgerError(code="link_dead")
    if not isinstance(correct, bool):
        raise LedgerError(code="confirm_answer")
    last = (Hand.objects.filter(game=game, voided_at__isnull=True)
            .order_by("-number").first())
    if last is None:
        raise ReportStale(code="no_hand_saved", number=0)
    if number != last.number:
        raise ReportStale(code="not_the_last_hand", number=last.number, last=last.number,
                          typed=str(number)[:12])
    answer, _ = HandConfirmation.objects.update_or_create(
        hand=last, link=link, defaults={"correct": correct, "player": link.player,
                                        "answered_at": timezone.now()})
    return answer


def reports_attach(*, game: Game, hand: Hand) -> int:
    """Link the live reports of ``hand``'s number to the saved ``hand`` (called by
    ``hand_record`` in its transaction): who reported what stays with the hand."""
    return TableReport.objects.filter(
        game=game, number=hand.number, hand__isnull=True).update(hand=hand)


__all__ = ["confirm_link_get_or_create", "hand_confirm", "report_links_get_or_create",
           "report_links_revoke", "report_submit", "report_withdraw", "reports_attach"]
