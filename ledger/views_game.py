"""Screens of one game: start it, enter hands, undo and correct, the live sheet, CSV.

Views are thin: they read through ``ledger.access`` (a table's objects are visible only to
its scorekeepers, 404 otherwise) and ``ledger.selectors``, write only through
``ledger.services``, and show only numbers from the core's result. Every form is a plain
POST followed by a redirect (post/redirect/get); a refused form is drawn again with what was
typed and the core's problem at the field.
"""

from __future__ import annotations

import random
import uuid
from decimal import Decimal, InvalidOperation

import tablib
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch, prefetch_related_objects
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST
from django_tables2.export import TableExport

from . import access, selectors, services
from .cardtext import hand_layout_lines
from .charts import running_chart
from .exceptions import HandAlreadyRecorded, LedgerError, RecordRefused
from .forms import (
    VARIANT_COUNTS,
    VARIANT_LABELS,
    GameStartForm,
    HandForm,
    ReasonForm,
    initial_from_entry,
    needs_first_dealer,
    new_hand_initial,
    slots_for,
)
from .models import Game, GameStatus, Hand
from .models_sharing import ShareLink
from .tables import fix_pattern, hollywood_columns, names, sheet_table, totals_table
from .views_settings import change_rows

ROLE_ORDER = {"box": 0, "captain": 1, "opponent": 2, "player": 3, "sits_out": 4}


# -- loading a game and its result -----------------------------------------------------------

def load_game(game: Game) -> tuple[dict, list[Hand]]:
    """The core's result for ``game`` and its whole hand history, in a fixed number of
    queries whatever the number of hands (seats with players, and one query for every hand
    ever entered, from which the live ones are taken)."""
    prefetch_related_objects([game], "seats__player")
    history = selectors.game_history(game)
    game.live_hands = sorted((h for h in history if h.voided_at is None),
                             key=lambda h: h.number)
    return selectors.game_result(game), history


def hand_spec(variant: str, result: dict, info: dict) -> dict:
    """What the hand form asks for, from ``info``: ``result["next"]`` for the next hand, or a
    hand of ``result["hands"]`` to correct it."""
    players = result["players"]
    if variant == "cap-it":
        return {"kind": "capit", "players": players, "contract": info.get("contract")}
    rules = result["rules"]
    spec: dict = {"kind": "duels", "upcard": variant == "oklahoma",
                  "big_gin": rules.get("big_gin_bonus", 0) > 0,
                  "knock_limit": rules.get("knock_limit", 10),
                  "oklahoma_ace": rules.get("oklahoma_ace", "gin_only")}
    roles = info.get("roles") or {}
    tables = info.get("tables")
    if tables:
        dealers = info.get("dealer") or []
        duels = []
        for i, table in enumerate(tables, start=1):
            pair = table["players"] if isinstance(table, dict) else table
            dealer = table.get("dealer") if isinstance(table, dict) else (
                dealers[i - 1] if isinstance(dealers, list) and len(dealers) >= i else None)
            duels.append({"players": list(pair), "label": f"Table {i}", "dealer": dealer})
        spec["tables"] = True
        spec["duels"] = duels
        if variant == "captain":
            spec["cut_candidates"] = [name for duel in duels for name in duel["players"]
                                      if roles.get(name) == "opponent"]
        return spec
    if variant == "box":
        pair = [next(n for n, r in roles.items() if r == "box"),
                next(n for n, r in roles.items() if r == "captain")]
    elif variant == "captain":
        pair = [next(n for n, r in roles.items() if r == "captain"),
                next(n for n, r in roles.items() if r == "opponent")]
    else:
        pair = list(players)
    spec["duels"] = [{"players": pair, "dealer": info.get("dealer")}]
    return spec


def next_panel(variant: str, result: dict) -> dict:
    """Who deals, who plays whom, who is in the box, who sits out, the contract: the
    core's ``next`` in words."""
    nxt = result.get("next") or {}
    roles = nxt.get("roles") or {}
    panel: dict = {"number": len(result["hands"]) + 1, "dealer": names(nxt.get("dealer")),
                   "tables": [], "roles": [], "sits_out": [n for n, r in roles.items()
                                                          if r == "sits_out"]}
    if variant == "cap-it":
        panel["round"] = nxt.get("round")
        panel["contract"] = nxt.get("contract")
        return panel
    spec = hand_spec(variant, result, nxt)
    for duel in spec["duels"]:
        a, b = duel["players"]
        panel["tables"].append({"label": duel.get("label"), "a": a, "b": b,
                                "a_role": roles.get(a), "b_role": roles.get(b),
                                "dealer": names(duel.get("dealer"))})
    if variant == "box":
        panel["box"] = spec["duels"][0]["players"][0]
    if nxt.get("dealer_side"):
        panel["dealer_side"] = nxt["dealer_side"]
    return panel


