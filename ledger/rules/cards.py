"""The card engine: parse cards, find melds, count deadwood and lay-offs (pure Python, no Django).

Gin uses one 52-card deck. A card is written rank then suit: ranks ``A 2 3 4 5 6 7 8 9 10 J Q K``
(``T`` is accepted for 10), suits ``S H D C``, any case: ``"AS 2s 3S 10H Kd"``. Values: Ace 1,
2-10 face value, J Q K 10. Ace is low only (A-2-3 is a run, Q-K-A is not). A meld is a run of
3 or more cards of one suit in sequence, or a set of 3 or 4 cards of one rank.

Inside, a hand is an int bit mask: card ``(suit s, rank r)`` is bit ``13 * s + r - 1`` with the
suits in the order S H D C. A search packs disjoint melds (bit masks) to maximise the melded
value; memoised on the mask of cards still free, it is exact and fast enough in pure Python.

Public API:
    Card, CardError, parse_card(token), parse_cards(text)
    best_arrangement(cards) -> Arrangement           least deadwood, no discard
    deadwood_count(cards) -> int                     its deadwood count only
    best_knock(cards) -> Knock                       11 cards: big gin, or the best discard
    score_cards(knocker, opponent, knock_limit=10, ace_gin_only=False) -> CardsOutcome
    opponent_layoffs(opponent, knocker_melds) -> OpponentResult
    possible_counts(knocker, opponent, knock_limit=10, ace_gin_only=False) -> set[(k, o)]
    counts_possible(knocker, opponent, k, o, knock_limit=10, ace_gin_only=False) -> str | None
    upcard_knock_limit(upcard, oklahoma_ace="gin_only") -> int
    capit_points(text, ace_value=15) -> int
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from . import limits

__all__ = [
    "Arrangement",
    "Card",
    "CardError",
    "CardsOutcome",
    "Knock",
    "OpponentResult",
    "best_arrangement",
    "best_knock",
    "capit_points",
    "counts_possible",
    "deadwood_count",
    "opponent_layoffs",
    "parse_card",
    "parse_cards",
    "possible_counts",
    "score_cards",
    "upcard_knock_limit",
]

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


# --- precomputed tables -------------------------------------------------------------------

# The value of every 13-bit suit row (bit r-1 is rank r).
_ROW_VALUE = [0] * (1 << 13)
for _row in range(1, 1 << 13):
    _low = _row & -_row
    _ROW_VALUE[_row] = _ROW_VALUE[_row ^ _low] + min(_low.bit_length(), 10)


def _mask_value(mask: int) -> int:
    return (
        _ROW_VALUE[mask & _ROW]
        + _ROW_VALUE[(mask >> 13) & _ROW]
        + _ROW_VALUE[(mask >> 26) & _ROW]
        + _ROW_VALUE[mask >> 39]
    )


def _build_run_tables() -> list[list[tuple[tuple[int, int], ...]]]:
    runs = [
        ((1 << length) - 1) << start
        for length in range(3, 14)
        for start in range(0, 14 - length)
    ]
    runs.sort()
    tables: list[list[tuple[tuple[int, int], ...]]] = [[()] * (1 << 13) for _ in SUITS]
    for row in range(1 << 13):
        if not row & (row >> 1) & (row >> 2):
            continue
        found = [run for run in runs if run & row == run]
        for s in range(4):
            tables[s][row] = tuple((run << (13 * s), _ROW_VALUE[run]) for run in found)
    return tables


# _RUNS[suit][row]: every run (mask, value) inside that suit's row, short ones included.
_RUNS = _build_run_tables()


def _build_set_table() -> list[list[tuple[tuple[int, int], ...]]]:
    table: list[list[tuple[tuple[int, int], ...]]] = []
    for r in range(13):
        value = min(r + 1, 10)
        by_column: list[tuple[tuple[int, int], ...]] = []
        for column in range(16):
            suits = [s for s in range(4) if column >> s & 1]
            if len(suits) < 3:
                by_column.append(())
                continue
            bits = [1 << (13 * s + r) for s in suits]
            melds = []
            if len(bits) == 4:
                melds.append((sum(bits), 4 * value))
            for skip in range(len(bits) - 1, -1, -1) if len(bits) == 4 else ():
                melds.append((sum(bits) - bits[skip], 3 * value))
            if len(bits) == 3:
                melds.append((sum(bits), 3 * value))
            by_column.append(tuple(melds))
        table.append(by_column)
    return table


# _SETS[rank - 1][column]: sets of that rank, column bit s set when the hand holds that suit.
_SETS = _build_set_table()


def _melds(mask: int) -> list[tuple[int, int]]:
    """Every meld (mask, value) inside the hand: runs of 3+ (sub-runs too) and sets of 3 or 4."""
    r0 = mask & _ROW
    r1 = (mask >> 13) & _ROW
    r2 = (mask >> 26) & _ROW
    r3 = mask >> 39
    melds: list[tuple[int, int]] = []
    for s, row in ((0, r0), (1, r1), (2, r2), (3, r3)):
        if row & (row >> 1) & (row >> 2):
            melds.extend(_RUNS[s][row])
    triples = (r0 & r1 & (r2 | r3)) | (r2 & r3 & (r0 | r1))
    while triples:
        low = triples & -triples
        triples ^= low
        r = low.bit_length() - 1
        column = (r0 >> r & 1) | (r1 >> r & 1) << 1 | (r2 >> r & 1) << 2 | (r3 >> r & 1) << 3
        melds.extend(_SETS[r][column])
    return melds


# --- the packing search ---------------------------------------------------------------------


def _best_pack(mask: int, options: list) -> tuple[int, list]:
    """Disjoint options (tuples starting with mask, value) inside ``mask`` of greatest value.

    Returns (value, chosen options). Exact: a memoised search where the lowest free card is
    either left out or covered by one of the options whose lowest card it is. On equal values
    the first found wins: leaving a card out, then options in the order given.
    """
    if not options:
        return 0, []
    if len(options) == 1:
        return options[0][1], [options[0]]
    union = 0
    disjoint = True
    for option in options:
        m = option[0]
        if union & m:
            disjoint = False
        union |= m
    if disjoint:
        return sum(option[1] for option in options), list(options)

    by_low: dict[int, list] = {}
    for option in options:
        m = option[0]
        low = m & -m
        if low in by_low:
            by_low[low].append(option)
        else:
            by_low[low] = [option]
    memo: dict[int, int] = {}
    choice: dict[int, tuple | None] = {}

    def best(free: int) -> int:
        while free:
            low = free & -free
            opts = by_low.get(low)
            if opts is not None:
                break
            free ^= low
        else:
            return 0
        value = memo.get(free)
        if value is not None:
            return value
        value = best(free ^ low)
        chosen = None
        for option in opts:
            m = option[0]
            if m & free == m:
                v = option[1] + best(free ^ m)
                if v > value:
                    value = v
                    chosen = option
        memo[free] = value
        choice[free] = chosen
        return value

    total = best(union)
    chosen_options = []
    free = union
    while free:
        low = free & -free
        if low not in by_low:
            free ^= low
            continue
        option = choice[free]
        if option is None:
            free ^= low
        else:
            chosen_options.append(option)
            free ^= option[0]
    return total, chosen_options


def _all_packings(mask: int, options: list, min_value: int):
    """Every set of disjoint options inside ``mask`` whose value is at least ``min_value``.

    Yields (value, tuple of options). Each packing comes once: the lowest free card is left
    out or covered by an option whose lowest card it is.
    """
    by_low: dict[int, list] = {}
    union = 0
    for option in options:
        m = option[0]
        union |= m
        by_low.setdefault(m & -m, []).append(option)

    def walk(free: int, value: int, chosen: tuple):
        while free:
            low = free & -free
            if low in by_low:
                break
            free ^= low
        else:
            if value >= min_value:
                yield value, chosen
            return
        if value + _mask_value(free) < min_value:
            return
        for option in by_low[low]:
            m = option[0]
            if m & free == m:
                yield from walk(free ^ m, value + option[1], chosen + (option,))
        yield from walk(free ^ low, value, chosen)

    yield from walk(union, 0, ())


def _all_values(mask: int, options: list) -> frozenset[int]:
    """Every total value of a set of disjoint options inside ``mask`` (the empty set gives 0)."""
    by_low: dict[int, list] = {}
    union = 0
    for option in options:
        m = option[0]
        union |= m
        by_low.setdefault(m & -m, []).append(option)
    memo: dict[int, frozenset[int]] = {}

    def values(free: int) -> frozenset[int]:
        while free:
            low = free & -free
            if low in by_low:
                break
            free ^= low
        else:
            return frozenset((0,))
        found = memo.get(free)
        if found is not None:
            return found
        out = set(values(free ^ low))
        for option in by_low[low]:
            m = option[0]
            if m & free == m:
                v = option[1]
                out.update(v + x for x in values(free ^ m))
        found = memo[free] = frozenset(out)
        return found

    return values(union)


# --- arrangements -----------------------------------------------------------------------------


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


@dataclass(frozen=True)
class Arrangement:
    """Melds (runs in rank order, sets in suit order S H D C) and the cards left over."""

    melds: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]
    deadwood_count: int

    def __str__(self) -> str:
        parts = [" ".join(map(str, meld)) for meld in self.melds]
        dead = " ".join(map(str, self.deadwood)) or "-"
        return " | ".join(parts + [f"deadwood {dead} = {self.deadwood_count}"])


def _arrangement(mask: int, chosen: Iterable[tuple]) -> Arrangement:
    melded = 0
    melds = []
    for option in sorted(chosen, key=lambda o: o[0] & -o[0]):
        melded |= option[0]
        melds.append(_cards_of(option[0]))
    dead = mask & ~melded
    return Arrangement(tuple(melds), _cards_of(dead), _mask_value(dead))


def best_arrangement(cards: str | Iterable[Card | str]) -> Arrangement:
    """The melds with the least deadwood among all the given cards (no discard is made).

    Any number of cards; for a knock pass the 10 cards kept (or see ``best_knock``). Among
    equally good arrangements the choice is deterministic.
    """
    if not isinstance(cards, tuple | list) or not all(type(c) is Card for c in cards):
        cards = _as_cards(cards)
    mask = 0
    for card in cards:
        bit = _BIT[card]
        if mask & bit:
            raise CardError(f'"{card}" appears twice')
        mask |= bit
    melds = _melds(mask)
    if not melds:
        return Arrangement((), _cards_of(mask), _mask_value(mask))
    _, chosen = _best_pack(mask, melds)
    return _arrangement(mask, chosen)


def deadwood_count(cards: str | Iterable[Card | str]) -> int:
    """The least deadwood of the given cards (as ``best_arrangement(...).deadwood_count``)."""
    mask = _mask_of(_as_cards(cards))
    value, _ = _best_pack(mask, _melds(mask))
    return _mask_value(mask) - value


class Knock(NamedTuple):
    """The knocker's best play from 11 cards: ``discard`` is None for a big gin."""

    discard: Card | None
    arrangement: Arrangement


