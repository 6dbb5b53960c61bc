"""A settled evening refuses, before any form, what would change it.

The screens hide every action that changes a settled evening's games (✎, undo, stakes and
rules, next game, settle up); a URL typed or kept in the browser's history still reaches
the view, so each such view asks ``refuse_if_settled`` first. The answer is the page the
user came from (the game or the evening) with the evening's words in a message, and
nothing changed: never the form, never an error page. With htmx the answer is a page load
(HX-Location), so that a page is never swapped into a part of another."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext, gettext_noop

from ledger.models import Game, Session
from ledger.presentation.dates import evening_words
from ledger.selectors.evenings import session_is_settled

#: What each refused action would have done, in the message's words (translated when
#: said, with the evening's date).
WHAT = {
    "game": gettext_noop("The evening of %(date)s is settled; its games can no longer "
                         "change. A mistake found now? Reopen the evening first."),
    "new game": gettext_noop("The evening of %(date)s is settled; it takes no new game. "
                             "Start a new evening on the table's page, or reopen this one."),
    "settle": gettext_noop("The evening of %(date)s is settled; there is nothing more to "
                           "settle."),
}


def settled_text(session: Session, what: str = "game") -> str:
    """"The evening of Monday 23 November 2026 is settled; its games can no longer
    change. …" (the services' words, ``services.base._ensure_open``)."""
    return gettext(WHAT[what]) % {"date": evening_words(session.date)}


def refuse_if_settled(request: HttpRequest, session: Session, *, game: Game | None = None,
                      what: str = "game") -> HttpResponse | None:
    """None while the evening is open; once it is settled, the way back to the game (or
    the evening) with the evening's words, and nothing done."""
    if not session_is_settled(session):
        return None
    messages.info(request, settled_text(session, what))
    url = (reverse("ledger:game_detail", kwargs={"pk": game.pk}) if game is not None
           else reverse("ledger:session_detail", kwargs={"pk": session.pk}))
    if getattr(request, "htmx", False):
        response = HttpResponse(status=204)
        response["HX-Location"] = url
        return response
    return redirect(url)
