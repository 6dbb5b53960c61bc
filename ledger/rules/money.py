"""Money: exact amounts, rounding to the currency's minor unit, stakes between sides,
and the fewest payments that settle a set of nets.

Everything is computed exactly (``Fraction``) and rounded once per player at the end
(RULES §4, §6 "Money"): half away from zero to the minor unit, then single units are
moved by largest remainder until the amounts sum to exactly zero.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

# ISO 4217's current codes for money, by the decimals of their minor unit (the standard's
# "minor unit" column). Left out on purpose: XXX ("no currency"), XTS (testing), the precious
# metals (XAU XAG XPD XPT), the bond-market and drawing-right units (XBA XBB XBC XBD XDR XSU
# XUA) and the fund codes (BOV CHE CHW CLF COU MXV USN UYI UYW): nobody settles a card table
# in them. "NAN" and other three-letter words are not currencies.
_NO_DECIMALS = """
BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX VND VUV XAF XOF XPF
"""
_THREE_DECIMALS = """
BHD IQD JOD KWD LYD OMR TND
"""
_TWO_DECIMALS = """
AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BRL BSD BTN BWP BYN
BZD CAD CDF CHF CNY COP CRC CUC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL
GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP
LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR
NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD
SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD UYU UZS VED VES WST XCD XCG
YER ZAR ZMW ZWG ZWL
"""

#: Every currency a game may be played for (ISO 4217 code -> decimals of its minor unit).
MINOR_UNIT_EXPONENT: dict[str, int] = {
    **{code: 2 for code in _TWO_DECIMALS.split()},
    **{code: 0 for code in _NO_DECIMALS.split()},
    **{code: 3 for code in _THREE_DECIMALS.split()},
}
CURRENCIES = frozenset(MINOR_UNIT_EXPONENT)

# Exact search for the fewest payments up to this many non-zero players; greedy beyond.
EXACT_SETTLEMENT_LIMIT = 15


def minor_exponent(currency: str) -> int:
    """Number of decimals of the currency's minor unit (``MINOR_UNIT_EXPONENT``; 2 for a
    three-letter code that is not a currency, which a record may hold: the app's doors
    refuse one, ``ledger.cleaning.clean_currency``)."""
    return MINOR_UNIT_EXPONENT.get(currency, 2)


def to_minor(amount: Decimal | Fraction | int | str, currency: str) -> int:
    """An exact amount in whole minor units; raises ValueError if it is not whole."""
    exact = Fraction(Decimal(amount)) if isinstance(amount, str) else Fraction(amount)
    units = exact * 10 ** minor_exponent(currency)
    if units.denominator != 1:
        raise ValueError(f"{amount} is not a whole number of minor units of {currency}")
    return int(units)


def format_minor(units: int, currency: str) -> str:
    """Minor units as a decimal string with the currency's decimals: 202 -> '2.02'."""
    exponent = minor_exponent(currency)
    # Integer arithmetic: no Decimal context precision to overflow on a huge amount.
    sign = "-" if units < 0 else ""
    whole, minor = divmod(abs(units), 10 ** exponent)
    return f"{sign}{whole}.{minor:0{exponent}d}" if exponent else f"{sign}{whole}"


def from_minor(units: int, currency: str) -> Decimal:
    return Decimal(format_minor(units, currency))


def decimal_text(value: Decimal, currency: str) -> str:
    """A stored amount (a stake, an ante) as the record writes it: the currency's decimals,
    more only if needed.

    Decimal("0.0100") -> "0.01", Decimal("1") -> "1.00", Decimal("0.0150") -> "0.015".
    """
    exponent = minor_exponent(currency)
    normal = value.normalize()
    if normal.as_tuple().exponent < -exponent:
        return format(normal, "f")
    return format(value.quantize(Decimal(1).scaleb(-exponent)), "f")


def _round_fraction(value: Fraction) -> int:
    sign = -1 if value < 0 else 1
    magnitude = abs(value)
    whole, rest = divmod(magnitude.numerator, magnitude.denominator)
    if 2 * rest >= magnitude.denominator:
        whole += 1
    return sign * whole


def allocate_zero_sum(exact: list[Fraction], scale: int = 1) -> list[int]:
    """Round exact amounts (which sum to zero) to integer units so they sum to exactly zero.

    ``exact`` are amounts in currency units; ``scale`` converts them to minor units
    (100 for cents). Each amount is rounded half away from zero; then single units are
    moved, by largest remainder, until the total is zero. On equal remainders the earlier
    seat (list order) is the first to gain a unit of size and the last to lose one.
    """
    scaled = [value * scale for value in exact]
    if sum(scaled) != 0:
        raise ValueError(f"amounts to allocate do not sum to zero: {sum(scaled)}")
    rounded = [_round_fraction(value) for value in scaled]
    excess = sum(rounded)
    if excess == 0:
        return rounded
    step = -1 if excess > 0 else 1
    # How far each rounded amount sits from its exact value in the direction we need to
    # move; the largest such remainder moves first.
    def priority(seat: int) -> tuple:
        remainder = (scaled[seat] - rounded[seat]) * step
        gains_size = (rounded[seat] + step) * (rounded[seat] + step) > rounded[seat] ** 2
        tie = seat if gains_size else -seat
        return (-remainder, tie)

    order = sorted(range(len(rounded)), key=priority)
    for seat in order[: abs(excess)]:
        rounded[seat] += step
    return rounded


def split_evenly(total: int, count: int, start: int = 0) -> list[int]:
    """Split ``total`` minor units into ``count`` equal parts; the leftover units go one
    each in order starting at position ``start`` (seat order from the dealer's left)."""
    base, leftover = divmod(total, count)
    parts = [base] * count
    for offset in range(leftover):
        parts[(start + offset) % count] += 1
    return parts


