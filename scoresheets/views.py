"""PDF downloads (and HTML previews) of score sheets and session reports.

Only a table's scorekeepers may print: ``ledger.access`` gives everyone else a 404, the
same as for a missing object. The PDFs are rendered in the request (a sheet is one to
three pages, well under a second); a document beyond the printing limits
(``documents.PdfTooLarge``) gets a page that says so and what to print instead, and no
worker is held for long.
"""

from __future__ import annotations

from csp.constants import UNSAFE_INLINE
from csp.decorators import csp_update
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_GET

from ledger.access import game_for, session_for

from . import documents, selectors
from .blank import evening_blank_context
from .forms import BlankSheetForm
from .pdf import render_html, render_pdf


def _pdf_response(pdf: bytes, filename: str, request) -> HttpResponse:
    disposition = "attachment" if request.GET.get("download") else "inline"
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    return response


def _paper(request) -> str | None:
    paper = request.GET.get("paper")
    return paper if paper in ("A4", "letter") else None


def _too_large(request, exc: documents.PdfTooLarge, back: str) -> HttpResponse:
    return render(request, "scoresheets/too_large.html",
                  {"message": exc.message, "back": back}, status=422)


@login_required
@require_GET
def game_pdf(request, pk: int):
    game = game_for(request.user, pk)
    try:
        pdf, name = documents.game_sheet_pdf(game, paper_size=_paper(request))
    except documents.PdfTooLarge as exc:
        return _too_large(request, exc, reverse("ledger:game_detail", args=[game.pk]))
    return _pdf_response(pdf, name, request)


@login_required
@require_GET
def blank_pdf(request, pk: int):
    game = game_for(request.user, pk)
    try:
        pdf, name = documents.blank_sheet_pdf(game, paper_size=_paper(request))
    except documents.PdfTooLarge as exc:
        return _too_large(request, exc, reverse("ledger:game_detail", args=[game.pk]))
    return _pdf_response(pdf, name, request)


@login_required
@require_GET
def session_pdf(request, pk: int):
    session = session_for(request.user, pk)
    try:
        pdf, name = documents.session_report_pdf(session, paper_size=_paper(request))
    except documents.PdfTooLarge as exc:
        return _too_large(request, exc, reverse("ledger:session_detail", args=[session.pk]))
    return _pdf_response(pdf, name, request)


@login_required
@require_GET
def session_blank_pdf(request, pk: int):
    """A blank sheet for the evening's next game: the variant and players chosen on the
    evening's screen (nothing is stored). A form that does not fit goes back to that screen
    with the reason."""
    session = session_for(request.user, pk)
    form = BlankSheetForm(request.GET, session=session)
    back = reverse("ledger:session_detail", kwargs={"pk": session.pk}) + "#blank"
    if not form.is_valid():
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else "Blank sheet"
            messages.error(request, f"Blank sheet: {label}: {' '.join(errors)}")
        return redirect(back)
    variant, players = form.cleaned_data["variant"], form.cleaned_data["players"]
    try:
        context, sequence = evening_blank_context(session, variant, players,
                                                  form.cleaned_data["preset"],
                                                  form.cleaned_data["ante"])
    except ValueError as exc:  # the core's refusal: the players do not fit the variant
        messages.error(request, f"Blank sheet: {exc}")
        return redirect(back)
    paper = _paper(request) or session.table.paper_for(session.currency)
    pdf = render_pdf(documents.BLANK_TEMPLATE, context, paper)
    name = documents.file_name(session, "game", sequence, variant, "blank")
    return _pdf_response(pdf, name, request)


def _preview(html: str) -> HttpResponse:
    """The print HTML with the print stylesheet linked (the site's CSP allows no inline
    style element; the views below allow the style attributes that size the columns)."""
    link = f'<link rel="stylesheet" href="{static("scoresheets/print.css")}">'
    return HttpResponse(html.replace("</head>", link + "</head>", 1))


PREVIEW_CSP = {"style-src-attr": [UNSAFE_INLINE]}


@login_required
@require_GET
@csp_update(PREVIEW_CSP)
def game_html(request, pk: int):
    game = game_for(request.user, pk)
    return _preview(render_html(documents.GAME_TEMPLATE, selectors.game_sheet_context(game)))


@login_required
@require_GET
@csp_update(PREVIEW_CSP)
def session_html(request, pk: int):
    session = session_for(request.user, pk)
    return _preview(render_html(documents.SESSION_TEMPLATE,
                                selectors.session_report_context(session)))
