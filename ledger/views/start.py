"""Starting a game: pick the variant, the players and their seats, the rules and stakes."""

from __future__ import annotations

import random

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, ngettext

from ledger import access, services
from ledger.exceptions import LedgerError
from ledger.forms import (
    VARIANT_COUNTS,
    GameStartForm,
    needs_first_dealer,
    slots_for,
)
from ledger.presentation.catalog import VARIANT_NAMES, game_facts
from ledger.presentation.money import amount_text
from ledger.presentation.refusals import refusal_words

from .actions import refusals_to
from .settled import refuse_if_settled

# -- starting a game -------------------------------------------------------------------------

def game_new(request: HttpRequest, pk: int) -> HttpResponse:
    session = access.session_for(request.user, pk)
    if refused := refuse_if_settled(request, session, what="new game"):
        return refused
    count = session.table.players.filter(archived_at__isnull=True).count()
    choices = [{"variant": variant, "label": VARIANT_NAMES[variant], "count": n,
                "enough": n <= count}
               for variant, counts in VARIANT_COUNTS.items() for n in counts]
    return render(request, "ledger/game_new.html", {
        "session": session, "table": session.table, "choices": choices, "player_count": count,
    })


def _start_form(session, variant, count, data=None, initial=None):
    names_ = list(session.table.players.filter(archived_at__isnull=True)
                  .values_list("name", flat=True))  # archived players left the table
    rate = amount_text(session.rate, session.currency) if session.rate else None
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
            raise LedgerError(ngettext(
                "This game needs %(count)s players; the table has %(n)s. Add players on the "
                "table's page.",
                "This game needs %(count)s players; the table has %(n)s. Add players on the "
                "table's page.", count) % {"count": count, "n": len(table_players)})
        chosen += rng.sample(others, count - len(chosen))
    pool = chosen[:count]
    rng.shuffle(pool)
    for (name, _), player in zip(slots, pool, strict=True):
        values[name] = player
        values[f"stake_{name}"] = stakes.get(player) or ""
    drawn = [gettext("%(seat)s: %(name)s") % {"seat": label.split(":")[-1].strip(),
                                               "name": player}
             for (_, label), player in zip(slots, pool, strict=True)]
    if needs_first_dealer(variant):
        values["first_dealer"] = rng.choice(pool)
        drawn.append(gettext("%(name)s deals first") % {"name": values["first_dealer"]})
    if game_facts(variant, count).named_sides:
        values["first_dealer_side"] = rng.choice(["a", "b"])
    return values, gettext("The cut: %(drawn)s.") % {"drawn": "; ".join(drawn)}


def game_start(request: HttpRequest, pk: int, variant: str, count: int) -> HttpResponse:
    session = access.session_for(request.user, pk)
    if refused := refuse_if_settled(request, session, what="new game"):
        return refused
    if count not in VARIANT_COUNTS.get(variant, ()):
        raise Http404("No such game")
    form = _start_form(session, variant, count)
    status = 200
    if request.method == "POST":
        if "cut" in request.POST:
            table_players = list(session.table.players.filter(archived_at__isnull=True)
                                 .values_list("name", flat=True))
            try:
                values, drawn = cut_for_us(request.POST, variant, count, table_players)
            except LedgerError as exc:
                messages.error(request, refusal_words(exc))
                values = {key: request.POST.get(key) for key in request.POST}
            else:
                messages.info(request, drawn)
            form = _start_form(session, variant, count, initial=values)
        else:
            form = _start_form(session, variant, count, data=request.POST)
            if form.is_valid():
                data = form.cleaned_data
                kwargs = {}
                if form.facts.ante_staked:
                    kwargs["ante"] = str(data["ante"])
                    kwargs["rate"] = None
                else:
                    kwargs["preset"] = data["preset"]
                    kwargs["rate"] = str(data["rate"]) if data.get("rate") else None
                    kwargs["per_points"] = (data.get("per_points") or 1) if data.get("rate") \
                        else None
                if data.get("lump_sum_stake"):
                    kwargs["lump_sum_stake"] = str(data["lump_sum_stake"])
                with refusals_to(form):
                    game = services.game_start(
                        session=session, variant=variant, players=form.players(),
                        started_by=request.user, rules=form.rules(), setup=form.setup(),
                        player_stakes=form.player_stakes() or None, **kwargs)
                    messages.success(request, gettext("Game %(n)s started. Good luck!")
                                     % {"n": game.sequence})
                    return redirect("ledger:game_detail", pk=game.pk)
            status = 422
    return render(request, "ledger/game_start.html", {
        "session": session, "table": session.table, "form": form, "variant": variant,
        "count": count, "variant_label": VARIANT_NAMES[variant],
    }, status=status)
