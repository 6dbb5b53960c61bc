"""The table reports' reads (issue 23: the reports the card tables send from their phones):
a report link by its token, the reports of a game's current hand, their version for the
scorekeeper's poll (ETag), and the reports kept with each saved hand. Reads only;
``ledger.services.reports`` writes. (Not the evening's session report on paper:
``scoresheets``.)"""

from __future__ import annotations

import hashlib

from django.db.models import Count, Max, OuterRef, Subquery

from ledger import cleaning
from ledger.models import (
    CONFIRM_PART,
    PLAYERS_PART,
    Game,
    GameStatus,
    HandConfirmation,
    ReportLink,
    TableReport,
)
from ledger.rules.report import confirm_players, report_parts, round_end_reported
from ledger.selectors.evenings import session_is_settled
from ledger.selectors.games import game_result
from ledger.selectors.sharing import game_live_version


def report_link(token: str) -> ReportLink | None:
    """The report link with ``token`` (revoked or not), with its game and evening."""
    if not cleaning.is_token(token):
        return None
    return (ReportLink.objects.select_related("game__session__table")
            .filter(token=token).first())


def live_reports(game: Game, number: int) -> list[TableReport]:
    """The reports standing for hand ``number`` (not replaced nor withdrawn), by table or
    player, each with ``changed``: it replaced an earlier report of its part."""
    return list(TableReport.objects.filter(game=game, number=number,
                                           replaced_at__isnull=True,
                                           withdrawn_at__isnull=True)
                .order_by("table", "player", "id"))


def _reports_row(game_id: int) -> dict | None:
    """The reports' and the confirmations' counts and latest changes, in one query."""
    reports = (TableReport.objects.filter(game_id=OuterRef("pk")).order_by()
               .values("game_id"))
    said = (HandConfirmation.objects.filter(link__game_id=OuterRef("pk")).order_by()
            .values("link__game_id"))

    def of(rows, aggregate):
        return Subquery(rows.annotate(x=aggregate).values("x")[:1])

    return (Game.objects.filter(pk=game_id)
            .annotate(n=of(reports, Count("id")), last=of(reports, Max("id")),
                      replaced=of(reports, Max("replaced_at")),
                      withdrawn=of(reports, Max("withdrawn_at")),
                      said=of(said, Count("id")), said_at=of(said, Max("answered_at")))
            .values("n", "last", "replaced", "withdrawn", "said", "said_at").first())


def reports_version(game_id: int) -> str:
    """What the scorekeeper's poll depends on: the game's hands, its reports (a new, a
    replaced or a withdrawn report) and a two-hand game's confirmations, as a short ETag."""
    version = f"{game_live_version(game_id)}|{_reports_row(game_id)}"
    return '"r-' + hashlib.sha256(version.encode()).hexdigest()[:20] + '"'


def has_report_links(game: Game) -> bool:
    """Whether a report or confirm link was ever made for ``game`` (live or revoked): every
    table report and every confirmation came through one, so a game without has neither."""
    return ReportLink.objects.filter(game=game).exists()


def hand_reports(game: Game) -> dict[int, list[TableReport]]:
    """The reports kept with each saved hand of ``game``, by hand id."""
    out: dict[int, list[TableReport]] = {}
    for report in (TableReport.objects.filter(game=game, hand__isnull=False)
                   .order_by("table", "player", "id")):
        out.setdefault(report.hand_id, []).append(report)
    return out


def table_links(game: Game) -> list[ReportLink]:
    """The live report links of ``game``'s tables (not its confirm link), in their order."""
    return list(ReportLink.objects.filter(game=game, revoked_at__isnull=True,
                                          part__lt=CONFIRM_PART))


def confirm_link(game: Game) -> ReportLink | None:
    """The live confirm link of a two-hand game (``CONFIRM_PART``), if the scorekeeper
    made one."""
    return (ReportLink.objects.filter(game=game, part=CONFIRM_PART, revoked_at__isnull=True)
            .first())


def hand_confirmations(game: Game) -> dict[int, HandConfirmation]:
    """The other player's answer for each saved hand of ``game`` that has one, by hand id
    (the latest answer: one per hand and link)."""
    out: dict[int, HandConfirmation] = {}
    for answer in (HandConfirmation.objects.filter(hand__game=game)
                   .order_by("hand_id", "answered_at", "id")):
        out[answer.hand_id] = answer
    return out


def confirmation_of(link: ReportLink, hand_id: int) -> HandConfirmation | None:
    """What ``link``'s player said of the hand ``hand_id``, if anything."""
    return HandConfirmation.objects.filter(link=link, hand_id=hand_id).first()


# -- what a game's reports are made of (the core's facts; read by the services too) ------------

def report_parts_of(game: Game, result: dict | None = None) -> dict:
    """Which parts the next hand of ``game`` has (``ledger.rules.report.report_parts``)."""
    return report_parts(result if result is not None else game_result(game))


def round_end_of(parts: dict, standing) -> dict:
    """How the current CAP-IT round ended by its players' live reports (``standing``):
    one went out, two or more say they did (a conflict), or all said no (the stock ran
    out); the core's ``round_end_reported``."""
    said = {r.player: (r.values or {}).get("went_out") for r in standing if r.player}
    return round_end_reported(list(parts.get("players") or []), said)


def confirm_players_of(result: dict) -> list[str]:
    """The players of a two-hand game, who may confirm its hands (``rules.report``)."""
    return confirm_players(result)


def link_parts(parts: dict) -> list[int]:
    """The ``ReportLink.part`` numbers of a game's links: its tables, or the players'."""
    tables = parts.get("tables") or []
    return list(range(1, len(tables) + 1)) or ([PLAYERS_PART] if parts.get("players") else [])


def report_link_live(link: ReportLink | None) -> bool:
    """Whether ``link`` still takes reports (a confirm link: answers): not revoked, its
    game in progress (a confirm link: or just ended, so that its last hand is confirmed
    too) and its evening not settled. A report link that is not revoked but takes no more
    reports opens read-only on the game's end (``views.report``)."""
    if link is None or link.revoked_at is not None:
        return False
    game = link.game
    statuses = ((GameStatus.IN_PROGRESS, GameStatus.COMPLETE) if link.part == CONFIRM_PART
                else (GameStatus.IN_PROGRESS,))
    return game.status in statuses and not session_is_settled(game.session)
