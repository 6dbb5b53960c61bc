"""The card engine against a plain exhaustive search written here, on many hands.

The brute force knows nothing of bit masks or meld tables: it tries every way to split a hand
into groups (each group a meld or a single deadwood card) and, for the opponent, every way to
put each card in his own meld, on one of the knocker's melds, or in his deadwood, and keeps
only the ways where every knocker meld with the cards laid on it is still a meld.
"""

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.rules.cards import (
    Card,
    CardError,
    best_arrangement,
    deadwood_count,
    parse_cards,
    possible_counts,
    score_cards,
)

DECK = [Card(rank, suit) for suit in "SHDC" for rank in range(1, 14)]


def value(card):
    return min(card.rank, 10)


def is_meld(cards):
    """3 or 4 of one rank (one deck, so all suits differ), or 3+ in sequence in one suit."""
    cards = list(cards)
    if len(cards) < 3:
        return False
    if len({c.rank for c in cards}) == 1:
        return len(cards) <= 4
    if len({c.suit for c in cards}) == 1:
        ranks = sorted(c.rank for c in cards)
        return ranks == list(range(ranks[0], ranks[0] + len(ranks)))
    return False


def partitions(cards):
    """Every split of ``cards`` into melds and deadwood: yields (melds, deadwood)."""
    if not cards:
        yield [], []
        return
    first, rest = cards[0], cards[1:]
    for melds, dead in partitions(rest):
        yield melds, [first] + dead
    # Only cards of its suit or its rank can share a meld with the first card.
    kin = [c for c in rest if c.suit == first.suit or c.rank == first.rank]
    for size in range(2, len(kin) + 1):
        for others in combinations(kin, size):
            group = (first,) + others
            if is_meld(group):
                remaining = [c for c in rest if c not in others]
                for melds, dead in partitions(remaining):
                    yield [group] + melds, dead


def brute_deadwood(cards):
    return min(sum(value(c) for c in dead) for _, dead in partitions(list(cards)))


def opponent_plays(cards, knocker_melds):
    """Every opponent deadwood count: his cards in own melds, laid off, or left over."""
    results = set()

    def walk(cards, laid, dead):
        if not cards:
            pairs = zip(knocker_melds, laid, strict=True)
            if all(not extra or is_meld(list(m) + extra) for m, extra in pairs):
                results.add(dead)
            return
        first, rest = cards[0], cards[1:]
        walk(rest, laid, dead + value(first))
        for i, meld in enumerate(knocker_melds):
            # A card can only ever join a set of its rank or a run of its suit.
            is_set = len({c.rank for c in meld}) == 1
            if (meld[0].rank == first.rank) if is_set else (meld[0].suit == first.suit):
                walk(rest, laid[:i] + [laid[i] + [first]] + laid[i + 1 :], dead)
        kin = [c for c in rest if c.suit == first.suit or c.rank == first.rank]
        for size in range(2, len(kin) + 1):
            for others in combinations(kin, size):
                if is_meld((first,) + others):
                    walk([c for c in rest if c not in others], laid, dead)

    walk(list(cards), [[] for _ in knocker_melds], 0)
    return results


def brute_knock(knocker, opponent, limit):
    """(best O - K over legal layouts, every possible (K, O)); None, set() if none is legal."""
    best = None
    counts = set()
    for melds, dead in partitions(list(knocker)):
        k = sum(value(c) for c in dead)
        if k > limit or (len(knocker) == 11 and k):
            continue
        plays = opponent_plays(opponent, [] if k == 0 else melds)
        counts.update((k, o) for o in plays)
        margin = min(plays) - k
        if best is None or margin > best:
            best = margin
    return best, counts


def check_arrangement(cards, arrangement):
    """The engine's layout is made of real melds and uses every card exactly once."""
    used = [c for meld in arrangement.melds for c in meld] + list(arrangement.deadwood)
    assert sorted(used) == sorted(cards)
    assert all(is_meld(meld) for meld in arrangement.melds)
    assert arrangement.deadwood_count == sum(value(c) for c in arrangement.deadwood)


def check_outcome(knocker, opponent, out):
    k_used = [c for m in out.knocker_melds for c in m] + list(out.knocker_deadwood_cards)
    assert sorted(k_used) == sorted(knocker)
    assert all(is_meld(m) for m in out.knocker_melds)
    assert out.knocker_deadwood == sum(value(c) for c in out.knocker_deadwood_cards)
    laid = [c for c, _ in out.layoffs]
    o_used = [c for m in out.opponent_melds for c in m] + laid + list(out.opponent_deadwood_cards)
    assert sorted(o_used) == sorted(opponent)
    assert all(is_meld(m) for m in out.opponent_melds)
    assert out.opponent_deadwood == sum(value(c) for c in out.opponent_deadwood_cards)
    if out.gin:
        assert out.layoffs == ()
    # Lay them off in the order given: each one must extend its meld on the spot.
    grown = [list(m) for m in out.knocker_melds]
    for card, index in out.layoffs:
        grown[index].append(card)
        assert is_meld(grown[index]), (card, index, grown[index])