def best_knock(cards: str | Iterable[Card | str]) -> Knock:
    """For 11 cards: a big gin if all 11 meld, else the discard that leaves least deadwood.

    On equal deadwood the highest-valued discard is chosen (then the first in card order).
    """
    cards = _as_cards(cards)
    if len(cards) != 11:
        raise CardError(f"best_knock takes 11 cards, got {len(cards)}")
    whole = best_arrangement(cards)
    if whole.deadwood_count == 0:
        return Knock(None, whole)
    best: Knock | None = None
    key = None
    for card in sorted(cards, key=lambda c: _BIT[c]):
        rest = tuple(c for c in cards if c != card)
        arrangement = best_arrangement(rest)
        k = (arrangement.deadwood_count, -card.value)
        if key is None or k < key:
            best, key = Knock(card, arrangement), k
    assert best is not None
    return best


# --- lay-offs ----------------------------------------------------------------------------------


def _layoff_options(knocker_melds: Iterable[int], opp_mask: int) -> list[tuple]:
    """What the opponent could lay off, as packing options (mask, value, meld index, bits).

    A set of 3 takes its 4th card. A run takes, at each end separately, any unbroken
    extension of cards the opponent holds (4H, or 4H then 3H, onto 5H-6H-7H). Two options of
    the same meld at the same end overlap, so a packing uses at most one per end. Options with
    the same cards as an earlier one are dropped (the search only needs one of them).
    """
    options: list[tuple] = []
    seen: set[int] = set()
    for index, meld in enumerate(knocker_melds):
        low = meld & -meld
        first = low.bit_length() - 1
        high_bit = 1 << (meld.bit_length() - 1)
        if meld >> (first + 1) & 1:  # a run: its two lowest cards are neighbours in one suit
            suit_base = first - first % 13
            ends = ((low, -1, suit_base), (high_bit, 1, suit_base + 12))
            for end, step, limit in ends:
                position = end.bit_length() - 1
                extension = 0
                value = 0
                bits: tuple[int, ...] = ()
                while position != limit:
                    position += step
                    bit = 1 << position
                    if not opp_mask & bit:
                        break
                    extension |= bit
                    value += min(position % 13 + 1, 10)
                    bits += (bit,)
                    if extension not in seen:
                        seen.add(extension)
                        options.append((extension, value, index, bits))
        elif meld.bit_count() == 3:
            rank = first % 13
            column = sum(1 << (13 * s + rank) for s in range(4))
            missing = column & ~meld
            if opp_mask & missing and missing not in seen:
                seen.add(missing)
                options.append((missing, min(rank + 1, 10), index, (missing,)))
    return options


