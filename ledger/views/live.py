"""The live part of the share pages, polled by htmx every 2 s (``hx-trigger="every 2s"``).

Each poll carries the ETag of what the phone shows (``If-None-Match``); while nothing changed
the answer is ``304 Not Modified`` with no body. The ETag comes from one cheap query
(``selectors.game_live_version``: the last hand, the undone hands, the last change, the
status) and the release, so any app server answers the same without remembering anything.
A changed part is sent gzipped when the phone accepts it (it holds no secret and echoes
nothing of the request, so compressing it gives nothing away)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import condition, require_GET

from . import freshness, shared


def _link_etag(request: HttpRequest, token: str) -> str:
    link = shared._live_link(token)
    request.share_link = link
    if link.game_id:
        return freshness.game_etag(link.game_id)
    return freshness.table_etag(link.table_id)


def _game_etag(request: HttpRequest, token: str, game_pk: int) -> str:
    request.share_link = shared._live_link(token)
    request.shared_game = shared.shared_game_for(request.share_link, game_pk)
    return freshness.game_etag(game_pk)


def _answer(response: HttpResponse) -> HttpResponse:
    # every poll asks again (with If-None-Match); nobody indexes or keeps it
    response["Cache-Control"] = "no-cache"
    response["X-Robots-Tag"] = "noindex"
    response["Referrer-Policy"] = "no-referrer"
    return response


@require_GET
@gzip_page
@condition(etag_func=_link_etag)
def shared_live(request: HttpRequest, token: str) -> HttpResponse:
    """A share link's live part: the game's sheet, or the table's evenings."""
    link = request.share_link
    if link.game_id:
        return _answer(render(request, "ledger/_shared_game_live.html",
                              shared.shared_game_context(link, link.game)))
    return _answer(render(request, "ledger/_shared_table_live.html",
                          shared.shared_table_context(link)))


@require_GET
@gzip_page
@condition(etag_func=_game_etag)
def shared_game_live(request: HttpRequest, token: str, game_pk: int) -> HttpResponse:
    return _answer(render(request, "ledger/_shared_game_live.html",
                          shared.shared_game_context(request.share_link, request.shared_game)))
