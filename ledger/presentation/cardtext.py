"""Cards as text for people: "5♥6♥7♥" melds, upcards and a hand's layout in short lines.

Used by the presentation layer (``ledger.presentation``: a hand's meld lines, an up-card)
and the card preview (``ledger.views.cards``), so a hand entered with its cards reads the
same on the phone and on paper. Pure text: the melds themselves come from the scoring core
(a result hand's ``layout``).
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop, pgettext

SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
# a card as a screen reader says it, "%(rank)s" the rank ("Ace", "10"); translated in card_name
SUIT_NAMES = {"S": gettext_noop("%(rank)s of spades"), "H": gettext_noop("%(rank)s of hearts"),
              "D": gettext_noop("%(rank)s of diamonds"), "C": gettext_noop("%(rank)s of clubs")}
RANK_NAMES = {"A": gettext_noop("Ace"), "J": gettext_noop("Jack"), "Q": gettext_noop("Queen"),
              "K": gettext_noop("King")}


def card_name(card: str) -> str:
    """``"AS"`` -> ``"Ace of spades"``, ``"10H"`` -> ``"10 of hearts"``: a card as a screen
    reader says it (the picker's buttons)."""
    rank, suit = card[:-1].upper(), card[-1].upper()
    named = gettext(RANK_NAMES[rank]) if rank in RANK_NAMES else rank
    return gettext(SUIT_NAMES[suit]) % {"rank": named}


def card_text(card: str | None) -> str:
    """``"QS"`` -> ``"Q♠"``; empty for no card."""
    if not card:
        return ""
    return f"{card[:-1]}{SUIT_SIGNS.get(card[-1].upper(), card[-1])}"


def compact(cards) -> str:
    """``"5H 6H 7H"`` -> ``"5♥6♥7♥"``: a meld in a few characters for the sheet."""
    if isinstance(cards, str):
        cards = cards.split()
    return "".join(str(card)[:-1] + SUIT_SIGNS[str(card)[-1]] for card in cards)


def compact_spaced(cards: str) -> str:
    return " ".join(compact(card) for card in cards.split())


def layout_lines(knocker: str, opponent: str, layout: dict) -> list[str]:
    """A hand's layout (the core's ``layout``) in two short lines: the knocker's melds and
    what is left, then the opponent's melds, lay-offs and what is left."""
    melds = " ".join(compact(meld) for meld in layout.get("knocker_melds") or [])
    left = compact_spaced(layout.get("knocker_deadwood_cards") or "")
    first = (gettext("%(name)s: %(melds)s, left %(left)s") if left
             else gettext("%(name)s: %(melds)s (all melded)")) % {
        "name": knocker, "melds": melds, "left": left}
    parts = [f"{opponent}:"]
    own = " ".join(compact(meld) for meld in layout.get("opponent_melds") or [])
    if own:
        parts.append(own)
    laid = " ".join(compact(card) for card, _ in layout.get("layoffs") or [])
    text = " ".join(parts)
    if laid:
        text += (", " if own else " ") + gettext("lays off %(cards)s") % {"cards": laid}
    rest = compact_spaced(layout.get("opponent_deadwood_cards") or "")
    if rest:
        text += (", " if own or laid else " ") + gettext("left %(cards)s") % {"cards": rest}
    return [first, text]


def hand_layout_lines(hand: dict) -> list[str]:
    """The layout lines of a result hand entered with its cards (none otherwise); a hand of
    a table game gives each table's, prefixed "T1 ", "T2 ", ..."""
    tables = "tables" in hand
    lines: list[str] = []
    for part in hand["tables"] if tables else [hand]:
        layout = part.get("layout")
        if not layout:
            continue
        knocker = part["knocker"]
        opponent = next(name for name in part["deadwood"] if name != knocker)
        prefix = (pgettext("card table, short", "T%(n)s") % {"n": part["table"]} + " "
                  if tables else "")
        lines += [prefix + line for line in layout_lines(knocker, opponent, layout)]
    return lines