@dataclass(frozen=True)
class OpponentResult:
    """The opponent's own melds, his lay-offs (card, knocker meld index) and what is left."""

    melds: tuple[tuple[Card, ...], ...]
    layoffs: tuple[tuple[Card, int], ...]
    deadwood: tuple[Card, ...]
    deadwood_count: int


def _opponent(opp_mask: int, opp_melds: list, layoff_options: list) -> OpponentResult:
    _, chosen = _best_pack(opp_mask, opp_melds + layoff_options)
    own = [option for option in chosen if len(option) == 2]
    laid = sorted((option for option in chosen if len(option) == 4), key=lambda o: o[2])
    used = 0
    for option in chosen:
        used |= option[0]
    layoffs = tuple(
        (CARDS[bit.bit_length() - 1], option[2]) for option in laid for bit in option[3]
    )
    own_arrangement = _arrangement(opp_mask & ~_layoff_mask(laid), own)
    dead = opp_mask & ~used
    return OpponentResult(own_arrangement.melds, layoffs, _cards_of(dead), _mask_value(dead))


def _layoff_mask(options: Iterable[tuple]) -> int:
    mask = 0
    for option in options:
        mask |= option[0]
    return mask


def opponent_layoffs(
    opponent_cards: str | Iterable[Card | str],
    knocker_melds: Iterable[Iterable[Card | str]],
) -> OpponentResult:
    """The opponent's melds and lay-offs onto ``knocker_melds`` with the least deadwood.

    Pass no melds (or use it only after a knock: there are no lay-offs on a gin) for his
    deadwood on his own. The knocker's melds must be melds and not share his cards.
    """
    opp = _as_cards(opponent_cards)
    opp_mask = _mask_of(opp)
    masks = []
    for meld in knocker_melds:
        cards = _as_cards(meld)
        m = _mask_of(cards)
        if (m, _mask_value(m)) not in _melds(m):
            raise CardError(f"{' '.join(map(str, cards))} is not a meld")
        if m & opp_mask:
            shared = _cards_of(m & opp_mask)[0]
            raise CardError(f'"{shared}" is in both hands')
        masks.append(m)
    return _opponent(opp_mask, _melds(opp_mask), _layoff_options(masks, opp_mask))


