"""The table's book, a player's page, the standings, and keeping a table tidy.

Screens only: the numbers come from ``ledger.book.selectors`` (postings, payments and the
stored per-game standings), every write goes through a service.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig
from django_tables2.export import TableExport

from ledger import access, services
from ledger.book import selectors as book
from ledger.forms.book import BookSettleForm, ReopenForm, TableRenameForm
from ledger.forms.book_filters import StandingFilter
from ledger.models import BookSettlement, EveningStanding, Player
from ledger.presentation import questions
from ledger.presentation.book import book_words, money_text, player_page_words, standings_words
from ledger.presentation.charts_book import balance_chart
from ledger.presentation.dates import date_words, format_part
from ledger.presentation.elision import gettext as _  # French: "Solde cumulé d’Eve"
from ledger.selectors.evenings import settlement_nets, voided_settlements
from ledger.services.book import BookChanged

from . import downloads
from .actions import refusals_to, run_service
from .book_tables import (
    LOW_FIRST,
    LOW_FIRST_CAPIT,
    CapitStandingsTable,
    StandingsTable,
    sort_links,
)
from .params import BadParameter, bad_parameter_response, number_param, refuses_bad_parameters

#: The standings' part that ranks CAP-IT's rounds apart (``?part=`` of its download).
ROUNDS_PART = "capit"


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
        book_words(entry)
        entry.square_question = questions.square_question(table, entry) if entry.owed else None
    return render(request, "ledger/book.html", {"table": table, "books": books})


def book_settle(request: HttpRequest, pk: int) -> HttpResponse:
    """GET (?currency=EUR): the question, without JavaScript (the book asks it in a dialog).
    POST: square the book in that currency."""
    table = access.table_for(request.user, pk)
    if request.method != "POST":
        currency = request.GET.get("currency", "")
        entry = next((b for b in book.table_books(table)
                      if b.currency == currency and b.owed), None)
        if entry is not None:
            book_words(entry)  # its owed rows, for the question
        if entry is None:
            messages.info(request, _("Nothing is outstanding in %(currency)s.") % {
                "currency": currency[:3] or _("that currency")})
            return redirect("ledger:table_book", pk=table.pk)
        return render(request, "ledger/confirm.html", {
            "q": questions.square_question(table, entry), "table": table, "session": None})
    form = BookSettleForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The page was damaged; nothing was marked. Look again."))
        return redirect("ledger:table_book", pk=table.pk)
    return run_service(
        request, lambda: services.book_settle(
            table=table, currency=form.cleaned_data["currency"],
            expected=form.cleaned_data["expected"], settled_by=request.user),
        success=lambda done: ngettext(
            "The book is square in %(currency)s: %(n)s payment of the evenings marked paid. "
            "Tapped by mistake? Undo it under “Book squared”.",
            "The book is square in %(currency)s: %(n)s payments of the evenings marked paid. "
            "Tapped by mistake? Undo it under “Book squared”.",
            len(done.cleared)) % {"currency": done.currency, "n": len(done.cleared)},
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
        success=lambda undo: ngettext(
            "Undone: %(n)s payment of the evenings in %(currency)s is unpaid again.",
            "Undone: %(n)s payments of the evenings in %(currency)s are unpaid again.",
            len(undo.restored)) % {"n": len(undo.restored), "currency": done.currency},
        redirect_to=reverse("ledger:table_book", args=[table.pk]))


def _chart_ends(first, last) -> dict[str, str]:
    """The chart's first and last evening as its axis says them: months and years, or the
    days when every evening is in one month (not "Jan 2026 ... Jan 2026"), by CLDR's
    skeletons in the language in force ("Nov 27, 2026", "27. Nov. 2026", "нояб. 2026 г.")."""
    if first == last:
        return {"first": format_part(first, "yMMMd"), "last": ""}
    if (first.year, first.month) == (last.year, last.month):
        return {"first": format_part(first, "MMMd"), "last": format_part(last, "yMMMd")}
    return {"first": format_part(first, "yMMM"), "last": format_part(last, "yMMM")}


def player_detail(request: HttpRequest, pk: int) -> HttpResponse:
    player = _player_for(request.user, pk)
    page = player_page_words(book.player_page(player))
    chart = None
    if page["running"]:
        dates = [date for series in page["running"].values() for date, _ in series]
        chart = balance_chart(
            {currency: [units for _, units in series]
             for currency, series in page["running"].items()},
            page["chart_labels"],
            **_chart_ends(min(dates), max(dates)),
            title=_("Running balance of %(player)s") % {"player": player.name},
        )
    rows = [{"key": key, "label": str(label),
             "cells": [variant[key] for variant in page["by_variant"]],
             "all": page["every"][key]} for key, label in STAT_ROWS]
    currencies = {currency for currency, _, _ in page["totals"]}
    return render(request, "ledger/book_player.html", {
        **page, "table": player.table, "chart": chart, "rows": rows,
        "multi_currency": len(currencies) > 1,
    })


#: The rows of the player page's "by game" table: (figure, words).
STAT_ROWS = (
    ("evenings", gettext_lazy("Evenings")), ("games", pgettext_lazy("games of cards", "Games")),
    ("wins", gettext_lazy("Wins")), ("win_rate", gettext_lazy("Win %")),
    ("hands_played", gettext_lazy("Hands")), ("hands_won", gettext_lazy("Hands won")),
    ("gins", gettext_lazy("Gins")), ("big_gins", gettext_lazy("Big gins")),
    ("undercuts_made", gettext_lazy("Undercuts")),
    ("undercuts_suffered", gettext_lazy("Got undercut")), ("boxes", gettext_lazy("Boxes")),
    ("shutouts", gettext_lazy("Shutouts")), ("points_per_hand", gettext_lazy("Points/hand")),
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
    rows = standings_words(book.standings(queryset, currency), currency)
    capit_rows = standings_words(book.standings(queryset, currency, lower_wins=True),
                                 currency)  # CAP-IT apart
    player_url = reverse("ledger:player_detail", args=[0]).replace("/0/", "/{}/")
    for row in rows + capit_rows:
        row["url"] = player_url.format(row["player_id"])
        row["money_css"] = "pos" if row["money"] > 0 else "neg" if row["money"] < 0 else ""
    export = request.GET.get("_export")
    if export:  # the file speaks the table's language, as its paper does
        with translation.override(table.language):
            if request.GET.get("part") == ROUNDS_PART:
                capit = CapitStandingsTable(capit_rows, currency=currency, prefix="capit-")
                RequestConfig(request, paginate=False).configure(capit)
                return _standings_download(request, table, capit, export,
                                           name="standings-capit")
            standings = StandingsTable(rows, currency=currency)
            RequestConfig(request, paginate=False).configure(standings)
            return _standings_download(request, table, standings, export)
    standings = StandingsTable(rows, currency=currency)
    capit = CapitStandingsTable(capit_rows, currency=currency, prefix="capit-")
    RequestConfig(request, paginate=False).configure(standings)
    RequestConfig(request, paginate=False).configure(capit)
    words = []
    if valid:
        data = filterset.form.cleaned_data
        fields = filterset.form.fields
        if data.get("period"):
            words.append(str(dict(fields["period"].choices)[data["period"]]))
        if data.get("season"):
            words.append(_("Season %(year)s") % {"year": data["season"]})
        if data.get("date_from") or data.get("date_to"):
            words.append(_("%(start)s to %(end)s") % {
                "start": date_words(data["date_from"]) if data.get("date_from") else "…",
                "end": date_words(data["date_to"]) if data.get("date_to") else "…"})
        if data.get("variant"):
            words.append(str(dict(fields["variant"].choices)[data["variant"]]))
    filter_words = " · ".join(words) or _("Every game, any time")
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
    return downloads.xlsx_response(headers, rows, name, title=_("Standings"),
                                   money_columns=money)


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
        messages.error(request, _("Reopen: %(why)s") % {
            "why": " ".join(form.errors.get("reason", []))})
        return redirect(f"{url}#reopen")
    return run_service(
        request, lambda: services.session_reopen(session=session, reopened_by=request.user,
                                                 reason=form.cleaned_data["reason"]),
        success=_("The evening is open again: its settlement is voided (kept), its games can "
                  "change, and it settles anew."),
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
                messages.success(request, _("The table is now called %(name)s.") % {
                    "name": table.name})
                return redirect("ledger:table_tidy", pk=table.pk)
    elif request.method == "POST" and "player" in request.POST:
        try:
            player = table.players.get(pk=number_param(request.POST, "player", minimum=1))
        except Player.DoesNotExist:
            raise Http404("No such player") from None
        archive = request.POST.get("archive") == "1"
        services.player_archive(player=player, archived_by=request.user, archived=archive)
        said = (_("%(name)s is archived: kept in every history, no longer offered for new "
                  "games.") if archive else
                _("%(name)s is back: offered for new games again."))
        messages.success(request, said % {"name": player.name})
        return redirect("ledger:table_tidy", pk=table.pk)
    return render(request, "ledger/book_tidy.html", {
        "table": table, "rename": rename,
        "players": table.players.order_by("archived_at", "name"),
    }, status=422 if rename.errors else 200)


def book_context(session) -> dict:
    """What the evening's page shows of reopening: the form, and the settlements voided
    before (with who, when and why), oldest first."""
    voided = voided_settlements(session)
    for settlement in voided:
        settlement.nets_text = " · ".join(
            f"{name} {money_text(units, settlement.currency)}"
            for name, units in settlement_nets(settlement).items())
    return {"reopen_form": ReopenForm(), "voided": voided}
