"""What each printed document prints: the game sheet, the blank sheet and the session report.

Every row, word and number comes from the presentation layer (``ledger.presentation``),
the same the screens show: a game's ``GameSheet`` (hand rows, totals, scores, money,
status) and an evening's ``SessionSummary``. This module adds only what paper needs: the
page head, the rules and stakes panel, and the hand table laid out for print
(``scoresheets.grid``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from ledger.models import Game, Session
from ledger.presentation.catalog import CAPIT_CONTRACTS
from ledger.presentation.club import match_lines, match_status
from ledger.presentation.columns import TOTALS
from ledger.presentation.dates import evening_words, format_day, format_moment
from ledger.presentation.header import cast_lines, pairs, rule_lines, stakes_lines
from ledger.presentation.money import Money, TotalsRow
from ledger.presentation.reports import REPORTED_TITLE, hand_report_lines
from ledger.presentation.session import session_summary
from ledger.presentation.sheet import blank_rows, game_sheet, layout_of, side_label
from ledger.presentation.streets import streets_block
from ledger.presentation.words import variant_title
from ledger.selectors.games import game_record, score
from ledger.selectors.hands import game_history
from ledger.selectors.table_reports import hand_confirmations, hand_reports, has_report_links

from .grid import blank_grid, hands_grid

#: The figures paper prints at the end of a game, one line each (full headers of the
#: presentation's ``TOTALS``).
TOTALS_KEYS = ("hand_points", "box_bonus", "game_bonus", "shutout", "final")


def totals_labels() -> list[str]:
    """The blank sheet's end-of-game lines."""
    return [str(TOTALS[key].header) for key in TOTALS_KEYS]


def totals_lines(rows: list[TotalsRow]) -> list[tuple[str, list[str], str]]:
    """The end-of-game rows turned for paper: one line per figure, one column per key, with
    the figure's kind ("text" for words such as the shutout's, which may wrap; the numbers
    do not)."""
    return [(_(TOTALS[key].header), [TOTALS[key].in_words(t) for t in rows], TOTALS[key].kind)
            for key in TOTALS_KEYS]


def document_head(session: Session, kind: str, subtitle: str) -> dict:
    table = session.table
    return {
        "club": table.name,
        "kind": kind,
        "subtitle": subtitle,
        # "Wednesday 2 December 2026", as on screen ("(2)": the day's second evening)
        "date": evening_words(session.date, standing_alone=True) + session.number_suffix,
        "short_date": format_day(session.date, "medium"),
        "place": session.place,
        "printed": format_moment(timezone.now()),
        "paper_size": table.paper_for(session.currency),
    }


def game_subtitle(game: Game, title: str) -> str:
    """"Game 3: Gin" at the head of a game's sheets."""
    return pgettext("game of cards", "Game %(n)s: %(title)s") % {"n": game.sequence,
                                                                "title": title}


def game_title(game: Game, result: dict) -> str:
    return variant_title(game.variant, result.get("preset"))


def _sheet_context(game: Game, record: dict, result: dict, title: str, head: dict) -> dict:
    """What a game sheet and a blank sheet both print at the top and the bottom."""
    rules = rule_lines(result)
    layout = layout_of(result)
    return {
        "head": head,
        "game": game,
        "title": title,
        "variant": result["variant"],
        "facts": result["facts"],
        "record": record,
        "result": result,
        "stakes": stakes_lines(record, result),
        "rules": rules,
        "rule_pairs": pairs(rules),
        "cast": cast_lines(record, result),
        "keys": layout.keys,
        "labels": layout.labels,
        "signers": result["players"],
        # more than two scores side by side, or CAP-IT's five columns: the totals and the
        # money one above the other (see print.css)
        "stacked": len(layout.keys) > 2 or result["facts"]["rounds"],
    }


