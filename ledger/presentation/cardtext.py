"""Cards as text for people: "5♥6♥7♥" melds, upcards and a hand's layout in short lines.

Used by the presentation layer (``ledger.presentation``: a hand's meld lines, an up-card)
and the card preview (``ledger.views.cards``), so a hand entered with its cards reads the
same on the phone and on paper. Pure text: the melds themselves come from the scoring core
(a result hand's ``layout``).
"""

from __future__ import annotations

SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_NAMES = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}


def card_name(card: str) -> str:
    """``"AS"`` -> ``"Ace of spades"``, ``"10H"`` -> ``"10 of hearts"``: a card as a screen
    reader says it (the picker's buttons)."""
    rank, suit = card[:-1].upper(), card[-1].upper()
    return f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[suit]}"


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
    first = f"{knocker}: {melds}" + (f", left {left}" if left else " (all melded)")
    parts = [f"{opponent}:"]
    own = " ".join(compact(meld) for meld in layout.get("opponent_melds") or [])
    if own:
        parts.append(own)
    laid = " ".join(compact(card) for card, _ in layout.get("layoffs") or [])
    text = " ".join(parts)
    if laid:
        text += f"{',' if own else ''} lays off {laid}"
    rest = compact_spaced(layout.get("opponent_deadwood_cards") or "")
    if rest:
        text += f"{',' if own or laid else ''} left {rest}"
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
        prefix = f"T{part['table']} " if tables else ""
        lines += [prefix + line for line in layout_lines(knocker, opponent, layout)]
    return lines