def game_context(game: Game, result: dict, history: list[Hand], *, owner: bool) -> dict:
    """Everything the sheet shows, for the scorekeeper's page and the shared page alike."""
    keys = list(result["totals"])
    running = [hand["running"] for hand in result["hands"]]
    voided = [hand for hand in history if hand.voided_at is not None]
    corrections = [{
        "number": hand.number, "text": entry_text(game.variant, hand.entry),
        # who did it is the table's business, not a share link's: account names stay private
        "reason": hand.void_reason, "by": selectors.person_name(hand.voided_by) if owner else None,
        "at": hand.voided_at,
        "corrected": any(h.replaces_id == hand.pk for h in history),
    } for hand in voided]
    money = result.get("money") or {}
    ended = result.get("complete") or game.status == GameStatus.ABANDONED
    lower_wins = game.variant == "cap-it"
    return {
        "game": game, "session": game.session, "table": game.session.table,
        "result": result, "keys": keys,
        "variant_label": VARIANT_LABELS.get(game.variant, game.variant),
        "sheet": with_layouts(sheet_table(result, fix_url=fix_pattern(game.pk) if owner
                                          else None), result),
        "totals": totals_table(result),
        "columns": hollywood_columns(result),
        "chart": running_chart(keys, running,
                               target=None if lower_wins else result["rules"].get("target"),
                               title="Running totals" + (" (lowest wins)" if lower_wins else "")),
        "scoreboard": [{"name": key, "final": result["totals"][key].get("final"),
                        "hand_points": result["totals"][key].get("hand_points")}
                       for key in keys],
        "target": result["rules"].get("target"),
        "money": [{"name": name, "amount": amount, "negative": amount.startswith("-"),
                   "zero": Decimal(amount) == 0}
                  for name, amount in money.items()],
        "payments": result.get("payments") or [],
        "ended": ended, "abandoned": game.status == GameStatus.ABANDONED,
        "panel": None if ended else next_panel(game.variant, result),
        "corrections": corrections,
        "changes": [{**row, "by": selectors.person_name(row["by"]) if owner else None}
                    for row in change_rows(game.changes.select_related("changed_by"))],
        "last_number": len(result["hands"]),
        "owner": owner,
        "winner_text": names(result.get("winner")),
    }


def with_layouts(table, result: dict):
    """Under a hand entered with the cards, the melds the core laid out (its ``layout``):
    one short line per player, after the lines the sheet already has."""
    if result["variant"] == "cap-it":
        return table
    hands = {hand["number"]: hand for hand in result["hands"]}
    for row in table.data.data:
        hand = hands.get(row.get("number"))
        extra = hand_layout_lines(hand) if hand is not None else []
        if extra:
            row["lines"] = list(row.get("lines") or []) + extra
    return table


def entry_text(variant: str, entry: dict) -> str:
    """A voided hand as it was entered (no scoring: it no longer counts)."""
    if "tables" in entry:
        return " / ".join(
            f"T{i}: " + ("draw" if part.get("draw") else _entry_duel(part))
            for i, part in enumerate(entry["tables"], start=1))
    if "went_out" in entry:
        out = entry.get("went_out") or "nobody"
        counts = entry.get("points") or entry.get("cards") or {}
        listed = ", ".join(f"{name} {value}" for name, value in counts.items())
        return f"{out} out; {listed}"
    if entry.get("draw"):
        return "Draw"
    return _entry_duel(entry)


def _entry_duel(entry: dict) -> str:
    deadwood = entry.get("deadwood") or {}
    counts = ", ".join(f"{name} {value}" for name, value in deadwood.items())
    cards = entry.get("cards") or {}
    if cards:
        held = "; ".join(f"{name}: {text}" for name, text in cards.items())
        counts = f"{counts}; {held}" if counts else held
    big = " (big gin)" if entry.get("big_gin") else ""
    up = f" up-card {entry['upcard']};" if entry.get("upcard") else ""
    return f"{entry.get('knocker')} knocked{big};{up} {counts}"


# -- the game page ---------------------------------------------------------------------------