def game_sheet_context(game: Game) -> dict:
    """Everything the game score sheet prints."""
    sheet = game_sheet(game)
    head = document_head(game.session, _("Score sheet"), game_subtitle(game, sheet.title))
    context = _sheet_context(game, sheet.record, sheet.result, sheet.title, head)
    context.update({
        "view": sheet,
        "hands": hands_grid(sheet.layout, sheet.rows),
        "corrections": len(sheet.voided_rows),
        "status": match_status(sheet.result) or sheet.status,
        "money": _money_with_side_labels(sheet.money, sheet.result),
        "columns": [{"column": column, "rows": totals_lines(column.totals)}
                    for column in sheet.columns],
        "capit": sheet.capit_totals,
        # RULES 3.9: the three streets and their settlement, then the game points G
        "street_cards": streets_block(sheet.result),
        # RULES 3.10: a best-of match counts hands won, not points
        "totals": (match_lines(sheet.result) or totals_lines(sheet.totals)
                   if sheet.totals or sheet.result.get("match") else []),
        "reported": reported_lines(game),
        "reported_title": _(REPORTED_TITLE),
    })
    return context


def _money_with_side_labels(money: Money, result: dict) -> Money:
    """The money box with each player's side as the sheet heads it ("Captains")."""
    lines = [replace(line, side=side_label(result, line.side)) if line.side else line
             for line in money.lines]
    return replace(money, lines=lines)


def reported_lines(game: Game) -> list[dict]:
    """The audit of the tables' reports (issue 23): for each saved hand the tables (or
    CAP-IT players) reported, who reported what and when, in hand order (a two-hand game:
    what the other player said of it); a voided hand's reports are marked so."""
    if not has_report_links(game):  # (most games: one query instead of two)
        return []
    by_hand, said = hand_reports(game), hand_confirmations(game)
    if not by_hand and not said:
        return []
    lines = hand_report_lines(game_history(game), by_hand, said, rules=game.rules)
    return [{"number": number, "voided": voided, "lines": lines[(number, voided)]}
            for number, voided in sorted(lines, key=lambda k: (k[0], not k[1]))]


def blank_sheet_context(game: Game, rows: int | None = None, record: dict | None = None
                        ) -> dict:
    """A sheet for a game about to start: players, rules and stakes, and empty rows.
    ``record`` is given for a game that is not stored (scoresheets.blank)."""
    if record is None:
        record = game_record(game, hands=[], abandoned=False)
    result = score(record)
    title = game_title(game, result)
    head = document_head(game.session, _("Blank score sheet"), game_subtitle(game, title))
    facts = result["facts"]
    # (streets: a row fewer, so that the three streets' end tables share the last page)
    count = rows or (len(CAPIT_CONTRACTS) if facts["rounds"]
                     else 15 if result.get("streets") is not None and facts["table_game"]
                     else 16 if facts["table_game"] else 30)
    seating = len((result.get("next") or {}).get("tables") or [])
    context = _sheet_context(game, record, result, title, head)
    context.update({
        "hands": blank_grid(layout_of(result), blank_rows(result, count), seating),
        "currency": (record.get("stakes") or {}).get("currency", game.currency),
        "blank_rows": ([_("Hands won")] if result.get("match")  # RULES 3.10: a match
                       else totals_labels()),
        # RULES 3.9: three streets to settle by hand, then the game points G
        "street_cards": streets_block(result),
        "street_rows": [_("Hand points"), _("Boxes"), _("Street bonus"), _("Box advantage"),
                        _("Clean sweep"), _("Street total")],
        # empty end tables fit side by side (and the box's blank sheet on two pages)
        "stacked": False,
        "blank": True,
    })
    return context


def session_report_context(session: Session,
                           progress: Callable[[int, int], None] | None = None) -> dict:
    """The evening: every game summarised, each player's net, the payments to make."""
    summary = session_summary(session, progress=progress)
    settlement = summary.settlement
    count = len(summary.games)
    head = document_head(session, _("Session report"),
                         ngettext("%(n)s game", "%(n)s games", count) % {"n": count})
    return {
        "head": head,
        "session": session,
        "summary": summary,
        "games": summary.games,
        "players": summary.players,
        "nets": summary.nets,
        "currency": summary.currency,
        "payments": summary.payments,
        "settled": summary.settled,
        "open_games": summary.open_games,  # the screen's "Finish or abandon game ..."
        "settled_at": format_moment(settlement.settled_at) if settlement else "",
        "signers": summary.players,
    }
