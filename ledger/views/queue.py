"""Hands sent by the game page's script (static/ledger/offline.js): the same hand form and
the same service as the plain form, answered in JSON so that the phone can keep a hand it
could not send and send it again later, in order, exactly once.

The phone keeps every hand it has not had an answer for, with its idempotency key and the
number it was typed as, and sends them one at a time, the next only after the one before was
recorded. The answers:

- 201 ``recorded``: stored now. 200 ``recorded`` (``created`` false): a hand with this key
  was stored before (the first answer was lost): nothing new is stored.
- 422 ``refused``: the form or the core refused it; ``errors`` maps the form's fields to the
  reasons (``__all__`` for the whole hand). Nothing stored.
- 409 ``stale``: the hand was typed as number N but the game's next hand is ``next`` (another
  phone recorded hands, or one was undone). Nothing stored; the phone asks the scorekeeper.
- 409 ``over``: the game takes no more hands.

``parts=N`` (sent with the last hand of the queue, N being the first hand the page does not
show yet): a recorded answer also carries what the page must show now, so that the phone
updates it in place, in the same round trip: ``parts``, the HTML that a hand saved through
htmx answers (``ledger/_hand_saved.html``: the next hand's form, the score, the new sheet
row, or the whole sheet when several hands landed since the page was drawn, the totals, the
undo button) and ``next``, the number of the hand after it; or, when the hand ended the
game, ``page``, the whole game page as a reload would show it (the winner and the money on
top). The "recorded" messages of the hands sent before it in the same run are said in that
answer too, not kept for the next page. A refusal carries ``problems``: the reasons in the
order the Save bar shows them.

A hand typed offline where the players of the next hand depend on the hands before it (the
box, captain play, partnership) carries who the scorekeeper said played each table
(``t1_p0``/``t1_p1``...). They are checked here against the hand the game is really at: if
they differ, the hand is refused at that table; if they are the same players in the other
order, the counts and cards go to each player's place in the form. A refusal carries
``fields``: the hand as the form read it, each count and cards at the place of the player
who really plays there (what was typed for a player who does not play is left out), so the
phone puts it back in its form as the server draws it, and never moves them itself.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, JsonResponse
from django.template.loader import render_to_string
from django.views.decorators.http import require_POST

from ledger import access, services
from ledger.exceptions import HandAlreadyRecorded, LedgerError, RecordRefused
from ledger.forms import next_hand_form
from ledger.forms.queue import picked_names
from ledger.presentation.flash import outcome_text, recorded_text
from ledger.presentation.notices import (
    GAME_OVER,
    HAND_REFUSED,
    KEY_TAKEN,
    repeat_text,
    taken_text,
    wrong_number_text,
    wrong_players_text,
)
from ledger.presentation.refusals import refusal_words
from ledger.presentation.words import person_name
from ledger.selectors.games import accepts_hands, game_record
from ledger.selectors.hands import hand_with_key

from .game_context import load_game, load_live
from .game_page import render_game, saved_parts
from .params import number_param, refuses_bad_parameters


@require_POST
@refuses_bad_parameters(json=True)
def hand_send(request: HttpRequest, pk: int) -> JsonResponse:
    game = access.game_for(request.user, pk)
    # the numbers are read first: a refused one stores nothing (400, naming it)
    typed = number_param(request.POST, "number", minimum=1)
    shown = number_param(request.POST, "parts", minimum=1)
    key = (request.POST.get("key") or "").strip()
    earlier = hand_with_key(game, key) if key else None
    if earlier is not None and earlier.number != typed:
        # the phone gives every hand its own key, and a hand keeps its number until the
        # server has answered; this key belongs to another hand
        return JsonResponse({
            "status": "refused", "errors": {"__all__": [KEY_TAKEN]}, "message": KEY_TAKEN},
            status=422)
    if earlier is not None:
        # sent before and stored; its answer never reached the phone
        message = repeat_text(earlier.number)
        return JsonResponse({
            "status": "recorded", "created": False, "number": earlier.number,
            "message": message, **_parts(request, game, shown, earlier.number),
        })
    # the game's live hands and their score (the form's spec, the next number): not its
    # history, which the answer does not show (a new row alone)
    result, entries = load_live(game)
    if not accepts_hands(game, result):
        return JsonResponse({"status": "over", "message": GAME_OVER}, status=409)
    next_number = len(result["hands"]) + 1
    if typed is not None and typed != next_number:
        return _stale(game, typed, next_number)
    data = request.POST.copy()
    form = next_hand_form(result, data)  # reads ``data`` when it is validated, seated first
    spec = form.spec
    wrong_players = _seat_as_picked(data, spec, (result.get("next") or {}).get("roles") or {})
    if not wrong_players and form.is_valid():
        try:
            outcome = services.hand_record(
                game=game, entry=form.entry(), recorded_by=request.user,
                idempotency_key=form.cleaned_data["key"], number=form.cleaned_data["number"],
                live=entries)
        except RecordRefused as exc:
            form.add_problems(exc.details)
        except HandAlreadyRecorded:
            return _stale(game, form.cleaned_data["number"], None)
        except LedgerError as exc:
            form.add_error(None, refusal_words(exc))
        else:
            message = outcome_text(outcome)
            parts = _parts(request, game, shown, outcome.hand.number, message,
                           after=(outcome, entries))
            if not parts:
                messages.success(request, message)  # said on the page drawn after
            return JsonResponse({"status": "recorded", "created": outcome.created,
                                 "number": outcome.hand.number, "message": message, **parts},
                                status=201 if outcome.created else 200)
    # at a table whose players were picked wrong, the pick is the reason, not its effects
    wrong_tables = tuple(field.split("_")[0] + "_" for field in wrong_players)
    errors = {field: [str(e) for e in errs] for field, errs in form.errors.items()
              if not (wrong_tables and field.startswith(wrong_tables))}
    for field, text in wrong_players.items():
        errors[field] = [text]
    reasons = [text for errs in errors.values() for text in errs]
    problems = [*wrong_players.values(), *(text for text in form.problems
                                           if text in reasons)] or reasons
    return JsonResponse({"status": "refused", "errors": errors, "problems": problems,
                         "message": " ".join(reasons) or HAND_REFUSED,
                         "fields": _as_read(data, spec)},
                        status=422)


def _as_read(data, spec: dict) -> list[list[str]]:
    """The hand's fields as the form read them (seated by ``_seat_as_picked``), without who
    was picked, the token and the parameters of the request."""
    skip = {"csrfmiddlewaretoken", "parts"}
    for i in range(1, len(spec.get("duels") or []) + 1):
        skip.update(picked_names(i))
    return [[name, value] for name, values in data.lists() if name not in skip
            for value in values]


def _parts(request, game, shown: int | None, number: int, text: str | None = None, *,
           after=None) -> dict:
    """What the page shows now, for the phone to put in place (``parts=N``, see above);
    nothing if the phone did not ask. ``text``: what to say of hand ``number`` (by default,
    as when it was recorded: the phone may never have heard it). ``after``: the service's
    outcome and the live hands' entries read before it, when the hand was stored just now:
    the game as it is now without reading and scoring it all again (the history is read
    only if the sheet goes whole)."""
    if shown is None:
        return {}
    outcome, before = after or (None, None)
    record = last = None
    if outcome is not None and outcome.created and not outcome.result.get("complete"):
        result, history = outcome.result, None
        record = game_record(game, hands=[*before, outcome.hand.entry])
        last = outcome.hand
    else:
        result, history = load_game(game)
    if text is None:
        text = recorded_text(result, number)
    if not accepts_hands(game, result):
        messages.success(request, text)
        game.refresh_from_db()  # its status, as the service left it
        return {"page": render_game(request, game, result, history).content.decode()}
    said = [str(m) for m in messages.get_messages(request)]  # the hands sent before it
    context = saved_parts(game, result, history, " ".join([*said, text]),
                          whole=number != shown, record=record, last=last)
    return {"parts": render_to_string("ledger/_hand_saved.html", context, request=request),
            "next": len(result["hands"]) + 1}


def _stale(game, typed: int, next_number: int | None) -> JsonResponse:
    if next_number is None:
        result, _ = load_game(game)
        next_number = len(result["hands"]) + 1
    if typed < next_number:
        hand = (game.hands.select_related("recorded_by")
                .filter(number=typed, voided_at__isnull=True).first())
        who = person_name(hand.recorded_by) if hand and hand.recorded_by else ""
        message = taken_text(typed, next_number, who, at=hand.recorded_at if hand else None)
    else:
        message = wrong_number_text(typed, next_number)
    return JsonResponse({"status": "stale", "next": next_number, "message": message},
                        status=409)


def _seat_as_picked(data, spec: dict, roles: dict) -> dict[str, str]:
    """Check who the scorekeeper said played each table against the hand's real players;
    put each player's count and cards at that player's place. Returns the refusals, by
    field."""
    wrong: dict[str, str] = {}
    for i, duel in enumerate(spec.get("duels") or [], start=1):
        picked = [data.get(name) or "" for name in picked_names(i)]
        if not any(picked):
            continue
        actual = list(duel["players"])
        seats = [(f"t{i}_c{c}", f"t{i}_cards{c}") for c in (0, 1)]
        typed = [[data.get(name, "") for name in names] for names in seats]
        # each player's count and cards at the place the player really has (nothing for
        # one who does not play this table)
        for names, player in zip(seats, actual, strict=True):
            values = typed[picked.index(player)] if player in picked else ["", ""]
            for name, value in zip(names, values, strict=True):
                data[name] = value
        if sorted(picked) != sorted(actual):
            wrong[f"t{i}_knocker"] = wrong_players_text(duel.get("label") or "", actual,
                                                        roles, picked)
    return wrong