def deal(rng, deck, *sizes):
    cards = rng.sample(deck, sum(sizes))
    out, start = [], 0
    for size in sizes:
        out.append(tuple(cards[start : start + size]))
        start += size
    return out


def dense_deck(rng):
    """Five or six neighbouring ranks in all four suits: hands full of melds that overlap."""
    width = rng.choice((5, 6))
    low = rng.randint(1, 14 - width)
    return [c for c in DECK if low <= c.rank < low + width]


# --- the brute force itself, on hands worked by hand ----------------------------------------


def test_brute_force_on_known_hands():
    assert brute_deadwood(
        [Card(r, s) for r, s in [(5, "S"), (6, "S"), (7, "S"), (7, "H"), (7, "D"), (7, "C"),
                                 (8, "H"), (9, "H"), (8, "D"), (9, "D")]]
    ) == 7
    ex3_knocker = [Card(5, "H"), Card(6, "H"), Card(7, "H"), Card(12, "S"), Card(12, "D"),
                   Card(12, "C"), Card(8, "C"), Card(8, "D"), Card(8, "S"), Card(3, "D")]
    ex3_opponent = [Card(9, "C"), Card(9, "S"), Card(9, "D"), Card(4, "H"), Card(8, "H"),
                    Card(12, "H"), Card(13, "D"), Card(2, "C"), Card(5, "S"), Card(1, "S")]
    margin, counts = brute_knock(ex3_knocker, ex3_opponent, 10)
    assert margin == 15
    assert (3, 18) in counts and (3, 40) in counts and (3, 17) not in counts


# --- best arrangement ---------------------------------------------------------------------------


def test_best_arrangement_matches_brute_force_on_random_hands():
    rng = random.Random(20240601)
    for _ in range(1500):
        (hand,) = deal(rng, DECK, 10)
        arrangement = best_arrangement(hand)
        check_arrangement(hand, arrangement)
        assert arrangement.deadwood_count == brute_deadwood(hand), hand


def test_best_arrangement_matches_brute_force_on_meld_dense_hands():
    rng = random.Random(7)
    for _ in range(1000):
        size = rng.choice((10, 10, 10, 11))
        (hand,) = deal(rng, dense_deck(rng), size)
        arrangement = best_arrangement(hand)
        check_arrangement(hand, arrangement)
        assert arrangement.deadwood_count == brute_deadwood(hand), hand


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=3, max_size=11, unique=True))
def test_best_arrangement_matches_brute_force_hypothesis(hand):
    arrangement = best_arrangement(hand)
    check_arrangement(hand, arrangement)
    assert arrangement.deadwood_count == brute_deadwood(hand)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_best_arrangement_matches_brute_force_hypothesis_dense(data):
    low = data.draw(st.integers(1, 9))
    deck = [c for c in DECK if low <= c.rank < low + 5]
    hand = data.draw(st.lists(st.sampled_from(deck), min_size=8, max_size=11, unique=True))
    arrangement = best_arrangement(hand)
    check_arrangement(hand, arrangement)
    assert arrangement.deadwood_count == brute_deadwood(hand)


# --- the knock: the knocker's layout, the opponent's melds and lay-offs ---------------------------


@pytest.mark.parametrize("seed", range(6))
def test_score_cards_matches_brute_force_on_dense_deals(seed):
    rng = random.Random(1000 + seed)
    checked = 0
    while checked < 80:
        deck = dense_deck(rng)
        knocker, opponent = deal(rng, deck, 10, 10)
        limit = rng.choice((10, 10, 20, 30))
        out = score_cards(knocker, opponent, knock_limit=limit)
        margin, counts = brute_knock(knocker, opponent, limit)
        if margin is None:
            assert not out.legal
            assert possible_counts(knocker, opponent, knock_limit=limit) == set()
            continue
        checked += 1
        assert out.legal, (knocker, opponent)
        check_outcome(knocker, opponent, out)
        assert out.knocker_deadwood <= limit
        assert out.margin == margin, (knocker, opponent, limit)
        assert out.gin == (out.knocker_deadwood == 0)
        assert possible_counts(knocker, opponent, knock_limit=limit) == counts


