"""The table's book, a player's page, the standings, and keeping a table tidy.

Screens only: the numbers come from ``ledger.book.selectors`` (postings, payments and the
stored per-game standings), every write goes through a service.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig
from django_tables2.export import TableExport

from ledger import access, services
from ledger.book import selectors as book
from ledger.book.filters import StandingFilter
from ledger.book.tables import (
    LOW_FIRST,
    LOW_FIRST_CAPIT,
    CapitStandingsTable,
    StandingsTable,
    sort_links,
)
from ledger.forms.book import BookSettleForm, ReopenForm, TableRenameForm
from ledger.models import BookSettlement, EveningStanding, Player
from ledger.presentation.charts_book import balance_chart
from ledger.selectors.evenings import settlement_nets
from ledger.services.book import BookChanged

from . import confirm, downloads
from .actions import refusals_to, run_service
from .params import BadParameter, bad_parameter_response, number_param, refuses_bad_parameters


def _player_for(user, pk) -> Player:
    try:
        return Player.objects.select_related("table").get(
            pk=pk, table__in=access.tables_for(user))
    except (Player.DoesNotExist, ValueError, TypeError):
        raise Http404("No such player") from None


def table_book(request: HttpRequest, pk: int) -> HttpResponse:
    table = access.table_for(request.user, pk)
    books = book.table_books(table)
    for entry in books:
        entry.square_question = confirm.square_question(table, entry) if entry.owed else None
    return render(request, "ledger/book.html", {"table": table, "books": books})


def book_settle(request: HttpRequest, pk: int) -> HttpResponse:
    """GET (?currency=EUR): the question, without JavaScript (the book asks it in a dialog).
    POST: square the book in that currency."""
    table = access.table_for(request.user, pk)
    if request.method != "POST":
        currency = request.GET.get("currency", "")
        entry = next((b for b in book.table_books(table)
                      if b.currency == currency and b.owed), None)
        if entry is None:
            messages.info(request, f"Nothing is outstanding in {currency[:3] or 'that currency'}.")
            return redirect("ledger:table_book", pk=table.pk)
        return render(request, "ledger/confirm.html", {
            "q": confirm.square_question(table, entry), "table": table, "session": None})
    form = BookSettleForm(request.POST)
    if not form.is_valid():
        messages.error(request, "The page was damaged; nothing was marked. Look again.")
        return redirect("ledger:table_book", pk=table.pk)
    return run_service(
        request, lambda: services.book_settle(
            table=table, currency=form.cleaned_data["currency"],
            expected=form.cleaned_data["expected"], settled_by=request.user),
        success=lambda done: (
            f"The book is square in {done.currency}: {len(done.cleared)} "
            f"payment{'s' if len(done.cleared) != 1 else ''} of the evenings marked paid. "
            "Tapped by mistake? Undo it under \u201cBook squared\u201d."),
        redirect_to=reverse("ledger:table_book", args=[table.pk]), warn=(BookChanged,))


@require_POST
def book_settle_undo(request: HttpRequest, pk: int, settlement: int) -> HttpResponse:
    """Take back a squaring of the book (its payments are outstanding again)."""
    table = access.table_for(request.user, pk)
    done = BookSettlement.objects.filter(pk=settlement, table=table).first()
    if done is None:
        raise Http404("No such squaring of the book")
    return run_service(
        request, lambda: services.book_settle_undo(book_settlement=done,
                                                   undone_by=request.user),
        success=lambda undo: (
            f"Undone: {len(undo.restored)} payment{'s' if len(undo.restored) != 1 else ''} "
            f"of the evenings in {done.currency} are unpaid again."),
        redirect_to=reverse("ledger:table_book", args=[table.pk]))


def _chart_ends(first, last) -> dict[str, str]:
    """The chart's first and last evening as its axis says them: months and years, or the
    days when every evening is in one month (not "Jan 2026 ... Jan 2026")."""
    if first == last:
        return {"first": f"{first.day} {first:%b %Y}", "last": ""}
    if (first.year, first.month) == (last.year, last.month):
        return {"first": f"{first.day} {first:%b}", "last": f"{last.day} {last:%b %Y}"}
    return {"first": f"{first:%b %Y}", "last": f"{last:%b %Y}"}


def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = _player_for(request.user, pk)
    page = book.player_page(player)
    chart = None
    if page["running"]:
        dates = [date for series in page["running"].values() for date, _ in series]
        chart = balance_chart(
            {currency: [units for _, units in series]
             for currency, series in page["running"].items()},
            page["chart_labels"],
            **_chart_ends(min(dates), max(dates)),
            title=f"Running balance of {player.name}",
        )
    rows = [{"key": key, "label": label,
             "cells": [variant[key] for variant in page["by_variant"]],
             "all": page["overall"][key]} for key, label in STAT_ROWS]
    currencies = {currency for currency, _, _ in page["totals"]}
    return render(request, "ledger/book_player.html", {
        **page, "table": player.table, "chart": chart, "rows": rows,
        "multi_currency": len(currencies) > 1,
    })


#: The rows of the player page's "by game" table: (figure, words).
STAT_ROWS = (
    ("evenings", "Evenings"), ("games", "Games"), ("wins", "Wins"), ("win_rate", "Win %"),
    ("hands_played", "Hands"), ("hands_won", "Hands won"), ("gins", "Gins"),
    ("big_gins", "Big gins"), ("undercuts_made", "Undercuts"),
    ("undercuts_suffered", "Got undercut"), ("boxes", "Boxes"),
    ("shutouts", "Shutouts"), ("points_per_hand", "Points/hand"),
)


def table_standings(request: HttpRequest, pk: int) -> HttpResponse:
    table = access.table_for(request.user, pk)
    currencies, years = book.table_currencies(table)
    filterset = StandingFilter(request.GET, currencies=currencies, years=years,
                               queryset=EveningStanding.objects.filter(table=table))
    valid = filterset.is_valid()
    queryset = filterset.qs if valid else EveningStanding.objects.none()
    currency = (filterset.form.cleaned_data.get("currency") if valid else None) or \
        (currencies[0] if currencies else "USD")
    rows = book.standings(queryset, currency)
    capit_rows = book.standings(queryset, currency, lower_wins=True)  # CAP-IT apart
    player_url = reverse("ledger:player_detail", args=[0]).replace("/0/", "/{}/")
    for row in rows + capit_rows:
        row["url"] = player_url.format(row["player_id"])
        row["money_css"] = "pos" if row["money"] > 0 else "neg" if row["money"] < 0 else ""
    standings = StandingsTable(rows, currency=currency)
    capit = CapitStandingsTable(capit_rows, currency=currency, prefix="capit-")
    RequestConfig(request, paginate=False).configure(standings)
    RequestConfig(request, paginate=False).configure(capit)
    export = request.GET.get("_export")
    if export:
        if request.GET.get("part") == "capit":
            return _standings_download(request, table, capit, export, name="standings-capit")
        return _standings_download(request, table, standings, export)
    words = []
    if valid:
        data = filterset.form.cleaned_data
        fields = filterset.form.fields
        if data.get("period"):
            words.append(dict(fields["period"].choices)[data["period"]])
        if data.get("season"):
            words.append(f"Season {data['season']}")
        if data.get("date_from") or data.get("date_to"):
            words.append(f"{data.get('date_from') or '…'} to {data.get('date_to') or '…'}")
        if data.get("variant"):
            words.append(dict(fields["variant"].choices)[data["variant"]])
    filter_words = " · ".join(words) or "Every game, any time"
    headers = sort_links(standings, LOW_FIRST)
    query = request.GET.copy()
    query.pop("_export", None)
    query.pop("part", None)
    sort_query = query.copy()
    sort_query.pop("sort", None)
    capit_query = query.copy()
    capit_query.pop("capit-sort", None)
    return render(request, "ledger/book_standings.html", {
        "table": table, "filter": filterset, "standings": standings, "currency": currency,
        "query": query.urlencode(), "count": len(rows), "filter_words": filter_words,
        "filter_fields": _filter_fields(filterset.form), "headers": headers,
        "sort_query": sort_query.urlencode() + "&" if sort_query else "",
        "capit": capit if capit_rows else None, "capit_count": len(capit_rows),
        "capit_headers": sort_links(capit, LOW_FIRST_CAPIT),
        "capit_query": capit_query.urlencode() + "&" if capit_query else "",
    }, status=200 if valid else 422)


def _standings_download(request, table, standings, export: str, *, name: str = "standings"):
    """The standings as CSV or XLSX (``downloads``: inert cells, a safe file name); any
    other ``_export`` is answered 400 with the formats there are."""
    if export not in downloads.FORMATS:
        return bad_parameter_response(request, BadParameter("_export", (
            f"The parameter '_export': the standings are downloaded as "
            f"{' or '.join(f.upper() for f in downloads.FORMATS)} "
            f"(_export=csv or _export=xlsx), not {export[:20]!r}.")))
    dataset = TableExport("csv", standings).dataset  # the columns' value_* (plain values)
    headers, rows = list(dataset.headers), [list(row) for row in dataset]
    name = f"{table.name}-{name}.{export}"
    if export == "csv":
        return downloads.csv_response(headers, rows, name)
    money = [headers.index(str(standings.columns["money"].header))]
    return downloads.xlsx_response(headers, rows, name, title="Standings", money_columns=money)


def _filter_fields(form) -> list[dict]:
    """The filter form's fields as plain values for the standings template (a select's
    options with the chosen one marked; None for a date field)."""
    fields = []
    for bound in form:
        value = bound.value()
        value = "" if value is None else str(value)
        choices = getattr(bound.field, "choices", None)
        fields.append({
            "name": bound.name, "label": bound.label, "value": value,
            "errors": list(bound.errors),
            "options": None if choices is None else [
                (str(key), label, str(key) == value) for key, label in choices],
        })
    return fields


@require_POST
def session_reopen(request: HttpRequest, pk: int) -> HttpResponse:
    session = access.session_for(request.user, pk)
    form = ReopenForm(request.POST)
    url = reverse("ledger:session_detail", args=[session.pk])
    if not form.is_valid():
        messages.error(request, "Reopen: " + " ".join(form.errors.get("reason", [])))
        return redirect(f"{url}#reopen")
    return run_service(
        request, lambda: services.session_reopen(session=session, reopened_by=request.user,
                                                 reason=form.cleaned_data["reason"]),
        success="The evening is open again: its settlement is voided (kept), its games can "
                "change, and it settles anew.",
        redirect_to=url, failure_redirect=f"{url}#reopen")


@refuses_bad_parameters
def table_tidy(request: HttpRequest, pk: int) -> HttpResponse:
    """Rename the table; archive players who left (or bring them back)."""
    table = access.table_for(request.user, pk)
    rename = TableRenameForm(initial={"name": table.name})
    if request.method == "POST" and "rename" in request.POST:
        rename = TableRenameForm(request.POST)
        if rename.is_valid():
            with refusals_to(rename, field="name"):
                services.table_rename(table=table, name=rename.cleaned_data["name"],
                                      renamed_by=request.user)
                messages.success(request, f"The table is now called {table.name}.")
                return redirect("ledger:table_tidy", pk=table.pk)
    elif request.method == "POST" and "player" in request.POST:
        try:
            player = table.players.get(pk=number_param(request.POST, "player", minimum=1))
        except Player.DoesNotExist:
            raise Http404("No such player") from None
        archive = request.POST.get("archive") == "1"
        services.player_archive(player=player, archived_by=request.user, archived=archive)
        messages.success(request, f"{player.name} is archived: kept in every history, no "
                                  "longer offered for new games." if archive else
                         f"{player.name} is back: offered for new games again.")
        return redirect("ledger:table_tidy", pk=table.pk)
    return render(request, "ledger/book_tidy.html", {
        "table": table, "rename": rename,
        "players": table.players.order_by("archived_at", "name"),
    }, status=422 if rename.errors else 200)


def book_context(session) -> dict:
    """What the evening's page shows of reopening: the form, and the settlements voided
    before (with who, when and why), oldest first."""
    from ledger.models import SessionSettlement

    voided = list(SessionSettlement.objects.filter(session=session, void__isnull=False)
                  .select_related("void__voided_by", "settled_by").order_by("id"))
    for settlement in voided:
        settlement.nets_text = " · ".join(
            f"{name} {book.money_text(units, settlement.currency)}"
            for name, units in settlement_nets(settlement).items())
    return {"reopen_form": ReopenForm(), "voided": voided}
