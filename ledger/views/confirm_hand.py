"""A two-hand game's confirm link (issue 23, optional per game): the player who does not
keep the score opens it on his phone, sees the last saved hand's result ("Ann knocks 5 v
Bob 30: Ann +25, correct?") and answers Correct or Not correct; the scorekeeper sees the
answer beside that hand on the game page ("Report from the tables").

The link reads the last saved hand of its game and answers for it, nothing else: public
(``@login_not_required``) by its unguessable token, rate-limited as the tables' reports,
revocable, dead with a settled evening; a revoked or dead link shows the friendly page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_not_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from ledger import access, limits, services
from ledger.clock import speak_as_table
from ledger.exceptions import LedgerError, ReportStale
from ledger.models import CONFIRM_PART, Hand, ReportLink
from ledger.presentation.refusals import refusal_words
from ledger.presentation.reports import confirm_answer, confirm_question
from ledger.presentation.words import hand_title
from ledger.selectors import table_reports

from .actions import run_service
from .errors import friendly_link_404
from .game_context import load_game
from .settled import refuse_if_settled

#: the answers a confirm page posts
ANSWERS = {"correct": True, "wrong": False}


def live_confirm_link(token: str) -> ReportLink:
    """The confirm link with ``token`` if it still opens something; Http404 otherwise."""
    link = table_reports.report_link(token)
    if link is None or link.part != CONFIRM_PART or not table_reports.report_link_live(link):
        raise Http404("No such link")
    speak_as_table(link.game.session.table)  # the table's clock and language, as a share page
    return link


def _page(request: HttpRequest, link: ReportLink, status: int = 200) -> HttpResponse:
    game = link.game
    result, _ = load_game(game)
    hands = result["hands"]
    context = {"link": link, "game": game, "result": result, "number": len(hands),
               "hand_title": hand_title(result["facts"]["hand_noun"], len(hands)),
               "question": "", "answer": "",
               "action": reverse("ledger:confirm_page", kwargs={"token": link.token})}
    if hands:
        context["question"] = confirm_question(hands[-1], result)
        last = (Hand.objects.filter(game=game, voided_at__isnull=True)
                .order_by("-number").first())
        said = table_reports.confirmation_of(link, last.pk) if last is not None else None
        context["answer"] = confirm_answer(said) if said is not None else ""
    response = render(request, "ledger/confirm_hand.html", context, status=status)
    response["X-Robots-Tag"] = "noindex"
    response["Referrer-Policy"] = "same-origin"  # (no-referrer: Origin null, CSRF 403)
    return response


@login_not_required  # the other player's confirm link: whoever holds it, without an account
@friendly_link_404
def confirm_page(request: HttpRequest, token: str) -> HttpResponse:
    """GET: the last saved hand and the question. POST: the answer (``answer`` correct or
    wrong, ``number`` the hand it answers)."""
    link = live_confirm_link(token)
    if request.method != "POST":
        return _page(request, link)
    try:
        limits.count_report(request, link.pk)
    except limits.LimitReached as exc:
        messages.error(request, refusal_words(exc))
        return _page(request, link, status=429)
    answer = ANSWERS.get(request.POST.get("answer", ""))
    number = request.POST.get("number", "")
    if answer is None or not number.isascii() or not number.isdigit():
        messages.error(request, gettext("answer: press Correct or Not correct under the hand."))
        return _page(request, link, status=422)
    try:
        said = services.hand_confirm(link=link, number=int(number), correct=answer)
    except ReportStale as exc:
        messages.warning(request, refusal_words(exc))
    except LedgerError as exc:
        messages.error(request, refusal_words(exc))
        return _page(request, link, status=422)
    else:
        messages.success(request, gettext("Sent: %(answer)s. The scorekeeper sees it.")
                         % {"answer": confirm_answer(said)})
    return redirect("ledger:confirm_page", token=token)


@require_POST
def confirm_link_create(request: HttpRequest, pk: int) -> HttpResponse:
    """The scorekeeper makes the game's confirm link for the player he names."""
    game = access.game_for(request.user, pk)
    if refused := refuse_if_settled(request, game.session, game=game):
        return refused
    player = request.POST.get("player", "")
    return run_service(
        request, lambda: services.confirm_link_get_or_create(game=game, player=player,
                                                             created_by=request.user),
        success=lambda link: gettext("Confirm link ready: %(player)s scans it to confirm each "
                                     "hand.") % {"player": link.player},
        redirect_to=reverse("ledger:game_detail", args=[game.pk]) + "#reports")