def _render_game(request, game, result, history, form=None, status=200):
    context = game_context(game, result, history, owner=True)
    if form is None and context["panel"] is not None:
        form = HandForm(spec=hand_spec(game.variant, result, result["next"]),
                        initial=new_hand_initial(context["panel"]["number"]))
    live_links = list(ShareLink.objects.filter(table=game.session.table,
                                               revoked_at__isnull=True))
    context.update({
        "form": form,
        "share_game": next((link for link in live_links if link.game_id == game.pk), None),
        "print_game": reverse("scoresheets:game_pdf", kwargs={"pk": game.pk}),
        "print_blank": reverse("scoresheets:blank_pdf", kwargs={"pk": game.pk}),
        "undo_form": ReasonForm(),
    })
    return render(request, "ledger/game_detail.html", context, status=status)


@login_required
def game_detail(request: HttpRequest, pk: int) -> HttpResponse:
    game = access.game_for(request.user, pk)
    result, history = load_game(game)
    return _render_game(request, game, result, history)


@login_required
@require_POST
def hand_create(request: HttpRequest, pk: int) -> HttpResponse:
    game = access.game_for(request.user, pk)
    result, history = load_game(game)
    if result.get("complete") or game.status != GameStatus.IN_PROGRESS:
        messages.info(request, "This game is over; it takes no more hands.")
        return redirect("ledger:game_detail", pk=game.pk)
    form = HandForm(request.POST, spec=hand_spec(game.variant, result, result["next"]))
    if form.is_valid():
        try:
            outcome = services.hand_record(
                game=game, entry=form.entry(), recorded_by=request.user,
                idempotency_key=form.cleaned_data["key"], number=form.cleaned_data["number"])
        except RecordRefused as exc:
            form.add_problems(exc.problems)
        except HandAlreadyRecorded as exc:
            return _kept_for_the_next_hand(request, game, exc)
        except LedgerError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, _recorded_message(outcome))
            return redirect(reverse("ledger:game_detail", kwargs={"pk": game.pk}))
    return _render_game(request, game, result, history, form=form, status=422)


def _kept_for_the_next_hand(request, game: Game, exc: HandAlreadyRecorded) -> HttpResponse:
    """Another phone recorded this hand first. What was typed is not thrown away: it comes
    back in the form of the next hand, to be checked against the table and saved again (or
    cleared), and nothing is recorded until then."""
    result, history = load_game(game)
    if result.get("complete") or game.status != GameStatus.IN_PROGRESS:
        messages.warning(request, exc.message)
        return redirect("ledger:game_detail", pk=game.pk)
    number = len(result["hands"]) + 1
    data = request.POST.copy()
    data.update({"number": str(number), "key": str(uuid.uuid4())})
    retry = HandForm(data, spec=hand_spec(game.variant, result, result["next"]))
    retry.is_valid()  # marks what no longer fits the next hand (its players may differ)
    retry.add_error(None, f"{exc.message} What you typed is kept below as hand {number}: "
                          "check it against the table and save it, or clear it.")
    return _render_game(request, game, result, history, form=retry, status=409)


def _recorded_message(outcome) -> str:
    if not outcome.created:
        return outcome.message
    hand = outcome.result["hands"][outcome.hand.number - 1]
    won = {key: points for key, points in (hand.get("points") or {}).items() if points}
    gains = ", ".join(f"{key} +{points}" for key, points in won.items()) or "no score"
    what = "Round" if hand.get("result") == "round" else "Hand"
    text = f"{what} {hand['number']} recorded: {gains}."
    if outcome.result.get("complete"):
        winner = names(outcome.result.get("winner"))
        text += f" Game over: {winner} wins."
    return text


@login_required
@require_POST
def hand_undo(request: HttpRequest, pk: int) -> HttpResponse:
    game = access.game_for(request.user, pk)
    number = request.POST.get("number") or ""
    reason = (request.POST.get("reason") or "").strip() or "undone"
    if number and not number.isdigit():
        messages.error(request, "The undo button was out of date; nothing was undone. "
                                "Reload the game and try again.")
        return redirect("ledger:game_detail", pk=game.pk)
    try:
        hand = services.hand_undo_last(game=game, undone_by=request.user, reason=reason,
                                       number=int(number) if number else None)
    except (LedgerError, ValueError) as exc:
        messages.error(request, getattr(exc, "message", str(exc)))
    else:
        messages.success(request, f"Hand {hand.number} undone; it stays in the history.")
    return redirect("ledger:game_detail", pk=game.pk)


