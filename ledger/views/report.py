"""Report links (issue 23): the page a card table's phone opens (the game live, as the
share page shows it, and a form for that table's part of the current hand), its live part,
and the scorekeeper's side: making and revoking the links, and the reports of the current
hand that the game page polls to fill its hand form.

A report link reads its own game and sends reports for its own part of the current hand;
nothing else. Every view of it is public (``@login_not_required``) and answers the friendly
"this link no longer works" page for a revoked link. Once its game is over (ended,
abandoned, or its evening settled) the link stays open, read-only: it shows the game's end
(the final score, the winner, the money) and takes no report. Nothing a table sends is
recorded: the scorekeeper's Save records the hand (``services.hand_record``)."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_not_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import condition, require_GET, require_POST

from ledger import access, limits, services
from ledger.clock import speak_as_table
from ledger.exceptions import LedgerError, RecordRefused, ReportStale
from ledger.forms.reports import (
    PlayerReportForm,
    TableReportForm,
    report_fields,
    went_out_value,
)
from ledger.models import CONFIRM_PART, PLAYERS_PART, ReportLink
from ledger.presentation.dates import clock_words
from ledger.presentation.elision import gettext  # French: "la part d’Eve"
from ledger.presentation.game_page import next_hand_spec
from ledger.presentation.refusals import refusal_words
from ledger.presentation.reports import (
    confirm_answers,
    conflict_words,
    link_words,
    part_labels,
    part_reported,
    round_disputed,
    round_end_words,
)
from ledger.presentation.words import hand_title
from ledger.selectors import table_reports

from . import freshness
from .actions import run_service
from .errors import friendly_link_404
from .game_context import game_context, load_game
from .live import live_answer
from .params import BadParameter, bad_parameter_response, number_param
from .settled import refuse_if_settled

#: the cookie that remembers which player a CAP-IT phone is (per link): the player's place
#: in the game (0, 1, ...), never his name: a header holds ASCII only (a name in Cyrillic
#: or Greek made the response a 500)
PLAYER_COOKIE = "ts_report_player_{pk}"


def remembered_player(request: HttpRequest, link: ReportLink, players: list[str]
                      ) -> str | None:
    """The player this phone said it was (``PLAYER_COOKIE``), if still one of ``players``."""
    value = request.COOKIES.get(PLAYER_COOKIE.format(pk=link.pk), "")
    if not (value.isascii() and value.isdigit()) or int(value) >= len(players):
        return None
    return players[int(value)]


def remember_player(request: HttpRequest, response: HttpResponse, link: ReportLink,
                    players: list[str], player: str) -> None:
    response.set_cookie(PLAYER_COOKIE.format(pk=link.pk), str(players.index(player)),
                        max_age=12 * 3600, samesite="Lax", httponly=True,
                        secure=request.is_secure())


def live_report_link(token: str) -> ReportLink:
    """The report link with ``token`` if it still opens something (its game in progress,
    or over: then read-only); Http404 for a revoked link or any other token."""
    link = table_reports.report_link(token)
    if link is None or link.revoked_at is not None or link.part == CONFIRM_PART:
        raise Http404("No such link")
    speak_as_table(link.game.session.table)  # the table's clock and language, as a share page
    return link


def _over(link: ReportLink) -> bool:
    """Whether ``link``'s game takes no more reports (ended, abandoned, evening settled):
    its page shows the game's end, read-only."""
    return not table_reports.report_link_live(link)


def _over_words() -> str:
    return gettext("Not sent: this game is over and takes no more reports.")


def _rounds(result: dict) -> bool:
    """Whether one hand of the game is called a round (the core's ``hand_noun``: CAP-IT)."""
    return result["facts"]["hand_noun"].lower() == "round"


def _report_context(request, link: ReportLink, form=None) -> dict:
    game = link.game
    result, history = load_game(game)
    etag = freshness.game_etag(game.pk)
    context = game_context(game, result, history, owner=False)
    parts = table_reports.report_parts_of(game, result)
    number = parts["number"]
    context.update({
        "link": link, "part_words": link_words(link.part), "number": number,
        "hand_title": hand_title(result["facts"]["hand_noun"], number),
        "live_etag": etag,
        "live_url": reverse("ledger:report_live", kwargs={"token": link.token}),
        "action": reverse("ledger:report_page", kwargs={"token": link.token}),
        "withdraw": reverse("ledger:report_withdraw", kwargs={"token": link.token}),
        "rounds": _rounds(result),
    })
    if _over(link):  # the game's end, read-only (the live part shows the score and money)
        context.update({"over": True, "form": None, "pair": None, "player": None,
                        "mine": []})
        return context
    player = None
    if link.part == PLAYERS_PART:
        player = remembered_player(request, link, result["players"])
        if form is None:
            form = PlayerReportForm(players=result["players"],
                                    initial={"number": number, "player": player})
        context["pair"] = None
    else:
        spec = next_hand_spec(result)
        if form is None:
            form = TableReportForm(spec=spec, table=link.part,
                                   initial={"number": number, "key": uuid.uuid4()})
        context["pair"] = spec["duels"][link.part - 1]["players"]
    context["form"] = form
    context["player"] = player
    whose = ({"player": player} if link.part == PLAYERS_PART else {"table": link.part})
    context["mine"] = ([r for r in table_reports.live_reports(game, number)
                        if all(getattr(r, k) == v for k, v in whose.items())]
                       if (player or link.part != PLAYERS_PART) else [])
    return context


