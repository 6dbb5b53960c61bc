"""The installable app: the web app manifest, the service worker and the offline page.

The service worker's code is the static file ``ledger/sw.js``; it is served from the site
root (``/sw.js``) so that it may look after every page, with the release and the list of
files to keep put in front of it. The release (``freshness.release``: a hash of the app's
static files and templates, or TABLESTAKES_RELEASE) names its caches, so a new release
replaces what phones keep, and the old caches are deleted when the new worker takes over."""

from __future__ import annotations

import json
from functools import lru_cache

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_GET

from ledger.corefiles import core_cache_urls

from .freshness import release

THEME = "#14532d"
BACKGROUND = "#f6f4ee"

#: Static files every page of the app needs, kept by the service worker when it installs.
SHELL = [
    "ledger/app.css",
    "ledger/app.js",
    "ledger/cards.js",
    "ledger/shell.js",
    "ledger/scrolls.js",
    "ledger/timezone.js",
    "ledger/offline.js",
    # the queue's modules, imported by offline.js (tablestakes/storage.py hashes the names)
    "ledger/queue/form.js",
    "ledger/queue/lock.js",
    "ledger/queue/page.js",
    "ledger/queue/records.js",
    "ledger/queue/scoring.js",
    "ledger/queue/sender.js",
    "ledger/queue/store.js",
    "ledger/queue/view.js",
    "ledger/queue/words.js",
    "ledger/live.js",
    "django_htmx/htmx-2.min.js",
    "ledger/icons/icon.svg",
    "ledger/icons/icon-192.png",
    "ledger/icons/apple-touch-icon.png",
]


@login_not_required  # fetched by the browser, logged in or not
@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    response = JsonResponse({
        "name": "Tablestakes",
        "short_name": "Tablestakes",
        "description": gettext("Scores, stakes and settling up for the card table."),
        "lang": get_language() or "en",
        "id": "/",
        "start_url": "/?source=app",
        "scope": "/",
        "display": "standalone",
        "orientation": "portrait",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": [
            {"src": static("ledger/icons/icon-192.png"), "sizes": "192x192",
             "type": "image/png", "purpose": "any"},
            {"src": static("ledger/icons/icon-512.png"), "sizes": "512x512",
             "type": "image/png", "purpose": "any"},
            {"src": static("ledger/icons/maskable-512.png"), "sizes": "512x512",
             "type": "image/png", "purpose": "maskable"},
        ],
    }, json_dumps_params={"indent": 1})
    response["Content-Type"] = "application/manifest+json"
    response["Cache-Control"] = "public, max-age=3600"
    return response


@lru_cache(maxsize=1)
def _worker_code() -> str:
    path = finders.find("ledger/sw.js")
    if not path:
        raise Http404("No service worker")
    with open(path, encoding="utf-8") as handle:
        return handle.read()


@login_not_required
@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    config = {
        "version": release(),
        # the prefix of every static URL (STATIC_URL, with the script prefix), not
        # static(""): a manifest storage (WhiteNoise's, in production) has no entry for ""
        # and raises, which made /sw.js answer 500 on every request
        "static": settings.STATIC_URL,
        "precache": [static(name) for name in SHELL],
        "offline": reverse("ledger:offline"),
        # the phone's core (Pyodide and ledger/core/rules.zip): kept across releases
        "core": core_cache_urls(),
    }
    code = f"self.TABLESTAKES = {json.dumps(config)};\n" + _worker_code()
    response = HttpResponse(code, content_type="text/javascript; charset=utf-8")
    # the browser checks for a new worker on every visit; it must not keep an old one
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@login_not_required  # the page the worker shows when the network is gone
@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """What a phone shows for a page it has not kept when there is no connection. The same
    for everybody (the worker keeps it), so it names no account and no table."""
    response = render(request, "offline.html", {"release": release()})
    response["Cache-Control"] = "no-cache"
    return response
