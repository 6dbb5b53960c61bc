"""The scorekeeper's tables (home) and one table: its players, evenings and share links.

Every object taken from a URL goes through ``ledger.access`` (404 for anyone who does not
keep score at that table); writes go through ``ledger.services``."""

from __future__ import annotations

from django.contrib import messages
from django.db import transaction
from django.db.models import Count, Exists, OuterRef, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from ledger import access, limits, services
from ledger.forms import PlayerForm, SessionForm, TableForm
from ledger.forms.players import PlayerRenameForm
from ledger.forms.tables import TableLocaleForm
from ledger.models import Game, GameStatus, PaperSize, ShareLink
from ledger.presentation import questions
from ledger.presentation.catalog import VARIANT_NAMES, game_facts
from ledger.presentation.refusals import refusal_words
from ledger.selectors.evenings import live_settlements, new_evening_initial, set_evening_numbers

from .actions import refusals_to, run_service
from .heavy import refusal_response

#: The paper sizes as the table's page names them (the model's choices stay English).
PAPERS = {PaperSize.AUTO: gettext_lazy("By currency (Letter for USD, CAD, MXN; A4 elsewhere)"),
          PaperSize.A4: "A4", PaperSize.LETTER: pgettext_lazy("paper size", "Letter")}


def home(request: HttpRequest) -> HttpResponse:
    tables = (access.tables_for(request.user)
              .annotate(n_players=Count("players", distinct=True),
                        n_sessions=Count("sessions", distinct=True))
              .prefetch_related("players"))
    form = TableForm()
    status = 200
    if request.method == "POST":
        form = TableForm(request.POST)
        if form.is_valid() and not _over_limit(form, limits.count_new_table, request.user):
            with refusals_to(form, field="name") as attempt, transaction.atomic():
                table = services.table_create(name=form.cleaned_data["name"],
                                              scorekeepers=[request.user],
                                              language=form.cleaned_data["language"],
                                              time_zone=form.cleaned_data["time_zone"])
                services.players_get_or_create(table=table,
                                               names=form.cleaned_data["players"])
            if not attempt.refused:
                messages.success(request, _("Table %(name)s is ready.") % {"name": table.name})
                return redirect("ledger:table_detail", pk=table.pk)
    if form.errors:
        status = 429 if getattr(form, "over_limit", False) else 422
    response = render(request, "ledger/home.html", {
        "tables": tables, "form": form, "playing": _games_in_progress(request.user)},
        status=status)
    if getattr(form, "over_limit", False):
        # the page keeps what was typed; until the Retry-After (a minute at most) this
        # worker answers the browser's next new tables the small page, without the database
        response["Retry-After"] = str(form.retry_after)
        refusal_response(request, "tables", title=_("Not now"),
                         message=form.non_field_errors()[0], retry_after=form.retry_after)
    return response


#: ``RememberedRefusalMiddleware``: a new table (the POST) refused past the hour's limit is
#: remembered by the worker that refused it
home.remembered_refusal = {"POST": "tables"}


def _over_limit(form, count, user) -> bool:
    """Count one more table or evening made by ``user`` (``limits.count_new_table`` or
    ``count_new_evening``); past the hour's limit, say so on ``form`` (answered 429)."""
    try:
        count(user)
    except limits.LimitReached as exc:
        form.add_error(None, refusal_words(exc))
        form.over_limit = True
        form.retry_after = getattr(exc, "retry_after", 60)
        return True
    return False


def _games_in_progress(user) -> list[dict]:
    """The scorekeeper's unfinished games, the latest started first: one tap back to each."""
    games = (Game.objects.filter(session__table__in=access.tables_for(user),
                                 status=GameStatus.IN_PROGRESS)
             .select_related("session__table")
             .annotate(n_hands=Count("hands", filter=Q(hands__voided_at__isnull=True)))
             .prefetch_related("seats__player")
             .order_by("-started_at", "-pk")[:12])
    set_evening_numbers([game.session for game in games])  # "(2)"
    rows = []
    for game in games:
        players = [seat.player.name for seat in sorted(game.seats.all(), key=lambda s: s.seat)]
        rows.append({"game": game, "label": VARIANT_NAMES.get(game.variant, game.variant),
                     "players": players,
                     "noun": game_facts(game.variant, len(players)).hand_noun.lower()})
    return rows