def test_score_cards_matches_brute_force_on_mixed_deals():
    # Half the cards from a dense window, half from anywhere: fewer melds, more lay-offs.
    rng = random.Random(99)
    checked = 0
    while checked < 300:
        deck = dense_deck(rng)
        pool = list(dict.fromkeys(rng.sample(deck, 14) + rng.sample(DECK, 12)))
        if len(pool) < 20:
            continue
        knocker, opponent = deal(rng, pool, 10, 10)
        out = score_cards(knocker, opponent, knock_limit=30)
        margin, counts = brute_knock(knocker, opponent, 30)
        if margin is None:
            assert not out.legal
            continue
        checked += 1
        check_outcome(knocker, opponent, out)
        assert out.margin == margin, (knocker, opponent)
        assert possible_counts(knocker, opponent, knock_limit=30) == counts


def random_big_gin(rng):
    """11 cards that all meld: random runs and sets of the sizes of a split of 11."""
    sizes = rng.choice(((3, 4, 4), (3, 3, 5), (4, 7), (3, 8), (5, 6), (3, 4, 4), (11,)))
    while True:
        cards = []
        for size in sizes:
            if size <= 4 and rng.random() < 0.5:
                rank = rng.randint(1, 13)
                cards += rng.sample([c for c in DECK if c.rank == rank], size)
            else:
                suit = rng.choice("SHDC")
                low = rng.randint(1, 14 - size)
                cards += [Card(r, suit) for r in range(low, low + size)]
        if len(set(cards)) == 11:
            return tuple(cards)


def test_big_gin_matches_brute_force():
    rng = random.Random(5)
    for _ in range(30):
        knocker = random_big_gin(rng)
        near = {c for c in DECK if any(abs(c.rank - k.rank) <= 2 for k in knocker)}
        pool = sorted(near - set(knocker)) + rng.sample(DECK, 10)
        opponent = tuple(rng.sample(sorted(set(pool) - set(knocker)), 10))
        assert brute_deadwood(knocker) == 0
        out = score_cards(knocker, opponent)
        assert out.big_gin and out.gin and out.legal
        check_outcome(knocker, opponent, out)
        assert out.layoffs == ()
        assert out.opponent_deadwood == brute_deadwood(opponent)
        _, counts = brute_knock(knocker, opponent, 0)
        assert possible_counts(knocker, opponent) == counts
        # One card short of a big gin: 10 cards, a plain gin.
        ten = knocker[:10]
        if brute_deadwood(ten) == 0:
            assert score_cards(ten, opponent).gin and not score_cards(ten, opponent).big_gin


# --- the hard cases, engine against brute force -------------------------------------------------

def plain_cards(text):
    """"5H 10S QD" read here without the engine's parser."""
    ranks = {"A": 1, "J": 11, "Q": 12, "K": 13}
    return tuple(Card(ranks.get(t[:-1]) or int(t[:-1]), t[-1]) for t in text.split())


HARD_HANDS = [
    ("5S 6S 7S 7H 7D 2C 3C 4C KH KD", 31),  # 7S: run or set
    ("5S 6S 7S 7H 7D 7C 8H 9H 8D 9D", 7),  # four of a kind, three runs through it
    ("8S 8H 8D 8C 9S 10S 2H 3H 4H 5H", 0),  # four of a kind split 1 + 3
    ("JS QS KS JH JD 2C 3C 4C AH 5D", 26),  # equal-deadwood arrangements
    ("3S 4S 5S 6S 3H 3D 6H 6D 9C KC", 25),
    ("4C 5C 4D 5D 2H 3H 4H 5H 4S 5S", 0),  # the slowest hand a search found
    ("AS 2S 3S 4S 5S AH 2H 3H 4H 5H", 0),
    ("QS KS AS QH KH AH QD KD AD 2C", 2),  # Q-K-A is no run; sets of Q, K, A
]


@pytest.mark.parametrize(("text", "deadwood"), HARD_HANDS)
def test_hard_hands_match_brute_force(text, deadwood):
    hand = list(plain_cards(text))
    assert brute_deadwood(hand) == deadwood
    arrangement = best_arrangement(hand)
    check_arrangement(hand, arrangement)
    assert arrangement.deadwood_count == deadwood


