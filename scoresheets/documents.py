"""The three printed documents: (PDF bytes, suggested file name) for a game or a session.

Used by the views and the management commands alike. The paper size is the table's unless
given.
"""

from __future__ import annotations

from collections.abc import Callable

from ledger.models import Game, Session

from . import selectors
from .pdf import render_pdf

GAME_TEMPLATE = "scoresheets/game_sheet.html"
BLANK_TEMPLATE = "scoresheets/blank_sheet.html"
SESSION_TEMPLATE = "scoresheets/session_report.html"


def game_sheet_pdf(game: Game, *, paper_size: str | None = None) -> tuple[bytes, str]:
    context = selectors.game_sheet_context(game)
    paper = paper_size or game.session.table.paper_size
    return render_pdf(GAME_TEMPLATE, context, paper), f"game-{game.pk}.pdf"


def blank_sheet_pdf(game: Game, *, paper_size: str | None = None) -> tuple[bytes, str]:
    context = selectors.blank_sheet_context(game)
    paper = paper_size or game.session.table.paper_size
    return render_pdf(BLANK_TEMPLATE, context, paper), f"game-{game.pk}-blank.pdf"


def session_report_pdf(session: Session, *, paper_size: str | None = None,
                       progress: Callable[[int, int], None] | None = None
                       ) -> tuple[bytes, str]:
    context = selectors.session_report_context(session, progress=progress)
    paper = paper_size or session.table.paper_size
    return render_pdf(SESSION_TEMPLATE, context, paper), f"session-{session.pk}.pdf"