def _page(request, link, form=None, status=200) -> HttpResponse:
    response = render(request, "ledger/report.html", _report_context(request, link, form),
                      status=status)
    response["X-Robots-Tag"] = "noindex"
    # not "no-referrer" as the share pages: a browser then posts the form with "Origin:
    # null", which the CSRF check refuses; same-origin gives the token to no other site
    response["Referrer-Policy"] = "same-origin"
    return response


@login_not_required  # the table's report link: whoever holds it, without an account
@friendly_link_404
def report_page(request: HttpRequest, token: str) -> HttpResponse:
    """GET: the game live and the form for this table's part of the current hand. POST:
    send it (refused with the core's words, or because the hand was saved meanwhile)."""
    link = live_report_link(token)
    if request.method != "POST":
        return _page(request, link)
    if _over(link):  # a report typed (or queued) as the last hand was saved
        messages.warning(request, _over_words())
        return redirect("ledger:report_page", token=token)
    try:
        limits.count_report(request, link.pk)
    except limits.LimitReached as exc:
        messages.error(request, refusal_words(exc))
        return _page(request, link, status=429)
    game = link.game
    result, _ = load_game(game)
    player = None
    if link.part == PLAYERS_PART:
        form = PlayerReportForm(request.POST, players=result["players"])
    else:
        form = TableReportForm(request.POST, spec=next_hand_spec(result), table=link.part)
    if not form.is_valid():
        return _page(request, link, form, status=422)
    if link.part == PLAYERS_PART:
        player = form.cleaned_data["player"]
    try:
        report = services.report_submit(link=link, number=form.cleaned_data["number"],
                                        values=form.entry(), player=player)
    except ReportStale as exc:
        messages.warning(request, refusal_words(exc))
        return redirect("ledger:report_page", token=token)
    except RecordRefused as exc:
        form.add_problems(exc.details)
        return _page(request, link, form, status=422)
    except LedgerError as exc:
        form.add_error(None, refusal_words(exc))
        return _page(request, link, form, status=422)
    who = player or (gettext("table %(n)s") % {"n": link.part})
    said = {"who": who, "n": report.number, "at": clock_words(report.reported_at)}
    if _rounds(result):
        sent = gettext("Sent: %(who)s's part of round %(n)s at %(at)s. The scorekeeper "
                       "checks it and saves the round.")
    else:
        sent = gettext("Sent: %(who)s's part of hand %(n)s at %(at)s. The scorekeeper checks "
                       "it and saves the hand.")
    messages.success(request, sent % said)
    response = redirect("ledger:report_page", token=token)
    if player:
        remember_player(request, response, link, result["players"], player)
    return response


@login_not_required
@require_POST
@friendly_link_404
def report_withdraw(request: HttpRequest, token: str) -> HttpResponse:
    """Withdraw this table's (or player's) report of the current hand."""
    link = live_report_link(token)
    if _over(link):
        messages.warning(request, _over_words())
        return redirect("ledger:report_page", token=token)
    result, _ = load_game(link.game)
    try:
        limits.count_report(request, link.pk)
        # the one number reader: '١' or a number past the column is a 400 naming it
        number = number_param(request.POST, "number", maximum=2_147_483_647)
    except limits.LimitReached as exc:
        messages.error(request, refusal_words(exc))
        return redirect("ledger:report_page", token=token)
    except BadParameter as exc:
        return bad_parameter_response(request, exc)
    if number is None:
        messages.error(request, gettext("This form was out of date; here is the current round.")
                       if _rounds(result) else
                       gettext("This form was out of date; here is the current hand."))
        return redirect("ledger:report_page", token=token)
    player = (remembered_player(request, link, result["players"])
              if link.part == PLAYERS_PART else None)
    try:
        done = services.report_withdraw(link=link, number=number, player=player)
    except LedgerError as exc:
        messages.warning(request, refusal_words(exc))
    else:
        messages.info(request, gettext("Report withdrawn.") if done
                      else gettext("There was no report to withdraw."))
    return redirect("ledger:report_page", token=token)


