"""The seats of a game's setup, by the cut's order (RULES §3): who sits where before the
first hand, for each way a variant seats its players. A variant's declaration
(``variants.py``) names the one it uses; ``facts.game_facts`` lists its seats.

Pure: no Django. A seat's ``label`` is English; the presentation says it in the reader's
language (``ledger.presentation.catalog.seat_label``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .roles import (
    BOX,
    CAPTAIN,
    CAPTAINS,
    FIRST_SIDE,
    OPPONENT,
    OPPONENTS,
    PLAYER,
    SECOND_SIDE,
    SITS_OUT,
    SITTER,
)


@dataclass(frozen=True)
class Seat:
    """One seat of the setup, in the record's player order: ``key`` is its field's name,
    ``label`` what the seat is (by the cut's order), ``role`` the player's role in the first
    hand (the result's ``roles``) or, in side games, its side (``captains``, ``opponents``,
    ``a``/``b`` for partnership's first and second side) with ``table`` its card table."""

    key: str
    label: str
    role: str
    table: int | None = None


def numbered_players(count: int) -> tuple[Seat, ...]:
    """Players 1, 2...: the setup names who deals first (two-hand gin, Oklahoma, Hollywood)."""
    return tuple(Seat(f"p{i}", f"Player {i}", PLAYER) for i in range(1, count + 1))


def numbered_seats(count: int) -> tuple[Seat, ...]:
    """Seats 1, 2... around one table, each for himself (CAP-IT)."""
    return tuple(Seat(f"p{i}", f"Seat {i}", PLAYER) for i in range(1, count + 1))


def box_cut(count: int) -> tuple[Seat, ...]:
    """Three-handed gin's cut: the high card in the box, the middle card his captain, the
    low card sits the first hand out (RULES §3.4)."""
    return (Seat("p1", "High card: in the box", BOX),
            Seat("p2", "Middle card: captain", CAPTAIN),
            Seat("p3", "Low card: sits out", SITS_OUT))


def captain_cut(count: int) -> tuple[Seat, ...]:
    """Captain play for three: the high card is the captain, the second card plays him
    first, the third waits (RULES §3.5)."""
    return (Seat("p1", "High card: captain", CAPTAIN),
            Seat("p2", "Second card: plays first", OPPONENT),
            Seat("p3", "Third card", SITS_OUT))


def captain_tables(count: int) -> tuple[Seat, ...]:
    """Captain play at several tables: a red captain and a black opponent at each card
    table, the black Ace sits out (RULES §3.6)."""
    tables = count // 2
    return (tuple(Seat(f"c{i}", f"Captain {i} (red)", CAPTAINS, i)
                  for i in range(1, tables + 1))
            + tuple(Seat(f"o{i}", f"Opponent {i} (black), table {i}", OPPONENTS, i)
                    for i in range(1, tables + 1))
            + (Seat(SITTER, "Black Ace: sits out", SITS_OUT),))


def two_sides(count: int) -> tuple[Seat, ...]:
    """Two sides, one player of each at every card table (partnership, RULES §3.7)."""
    half = count // 2
    return (tuple(Seat(f"a{i}", f"First side, table {i}", FIRST_SIDE, i)
                  for i in range(1, half + 1))
            + tuple(Seat(f"b{i}", f"Second side, table {i}", SECOND_SIDE, i)
                    for i in range(1, half + 1)))
