"""The read-only pages a share link opens: a table's evenings, or one game's live sheet."""

from __future__ import annotations

from django.db.models import Count, Prefetch, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from ledger import cleaning
from ledger.clock import speak_as_table
from ledger.models import Game, ShareLink

from . import freshness
from .errors import friendly_link_404
from .game_context import (
    game_context,
    load_game,
)

# -- shared, read-only sheets ----------------------------------------------------------------

def _live_link(token: str) -> ShareLink:
    if not cleaning.is_token(token):  # a NUL or other junk: no database would hold it
        raise Http404("No such link")
    link = (ShareLink.objects.select_related("table", "game")
            .filter(token=token, revoked_at__isnull=True).first())
    if link is None:
        raise Http404("No such link")
    speak_as_table(link.table)  # a share page: the table's clock and language
    return link


@friendly_link_404
def shared(request: HttpRequest, token: str) -> HttpResponse:
    """A share link: one game's sheet, or the table's evenings with their games."""
    link = _live_link(token)
    if link.game_id:
        return _shared_game(request, link, link.game)
    response = render(request, "ledger/shared_table.html", shared_table_context(link))
    response["X-Robots-Tag"] = "noindex"
    return response


def shared_table_context(link: ShareLink) -> dict:
    """The table's last evenings with their games, for the page and its live part."""
    etag = freshness.table_etag(link.table_id)  # first: never newer than what is shown
    sessions = list(link.table.sessions.prefetch_related(
        Prefetch("games", queryset=Game.objects.order_by("sequence").annotate(
            live_hands=Count("hands", filter=Q(hands__voided_at__isnull=True)))))[:10])
    return {"link": link, "table": link.table, "sessions": sessions, "live_etag": etag,
            "live_url": reverse("ledger:shared_live", kwargs={"token": link.token})}


@friendly_link_404
def shared_game(request: HttpRequest, token: str, game_pk: int) -> HttpResponse:
    link = _live_link(token)
    return _shared_game(request, link, shared_game_for(link, game_pk))


def shared_game_for(link: ShareLink, game_pk: int) -> Game:
    """A game the link shows (the link's game, or any game of the link's table)."""
    if link.game_id:
        if link.game_id != game_pk:
            raise Http404("No such game")
        return link.game
    game = (Game.objects.select_related("session__table")
            .filter(pk=game_pk, session__table=link.table).first())
    if game is None:
        raise Http404("No such game")
    return game


def _shared_game(request, link: ShareLink, game: Game) -> HttpResponse:
    response = render(request, "ledger/shared_game.html", shared_game_context(link, game))
    response["X-Robots-Tag"] = "noindex"
    response["Referrer-Policy"] = "no-referrer"
    return response


def shared_game_context(link: ShareLink, game: Game) -> dict:
    """One game's sheet, for the page and its live part (views/live.py)."""
    etag = freshness.game_etag(game.pk)  # first: never newer than what is shown
    game = Game.objects.select_related("session__table").get(pk=game.pk)
    result, history = load_game(game)
    context = game_context(game, result, history, owner=False)
    context["link"] = link
    context["live_etag"] = etag
    context["live_url"] = reverse("ledger:shared_game_live",
                                  kwargs={"token": link.token, "game_pk": game.pk})
    return context
