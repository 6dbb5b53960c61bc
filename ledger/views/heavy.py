"""The pages and downloads that hold a worker for long: one account's run in its slots
(``limits.heavy_slot_take``, TABLESTAKES_HEAVY_PER_ACCOUNT at once, across workers), so
that one account looping over a big game's page, its CSV, XLSX and JSON cannot hold every
worker while the others wait at the log-in page. Without a free slot: 429 at once, with
Retry-After and a page that says what to do, never a 500."""

from __future__ import annotations

import functools

from django.shortcuts import render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from ledger import limits
from ledger.presentation.refusals import refusal_words


def busy_response(request, exc: limits.Busy):
    back = request.META.get("HTTP_REFERER", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = reverse("ledger:home")
    response = render(request, "busy.html", {
        "message": refusal_words(exc), "retry_after": exc.retry_after,
        "again": request.get_full_path(), "back": back}, status=429)
    response["Retry-After"] = str(exc.retry_after)
    response["Cache-Control"] = "no-store"
    return response


def heavy(view):
    """``@heavy`` on a view: it runs in one of the account's slots for heavy pages."""

    @functools.wraps(view)
    def in_a_slot(request, *args, **kwargs):
        try:
            slot = limits.heavy_slot_take(getattr(request, "user", None))
        except limits.Busy as exc:
            return busy_response(request, exc)
        try:
            return view(request, *args, **kwargs)
        finally:
            limits.heavy_slot_give_back(slot)

    in_a_slot.heavy = True
    return in_a_slot
