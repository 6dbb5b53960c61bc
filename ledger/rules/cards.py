"""The card engine: parse cards, find melds, count deadwood and lay-offs (pure Python, no Django).

Reading cards is ``deck.py``, the meld search ``melds.py``; this module scores a knock with
the cards (lay-offs, the knocker's best layout, the counts a table could have played) and
is the engine's one public face: everything below is importable from here.

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

from collections.abc import Iterable
from dataclasses import dataclass

from . import limits
from .deck import (
    CAPIT_VALUES,
    CARDS,
    RANK_NAMES,
    SUITS,
    Card,
    CardError,
    _as_cards,
    _cards_of,
    _mask_of,
    capit_points,
    parse_card,
    parse_cards,
)
from .melds import (
    Arrangement,
    Knock,
    _all_packings,
    _all_values,
    _arrangement,
    _best_pack,
    _mask_value,
    _melds,
    best_arrangement,
    best_knock,
    deadwood_count,
)

__all__ = [
    "CAPIT_VALUES",
    "CARDS",
    "RANK_NAMES",
    "SUITS",
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
    "shared_card",
    "upcard_knock_limit",
]


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


def shared_card(first_cards, second_cards) -> Card | None:
    """The first card (in deck order) that is in both hands, of any number of cards each, or
    None: no card is in two hands (§5)."""
    both = _mask_of(_as_cards(first_cards)) & _mask_of(_as_cards(second_cards))
    return _cards_of(both)[0] if both else None


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
