"""The meld search (pure Python): the best way to meld a hand, its deadwood, and every way
to lay a hand out (``cards.py`` scores a knock with them).

A search packs disjoint melds (bit masks) to maximise the melded value; memoised on the mask
of cards still free, it is exact and fast enough in pure Python. A meld is a run of 3 or more
cards of one suit in sequence (Ace low only: A-2-3 is a run, Q-K-A is not), or a set of 3 or
4 cards of one rank.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import product
from typing import NamedTuple

from .deck import _BIT, _ROW, SUITS, Card, CardError, _as_cards, _cards_of, _mask_of, _text_mask

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


def _build_row_deadwood() -> list[int]:
    """The least deadwood of every 13-bit suit row melded by runs alone (sets cross suits)."""
    best = [0] * (1 << 13)  # the most value runs can meld in the row
    for row in range(1, 1 << 13):
        low = row & -row
        value = best[row ^ low]
        start = low.bit_length() - 1
        run = low | low << 1 | low << 2
        length = 3
        while start + length <= 13 and run & row == run:
            v = _ROW_VALUE[run] + best[row ^ run]
            if v > value:
                value = v
            run |= low << length
            length += 1
        best[row] = value
    return [_ROW_VALUE[row] - best[row] for row in range(1 << 13)]


# _ROW_DEADWOOD[row]: what runs leave unmelded in a suit row, at best.
_ROW_DEADWOOD = _build_row_deadwood()


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
    mask = _mask_of(cards)
    melds = _melds(mask)
    if not melds:
        return Arrangement((), _cards_of(mask), _mask_value(mask))
    _, chosen = _best_pack(mask, melds)
    return _arrangement(mask, chosen)


def deadwood_count(cards: str | Iterable[Card | str]) -> int:
    """The least deadwood of the given cards (as ``best_arrangement(...).deadwood_count``)."""
    mask = _text_mask(cards) if type(cards) is str else _mask_of(_as_cards(cards))
    return _least_deadwood(mask)


def _least_deadwood(mask: int) -> int:
    """The least deadwood of a mask, by the sets chosen: runs stay inside a suit, so once the
    sets are chosen each suit's row is melded on its own (``_ROW_DEADWOOD``). A rank with 3
    or 4 cards gives a few choices (no set, the set of 4, a set of 3); a hand of 10 or 11
    cards has at most 3 such ranks. More (a big pile of cards) goes to the general search."""
    table = _ROW_DEADWOOD
    r0 = mask & _ROW
    r1 = (mask >> 13) & _ROW
    r2 = (mask >> 26) & _ROW
    r3 = mask >> 39
    least = table[r0] + table[r1] + table[r2] + table[r3]
    triples = (r0 & r1 & (r2 | r3)) | (r2 & r3 & (r0 | r1))
    if not triples:
        return least
    choices = []
    while triples:
        low = triples & -triples
        triples ^= low
        r = low.bit_length() - 1
        column = (r0 >> r & 1) | (r1 >> r & 1) << 1 | (r2 >> r & 1) << 2 | (r3 >> r & 1) << 3
        choices.append(((0, 0), *_SETS[r][column]))
    if len(choices) > 4:
        value, _ = _best_pack(mask, _melds(mask))
        return _mask_value(mask) - value
    for chosen in product(*choices):
        melded = 0
        for m, _v in chosen:
            melded |= m
        if not melded:
            continue
        rest = mask ^ melded
        dead = (table[rest & _ROW] + table[(rest >> 13) & _ROW]
                + table[(rest >> 26) & _ROW] + table[rest >> 39])
        if dead < least:
            least = dead
    return least


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