def table_detail(request: HttpRequest, pk: int) -> HttpResponse:
    table = access.table_for(request.user, pk)
    player_form = PlayerForm()
    rename_form = PlayerRenameForm(players=table.players.all())
    session_form = SessionForm(initial=new_evening_initial(table))
    if request.method == "POST" and "add_player" in request.POST:
        player_form = PlayerForm(request.POST, table_names=list(
            table.players.values_list("name", flat=True)))
        if player_form.is_valid():
            with refusals_to(player_form, field="name"):
                player = services.player_get_or_create(table=table,
                                                       name=player_form.cleaned_data["name"])
                messages.success(request, _("%(name)s joins the table.") % {"name": player.name})
                return redirect("ledger:table_detail", pk=table.pk)
    elif request.method == "POST" and "paper" in request.POST:
        return run_service(
            request, lambda: services.table_set_paper(table=table,
                                                      paper_size=request.POST["paper"]),
            success=lambda table: _("Sheets print on: %(paper)s.") % {
                "paper": PAPERS.get(table.paper_size, table.get_paper_size_display())},
            redirect_to=reverse("ledger:table_detail", kwargs={"pk": table.pk}) + "#paper")
    elif request.method == "POST" and "rename_player" in request.POST:
        rename_form = PlayerRenameForm(request.POST, players=table.players.all())
        if rename_form.is_valid():
            player = table.players.get(pk=rename_form.cleaned_data["player"])
            old = player.name
            with refusals_to(rename_form, field="name"):
                player = services.player_rename(player=player,
                                                name=rename_form.cleaned_data["name"])
                messages.success(request, _("%(old)s is now %(new)s, in every game and on "
                                            "every sheet.") % {"old": old, "new": player.name})
                return redirect("ledger:table_detail", pk=table.pk)
    elif request.method == "POST" and "new_session" in request.POST:
        session_form = SessionForm(request.POST)
        if session_form.is_valid() and not _over_limit(session_form, limits.count_new_evening,
                                                         request.user):
            data = session_form.cleaned_data
            with refusals_to(session_form):
                session = services.session_create(
                    table=table, date=data["date"], place=data["place"],
                    currency=data["currency"], rate=data["rate"],
                    per_points=data["per_points"] or 1, created_by=request.user)
                messages.success(request, _("A new evening begins."))
                return redirect("ledger:session_detail", pk=session.pk)
    sessions = table.sessions.annotate(
        n_games=Count("games"),
        settled=Exists(live_settlements().filter(session=OuterRef("pk")))
    ).order_by("-date", "-id")  # tonight first (a query with Count ignores Meta.ordering)
    sessions = list(sessions)
    set_evening_numbers(sessions)  # "(2)": the second evening of a day
    links = ShareLink.objects.filter(table=table, revoked_at__isnull=True,
                                     game__isnull=True).first()
    status = 422 if (player_form.errors or session_form.errors or rename_form.errors) else 200
    if getattr(session_form, "over_limit", False):
        status = 429
    return render(request, "ledger/table_detail.html", {
        "table": table, "players": table.players.filter(archived_at__isnull=True),
        "sessions": sessions,
        "player_form": player_form, "session_form": session_form, "share": links,
        "revoke_question": questions.revoke_question(links) if links else None,
        # short enough for a phone's select; what "by currency" means is said under it
        "papers": [(value, _("By currency") if value == PaperSize.AUTO
                    else PAPERS.get(value, label)) for value, label in PaperSize.choices],
        "locale_form": TableLocaleForm(initial={"language": table.language,
                                                "time_zone": table.time_zone}),
        "rename_form": rename_form,
    }, status=status)