# --- a knock with the cards -------------------------------------------------------------------


@dataclass(frozen=True)
class CardsOutcome:
    """A gin hand worked out from the cards.

    ``knocker_deadwood`` K and ``opponent_deadwood`` O (after lay-offs; none on a gin) are the
    counts RULES §1 scores. ``legal`` is False, with ``reason``, when the knock is not allowed
    (K above the knock limit; 11 cards that are not all melded); the counts are then those of
    the knocker's least-deadwood arrangement, for information. ``gin`` is K = 0 and
    ``big_gin`` is all 11 cards melded (a big gin is also a gin). ``layoffs`` are
    (card, index into knocker_melds), in the order they go down.
    """

    legal: bool
    reason: str
    knocker_deadwood: int
    opponent_deadwood: int
    gin: bool
    big_gin: bool
    knocker_melds: tuple[tuple[Card, ...], ...]
    knocker_deadwood_cards: tuple[Card, ...]
    opponent_melds: tuple[tuple[Card, ...], ...]
    opponent_deadwood_cards: tuple[Card, ...]
    layoffs: tuple[tuple[Card, int], ...]
    opponent_deadwood_before_layoffs: int

    @property
    def margin(self) -> int:
        """O - K: the knocker's score on a knock when positive, the undercut's size if not."""
        return self.opponent_deadwood - self.knocker_deadwood