def _report_etag(request: HttpRequest, token: str) -> str:
    request.report_link = live_report_link(token)
    request.live_etag = freshness.game_etag(request.report_link.game_id)
    return request.live_etag


@login_not_required  # polled by the report page, as the share page's live part
@require_GET
@friendly_link_404
@gzip_page
@condition(etag_func=_report_etag)
def report_live(request: HttpRequest, token: str) -> HttpResponse:
    link = request.report_link
    game = link.game

    def context():
        result, history = load_game(game)
        out = game_context(game, result, history, owner=False)
        out.update({"live_etag": request.live_etag,
                    "live_url": reverse("ledger:report_live", kwargs={"token": token})})
        return out

    return live_answer(request, "ledger/_shared_game_live.html", context)


def _part_fields(spec: dict, whose: dict) -> list[str]:
    """The hand form's fields that belong to one part (cleared before a report fills it)."""
    if "table" in whose:
        i = whose["table"]
        return [f"t{i}_{name}" for name in ("knocker", "kind", "c0", "c1", "cards0", "cards1")]
    players = spec.get("players", [])
    return [f"pts_{players.index(whose['player'])}"] if whose["player"] in players else []


# -- the scorekeeper's side ------------------------------------------------------------------

@require_POST
def report_links_create(request: HttpRequest, pk: int) -> HttpResponse:
    game = access.game_for(request.user, pk)
    if refused := refuse_if_settled(request, game.session, game=game):
        return refused
    return run_service(
        request, lambda: services.report_links_get_or_create(game=game,
                                                             created_by=request.user),
        success=lambda _: gettext("Report links ready: each table scans its own."),
        redirect_to=reverse("ledger:game_detail", args=[game.pk]) + "#reports")


@require_POST
def report_links_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    game = access.game_for(request.user, pk)
    return run_service(
        request, lambda: services.report_links_revoke(game=game),
        success=lambda _: gettext("Report links revoked: they no longer open anything."),
        redirect_to=reverse("ledger:game_detail", args=[game.pk]) + "#reports")


def _keeper_etag(request: HttpRequest, pk: int) -> str:
    request.report_game = access.game_for(request.user, pk)
    return table_reports.reports_version(pk)


@require_GET
@condition(etag_func=_keeper_etag)
def game_reports(request: HttpRequest, pk: int) -> HttpResponse:
    """The reports of the current hand, for the scorekeeper's page (polled; 304 while
    nothing changed): each part's state and the hand form's fields it fills."""
    game = request.report_game
    result, _ = load_game(game)
    parts = table_reports.report_parts_of(game, result)
    body: dict = {"number": parts["number"], "parts": []}
    if parts["kind"] is None:  # a two-hand game: the other player's confirmations
        body["confirm"] = confirm_answers(game)
        response = JsonResponse(body)
        response["Cache-Control"] = "no-cache"
        return response
    spec = next_hand_spec(result)
    standing = table_reports.live_reports(game, parts["number"])
    disputed: list[str] = []
    if part_reported(parts):  # CAP-IT: who went out is the round's, from every report
        end = table_reports.round_end_of(parts, standing)
        body["went_out"] = {"state": end["state"], "value": went_out_value(end),
                            "text": round_end_words(end)}
        disputed = round_disputed(end)
    for label, whose in part_labels(parts):
        report = next((r for r in standing
                       if all(getattr(r, k) == v for k, v in whose.items())), None)
        item = {"label": label, "state": "waiting", "id": None, "fields": {}, "text": "",
                "clear": _part_fields(spec, whose)}
        if report is not None:
            at = clock_words(report.reported_at)
            who = (gettext("table %(n)s") % {"n": whose["table"]} if "table" in whose
                   else label)
            item.update(state="reported", id=report.pk, changed=report.replaces_id is not None,
                        at=at, fields=report_fields(spec, report),
                        text=(gettext("changed by %(who)s at %(at)s") if report.replaces_id
                              else gettext("reported by %(who)s at %(at)s"))
                        % {"who": who, "at": at})
            if report.player in disputed:  # "I went out", as another says: no points filled
                item.update(state="conflict", fields={},
                            text=conflict_words(report.player, at, disputed))
        body["parts"].append(item)
    response = JsonResponse(body)
    response["Cache-Control"] = "no-cache"
    return response
