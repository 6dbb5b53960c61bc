"""PDF downloads (and HTML previews) of score sheets and session reports.

Only a table's scorekeepers may print: ``ledger.access`` gives everyone else a 404, the
same as for a missing object. The PDFs are rendered in the request (a sheet is one to
three pages, well under a second); a document beyond the printing limits
(``documents.PdfTooLarge``) gets a page that says so and what to print instead, and no
worker is held for long. Each rendering takes a slot of ``services.pdf_render_slot`` (so
many at once in total, one per account); without a free slot the answer comes at once:
"busy, try again in a moment" (429 or 503, with Retry-After). The account's own refusal
(429) is the small refusal page, which the worker answers again to the same browser's
sheets until its Retry-After without reading the session or the database (``_busy``).
"""

from __future__ import annotations

from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from ledger import services
from ledger.access import game_for, session_for
from ledger.cleaning import content_disposition, is_ascii_number
from ledger.exceptions import LedgerError
from ledger.presentation.catalog import VARIANT_NAMES
from ledger.presentation.refusals import refusal_words
from ledger.views.heavy import PRINTING, refusal_response
from ledger.views.params import BadParameter, refuses_bad_parameters

from . import documents
from .blank import evening_blank_context
from .forms import BlankSeatsForm, split_game


def _pdf_response(pdf: bytes, filename: str, request) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = content_disposition(
        filename, attachment=bool(request.GET.get("download")))
    response["Cache-Control"] = "private, no-store"
    return response


def _paper(request) -> str | None:
    paper = request.GET.get("paper")
    return paper if paper in ("A4", "letter") else None


def _too_large(request, exc: documents.PdfTooLarge, back: str) -> HttpResponse:
    return render(request, "scoresheets/too_large.html",
                  {"message": exc.message, "back": back}, status=422)


def _busy(request, exc: services.PrintingBusy, back: str) -> HttpResponse:
    """No rendering slot free: say so at once, with Retry-After. The account's own other
    sheet still printing: 429 on the small refusal page, which this worker answers again to
    the same browser's sheets until its Retry-After before the session, the account or the
    database is read (``RememberedRefusalMiddleware``): ten sheets asked at once cost the
    workers one refusal each, not ten. The whole server printing others' sheets: 503 on the
    busy page, asked afresh each time."""
    if exc.mine:
        title = _("Busy printing: try again in a moment")
        return refusal_response(request, PRINTING, title=title, message=refusal_words(exc),
                                retry_after=exc.retry_after, printing=True)
    response = render(request, "scoresheets/busy.html",
                      {"message": refusal_words(exc), "back": back,
                       "again": request.get_full_path(), "retry_after": exc.retry_after},
                      status=503)
    response["Retry-After"] = str(exc.retry_after)
    response["Cache-Control"] = "no-store"
    return response


def _printed(request, make, back: str) -> HttpResponse:
    """The PDF ``make()`` returns (bytes, file name), rendered in a slot of
    ``services.pdf_render_slot``; the page that says why when there is no free slot or the
    document is beyond the printing limits."""
    try:
        with services.pdf_render_slot(user=request.user):
            pdf, name = make()
    except services.PrintingBusy as exc:
        return _busy(request, exc, back)
    except documents.PdfTooLarge as exc:
        return _too_large(request, exc, back)
    return _pdf_response(pdf, name, request)


@require_GET
def game_pdf(request, pk: int):
    game = game_for(request.user, pk)
    return _printed(request, lambda: documents.game_sheet_pdf(game, paper_size=_paper(request)),
                    reverse("ledger:game_detail", args=[game.pk]))


@require_GET
def blank_pdf(request, pk: int):
    game = game_for(request.user, pk)
    return _printed(request,
                    lambda: documents.blank_sheet_pdf(game, paper_size=_paper(request)),
                    reverse("ledger:game_detail", args=[game.pk]))


@require_GET
def session_pdf(request, pk: int):
    session = session_for(request.user, pk)
    return _printed(request,
                    lambda: documents.session_report_pdf(session, paper_size=_paper(request)),
                    reverse("ledger:session_detail", args=[session.pk]))