@login_required
def hand_correct(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    game = access.game_for(request.user, pk)
    result, history = load_game(game)
    if not 1 <= number <= len(result["hands"]):
        raise Http404("No such hand")
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
                form.add_problems(exc.problems)
            except LedgerError as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, f"Hand {number} corrected; the old entry is kept, "
                                          "struck through, with the reason.")
                return redirect(reverse("ledger:game_detail", kwargs={"pk": game.pk})
                                + f"#hand-{number}")
        status = 422
    else:
        form = HandForm(spec=spec, correcting=True, initial={
            **new_hand_initial(number), "hand": hand.pk,
            **initial_from_entry(spec, hand.entry)})
        status = 200
    return render(request, "ledger/hand_correct.html", {
        "game": game, "session": game.session, "table": game.session.table, "form": form,
        "number": number, "was": entry_text(game.variant, hand.entry),
        "variant_label": VARIANT_LABELS.get(game.variant, game.variant),
        "hand_result": result["hands"][number - 1],
    }, status=status)


@login_required
@require_POST
def game_abandon(request: HttpRequest, pk: int) -> HttpResponse:
    game = access.game_for(request.user, pk)
    reason = (request.POST.get("reason") or "").strip()
    try:
        services.game_abandon(game=game, abandoned_by=request.user, reason=reason)
    except LedgerError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "Game abandoned: it settles on hand points.")
    return redirect("ledger:game_detail", pk=game.pk)


@login_required
def game_export(request: HttpRequest, pk: int) -> HttpResponse:
    """The hands as CSV (django-tables2's export of the sheet table)."""
    game = access.game_for(request.user, pk)
    result, _ = load_game(game)
    return export_response(game, result)


def export_response(game: Game, result: dict) -> HttpResponse:
    table = sheet_table(result)
    name = f"{game.session.table.name}-{game.session.date}-game-{game.sequence}.csv"
    export = TableExport("csv", table)
    export.dataset = tablib.Dataset(*[tuple(inert_cell(cell) for cell in row)
                                      for row in export.dataset],
                                    headers=[inert_cell(h) for h in export.dataset.headers])
    return export.response(filename=name.replace(" ", "_"))


def inert_cell(value):
    """A CSV cell a spreadsheet will not run as a formula: text starting with = + - @ or a
    tab or carriage return gets a leading apostrophe (OWASP's advice for CSV injection);
    numbers, negative ones too, stay numbers."""
    if not isinstance(value, str) or not value or value[0] not in "=+-@\t\r":
        return value
    try:
        Decimal(value)
    except InvalidOperation:
        return "'" + value
    return value


# -- starting a game -------------------------------------------------------------------------

@login_required
def game_new(request: HttpRequest, pk: int) -> HttpResponse:
    session = access.session_for(request.user, pk)
    count = session.table.players.count()
    choices = [{"variant": variant, "label": VARIANT_LABELS[variant], "count": n,
                "enough": n <= count}
               for variant, counts in VARIANT_COUNTS.items() for n in counts]
    return render(request, "ledger/game_new.html", {
        "session": session, "table": session.table, "choices": choices, "player_count": count,
    })


def _start_form(session, variant, count, data=None, initial=None):
    names_ = list(session.table.players.values_list("name", flat=True))
    rate = selectors.decimal_text(session.rate, session.currency) if session.rate else None
    return GameStartForm(data, initial=initial, variant=variant, count=count,
                         player_names=names_, session_rate=rate,
                         session_per_points=session.per_points)


def cut_for_us(data, variant: str, count: int, table_players: list[str],
               rng: random.Random | None = None) -> tuple[dict, str]:
    """Draw the seats (and first dealer) at random: the cut, done by the server.

    Players already chosen are kept in the draw; empty seats are filled from the rest of
    the table. Own stakes follow their player. Returns (new form values, what was drawn).
    """
    rng = rng or random.SystemRandom()
    slots = slots_for(variant, count)
    values = {key: data.get(key) for key in data}
    chosen: list[str] = []
    for name, _ in slots:
        value = values.get(name)
        if value and value in table_players and value not in chosen:
            chosen.append(value)
    stakes = {values.get(name): values.get(f"stake_{name}") for name, _ in slots
              if values.get(name)}
    others = [name for name in table_players if name not in chosen]
    if len(chosen) < count:
        if len(chosen) + len(others) < count:
            raise LedgerError(f"This game needs {count} players; the table has "
                              f"{len(table_players)}. Add players on the table's page.")
        chosen += rng.sample(others, count - len(chosen))
    pool = chosen[:count]
    rng.shuffle(pool)
    for (name, _), player in zip(slots, pool, strict=True):
        values[name] = player
        values[f"stake_{name}"] = stakes.get(player) or ""
    drawn = [f"{label.split(':')[-1].strip()}: {player}"
             for (_, label), player in zip(slots, pool, strict=True)]
    if needs_first_dealer(variant):
        values["first_dealer"] = rng.choice(pool)
        drawn.append(f"{values['first_dealer']} deals first")
    if variant == "partnership":
        values["first_dealer_side"] = rng.choice(["a", "b"])
    return values, "The cut: " + "; ".join(drawn) + "."


