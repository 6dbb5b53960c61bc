"""The card picker's live preview: the melds, the counts and the lay-offs as cards are picked.

``GET /cards/preview/?knocker=...&opponent=...&limit=10&ace=0`` returns an HTML fragment
(``ledger/_cards_preview.html``) worked out by the card engine (``ledger.rules.cards``):
nothing is recorded and no game is read, so it needs only a logged-in scorekeeper. Optional
``kname``/``oname`` name the two players; ``solo=1`` (no knocker tapped yet) shows each
hand's best melds on its own. The same context is drawn under a refused hand form, so
without JavaScript the scorekeeper still sees why the cards were refused.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from ledger.cardtext import SUIT_SIGNS
from ledger.rules.cards import CardError, best_arrangement, parse_cards, score_cards

MAX_CARDS_TEXT = 200


def card_view(card) -> dict:
    """A card for the templates: rank, suit sign and colour."""
    text = str(card)
    return {"rank": text[:-1], "suit": SUIT_SIGNS[text[-1]], "red": text[-1] in "HD",
            "code": text}


def cards_view(cards) -> list[dict]:
    if isinstance(cards, str):
        cards = cards.split()
    return [card_view(card) for card in cards]


def _read(text: str, name: str, errors: list[str]):
    text = (text or "")[:MAX_CARDS_TEXT]
    if not text.strip():
        return ()
    try:
        return parse_cards(text)
    except CardError as error:
        errors.append(f"{name}'s cards: {error}")
        return None


def _alone(name: str, cards, role: str | None) -> dict:
    arrangement = best_arrangement(cards)
    return {"name": name, "role": role, "size": len(cards),
            "melds": [cards_view(meld) for meld in arrangement.melds],
            "deadwood_cards": cards_view(arrangement.deadwood),
            "deadwood": arrangement.deadwood_count, "layoffs": []}


def preview_context(knocker_text: str, opponent_text: str, *, kname: str = "Knocker",
                    oname: str = "Opponent", limit: int = 10, ace_gin_only: bool = False,
                    solo: bool = False) -> dict:
    """What the preview shows for the cards typed so far (any number of them)."""
    errors: list[str] = []
    knocker = _read(knocker_text, kname, errors)
    opponent = _read(opponent_text, oname, errors)
    context: dict = {"errors": errors, "hands": [], "outcome": None, "limit": limit,
                     "ace_gin_only": ace_gin_only, "solo": solo, "kname": kname,
                     "oname": oname, "empty": not knocker and not opponent and not errors}
    if knocker and opponent:
        shared = sorted(set(knocker) & set(opponent), key=lambda card: card.index)
        if shared:
            errors.append(f'"{shared[0]}" is in both hands: {kname}\'s and {oname}\'s')
    for name, cards, most in ((kname, knocker, 11), (oname, opponent, 11 if solo else 10)):
        if cards and len(cards) > most:
            errors.append(f"{name}'s cards: {len(cards)} cards; a gin hand is 10"
                          + (" (11 for a big gin)" if most == 11 else ""))
    if errors:
        return context
    k_role, o_role = (None, None) if solo else ("knocks", "opponent")
    complete = (not solo and knocker and opponent and len(knocker) in (10, 11)
                and len(opponent) == 10)
    if complete:
        outcome = score_cards(knocker, opponent, knock_limit=limit, ace_gin_only=ace_gin_only)
        melds = [cards_view(meld) for meld in outcome.knocker_melds]
        layoffs = [{"card": card_view(card), "onto": melds[index]}
                   for card, index in outcome.layoffs]
        context["hands"] = [
            {"name": kname, "role": k_role, "size": len(knocker), "melds": melds,
             "deadwood_cards": cards_view(outcome.knocker_deadwood_cards),
             "deadwood": outcome.knocker_deadwood, "layoffs": []},
            {"name": oname, "role": o_role, "size": len(opponent),
             "melds": [cards_view(meld) for meld in outcome.opponent_melds],
             "deadwood_cards": cards_view(outcome.opponent_deadwood_cards),
             "deadwood": outcome.opponent_deadwood, "layoffs": layoffs,
             "before": outcome.opponent_deadwood_before_layoffs},
        ]
        k, o = outcome.knocker_deadwood, outcome.opponent_deadwood
        verdict = ""
        if outcome.legal:
            if outcome.big_gin:
                verdict = f"Big gin: {kname} melds all 11 cards; {oname} counts {o}."
            elif outcome.gin:
                verdict = f"Gin: {kname} has no deadwood; {oname} counts {o}, no lay-offs."
            elif k < o:
                verdict = f"{kname} knocks with {k}; {oname} counts {o}: {kname} wins by {o - k}."
            elif k == o:
                verdict = f"{kname} knocks with {k}; {oname} counts {o} too: a tie."
            else:
                verdict = f"{kname} knocks with {k}; {oname} counts {o}: {oname} undercuts."
        context["outcome"] = {"legal": outcome.legal, "reason": outcome.reason,
                              "k": k, "o": o, "gin": outcome.gin, "big_gin": outcome.big_gin,
                              "verdict": verdict}
        return context
    for name, cards, role in ((kname, knocker, k_role), (oname, opponent, o_role)):
        if cards:
            hand = _alone(name, cards, role)
            if role == "knocks" and len(cards) in (10, 11):
                cap = 0 if ace_gin_only or len(cards) == 11 else limit
                hand["over"] = hand["deadwood"] > cap
            context["hands"].append(hand)
    return context


def _int(value, default: int, low: int, high: int) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        return default
    return min(max(number, low), high)


@login_required
@require_GET
def cards_preview(request: HttpRequest) -> HttpResponse:
    get = request.GET
    context = preview_context(
        get.get("knocker", ""), get.get("opponent", ""),
        kname=(get.get("kname") or "Knocker")[:60], oname=(get.get("oname") or "Opponent")[:60],
        limit=_int(get.get("limit"), 10, 0, 98), ace_gin_only=get.get("ace") == "1",
        solo=get.get("solo") == "1")
    return render(request, "ledger/_cards_preview.html", {"preview": context})
