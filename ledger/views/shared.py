"""The read-only pages a share link opens: a table's evenings, or one game's live sheet."""

from __future__ import annotations

from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from ledger.models import Game
from ledger.models_sharing import ShareLink

from .errors import friendly_link_404
from .game_context import (
    game_context,
    load_game,
)

# -- shared, read-only sheets ----------------------------------------------------------------

def _live_link(token: str) -> ShareLink:
    link = (ShareLink.objects.select_related("table", "game")
            .filter(token=token, revoked_at__isnull=True).first())
    if link is None:
        raise Http404("No such link")
    return link


@friendly_link_404
def shared(request: HttpRequest, token: str) -> HttpResponse:
    """A share link: one game's sheet, or the table's evenings with their games."""
    link = _live_link(token)
    if link.game_id:
        return _shared_game(request, link, link.game)
    sessions = list(link.table.sessions.prefetch_related(
        Prefetch("games", queryset=Game.objects.order_by("sequence")))[:10])
    response = render(request, "ledger/shared_table.html", {
        "link": link, "table": link.table, "sessions": sessions})
    response["X-Robots-Tag"] = "noindex"
    return response


@friendly_link_404
def shared_game(request: HttpRequest, token: str, game_pk: int) -> HttpResponse:
    link = _live_link(token)
    if link.game_id and link.game_id != game_pk:
        raise Http404("No such game")
    game = (Game.objects.select_related("session__table")
            .filter(pk=game_pk, session__table=link.table).first())
    if game is None:
        raise Http404("No such game")
    return _shared_game(request, link, game)


def _shared_game(request, link: ShareLink, game: Game) -> HttpResponse:
    game = Game.objects.select_related("session__table").get(pk=game.pk)
    result, history = load_game(game)
    context = game_context(game, result, history, owner=False)
    context["link"] = link
    response = render(request, "ledger/shared_game.html", context)
    response["X-Robots-Tag"] = "noindex"
    response["Referrer-Policy"] = "no-referrer"
    return response
