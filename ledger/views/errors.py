"""Friendly pages for what cannot be shown.

A share link that was revoked, mistyped or points at another table's game answers with
the "this link no longer works" page and a 404, drawn here rather than by raising Http404,
so that a player never sees Django's debug page (with its list of URLs) even on a
development server with DEBUG on. Django's own handlers draw templates/404.html, 403.html,
403_csrf.html and 500.html for everything else (500 through ``server_error`` here, which
answers a lost database connection with the 503 page instead)."""

from __future__ import annotations

import sys
from functools import wraps

from django.http import Http404
from django.shortcuts import render
from django.views import defaults

from ledger.middleware import is_outage, outage_response


def link_gone(request, status: int = 404):
    response = render(request, "404.html", {"link_gone": True}, status=status)
    response["X-Robots-Tag"] = "noindex"
    response["Referrer-Policy"] = "no-referrer"
    return response


def friendly_link_404(view):
    """Turn the share views' Http404 into the friendly page."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except Http404:
            return link_gone(request)

    return wrapper


def server_error(request, template_name: str = "500.html"):
    """The project's handler500: Django's own 500 page, except when what failed is the
    database connection (in a middleware, where ledger.middleware.DatabaseOutageMiddleware
    does not see it): then 503 with Retry-After, as for a view."""
    if is_outage(sys.exc_info()[1]):
        return outage_response()
    return defaults.server_error(request, template_name)
