"""The printed documents: (PDF bytes, suggested file name) for a game, a blank sheet or a
session.

Used by the views and the management commands alike. The paper size is the table's unless
given; a table left on "by currency" prints Letter for USD, CAD and MXN, A4 elsewhere.
File names say the table, the date and the game's number in the evening, as the screens do
(``friday-2026-11-23-game-1.pdf``), never a database id.
"""

from __future__ import annotations

from collections.abc import Callable

from django.utils.text import slugify

from ledger.models import Game, Session

from . import selectors
from .pdf import render_pdf

GAME_TEMPLATE = "scoresheets/game_sheet.html"
BLANK_TEMPLATE = "scoresheets/blank_sheet.html"
SESSION_TEMPLATE = "scoresheets/session_report.html"


def file_name(session: Session, *parts: object) -> str:
    """``<table>-<date>[-parts].pdf``, slugified (ASCII, lower case, dashes)."""
    stem = "-".join([slugify(session.table.name) or "table", session.date.isoformat(),
                     *(slugify(str(part)) for part in parts)])
    return f"{stem}.pdf"


def game_sheet_pdf(game: Game, *, paper_size: str | None = None) -> tuple[bytes, str]:
    context = selectors.game_sheet_context(game)
    paper = paper_size or game.session.table.paper_for(game.currency)
    return (render_pdf(GAME_TEMPLATE, context, paper),
            file_name(game.session, "game", game.sequence))


def blank_sheet_pdf(game: Game, *, paper_size: str | None = None) -> tuple[bytes, str]:
    context = selectors.blank_sheet_context(game)
    paper = paper_size or game.session.table.paper_for(game.currency)
    return (render_pdf(BLANK_TEMPLATE, context, paper),
            file_name(game.session, "game", game.sequence, "blank"))


def session_report_pdf(session: Session, *, paper_size: str | None = None,
                       progress: Callable[[int, int], None] | None = None
                       ) -> tuple[bytes, str]:
    context = selectors.session_report_context(session, progress=progress)
    paper = paper_size or session.table.paper_for(session.currency)
    return render_pdf(SESSION_TEMPLATE, context, paper), file_name(session)
