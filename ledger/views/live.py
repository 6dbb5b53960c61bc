"""The live part of the share pages, polled by htmx every 2 s (``hx-trigger="every 2s"``).

Each poll carries the ETag of what the phone shows (``If-None-Match``); while nothing changed
the answer is ``304 Not Modified`` with no body. The ETag comes from one cheap query
(``selectors.game_live_version``: the last hand, the undone hands, the last change, the
status) and the release, so any app server answers the same without remembering anything.
A changed part is sent gzipped when the phone accepts it (it holds no secret and echoes
nothing of the request, so compressing it gives nothing away)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_not_required
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import condition, require_GET

from ledger import cleaning
from ledger.selectors.sharing import share_link_target

from . import freshness, shared


def _link_etag(request: HttpRequest, token: str) -> str:
    # two small queries: most polls end here with a 304, and the link itself (with its
    # table and game, the table's language) is read only to draw a changed part
    if not cleaning.is_token(token):
        raise Http404("No such link")
    target = share_link_target(token)
    if target is None:
        raise Http404("No such link")
    game_id, table_id = target
    request.live_etag = (freshness.game_etag(game_id) if game_id
                         else freshness.table_etag(table_id))
    return request.live_etag


def _game_etag(request: HttpRequest, token: str, game_pk: int) -> str:
    request.share_link = shared.live_link(token)
    request.shared_game = shared.shared_game_for(request.share_link, game_pk)
    request.live_etag = freshness.game_etag(game_pk)
    return request.live_etag


def live_answer(request: HttpRequest, template: str, context) -> HttpResponse:
    """The live part (of a share page or a report page), drawn once per change and address:
    every phone following the game
    asks within 2 s of a new hand, and they all get the same answer. Kept in the cache
    under its ETag (what it shows is at least as new as that), so a stale copy is never
    served, whichever server or cache answers."""
    # the language too: a table's language may change while nothing else does
    key = f"tablestakes:live:{request.path}:{request.live_etag}:{translation.get_language()}"
    body = cache.get(key)
    if body is None:
        body = render_to_string(template, context(), request=request)
        cache.set(key, body, 600)
    response = HttpResponse(body)
    # every poll asks again (with If-None-Match); nobody indexes or keeps it
    response["Cache-Control"] = "no-cache"
    response["X-Robots-Tag"] = "noindex"
    response["Referrer-Policy"] = "no-referrer"
    return response


@login_not_required  # polled by the share pages
@require_GET
@gzip_page
@condition(etag_func=_link_etag)
def shared_live(request: HttpRequest, token: str) -> HttpResponse:
    """A share link's live part: the game's sheet, or the table's evenings."""
    link = shared.live_link(token)
    if link.game_id:
        return live_answer(request, "ledger/_shared_game_live.html",
                       lambda: shared.shared_game_context(link, link.game))
    return live_answer(request, "ledger/_shared_table_live.html",
                   lambda: shared.shared_table_context(link))


@login_not_required
@require_GET
@gzip_page
@condition(etag_func=_game_etag)
def shared_game_live(request: HttpRequest, token: str, game_pk: int) -> HttpResponse:
    return live_answer(request, "ledger/_shared_game_live.html",
                   lambda: shared.shared_game_context(request.share_link, request.shared_game))