def _hands(knocker_cards, opponent_cards) -> tuple[int, int, int]:
    """Read and check both hands: (knocker mask, opponent mask, knocker's number of cards)."""
    knocker = _as_cards(knocker_cards)
    opponent = _as_cards(opponent_cards)
    if len(knocker) not in (10, 11):
        raise CardError(
            f"the knocker has {len(knocker)} cards: expected 10 after his discard "
            "(11 for a big gin)"
        )
    if len(opponent) != 10:
        raise CardError(f"the opponent has {len(opponent)} cards: expected 10")
    k_mask = _mask_of(knocker)
    o_mask = _mask_of(opponent)
    if k_mask & o_mask:
        shared = _cards_of(k_mask & o_mask)[0]
        raise CardError(f'"{shared}" is in both hands')
    return k_mask, o_mask, len(knocker)


def _limit_reason(k: int, knock_limit: int, ace_gin_only: bool) -> str:
    if ace_gin_only:
        return f"knocker deadwood {k}: the up-card is an Ace, so only gin ends the hand"
    return f"knocker deadwood {k} is above the knock limit {knock_limit}"


def _check_limit(knock_limit: int) -> None:
    if isinstance(knock_limit, bool) or not isinstance(knock_limit, int) or knock_limit < 0:
        raise ValueError(f"knock_limit must be a whole number 0 or more, not {knock_limit!r}")


def score_cards(
    knocker_cards: str | Iterable[Card | str],
    opponent_cards: str | Iterable[Card | str],
    knock_limit: int = 10,
    ace_gin_only: bool = False,
) -> CardsOutcome:
    """Work out K and O from the cards of a knock.

    The knocker gives 10 cards (after his discard) or 11 (a big gin, all melded); the
    opponent 10. Of every legal way to lay out his cards (any melds, deadwood at most the
    knock limit; 0 when ``ace_gin_only``), the knocker takes the one that leaves O - K
    greatest once the opponent has melded and laid off to his least deadwood: that is his
    best score under RULES §1 (ties: the lower K, then the first found). A gin lays out all
    cards and allows no lay-offs.
    """
    _check_limit(knock_limit)
    k_mask, o_mask, n_knocker = _hands(knocker_cards, opponent_cards)
    limit = 0 if ace_gin_only else knock_limit
    k_total = _mask_value(k_mask)
    k_melds = _melds(k_mask)
    o_melds = _melds(o_mask)
    k_value, k_chosen = _best_pack(k_mask, k_melds)
    k_min = k_total - k_value
    alone = _opponent(o_mask, o_melds, [])

    def outcome(chosen, opp: OpponentResult, legal=True, reason="") -> CardsOutcome:
        arrangement = _arrangement(k_mask, chosen)
        gin = arrangement.deadwood_count == 0
        return CardsOutcome(
            legal=legal,
            reason=reason,
            knocker_deadwood=arrangement.deadwood_count,
            opponent_deadwood=opp.deadwood_count,
            gin=gin,
            big_gin=gin and n_knocker == 11,
            knocker_melds=arrangement.melds,
            knocker_deadwood_cards=arrangement.deadwood,
            opponent_melds=opp.melds,
            opponent_deadwood_cards=opp.deadwood,
            layoffs=opp.layoffs,
            opponent_deadwood_before_layoffs=alone.deadwood_count,
        )

    if k_min == 0:
        return outcome(k_chosen, alone)
    if n_knocker == 11:
        reason = (
            f"11 cards are a big gin only when all 11 are melded; they leave {k_min} deadwood"
        )
        return outcome(k_chosen, alone, False, reason)
    ordered = sorted(k_chosen, key=lambda o: o[0] & -o[0])
    if k_min > limit:
        options = _layoff_options([o[0] for o in ordered], o_mask)
        reason = _limit_reason(k_min, knock_limit, ace_gin_only)
        return outcome(ordered, _opponent(o_mask, o_melds, options), False, reason)

    # Every legal arrangement, lowest K first; O can only fall from `alone` by lay-offs, so
    # once alone - K cannot beat the best margin found, no later arrangement can either.
    arrangements = sorted(
        _all_packings(k_mask, k_melds, k_total - limit),
        key=lambda found: -found[0],
    )
    best_margin = None
    best = None
    cache: dict[tuple[int, ...], OpponentResult] = {}
    for value, chosen in arrangements:
        k = k_total - value
        if best_margin is not None and alone.deadwood_count - k <= best_margin:
            break
        melds = sorted(chosen, key=lambda o: o[0] & -o[0])
        meld_masks = tuple(o[0] for o in melds)
        options = _layoff_options(meld_masks, o_mask)
        key = tuple(sorted((o[0], o[2]) for o in options))
        opp = cache.get(key)
        if opp is None:
            opp = cache[key] = _opponent(o_mask, o_melds, options) if options else alone
        margin = opp.deadwood_count - k
        if best_margin is None or margin > best_margin:
            best_margin = margin
            best = (melds, opp)
    assert best is not None
    return outcome(best[0], best[1])