def lower_amount_prevails(
    net_points: Fraction | int,
    winners: dict[str, Fraction],
    losers: dict[str, Fraction],
    *,
    division: str = "proportional",
) -> dict[str, Fraction]:
    """Exact money between two sides whose stakes may not balance (RULES §4).

    ``winners``/``losers`` map each member to his stake per point. With W and L the side
    totals and T = min(W, L), the lower amount prevails: N x T changes hands. Under
    ``proportional`` division winner i receives N x T x w_i / W and loser j pays
    N x T x l_j / L; under ``equal`` the higher side's reduction is shared equally.
    """
    n = Fraction(net_points)
    total_w = sum(winners.values(), Fraction(0))
    total_l = sum(losers.values(), Fraction(0))
    pot = n * min(total_w, total_l)
    money: dict[str, Fraction] = {}
    money.update(_side_shares(n, pot, winners, total_w, division))
    for name, amount in _side_shares(n, pot, losers, total_l, division).items():
        money[name] = -amount
    return money


def _side_shares(
    net_points: Fraction, pot: Fraction, side: dict[str, Fraction], total: Fraction,
    division: str,
) -> dict[str, Fraction]:
    """What each member of a side receives (or pays) of ``pot``."""
    if total == 0:
        return {name: Fraction(0) for name in side}
    if division == "equal":
        # Each member at his own stake, less an equal part of the side's reduction (zero
        # for the lower side, which always settles at its own stakes). A member whose own
        # amount is smaller than his part drops to nothing and the others share the rest
        # equally: on the winning side nobody pays, on the losing side nobody is paid.
        full = {name: net_points * stake for name, stake in side.items()}
        cut = _equal_cut(list(full.values()), net_points * total - pot)
        return {name: amount - min(amount, cut) for name, amount in full.items()}
    return {name: pot * stake / total for name, stake in side.items()}


def _equal_cut(amounts: list[Fraction], reduction: Fraction) -> Fraction:
    """The c with sum(min(a, c) for a in amounts) == reduction (0 <= reduction <= sum)."""
    left, count = reduction, len(amounts)
    for amount in sorted(amounts):
        if amount * count >= left:
            return left / count
        left -= amount
        count -= 1
    return Fraction(0) if not amounts else max(amounts)


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    units: int  # minor units, positive


def fewest_payments(nets: dict[str, int]) -> list[Payment]:
    """The fewest payments that settle ``nets`` (minor units per player, summing to zero).

    Up to EXACT_SETTLEMENT_LIMIT non-zero players the plan is optimal: the players are
    split into the largest number of disjoint zero-sum groups (n - groups payments), each
    settled within itself. Beyond that, largest debtor pays largest creditor. Every
    payment goes from a player who owes to one who is owed. Ties are broken by the order
    of ``nets`` so the same nets always give the same plan.
    """
    if sum(nets.values()) != 0:
        raise ValueError("nets do not sum to zero")
    names = [name for name, units in nets.items() if units != 0]
    if len(names) <= EXACT_SETTLEMENT_LIMIT:
        groups = _zero_sum_groups([nets[name] for name in names])
    else:
        groups = [list(range(len(names)))]
    payments: list[Payment] = []
    for group in groups:
        payments.extend(_settle_greedy({names[i]: nets[names[i]] for i in group}))
    return payments


def _zero_sum_groups(values: list[int]) -> list[list[int]]:
    """Partition indices into the most disjoint groups that each sum to zero (exact DP)."""
    n = len(values)
    if n == 0:
        return []
    full = (1 << n) - 1
    sums = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + values[low.bit_length() - 1]
    # best[mask]: the most zero-sum groups into which the players of mask can be split,
    # for masks that sum to zero. Built by peeling off a zero-sum group containing the
    # lowest player.
    best = {0: 0}
    choice: dict[int, int] = {}
    zero_masks = [mask for mask in range(1, 1 << n) if sums[mask] == 0]
    zero_set = set(zero_masks)
    for mask in zero_masks:  # increasing order: sub-masks come first
        low = mask & -mask
        rest = mask ^ low
        best_count, best_group = 1, mask
        sub = rest
        while sub:
            group = sub | low
            if group != mask and group in zero_set and (mask ^ group) in best:
                count = 1 + best[mask ^ group]
                if count > best_count:
                    best_count, best_group = count, group
            sub = (sub - 1) & rest
        best[mask] = best_count
        choice[mask] = best_group
    groups = []
    mask = full
    while mask:
        group = choice[mask]
        groups.append([i for i in range(n) if group >> i & 1])
        mask ^= group
    return groups


def _settle_greedy(nets: dict[str, int]) -> list[Payment]:
    """Largest debtor pays largest creditor until everyone is square (len - 1 payments
    at most for a group with no zero-sum sub-group)."""
    order = {name: seat for seat, name in enumerate(nets)}
    debtors = {name: -units for name, units in nets.items() if units < 0}
    creditors = {name: units for name, units in nets.items() if units > 0}
    payments = []
    while debtors:
        payer = max(debtors, key=lambda name: (debtors[name], -order[name]))
        payee = max(creditors, key=lambda name: (creditors[name], -order[name]))
        amount = min(debtors[payer], creditors[payee])
        payments.append(Payment(payer, payee, amount))
        debtors[payer] -= amount
        creditors[payee] -= amount
        if not debtors[payer]:
            del debtors[payer]
        if not creditors[payee]:
            del creditors[payee]
    return payments


__all__ = [
    "EXACT_SETTLEMENT_LIMIT",
    "Payment",
    "allocate_zero_sum",
    "decimal_text",
    "fewest_payments",
    "format_minor",
    "from_minor",
    "lower_amount_prevails",
    "minor_exponent",
    "split_evenly",
    "to_minor",
]
