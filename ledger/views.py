"""Screens around the games: the scorekeeper's tables, a table's players and evenings, an
evening's games and settling up, and the share links.

Every object taken from a URL goes through ``ledger.access`` (404 for anyone who does not
keep score at that table); writes go through ``ledger.services``; money shown comes from the
ledger's selectors (posted money and the settlement) or from the core.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from . import access, selectors, services
from .exceptions import LedgerError
from .forms import VARIANT_LABELS, PlayerForm, SessionForm, TableForm
from .models import GameStatus, SettlementPayment
from .models_sharing import ShareLink
from .rules import fewest_payments, format_minor


@login_required
def home(request: HttpRequest) -> HttpResponse:
    tables = (access.tables_for(request.user)
              .annotate(n_players=Count("players", distinct=True),
                        n_sessions=Count("sessions", distinct=True))
              .prefetch_related("players"))
    form = TableForm()
    if request.method == "POST":
        form = TableForm(request.POST)
        if form.is_valid():
            try:
                with transaction.atomic():
                    table = services.table_create(name=form.cleaned_data["name"],
                                                  scorekeepers=[request.user])
                    for name in form.cleaned_data["players"]:
                        services.player_get_or_create(table=table, name=name)
            except LedgerError as exc:
                form.add_error("name", exc.message)
            else:
                messages.success(request, f"Table {table.name} is ready.")
                return redirect("ledger:table_detail", pk=table.pk)
    return render(request, "ledger/home.html", {"tables": tables, "form": form},
                  status=422 if form.errors else 200)


@login_required
def table_detail(request: HttpRequest, pk: int) -> HttpResponse:
    table = access.table_for(request.user, pk)
    player_form = PlayerForm()
    session_form = SessionForm(initial={"date": timezone.localdate(), "currency": "USD",
                                        "per_points": 1})
    if request.method == "POST" and "add_player" in request.POST:
        player_form = PlayerForm(request.POST, table_names=list(
            table.players.values_list("name", flat=True)))
        if player_form.is_valid():
            try:
                player = services.player_get_or_create(table=table,
                                                       name=player_form.cleaned_data["name"])
            except LedgerError as exc:
                player_form.add_error("name", exc.message)
            else:
                messages.success(request, f"{player.name} joins the table.")
                return redirect("ledger:table_detail", pk=table.pk)
    elif request.method == "POST" and "new_session" in request.POST:
        session_form = SessionForm(request.POST)
        if session_form.is_valid():
            data = session_form.cleaned_data
            try:
                session = services.session_create(
                    table=table, date=data["date"], place=data["place"],
                    currency=data["currency"], rate=data["rate"],
                    per_points=data["per_points"] or 1, created_by=request.user)
            except LedgerError as exc:
                session_form.add_error(None, exc.message)
            else:
                messages.success(request, "A new evening begins.")
                return redirect("ledger:session_detail", pk=session.pk)
    sessions = table.sessions.annotate(n_games=Count("games")).select_related("settlement")
    links = ShareLink.objects.filter(table=table, revoked_at__isnull=True,
                                     game__isnull=True).first()
    status = 422 if (player_form.errors or session_form.errors) else 200
    return render(request, "ledger/table_detail.html", {
        "table": table, "players": table.players.all(), "sessions": sessions,
        "player_form": player_form, "session_form": session_form, "share": links,
    }, status=status)


@login_required
def session_detail(request: HttpRequest, pk: int) -> HttpResponse:
    session = access.session_for(request.user, pk)
    games = selectors.session_games(session)
    game_rows = []
    for game in games:
        result = selectors.game_result(game)
        game_rows.append({
            "game": game, "label": VARIANT_LABELS.get(game.variant, game.variant),
            "players": [seat.player.name for seat in sorted(game.seats.all(),
                                                            key=lambda s: s.seat)],
            "hands": len(result["hands"]), "winner": result.get("winner"),
            "totals": {key: value.get("final") for key, value in result["totals"].items()},
            "money": result.get("money") or {},
        })
    nets = selectors.session_nets(session, games)
    settlement = selectors.session_settlement(session)
    open_games = [game.sequence for game in games if game.status == GameStatus.IN_PROGRESS]
    preview = []
    if settlement is None and not open_games:
        preview = [{"from": p.payer, "to": p.payee,
                    "amount": format_minor(p.units, session.currency)}
                   for p in fewest_payments(nets)]
    return render(request, "ledger/session_detail.html", {
        "session": session, "table": session.table, "games": game_rows,
        "nets": [{"name": name, "amount": format_minor(units, session.currency),
                  "units": units} for name, units in nets.items()],
        "settlement": settlement, "open_games": open_games, "preview": preview,
        "payments": [{"payment": p, "amount": format_minor(p.amount_minor, session.currency)}
                     for p in (settlement.payments.all() if settlement else [])],
        "print_session": reverse("scoresheets:session_pdf", kwargs={"pk": session.pk}),
    })


@login_required
@require_POST
def session_settle(request: HttpRequest, pk: int) -> HttpResponse:
    session = access.session_for(request.user, pk)
    try:
        services.session_settle(session=session, settled_by=request.user)
    except LedgerError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "Settled. Mark each payment as it is made.")
    return redirect("ledger:session_detail", pk=session.pk)


@login_required
@require_POST
def payment_mark(request: HttpRequest, pk: int) -> HttpResponse:
    payment = (SettlementPayment.objects.select_related("settlement__session")
               .filter(pk=pk, settlement__session__table__in=access.tables_for(request.user))
               .first())
    if payment is None:
        raise Http404("No such payment")
    paid = request.POST.get("paid", "1") == "1"
    services.settlement_payment_mark_paid(payment=payment, paid_by=request.user, paid=paid)
    return redirect(f"{_session_url(payment.settlement.session_id)}#payments")


def _session_url(pk: int) -> str:
    from django.urls import reverse

    return reverse("ledger:session_detail", kwargs={"pk": pk})


# -- share links -----------------------------------------------------------------------------

@login_required
@require_POST
def share_create(request: HttpRequest, pk: int) -> HttpResponse:
    """A read-only link to the table (or, with ``game``, to one of its games)."""
    table = access.table_for(request.user, pk)
    game = None
    if request.POST.get("game"):
        game = access.game_for(request.user, request.POST["game"])
        if game.session.table_id != table.pk:
            raise Http404("No such game")
    link = ShareLink.objects.filter(table=table, game=game, revoked_at__isnull=True).first()
    if link is None:
        link = ShareLink.objects.create(table=table, game=game, created_by=request.user)
    messages.success(request, "Share link ready: anyone with it can watch the sheet.")
    if game is not None:
        return redirect("ledger:game_detail", pk=game.pk)
    return redirect("ledger:table_detail", pk=table.pk)


@login_required
@require_POST
def share_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    link = (ShareLink.objects.filter(pk=pk, table__in=access.tables_for(request.user))
            .first())
    if link is None:
        raise Http404("No such link")
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
    messages.success(request, "Link revoked: it no longer opens anything.")
    if link.game_id:
        return redirect("ledger:game_detail", pk=link.game_id)
    return redirect("ledger:table_detail", pk=link.table_id)