HARD_DEALS = [
    # (knocker, opponent, K, O): Ex 3, Ex 4, lay-offs in sequence and onto a set of three,
    # lay-offs that free a card for an own meld, a layout that blocks lay-offs, equal-K
    # layouts told apart by the lay-offs.
    ("5H 6H 7H QS QD QC 8C 8D 8S 3D", "9C 9S 9D 4H 8H QH KD 2C 5S AS", 3, 18),
    ("2C 6S 7S 8S 10H JH QH 4S 4D 4C", "9S 9H AS KC KD KS 5D 6D 7D 8D", 2, 1),
    ("5H 6H 7H KS KD KC 9C 9D 9S AD", "4H 3H QS QD 8S 2C 5C JH 9H 7C", 1, 52),
    ("5H 6H 7H KS KD KC 2C 2D 2S AD", "8H 9H 10H 10S 10D 3C 4C 5C JS QD", 1, 20),
    ("2H 3H 4H 5H KS KD KC AC AD 2S", "6H 7H 9S 9D JC QD 3S 4D 8C 10S", 9, 76),
    ("2S 3S 4S 3H 3D 6C 7C 8C 9C 10C", "5S 6S 3C KH QD 8D 4C 10H 9S 7H", 6, 69),
    ("8S 8H 8D 8C 9S 10S 2H 3H 4H AD", "7S JS QS 5H KD KC 3C 6D 9D 10C", 1, 48),
]


@pytest.mark.parametrize(("knocker", "opponent", "k", "o"), HARD_DEALS)
def test_hard_deals_match_brute_force(knocker, opponent, k, o):
    knocker, opponent = plain_cards(knocker), plain_cards(opponent)
    margin, counts = brute_knock(knocker, opponent, 10)
    assert margin == o - k
    out = score_cards(knocker, opponent)
    check_outcome(knocker, opponent, out)
    assert (out.knocker_deadwood, out.opponent_deadwood) == (k, o)
    assert possible_counts(knocker, opponent) == counts


# --- deadwood_count: the count alone, from the card text --------------------------------------


def spelled(hand, rng):
    """The hand as people may type it: any case, T or 10, spaces or commas between."""
    words = []
    for card in hand:
        word = str(card)
        if word.startswith("10") and rng.random() < 0.3:
            word = "T" + word[2:]
        words.append("".join(ch.lower() if rng.random() < 0.5 else ch for ch in word))
    return rng.choice((" ", ", ", ",", "  ")).join(words)


def test_deadwood_count_from_text_matches_brute_force():
    rng = random.Random(42)
    for i in range(1500):
        if i % 2:
            (hand,) = deal(rng, DECK, rng.choice((10, 11)))
        else:
            (hand,) = deal(rng, dense_deck(rng), rng.choice((8, 10, 11)))
        assert deadwood_count(spelled(hand, rng)) == brute_deadwood(hand), hand
        assert deadwood_count(hand) == brute_deadwood(hand), hand


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=0, max_size=11, unique=True), st.randoms())
def test_deadwood_count_matches_brute_force_hypothesis(hand, rng):
    assert deadwood_count(spelled(hand, rng)) == brute_deadwood(hand)


@pytest.mark.parametrize(("text", "deadwood"), HARD_HANDS)
def test_hard_hands_deadwood_count(text, deadwood):
    assert deadwood_count(text) == deadwood
    assert deadwood_count(text.lower()) == deadwood


def test_deadwood_count_of_big_piles_matches_best_arrangement():
    """Five ranks or more with three or four cards (more than a hand holds) take the
    general search."""
    rng = random.Random(3)
    for _ in range(40):
        ranks = rng.sample(range(1, 14), 5)
        pile = [Card(rank, suit) for rank in ranks for suit in rng.sample("SHDC", 3)]
        pile += [card for card in rng.sample(DECK, 3) if card not in pile]
        assert deadwood_count(pile) == best_arrangement(pile).deadwood_count, pile


def test_deadwood_count_reads_the_text_without_making_cards(monkeypatch):
    """The text becomes a bit mask by look-ups alone (parsing was 70% of a hand's time); only
    a card it cannot read, or a repeat, goes through the parser for its message."""
    from ledger.rules import deck

    def refuse(text):
        raise AssertionError("parse_cards called")

    monkeypatch.setattr(deck, "parse_cards", refuse)
    assert deadwood_count("5S 6S 7S 7H 7D 7C 8H 9H 8D 9D") == 7
    assert deadwood_count("th, jh,QH 2c") == 2


@pytest.mark.parametrize("text", ["AS 2S XS", "AS 2S 2s", "JK 2S", "1S", "AS 2S 3", "AS,,2S Q"])
def test_deadwood_count_refuses_as_the_parser_does(text):
    with pytest.raises(CardError) as parsed:
        parse_cards(text)
    with pytest.raises(CardError) as counted:
        deadwood_count(text)
    assert str(counted.value) == str(parsed.value)