@login_required
def game_start(request: HttpRequest, pk: int, variant: str, count: int) -> HttpResponse:
    session = access.session_for(request.user, pk)
    if count not in VARIANT_COUNTS.get(variant, ()):
        raise Http404("No such game")
    form = _start_form(session, variant, count)
    status = 200
    if request.method == "POST":
        if "cut" in request.POST:
            table_players = list(session.table.players.values_list("name", flat=True))
            try:
                values, drawn = cut_for_us(request.POST, variant, count, table_players)
            except LedgerError as exc:
                messages.error(request, exc.message)
                values = {key: request.POST.get(key) for key in request.POST}
            else:
                messages.info(request, drawn)
            form = _start_form(session, variant, count, initial=values)
        else:
            form = _start_form(session, variant, count, data=request.POST)
            if form.is_valid():
                data = form.cleaned_data
                kwargs = {}
                if variant == "cap-it":
                    kwargs["ante"] = str(data["ante"])
                    kwargs["rate"] = None
                else:
                    kwargs["preset"] = data["preset"]
                    kwargs["rate"] = str(data["rate"]) if data.get("rate") else None
                    kwargs["per_points"] = (data.get("per_points") or 1) if data.get("rate") \
                        else None
                try:
                    game = services.game_start(
                        session=session, variant=variant, players=form.players(),
                        started_by=request.user, rules=form.rules(), setup=form.setup(),
                        player_stakes=form.player_stakes() or None, **kwargs)
                except RecordRefused as exc:
                    form.add_problems(exc.problems)
                except LedgerError as exc:
                    form.add_error(None, exc.message)
                else:
                    messages.success(request, f"Game {game.sequence} started. Good luck!")
                    return redirect("ledger:game_detail", pk=game.pk)
            status = 422
    return render(request, "ledger/game_start.html", {
        "session": session, "table": session.table, "form": form, "variant": variant,
        "count": count, "variant_label": VARIANT_LABELS[variant],
    }, status=status)


# -- shared, read-only sheets ----------------------------------------------------------------

def _live_link(token: str) -> ShareLink:
    link = (ShareLink.objects.select_related("table", "game")
            .filter(token=token, revoked_at__isnull=True).first())
    if link is None:
        raise Http404("No such link")
    return link


def shared(request: HttpRequest, token: str) -> HttpResponse:
    """A share link: one game's sheet, or the table's evenings with their games."""
    link = _live_link(token)
    if link.game_id:
        return _shared_game(request, link, link.game)
    sessions = list(link.table.sessions.prefetch_related(
        Prefetch("games", queryset=Game.objects.order_by("sequence")))[:10])
    response = render(request, "ledger/shared_table.html", {
        "link": link, "table": link.table, "sessions": sessions})
    response["X-Robots-Tag"] = "noindex"
    return response


def shared_game(request: HttpRequest, token: str, game_pk: int) -> HttpResponse:
    link = _live_link(token)
    if link.game_id and link.game_id != game_pk:
        raise Http404("No such game")
    game = (Game.objects.select_related("session__table")
            .filter(pk=game_pk, session__table=link.table).first())
    if game is None:
        raise Http404("No such game")
    return _shared_game(request, link, game)


def _shared_game(request, link: ShareLink, game: Game) -> HttpResponse:
    game = Game.objects.select_related("session__table").get(pk=game.pk)
    result, history = load_game(game)
    context = game_context(game, result, history, owner=False)
    context["link"] = link
    response = render(request, "ledger/shared_game.html", context)
    response["X-Robots-Tag"] = "noindex"
    response["Referrer-Policy"] = "no-referrer"
    return response