# --- checking counts given with the cards -------------------------------------------------------


def possible_counts(
    knocker_cards: str | Iterable[Card | str],
    opponent_cards: str | Iterable[Card | str],
    knock_limit: int = 10,
    ace_gin_only: bool = False,
) -> set[tuple[int, int]]:
    """Every (K, O) the table could have played with these cards.

    K: any legal layout of the knocker's cards (any melds; K at most the knock limit; 11
    cards only all melded). O: any melds and lay-offs of the opponent on that layout, not
    only the best (none on a gin). Empty when no knock with these cards is legal.
    """
    _check_limit(knock_limit)
    k_mask, o_mask, n_knocker = _hands(knocker_cards, opponent_cards)
    limit = 0 if (ace_gin_only or n_knocker == 11) else knock_limit
    k_total = _mask_value(k_mask)
    o_total = _mask_value(o_mask)
    o_melds = _melds(o_mask)
    counts: set[tuple[int, int]] = set()
    cache: dict[tuple[int, ...], frozenset[int]] = {}
    for value, chosen in _all_packings(k_mask, _melds(k_mask), k_total - limit):
        k = k_total - value
        options = [] if k == 0 else _layoff_options([o[0] for o in chosen], o_mask)
        key = tuple(sorted(o[0] for o in options))
        values = cache.get(key)
        if values is None:
            values = cache[key] = _all_values(o_mask, o_melds + options)
        counts.update((k, o_total - v) for v in values)
    return counts


def counts_possible(
    knocker_cards: str | Iterable[Card | str],
    opponent_cards: str | Iterable[Card | str],
    knocker_deadwood: int,
    opponent_deadwood: int,
    knock_limit: int = 10,
    ace_gin_only: bool = False,
) -> str | None:
    """None when some legal layout and lay-offs of these cards give exactly these counts.

    Otherwise the reason they cannot, e.g. ``knocker deadwood 5 is not possible with these
    cards (possible: 3, 7, 10)``. CardError for cards that cannot be read.
    """
    counts = possible_counts(knocker_cards, opponent_cards, knock_limit, ace_gin_only)
    k, o = knocker_deadwood, opponent_deadwood
    if (k, o) in counts:
        return None
    if not counts:
        k_mask, _, n_knocker = _hands(knocker_cards, opponent_cards)
        k_min = _mask_value(k_mask) - _best_pack(k_mask, _melds(k_mask))[0]
        if n_knocker == 11:
            return f"11 cards are a big gin only when all 11 are melded; they leave {k_min}"
        return "no legal knock with these cards: " + _limit_reason(
            k_min, knock_limit, ace_gin_only
        )
    ks = sorted({kk for kk, _ in counts})
    if k not in ks:
        return f"knocker deadwood {k} is not possible with these cards (possible: {_list(ks)})"
    os_ = sorted(oo for kk, oo in counts if kk == k)
    return (
        f"opponent deadwood {o} is not possible with these cards when the knocker has {k} "
        f"(possible: {_list(os_)})"
    )


def _list(numbers: list[int]) -> str:
    return ", ".join(map(str, numbers))


def upcard_knock_limit(upcard: str | Card, oklahoma_ace: str = "gin_only") -> int:
    """Oklahoma: the knock limit an up-card sets (face cards 10; an Ace 0 = gin only, or 1),
    as ``limits.knock_limit`` works it out."""
    card = upcard if isinstance(upcard, Card) else parse_card(upcard)
    return limits.knock_limit({"oklahoma_ace": oklahoma_ace}, oklahoma=True,
                              upcard=str(card)).limit


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