#: ``RememberedRefusalMiddleware``: a sheet refused while the account's other one prints is
#: answered again to the same browser's sheets, until its Retry-After, by the worker that
#: refused it (``_busy``)
for _view in (game_pdf, blank_pdf, session_pdf):
    _view.remembered_refusal = PRINTING


def _seats_page(request, session, form, status: int = 200) -> HttpResponse:
    return render(request, "scoresheets/blank_seats.html", {
        "session": session, "table": session.table, "form": form,
        "variant_label": VARIANT_NAMES[form.variant], "count": form.count,
        "action": reverse("scoresheets:session_blank_pdf", kwargs={"pk": session.pk}),
        "back": reverse("ledger:session_detail", kwargs={"pk": session.pk}) + "#blank",
    }, status=status)


def _blank_game(request) -> tuple[str, int]:
    """The game chosen on the evening's screen ("captain-5"); 404 if the catalog has none,
    400 (naming the parameter) if its number of players is written with other digits than
    0-9 ("captain-²", "gin-١٢")."""
    value = request.GET.get("game", "")
    game = split_game(value)
    if game is None:
        count = value.rpartition("-")[2]
        if not is_ascii_number(count) and any(ch.isnumeric() for ch in count):
            raise BadParameter("game", _("The parameter 'game': write the number of players "
                                         "with the digits 0-9, like captain-5, not "
                                         "%(value)s.") % {"value": repr(value)})
        raise Http404("No such game")
    return game


@require_GET
@refuses_bad_parameters
def session_blank(request, pk: int):
    """The seats of a blank sheet for the evening's next game (the game and its number of
    players chosen on the evening's screen): who sits where, who deals first, the sides."""
    session = session_for(request.user, pk)
    variant, count = _blank_game(request)
    initial = {"preset": request.GET.get("preset")} if request.GET.get("preset") else None
    return _seats_page(request, session, BlankSeatsForm(
        initial=initial, session=session, variant=variant, count=count))


@require_GET
@refuses_bad_parameters
def session_blank_pdf(request, pk: int):
    """The blank sheet of the seats chosen (nothing is stored). Seats that do not fit, or
    that the core would not start a game with, come back with the reason at the field."""
    session = session_for(request.user, pk)
    variant, count = _blank_game(request)
    form = BlankSeatsForm(request.GET, session=session, variant=variant, count=count)
    if form.is_valid():
        data = form.cleaned_data
        try:
            context, sequence = evening_blank_context(
                session, variant, form.players(), form.setup(), data.get("preset") or "",
                data.get("ante"))
        except ValueError as exc:  # the core's refusal, its problems as data
            details = getattr(exc, "details", None)
            if details:
                form.add_problems(details)
            else:  # a refusal of the record (a name): in the page's words
                form.add_error(None, refusal_words(exc) if isinstance(exc, LedgerError)
                               else str(exc))
        else:
            return _printed(request, lambda: documents.evening_blank_pdf(
                session, context, sequence, variant, paper_size=_paper(request)),
                reverse("ledger:session_detail", args=[session.pk]))
    return _seats_page(request, session, form, status=422)


session_blank_pdf.remembered_refusal = PRINTING


def _preview(html: str) -> HttpResponse:
    """The print HTML with the print stylesheet linked (the site's CSP allows no inline
    style element; the views below allow the style attributes that size the columns)."""
    link = f'<link rel="stylesheet" href="{static("scoresheets/print.css")}">'
    return HttpResponse(html.replace("</head>", link + "</head>", 1))


PREVIEW_CSP = {"style-src-attr": [UNSAFE_INLINE]}


@require_GET
@csp_update(PREVIEW_CSP)
def game_html(request, pk: int):
    game = game_for(request.user, pk)
    return _preview(documents.game_sheet_html(game))


@require_GET
@csp_update(PREVIEW_CSP)
def session_html(request, pk: int):
    session = session_for(request.user, pk)
    return _preview(documents.session_report_html(session))
