"""The card picker's preview in words and cards: the melds, the counts and the lay-offs as
cards are picked, and the verdict (who wins, how, how many points).

Every rule comes from the core: the melds and lay-offs from the card engine, the knock limit
from ``limits.knock_limit``, the verdict from ``preview.play_hand`` (the very function that
scores a game's hand, so a tie reads as the undercut the sheet will record). The hand form
reads typed cards through ``read_cards`` and asks ``hand_knock_limit``; screens import these
from here, never from ``ledger.rules``.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop

from ledger.rules.cards import (
    CardError,
    best_arrangement,
    parse_cards,
    score_cards,
    shared_card,
)
from ledger.rules.limits import KnockLimit, knock_limit
from ledger.rules.preview import full_rules, play_hand

from .cardtext import SUIT_SIGNS
from .elision import gettext, ngettext  # a name filled in with French elision

__all__ = ["CardError", "MAX_CARDS_TEXT", "card_view", "cards_view", "hand_knock_limit",
           "preview_context", "read_cards", "verdict_text"]

MAX_CARDS_TEXT = 200
# the knocker's chip by result; else "knocks" (translated where drawn: chip_word)
CHIPS = {"gin": gettext_noop("gin"), "big_gin": gettext_noop("big gin")}
KNOCKS = gettext_noop("knocks")


def read_cards(text: str):
    """The cards of ``text`` ("AS 2S 10H ..."), or ``CardError`` saying what is wrong."""
    return parse_cards(text)


def hand_knock_limit(rules: dict, *, oklahoma: bool, up_rank: str | None = None,
                     up_suit: str | None = None) -> KnockLimit:
    """The knock limit of a hand being entered: the game's setting, or the up-card's (its
    rank alone is enough) in Oklahoma."""
    upcard = (up_rank or "") + (up_suit or "") if up_rank else None
    return knock_limit(rules, oklahoma=oklahoma, upcard=upcard)


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
        errors.append(gettext("%(name)s's cards: %(error)s") % {"name": name, "error": error})
        return None


def _alone(name: str, cards, role: str | None) -> dict:
    arrangement = best_arrangement(cards)
    return {"name": name, "role": role, "chip": gettext(KNOCKS) if role == "knocks" else "",
            "size": len(cards),
            "melds": [cards_view(meld) for meld in arrangement.melds],
            "deadwood_cards": cards_view(arrangement.deadwood),
            "deadwood": arrangement.deadwood_count, "layoffs": []}


def verdict_text(outcome, kname: str, oname: str) -> str:
    """The core's outcome of a hand in one sentence: how it ended, who scores, how much."""
    k, o = outcome.deadwood[kname], outcome.deadwood[oname]
    gain = f"{outcome.winner} +{outcome.points}"
    if outcome.doubled:
        gain += " " + gettext("(doubled: a spade up-card)")
    said = {"k": k, "o": o, "kname": kname, "oname": oname, "gain": gain, "by": o - k}
    if outcome.result == "big_gin":
        return gettext("Big gin: %(kname)s melds all 11 cards; %(oname)s counts %(o)s: "
                       "%(gain)s.") % said
    if outcome.result == "gin":
        return gettext("Gin: %(kname)s has no deadwood; %(oname)s counts %(o)s, no lay-offs: "
                       "%(gain)s.") % said
    if k == o:
        said["counts"] = gettext("%(kname)s knocks with %(k)s; %(oname)s counts %(o)s too") % said
    else:
        said["counts"] = gettext("%(kname)s knocks with %(k)s; %(oname)s counts %(o)s") % said
    if outcome.result == "undercut":
        return gettext("%(counts)s: %(oname)s undercuts, %(gain)s.") % said
    if k == o:
        return gettext("%(counts)s: a tie, won by the knocker for 0 points (%(kname)s +0).") % said
    return gettext("%(counts)s: %(kname)s wins by %(by)s, %(gain)s.") % said


