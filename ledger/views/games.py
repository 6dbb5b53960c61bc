"""The game page: enter hands, undo and correct, abandon, the CSV.

Views are thin: they read through ``ledger.access`` (a table's objects are visible only to
its scorekeepers, 404 otherwise) and ``ledger.selectors``, write only through
``ledger.services``, and show only numbers from the core's result. Every form is a plain
POST followed by a redirect (post/redirect/get); a refused form is drawn again with what was
typed and the core's problem at the field and next to Save. With JavaScript the hand form
posts through htmx: a saved hand answers with only what it changes (``_hand_saved``), a
refused one with the form alone (``_entry_refused``), and ``hand_preview`` says as the hand
is typed what the core would make of it."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from ledger import access, cleaning, services
from ledger.exceptions import HandAlreadyRecorded, LedgerError, RecordRefused
from ledger.forms import (
    HandForm,
    ReasonForm,
    initial_from_entry,
    new_hand_initial,
)
from ledger.models import Game, GameStatus, ShareLink
from ledger.presentation.catalog import VARIANT_NAMES
from ledger.presentation.flash import (
    hand_said,
    open_games_text,
    recorded_text,
    winner_sentence,
)
from ledger.presentation.notices import (
    ABANDONED,
    GAME_OVER,
    UNDO_OUT_OF_DATE,
    corrected_text,
    kept_text,
    rematch_text,
    repeat_text,
    undone_text,
)
from ledger.presentation.rows import hand_row, preview_words
from ledger.presentation.sheet import game_sheet
from ledger.presentation.words import evening_label
from ledger.selectors.evenings import rematch_evening
from ledger.selectors.games import accepts_hands, entry_as_played
from ledger.selectors.hands import preview_hand
from ledger.words import evening_words

from . import confirm
from .downloads import csv_response, inert_cell  # noqa: F401  (inert_cell: kept here)
from .game_context import (
    game_context,
    hand_spec,
    load_game,
    next_panel,
    sheet_chart,
)
from .params import BadParameter, bad_parameter_response, number_param, refuses_bad_parameters
from .settled import refuse_if_settled
from .sheet_tables import (
    column_tables,
    export_dataset,
    fix_pattern,
    sheet_columns,
    sheet_rows,
    sheet_table,
    totals_table,
)

# -- the game page ---------------------------------------------------------------------------

def _render_game(request, game, result, history, form=None, status=200):
    context = game_context(game, result, history, owner=True)
    again = None
    if form is None and context["panel"] is not None and not context["settled"]:
        spec = hand_spec(game.variant, result, result["next"])
        initial = new_hand_initial(context["panel"]["number"])
        again = _undone_hand(request, history, context["panel"]["number"])
        if again is not None:  # just undone: its entry, ready to be saved again
            initial.update(initial_from_entry(spec, again.entry))
        form = HandForm(spec=spec, initial=initial)
    live_links = list(ShareLink.objects.filter(table=game.session.table,
                                               revoked_at__isnull=True))
    share_game = next((link for link in live_links if link.game_id == game.pk), None)
    context.update({
        "form": form,
        "share_game": share_game,
        "print_game": reverse("scoresheets:game_pdf", kwargs={"pk": game.pk}),
        "print_blank": reverse("scoresheets:blank_pdf", kwargs={"pk": game.pk}),
        "undo_form": ReasonForm(),
        "again": again,
        "undo_question": None if context["settled"] else confirm.undo_question(game, result),
        "revoke_question": confirm.revoke_question(share_game) if share_game else None,
        "settled_text": evening_words(game.session.date) if context["settled"] else "",
        "open_games_text": open_games_text(result),
        "rematch": context["ended"],
        "rematch_question": (confirm.rematch_question(game, _seat_names(game))
                             if context["ended"] and context["settled"]
                             and rematch_evening(game) is None else None),
        "winner_sentence": winner_sentence(result),
    })
    return render(request, "ledger/game_detail.html", context, status=status)


def _undone_hand(request, history, number: int):
    """The hand just undone (``?again=<its id>``), if it was hand ``number`` of this game
    and was undone, not corrected: the form for the next hand starts from it."""
    wanted = request.GET.get("again") or ""
    if not cleaning.is_ascii_number(wanted):  # (game_detail answers 400 for it first)
        return None
    hand = next((h for h in history if h.pk == int(wanted)), None)
    if hand is None or hand.voided_at is None or hand.number != number:
        return None
    if any(h.replaces_id == hand.pk for h in history):
        return None
    return hand


@login_required
@refuses_bad_parameters
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    game = access.game_for(request.user, pk)
    number_param(request.GET, "again", minimum=1)  # '?again=²': 400, naming it
    result, history = load_game(game)
    response = _render_game(request, game, result, history)
    if request.GET.get("kept") == "1":
        # the copy the phone keeps for opening the page offline (static/ledger/offline.js):
        # the messages wait for the page the scorekeeper sees next
        messages.get_messages(request).used = False
    return response


@login_required
@require_POST
def hand_create(request: HttpRequest, pk: int) -> HttpResponse:
    game = access.game_for(request.user, pk)
    if refused := refuse_if_settled(request, game.session, game=game):
        return refused
    result, history = load_game(game)
    if not accepts_hands(game, result):
        messages.info(request, GAME_OVER)
        return _to_game(request, game)
    form = HandForm(request.POST, spec=hand_spec(game.variant, result, result["next"]))
    if form.is_valid():
        try:
            outcome = services.hand_record(
                game=game, entry=form.entry(), recorded_by=request.user,
                idempotency_key=form.cleaned_data["key"], number=form.cleaned_data["number"])
        except RecordRefused as exc:
            form.add_problems(exc.details)
        except HandAlreadyRecorded as exc:
            return _kept_for_the_next_hand(request, game, exc)
        except LedgerError as exc:
            form.add_error(None, exc.message)
        else:
            if request.htmx and outcome.created:
                return _hand_saved(request, game, _recorded_message(outcome))
            messages.success(request, _recorded_message(outcome))
            return redirect(reverse("ledger:game_detail", kwargs={"pk": game.pk}))
    if request.htmx:
        return _entry_refused(request, game, result, form)
    return _render_game(request, game, result, history, form=form, status=422)


def _entry_refused(request, game: Game, result: dict, form: HandForm) -> HttpResponse:
    """htmx: the refused form alone, in place, its reasons next to Save and at the fields
    (the page's script then brings the first marked field into view). Sent as 200 so that
    htmx swaps it in; without JavaScript the whole page comes back with 422."""
    sheet = game_sheet(game, result=result, owner=True)
    return render(request, "ledger/_entry.html", {
        "game": game, "result": result, "form": form, "scoreboard": sheet.scores,
        "panel": next_panel(game.variant, result), "view": sheet})


def _hand_saved(request, game: Game, text: str, *, form: HandForm | None = None
                ) -> HttpResponse:
    """htmx: what a saved hand changes, not the whole page (``saved_parts``). A hand that
    ends the game reloads the page, which then opens on the winner and the money. ``form``:
    a hand kept after another phone recorded it first, drawn as typed over a sheet redrawn
    whole."""
    result, history = load_game(game)
    if not accepts_hands(game, result):
        messages.success(request, text)
        return _to_game(request, game)
    return render(request, "ledger/_hand_saved.html",
                  saved_parts(game, result, history, text, form=form, whole=form is not None))


def saved_parts(game: Game, result: dict, history, text: str, *,
                form: HandForm | None = None, whole: bool = False) -> dict:
    """The context of ``ledger/_hand_saved.html``: the next hand's form and who plays it
    (with the saved hand in words), and out of band the score, the new row of the sheet
    (the whole sheet for CAP-IT's five rounds, a first hand, or ``whole``: several hands
    new to the page), the running totals, the totals table and the undo button. Also what
    the phone's queue (ledger/views/queue.py) sends back after the last hand it sent."""
    sheet = game_sheet(game, result=result, history=history, owner=True)
    panel = next_panel(game.variant, result)
    whole = whole or result["facts"]["rounds"] or len(result["hands"]) == 1
    fix = fix_pattern(game.pk)
    context = {
        "game": game, "session": game.session, "table": game.session.table,
        "result": result, "keys": sheet.layout.keys, "view": sheet, "owner": True,
        "scoreboard": sheet.scores, "target": result["rules"].get("target"),
        "panel": panel, "saved_text": text, "oob": True, "whole": whole,
        "form": form or HandForm(spec=hand_spec(game.variant, result, result["next"]),
                                 initial=new_hand_initial(panel["number"])),
        "chart": sheet_chart(game, sheet, result),
        "totals": totals_table(sheet), "columns": column_tables(sheet),
        "ended": False, "abandoned": False, "last_number": len(result["hands"]),
        "undo_question": confirm.undo_question(game, result),
    }
    if whole:
        context["sheet"] = sheet_table(sheet, fix_url=fix)
    else:
        columns = sheet_columns(sheet, fix_url=fix)
        context["new_rows"] = sheet_rows(sheet, columns, fix_url=fix, rows=sheet.live_rows[-1:])
    return context


@login_required
@require_POST
def hand_preview(request: HttpRequest, pk: int) -> HttpResponse:
    """htmx, as the hand is typed: what the core would make of it as the next hand (its
    words and points, or the core's refusal), from the game's record plus the typed hand
    through ``preview_hand``; nothing is stored. While the form is still
    incomplete it says nothing, unless something typed is already wrong (a letter)."""
    game = access.game_for(request.user, pk)
    result, _ = load_game(game)
    preview: dict = {}
    if accepts_hands(game, result):
        form = HandForm(request.POST, spec=hand_spec(game.variant, result, result["next"]))
        if form.is_valid():
            verdict = preview_hand(game, form.entry(), hands=game.live_hands)
            if "problems" in verdict:
                form.add_problems(verdict["problems"])
                preview["problems"] = form.problems
            else:
                preview = preview_words(verdict["hand"], verdict["result"])
        else:
            typed = [name for name in form.errors
                     if name in form.fields and (form.data.get(name) or "").strip()]
            preview["problems"] = [str(error) for name in typed for error in form.errors[name]]
    return render(request, "ledger/_hand_preview.html", {"preview": preview})


def _kept_for_the_next_hand(request, game: Game, exc: HandAlreadyRecorded) -> HttpResponse:
    """Another phone recorded this hand first. What was typed is not thrown away: it comes
    back in the form of the next hand, to be checked against the table and saved again (or
    cleared), and nothing is recorded until then."""
    result, history = load_game(game)
    if not accepts_hands(game, result):
        messages.warning(request, exc.message)
        return _to_game(request, game)
    number = len(result["hands"]) + 1
    data = request.POST.copy()
    data.update({"number": str(number), "key": str(uuid.uuid4())})
    retry = HandForm(data, spec=hand_spec(game.variant, result, result["next"]))
    retry.is_valid()  # marks what no longer fits the next hand (its players may differ)
    retry.add_error(None, kept_text(exc.message, number))
    if request.htmx:  # the form as typed, and the sheet redrawn with the other phone's hand
        return _hand_saved(request, game, "", form=retry)
    return _render_game(request, game, result, history, form=retry, status=409)


def _to_game(request, game: Game) -> HttpResponse:
    """Back to the whole game page: a redirect, or for htmx a page load (HX-Location), so
    that a page is never swapped into the hand form's card."""
    url = reverse("ledger:game_detail", kwargs={"pk": game.pk})
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Location"] = url
        return response
    return redirect(url)


def _recorded_message(outcome) -> str:
    if not outcome.created:
        return repeat_text(outcome.hand.number)
    return recorded_text(outcome.result, outcome.hand.number)


@login_required
def hand_undo(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the question (the page for phones without JavaScript; the game page asks it
    in a dialog). POST: undo the last hand, then offer it again in the form."""
    game = access.game_for(request.user, pk)
    if refused := refuse_if_settled(request, game.session, game=game):
        return refused
    if request.method != "POST":
        result, _ = load_game(game)
        question = confirm.undo_question(game, result)
        if question is None:
            return redirect("ledger:game_detail", pk=game.pk)
        return render(request, "ledger/confirm.html", {
            "q": question, "table": game.session.table, "session": game.session,
            "game": game, "crumb_game": True})
    number = request.POST.get("number") or ""
    reason = (request.POST.get("reason") or "").strip() or "undone"
    if number and not cleaning.is_ascii_number(number):  # ('²' is a digit to str.isdigit())
        # the one answer to a number not written with the digits 0-9: a 400 naming it
        try:
            number_param(request.POST, "number", minimum=1)
        except BadParameter as exc:
            exc.message = f"{UNDO_OUT_OF_DATE} {exc.message}"
            return bad_parameter_response(request, exc)
    was_over = game.status == GameStatus.COMPLETE
    before, _ = load_game(game)
    try:
        hand = services.hand_undo_last(game=game, undone_by=request.user, reason=reason,
                                       number=int(number) if number else None)
    except (LedgerError, ValueError) as exc:
        messages.error(request, getattr(exc, "message", str(exc)))
        return redirect("ledger:game_detail", pk=game.pk)
    what = before["facts"]["hand_noun"]
    said = hand_said(before, hand.number, hand.entry)
    messages.success(request, undone_text(what, hand.number, said, reopened=was_over))
    return redirect(reverse("ledger:game_detail", kwargs={"pk": game.pk})
                    + f"?again={hand.pk}#next")


@login_required
def hand_correct(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    game = access.game_for(request.user, pk)
    result, history = load_game(game)
    if not 1 <= number <= len(result["hands"]):
        raise Http404("No such hand")
    if refused := refuse_if_settled(request, game.session, game=game):
        return refused
    hand = next(h for h in game.live_hands if h.number == number)
    spec = hand_spec(game.variant, result, result["hands"][number - 1])
    if request.method == "POST":
        form = HandForm(request.POST, spec=spec, correcting=True)
        if form.is_valid():
            # the hand the form was opened on, even if it was corrected or undone since
            # (the service then refuses; a repeat of this very correction is recognized)
            opened = next((h for h in history if h.pk == form.cleaned_data["hand"]
                           and h.number == number), hand)
            try:
                services.hand_correct(
                    hand=opened, entry=form.entry(), corrected_by=request.user,
                    reason=form.cleaned_data["reason"],
                    idempotency_key=form.cleaned_data["key"])
            except RecordRefused as exc:
                form.add_problems(exc.details)
            except LedgerError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, corrected_text(number))
                return redirect(reverse("ledger:game_detail", kwargs={"pk": game.pk})
                                + f"#hand-{number}")
        status = 422
    else:
        form = HandForm(spec=spec, correcting=True, initial={
            **new_hand_initial(number), "hand": hand.pk,
            **initial_from_entry(spec, entry_as_played(game, hand.entry))})
        status = 200
    return render(request, "ledger/hand_correct.html", {
        "game": game, "session": game.session, "table": game.session.table, "form": form,
        "number": number, "entered_as": hand_row(result["hands"][number - 1], result).text,
        "variant_label": VARIANT_NAMES.get(game.variant, game.variant),
        "hand_result": result["hands"][number - 1],
    }, status=status)


@login_required
@require_POST
def game_abandon(request: HttpRequest, pk: int) -> HttpResponse:
    game = access.game_for(request.user, pk)
    if refused := refuse_if_settled(request, game.session, game=game):
        return refused
    reason = (request.POST.get("reason") or "").strip()
    try:
        services.game_abandon(game=game, abandoned_by=request.user, reason=reason)
    except LedgerError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, ABANDONED)
    return redirect("ledger:game_detail", pk=game.pk)


@login_required
def game_rematch(request: HttpRequest, pk: int) -> HttpResponse:
    """Same players again (``services.game_rematch`` says where and how). When the evening
    is settled and a new evening would be opened, that is asked first: GET (or a POST
    without ``new_evening=1``) shows the question, the game page asks it in a dialog."""
    game = access.game_for(request.user, pk)
    needs_new = rematch_evening(game) is None
    if request.method != "POST" or (needs_new and request.POST.get("new_evening") != "1"):
        if not needs_new:
            return redirect(reverse("ledger:game_detail", kwargs={"pk": game.pk}) + "#over")
        return render(request, "ledger/confirm.html", {
            "q": confirm.rematch_question(game, _seat_names(game)),
            "table": game.session.table, "session": game.session})
    try:
        new = services.game_rematch(game=game, started_by=request.user)
    except LedgerError as exc:
        messages.error(request, exc.message)
        return redirect("ledger:game_detail", pk=game.pk)
    moved = new.session_id != game.session_id
    messages.success(request, rematch_text(
        new.sequence, _seat_names(new),
        settled_evening=evening_label(game.session) if moved else "",
        new_evening=evening_label(new.session) if moved else ""))
    return redirect("ledger:game_detail", pk=new.pk)


def _seat_names(game: Game) -> list[str]:
    return [seat.player.name for seat in game.seats.select_related("player").order_by("seat")]


@login_required
def game_export(request: HttpRequest, pk: int) -> HttpResponse:
    """The hands as CSV (django-tables2's export of the sheet table)."""
    game = access.game_for(request.user, pk)
    result, _ = load_game(game)
    return export_response(game, result)


def export_response(game: Game, result: dict) -> HttpResponse:
    """The CSV of the game's sheet: the hands with their points and running totals, the
    voided ones marked, then the totals and the money (inert: ``downloads``)."""
    dataset = export_dataset(game_sheet(game, result=result))
    name = f"{game.session.table.name}-{game.session.date}-game-{game.sequence}.csv"
    return csv_response(dataset.headers, list(dataset), name)
