"""The read-only pages a share link opens: a table's evenings, or one game's live sheet."""

from __future__ import annotations

from django.contrib.auth.decorators import login_not_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from ledger import cleaning
from ledger.clock import speak_as_table
from ledger.models import Game, ShareLink
from ledger.presentation.session import evening_heading, session_summary
from ledger.selectors.evenings import set_evening_numbers

from . import freshness
from .errors import friendly_link_404
from .game_context import (
    game_context,
    load_game,
)

#: How many of a table's last evenings its share page shows.
SHARED_EVENINGS = 10

# -- shared, read-only sheets ----------------------------------------------------------------

def live_link(token: str) -> ShareLink:
    """The live (not revoked) share link with ``token``; Http404 for any other token
    (also used by the live parts, ``views/live.py``)."""
    if not cleaning.is_token(token):  # a NUL or other junk: no database would hold it
        raise Http404("No such link")
    link = (ShareLink.objects.select_related("table", "game")
            .filter(token=token, revoked_at__isnull=True).first())
    if link is None:
        raise Http404("No such link")
    speak_as_table(link.table)  # a share page: the table's clock and language
    return link


@login_not_required  # the read-only link: whoever has it, without an account
@friendly_link_404
def shared(request: HttpRequest, token: str) -> HttpResponse:
    """A share link: one game's sheet, or the table's evenings with their games."""
    link = live_link(token)
    if link.game_id:
        return _shared_game(request, link, link.game)
    response = render(request, "ledger/shared_table.html", shared_table_context(link))
    response["X-Robots-Tag"] = "noindex"
    return response


def shared_table_context(link: ShareLink) -> dict:
    """The table's last evenings, for the page and its live part: each game's score line,
    each player's money so far and, once the evening is settled, who pays whom (the
    presentation's ``SessionSummary``, as the evening's own page and report show it)."""
    etag = freshness.table_etag(link.table_id)  # first: never newer than what is shown
    sessions = list(link.table.sessions.all()[:SHARED_EVENINGS])
    set_evening_numbers(sessions)  # a day's second evening, told apart in words
    return {"link": link, "table": link.table, "live_etag": etag,
            "evenings": [(evening_heading(session), session_summary(session))
                         for session in sessions],
            "live_url": reverse("ledger:shared_live", kwargs={"token": link.token})}


@login_not_required
@friendly_link_404
def shared_game(request: HttpRequest, token: str, game_pk: int) -> HttpResponse:
    link = live_link(token)
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
    context["evening"] = evening_heading(game.session)
    context["live_etag"] = etag
    context["live_url"] = reverse("ledger:shared_game_live",
                                  kwargs={"token": link.token, "game_pk": game.pk})
    return context