def preview_context(knocker_text: str, opponent_text: str, *, kname: str = "",
                    oname: str = "", rules: dict | None = None,
                    oklahoma: bool = False, up_rank: str | None = None,
                    up_suit: str | None = None, solo: bool = False) -> dict:
    """What the preview shows for the cards typed so far (any number of them), under a
    game's ``rules`` (missing settings at their defaults)."""
    rules = full_rules(rules)
    kname, oname = kname or gettext("Knocker"), oname or gettext("Opponent")
    limit = hand_knock_limit(rules, oklahoma=oklahoma, up_rank=up_rank, up_suit=up_suit)
    errors: list[str] = []
    knocker = _read(knocker_text, kname, errors)
    opponent = _read(opponent_text, oname, errors)
    context: dict = {"errors": errors, "hands": [], "outcome": None, "limit": limit.limit,
                     "ace_gin_only": limit.gin_only, "solo": solo, "kname": kname,
                     "oname": oname, "empty": not knocker and not opponent and not errors}
    if knocker and opponent:
        shared = shared_card(knocker, opponent)  # the core's: no card is in two hands
        if shared is not None:
            errors.append(gettext('"%(card)s" is in both hands: %(kname)s\'s and %(oname)s\'s')
                          % {"card": shared, "kname": kname, "oname": oname})
    for name, cards, most in ((kname, knocker, 11), (oname, opponent, 11 if solo else 10)):
        if cards and len(cards) > most:
            said = {"name": name, "n": len(cards)}
            errors.append(ngettext("%(name)s's cards: %(n)s card; a gin hand is 10",
                                   "%(name)s's cards: %(n)s cards; a gin hand is 10",
                                   len(cards)) % said
                          + (" " + gettext("(11 for a big gin)") if most == 11 else ""))
    if errors:
        return context
    k_role, o_role = (None, None) if solo else ("knocks", "opponent")
    complete = (not solo and knocker and opponent and len(knocker) in (10, 11)
                and len(opponent) == 10 and kname != oname)
    if complete:
        outcome = score_cards(knocker, opponent, knock_limit=limit.limit,
                              ace_gin_only=limit.gin_only)
        melds = [cards_view(meld) for meld in outcome.knocker_melds]
        layoffs = [{"card": card_view(card), "onto": melds[index]}
                   for card, index in outcome.layoffs]
        context["hands"] = [
            {"name": kname, "role": k_role, "chip": gettext(KNOCKS) if k_role else "",
             "size": len(knocker),
             "melds": melds,
             "deadwood_cards": cards_view(outcome.knocker_deadwood_cards),
             "deadwood": outcome.knocker_deadwood, "layoffs": []},
            {"name": oname, "role": o_role, "size": len(opponent),
             "melds": [cards_view(meld) for meld in outcome.opponent_melds],
             "deadwood_cards": cards_view(outcome.opponent_deadwood_cards),
             "deadwood": outcome.opponent_deadwood, "layoffs": layoffs,
             "before": outcome.opponent_deadwood_before_layoffs},
        ]
        verdict, scored = "", None
        if outcome.legal:
            upcard = (up_rank or "") + (up_suit or "") if up_rank else None
            # the counts the card engine just worked out (the best play), scored as the
            # game will score them: the cards are not laid out a second time
            scored, _, _ = play_hand(
                kname, oname, rules=rules, oklahoma=oklahoma, upcard=upcard,
                deadwood={kname: outcome.knocker_deadwood,
                          oname: outcome.opponent_deadwood}, big_gin=outcome.big_gin)
            if scored is not None:
                verdict = verdict_text(scored, kname, oname)
                # the knocker's chip says how the hand ended: a gin is not a knock
                if context["hands"][0]["chip"]:
                    context["hands"][0]["chip"] = gettext(CHIPS.get(scored.result, KNOCKS))
        context["outcome"] = {
            "legal": outcome.legal, "reason": outcome.reason,
            "k": outcome.knocker_deadwood, "o": outcome.opponent_deadwood,
            "gin": outcome.gin, "big_gin": outcome.big_gin, "verdict": verdict,
            "result": scored.result if scored else None,
            "winner": scored.winner if scored else None,
            "points": scored.points if scored else None}
        return context
    for name, cards, role in ((kname, knocker, k_role), (oname, opponent, o_role)):
        if cards:
            hand = _alone(name, cards, role)
            if role == "knocks" and len(cards) in (10, 11):
                hand["over"] = not limit.allows(hand["deadwood"], len(cards))
            context["hands"].append(hand)
    return context
