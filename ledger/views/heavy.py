"""The pages and downloads that hold a worker for long: one account's run in its slots
(``limits.heavy_slot_take``, TABLESTAKES_HEAVY_PER_ACCOUNT at once, across workers), so
that one account looping over a big game's page, its CSV, XLSX and JSON cannot hold every
worker while the others wait at the log-in page. Without a free slot: 429 at once, with
Retry-After and a page that says what to do, never a 500.

A refusal is cheap too: its page is a small one (``refused.html``, no layout, nothing of
the account's), and the worker remembers it for the Retry-After it gave
(``limits.remember_refusal``), so that the same browser's heavy requests until then are
answered the same page by ``ledger.middleware.RememberedRefusalMiddleware`` before the
session or the account is read: one account asking again and again on six connections
costs the workers next to nothing."""

from __future__ import annotations

import functools
import time

from django.http import HttpResponse
from django.template import loader
from django.utils import translation
from django.utils.translation import gettext as _

from ledger import limits
from ledger.presentation.refusals import refusal_words

#: What ``RememberedRefusalMiddleware`` reads on a heavy view: its refusals are remembered
#: under this kind, for every method.
HEAVY = "heavy"
#: ... and on the PDF views (scoresheets/views.py): the account's own other sheet printing
PRINTING = "printing"


def refusal_response(request, kind: str, *, title: str, message: str, retry_after: int,
                     remember: float | None = None, heavy: bool = False,
                     printing: bool = False) -> HttpResponse:
    """429 with ``message`` on the small refusal page and Retry-After; the worker answers
    the same page to this browser's requests of ``kind`` for ``remember`` seconds (the
    Retry-After by default) without reading the session. ``heavy`` and ``printing`` add
    what a heavy page's or a sheet's refusal says of why, and a "Try again"."""
    body = loader.render_to_string("refused.html", {
        "title": title, "message": message, "retry_after": retry_after, "heavy": heavy,
        "printing": printing})
    response = HttpResponse(body, status=429)
    response["Retry-After"] = str(retry_after)
    response["Cache-Control"] = "no-store"
    limits.remember_refusal(request, kind, retry_after if remember is None else remember,
                            response.content, translation.get_language() or "en")
    return response


def busy_response(request, exc: limits.Busy):
    return refusal_response(request, HEAVY, title=_("One moment"), message=refusal_words(exc),
                            retry_after=exc.retry_after, heavy=True)


def heavy(view):
    """``@heavy`` on a view: it runs in one of the account's slots for heavy pages."""

    @functools.wraps(view)
    def in_a_slot(request, *args, **kwargs):
        try:
            slot = limits.heavy_slot_take(getattr(request, "user", None))
        except limits.Busy as exc:
            return busy_response(request, exc)
        started = time.monotonic()
        try:
            return view(request, *args, **kwargs)
        finally:
            limits.heavy_slot_give_back(slot, took=time.monotonic() - started)

    in_a_slot.heavy = True
    in_a_slot.remembered_refusal = HEAVY
    return in_a_slot
