"""Cards as the card engine reads them (pure Python): parse ``"AS 2s 3S 10H Kd"`` into
``Card`` values, and the bit masks the meld search works on. Also CAP-IT's cards, which are
given by rank only.

Gin uses one 52-card deck. A card is written rank then suit: ranks ``A 2 3 4 5 6 7 8 9 10 J Q K``
(``T`` is accepted for 10), suits ``S H D C``, any case. Values: Ace 1, 2-10 face value, J Q K 10.
Card ``(suit s, rank r)`` is bit ``13 * s + r - 1`` of a hand's mask, the suits in the order
S H D C.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import product
from typing import NamedTuple

SUITS = "SHDC"
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_RANK_BY_NAME = {name: rank for rank, name in enumerate(RANK_NAMES, start=1)}
_RANK_BY_NAME["T"] = 10
_SUIT_INDEX = {suit: i for i, suit in enumerate(SUITS)}
_ROW = 0x1FFF  # 13 bits: one suit
_SEPARATORS = re.compile(r"[\s,]+")


class CardError(ValueError):
    """A card or a hand that cannot be read: the message names the card and the reason."""


class Card(NamedTuple):
    """A gin card: rank 1 (Ace) to 13 (King), suit one of ``S H D C``."""

    rank: int
    suit: str

    @property
    def value(self) -> int:
        return self.rank if self.rank < 10 else 10

    @property
    def index(self) -> int:
        """The card's bit number, 0..51 (suit-major: AS is 0, KC is 51)."""
        return _SUIT_INDEX[self.suit] * 13 + self.rank - 1

    def __str__(self) -> str:
        return RANK_NAMES[self.rank - 1] + self.suit


CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))
_BIT: dict[Card, int] = {card: 1 << i for i, card in enumerate(CARDS)}
_CARD_BY_NAME: dict[str, Card] = {}
for _card in CARDS:
    for _name, _rank in _RANK_BY_NAME.items():
        if _rank == _card.rank:
            _CARD_BY_NAME[_name + _card.suit] = _card


# Every spelling of every card in any case ("10h", "Th", "as", "aS"...) -> its bit: a hand
# given as text becomes a mask by dictionary look-ups alone (``_text_mask``).
_TOKEN_BIT: dict[str, int] = {}
for _name, _card in _CARD_BY_NAME.items():
    for _letters in product(*({ch.lower(), ch.upper()} for ch in _name)):
        _TOKEN_BIT["".join(_letters)] = _BIT[_card]


def parse_card(token: str) -> Card:
    """One card such as ``"10H"``, ``"th"`` or ``"as"``; CardError naming the token otherwise."""
    text = token.strip()
    upper = text.upper()
    card = _CARD_BY_NAME.get(upper)
    if card is not None:
        return card
    if upper == "JK":
        return _fail(text, "jokers are not used in gin")
    if len(upper) < 2:
        return _fail(text, "a card is a rank and a suit, e.g. 10H")
    if upper[-1] not in _SUIT_INDEX:
        return _fail(text, f'unknown suit "{text[-1]}" (suits are S H D C)')
    return _fail(text, f'unknown rank "{text[:-1]}" (ranks are A 2-10 J Q K, or T for 10)')


def _fail(token: str, reason: str):
    raise CardError(f'"{token}": {reason}')


def parse_cards(text: str) -> tuple[Card, ...]:
    """Cards separated by spaces (or commas), any case: one deck, so a repeat is an error."""
    if not isinstance(text, str):
        raise CardError(f"cards must be a string like 'AS 2S 3S', not {type(text).__name__}")
    cards = []
    seen = 0
    for token in _SEPARATORS.split(text.strip()):
        if not token:
            continue
        card = parse_card(token)
        bit = _BIT[card]
        if seen & bit:
            raise CardError(f'"{card}" appears twice')
        seen |= bit
        cards.append(card)
    return tuple(cards)


def _text_mask(text: str) -> int:
    """The mask of cards written as text (as ``parse_cards`` reads them), without making a
    Card of each: one look-up per card. Anything unusual (an unknown card, a repeat) goes
    through ``parse_cards``, so the error is the same word for word."""
    tokens = text.replace(",", " ").split()
    get = _TOKEN_BIT.get
    bits = [get(token) for token in tokens]
    if None not in bits:
        mask = sum(bits)
        if mask.bit_count() == len(bits):  # a repeat would carry into another bit
            return mask
    return _mask_of(parse_cards(text))


def _as_cards(cards: str | Iterable[Card | str]) -> tuple[Card, ...]:
    if isinstance(cards, str):
        return parse_cards(cards)
    out = []
    seen = 0
    for item in cards:
        card = item if isinstance(item, Card) else parse_card(item)
        bit = _BIT.get(card)
        if bit is None:
            raise CardError(f"{card!r} is not a card")
        if seen & bit:
            raise CardError(f'"{card}" appears twice')
        seen |= bit
        out.append(card)
    return tuple(out)


def _cards_of(mask: int) -> tuple[Card, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def _mask_of(cards: Iterable[Card]) -> int:
    mask = 0
    for card in cards:
        bit = _BIT[card]
        if mask & bit:
            raise CardError(f'"{card}" appears twice')
        mask |= bit
    return mask


# --- CAP-IT ---------------------------------------------------------------------------------------

CAPIT_VALUES = {"K": 10, "Q": 10, "J": 10, "10": 10, "2": 15, "JK": 20}
CAPIT_VALUES.update({str(n): 5 for n in range(3, 10)})


def capit_points(text: str, ace_value: int = 15) -> int:
    """The count of cards left in a CAP-IT hand, given by rank only: ``"K 7 7"`` -> 20.

    K Q J 10 = 10, 9 to 3 = 5, 2 = 15, JK (joker) = 20, A = ``ace_value``; any case, several
    decks so repeats are fine. Anything else is a CardError naming the token.
    """
    if not isinstance(text, str):
        raise CardError(f"cards must be a string like 'K 7 7', not {type(text).__name__}")
    total = 0
    for token in _SEPARATORS.split(text.strip()):
        if not token:
            continue
        upper = token.upper()
        if upper == "A":
            total += ace_value
            continue
        value = CAPIT_VALUES.get(upper)
        if value is None:
            raise CardError(
                f'"{token}": not a CAP-IT card (by rank only: A K Q J 10 9 8 7 6 5 4 3 2 JK)'
            )
        total += value
    return total
