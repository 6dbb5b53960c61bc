"""The printed documents: (PDF bytes, suggested file name) for a game, a blank sheet or a
session.

Used by the views and the management commands alike. The paper size is the table's unless
given; a table left on "by currency" prints Letter for USD, CAD and MXN, A4 elsewhere.
File names say the table, the date and the game's number in the evening, as the screens do
(``friday-2026-11-23-game-1.pdf``), never a database id. Every document speaks its table's
language and keeps its table's clock (``ledger.clock.table_voice``), whoever prints it.
A document is bounded before anything is rendered (its hand rows: at most
TABLESTAKES_PDF_MAX_HANDS, voided ones included since the sheet lists them) and while it is
rendered (TABLESTAKES_PDF_MAX_PAGES, TABLESTAKES_PDF_TIMEOUT seconds); beyond either it
raises ``PdfTooLarge`` with a message that says what to print instead.
"""

from __future__ import annotations

from collections.abc import Callable

from babel.numbers import format_decimal
from django.conf import settings
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from ledger.clock import table_voice
from ledger.models import Game, Hand, Session
from ledger.presentation.locales import babel_locale

from . import selectors
from .pdf import PdfTooLarge, render_html, render_pdf

GAME_TEMPLATE = "scoresheets/game_sheet.html"
BLANK_TEMPLATE = "scoresheets/blank_sheet.html"
SESSION_TEMPLATE = "scoresheets/session_report.html"

__all__ = ["PdfTooLarge", "blank_sheet_pdf", "evening_blank_pdf", "game_sheet_pdf",
           "session_report_pdf"]


def _limits() -> dict:
    return {"max_pages": settings.TABLESTAKES_PDF_MAX_PAGES,
            "timeout": settings.TABLESTAKES_PDF_TIMEOUT,
            "nice": settings.TABLESTAKES_PDF_NICE}


def _count(n: int) -> str:
    """A count as the language in force groups it ("1,234", "1.234")."""
    return format_decimal(n, locale=babel_locale())


def _check_rows(rows: int, what: Callable[[dict], str], instead: str) -> None:
    """``what`` says it from the hands and the limit (``rows``, ``limit``)."""
    limit = settings.TABLESTAKES_PDF_MAX_HANDS
    if rows > limit:
        raise PdfTooLarge(what({"rows": _count(rows), "limit": _count(limit)}) + " " + instead)


def file_name(session: Session, *parts: object) -> str:
    """``<table>-<date>[-parts].pdf``, slugified (ASCII, lower case, dashes)."""
    stem = "-".join([slugify(session.table.name) or "table", session.date.isoformat(),
                     *(slugify(str(part)) for part in parts)])
    return f"{stem}.pdf"


def game_sheet_pdf(game: Game, *, paper_size: str | None = None) -> tuple[bytes, str]:
    _check_rows(Hand.objects.filter(game=game).count(),
                lambda values: pgettext(
                    "game of cards", "Game %(n)s has %(rows)s hands; sheets of up to %(limit)s "
                    "hands are printed here.") % {"n": game.sequence, **values},
                _("Download its hands as CSV from the game's page instead."))
    with table_voice(game.session.table):
        context = selectors.game_sheet_context(game)
        paper = paper_size or game.session.table.paper_for(game.currency)
        pdf = render_pdf(GAME_TEMPLATE, context, paper, **_limits())
    return pdf, file_name(game.session, "game", game.sequence)


def game_sheet_html(game: Game) -> str:
    """The sheet's HTML as it is printed: in its table's language and clock."""
    with table_voice(game.session.table):
        return render_html(GAME_TEMPLATE, selectors.game_sheet_context(game))


def session_report_html(session: Session) -> str:
    """The session report's HTML as it is printed: in its table's language and clock."""
    with table_voice(session.table):
        return render_html(SESSION_TEMPLATE, selectors.session_report_context(session))


def blank_sheet_pdf(game: Game, *, paper_size: str | None = None) -> tuple[bytes, str]:
    with table_voice(game.session.table):
        context = selectors.blank_sheet_context(game)
        paper = paper_size or game.session.table.paper_for(game.currency)
        pdf = render_pdf(BLANK_TEMPLATE, context, paper, **_limits())
    return pdf, file_name(game.session, "game", game.sequence, "blank")


def evening_blank_pdf(session: Session, context: dict, sequence: int, variant: str, *,
                      paper_size: str | None = None) -> tuple[bytes, str]:
    """The blank sheet of a game not yet started (``scoresheets.blank``): the evening's
    next number, on the paper of the evening's currency unless given."""
    paper = paper_size or session.table.paper_for(session.currency)
    with table_voice(session.table):
        pdf = render_pdf(BLANK_TEMPLATE, context, paper, **_limits())
    return pdf, file_name(session, "game", sequence, variant, "blank")


def session_report_pdf(session: Session, *, paper_size: str | None = None,
                       progress: Callable[[int, int], None] | None = None
                       ) -> tuple[bytes, str]:
    _check_rows(Hand.objects.filter(game__session=session).count(),
                lambda values: _("This evening has %(rows)s hands; sheets of up to "
                                 "%(limit)s hands are printed here.") % values,
                _("Print each game's sheet on its own instead."))
    with table_voice(session.table):
        context = selectors.session_report_context(session, progress=progress)
        paper = paper_size or session.table.paper_for(session.currency)
        pdf = render_pdf(SESSION_TEMPLATE, context, paper, **_limits())
    return pdf, file_name(session)
