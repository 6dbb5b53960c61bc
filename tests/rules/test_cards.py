"""The card engine (ledger/rules/cards.py): parsing, melds, deadwood, lay-offs, CAP-IT counts.

Exact numbers throughout; the comparison with a plain exhaustive search is in
test_cards_bruteforce.py.
"""

import pytest

from ledger.rules.cards import (
    Card,
    CardError,
    best_arrangement,
    best_knock,
    capit_points,
    counts_possible,
    opponent_layoffs,
    parse_card,
    parse_cards,
    possible_counts,
    score_cards,
    upcard_knock_limit,
)


def names(cards):
    return " ".join(str(c) for c in cards)


def meld_names(melds):
    return sorted(names(m) for m in melds)


# --- parsing -------------------------------------------------------------------------------


def test_parse_cards_reads_ranks_suits_any_case():
    cards = parse_cards("AS 2s 3S 10H tc Jd qC kh")
    assert cards == (
        Card(1, "S"),
        Card(2, "S"),
        Card(3, "S"),
        Card(10, "H"),
        Card(10, "C"),
        Card(11, "D"),
        Card(12, "C"),
        Card(13, "H"),
    )
    assert names(cards) == "AS 2S 3S 10H 10C JD QC KH"


def test_parse_card_values_and_names():
    assert parse_card("th") == Card(10, "H")
    assert str(parse_card("th")) == "10H"
    assert [parse_card(t).value for t in "AS 2S 9S 10S JS QS KS".split()] == [
        1, 2, 9, 10, 10, 10, 10,
    ]
    assert parse_card("AS").index == 0
    assert parse_card("KC").index == 51
    assert str(Card(1, "D")) == "AD"


def test_parse_cards_accepts_commas_and_extra_space():
    assert names(parse_cards("  as,2s ,  3s\n4s ")) == "AS 2S 3S 4S"
    assert parse_cards("") == ()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1X", '"1X": unknown suit "X" (suits are S H D C)'),
        ("AS 1S", '"1S": unknown rank "1" (ranks are A 2-10 J Q K, or T for 10)'),
        ("11H", '"11H": unknown rank "11" (ranks are A 2-10 J Q K, or T for 10)'),
        ("AS JK", '"JK": jokers are not used in gin'),
        ("jk", '"jk": jokers are not used in gin'),
        ("A", '"A": a card is a rank and a suit, e.g. 10H'),
        ("AS 2S AS", '"AS" appears twice'),
        ("as 2S AS", '"AS" appears twice'),
        ("10h TH", '"10H" appears twice'),
    ],
)
def test_parse_errors_name_the_card_and_the_reason(text, message):
    with pytest.raises(CardError) as error:
        parse_cards(text)
    assert str(error.value) == message


def test_card_error_is_a_value_error():
    assert issubclass(CardError, ValueError)


def test_hands_must_not_share_a_card():
    with pytest.raises(CardError, match='^"5H" is in both hands$'):
        score_cards("5H 6H 7H KS KD KC 9C 9D 9S AD", "5H 3H QS QD 8S 2C 5C JH 10D 7C")


@pytest.mark.parametrize(
    ("knocker", "opponent", "message"),
    [
        (
            "5H 6H 7H KS KD KC 9C 9D 9S",
            "4H 3H QS QD 8S 2C 5C JH 10D 7C",
            "the knocker has 9 cards: expected 10 after his discard (11 for a big gin)",
        ),
        (
            "5H 6H 7H KS KD KC 9C 9D 9S AD",
            "4H 3H QS QD 8S 2C 5C JH 10D",
            "the opponent has 9 cards: expected 10",
        ),
    ],
)
def test_hands_must_have_the_right_number_of_cards(knocker, opponent, message):
    with pytest.raises(CardError) as error:
        score_cards(knocker, opponent)
    assert str(error.value) == message


# --- best arrangement ------------------------------------------------------------------------


def test_no_melds_all_deadwood():
    a = best_arrangement(parse_cards("AS 3H 5D 7C 9S JH KD 2C 4S 6H"))
    assert a.melds == ()
    assert a.deadwood_count == 1 + 3 + 5 + 7 + 9 + 10 + 10 + 2 + 4 + 6


def test_ace_is_low_only():
    assert best_arrangement("AS 2S 3S").deadwood_count == 0
    assert best_arrangement("QS KS AS").deadwood_count == 21
    assert best_arrangement("KS AS 2S").deadwood_count == 13


def test_runs_need_one_suit_and_sets_one_rank():
    assert best_arrangement("4S 5H 6S").deadwood_count == 15
    assert best_arrangement("7S 7H 7D 7C").deadwood_count == 0
    assert best_arrangement("7S 7H").deadwood_count == 14


def test_card_for_a_run_or_a_set_goes_where_it_saves_most():
    # 7S fits 5S-6S-7S or 7S-7H-7D: the set leaves 5S 6S (11), the run 7H 7D (14).
    a = best_arrangement("5S 6S 7S 7H 7D 2C 3C 4C KH KD")
    assert a.deadwood_count == 5 + 6 + 10 + 10
    assert meld_names(a.melds) == ["2C 3C 4C", "7S 7H 7D"]
    assert names(a.deadwood) == "5S 6S KH KD"


def test_four_of_a_kind_with_runs_through_it():
    # Three runs through the sevens beat the four sevens: only 7C is left.
    a = best_arrangement("5S 6S 7S 7H 7D 7C 8H 9H 8D 9D")
    assert a.deadwood_count == 7
    assert meld_names(a.melds) == ["5S 6S 7S", "7D 8D 9D", "7H 8H 9H"]
    assert names(a.deadwood) == "7C"


def test_four_of_a_kind_split_three_and_one_for_a_run():
    # 8S-9S-10S takes one eight; the other three eights make a set: gin.
    a = best_arrangement("8S 8H 8D 8C 9S 10S 2H 3H 4H 5H")
    assert a.deadwood_count == 0
    assert meld_names(a.melds) == ["2H 3H 4H 5H", "8H 8D 8C", "8S 9S 10S"]


def test_several_equal_arrangements_give_the_same_count():
    # JS-QS-KS leaves JH JD, JS-JH-JD leaves QS KS: 20 either way, plus AH 5D.
    a = best_arrangement("JS QS KS JH JD 2C 3C 4C AH 5D")
    assert a.deadwood_count == 26
    assert len(a.melds) == 2
    assert "2C 3C 4C" in meld_names(a.melds)


def test_long_run_and_sets_around_it():
    a = best_arrangement("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S")
    assert a.deadwood_count == 0
    a = best_arrangement("3S 4S 5S 6S 3H 3D 6H 6D 9C KC")
    # 3S-4S-5S and 6S-6H-6D leave 3H 3D 9C KC = 25; the sets 3-3-3 and 6-6-6 leave 28; the
    # run 3S-6S leaves 37.
    assert a.deadwood_count == 25
    assert meld_names(a.melds) == ["3S 4S 5S", "6S 6H 6D"]


def test_best_arrangement_accepts_strings_and_lists():
    assert best_arrangement(["AS", "2S", "3S", "KD"]).deadwood_count == 10
    assert best_arrangement([Card(1, "S"), Card(2, "S"), Card(3, "S")]).deadwood_count == 0
    with pytest.raises(CardError, match='"AS" appears twice'):
        best_arrangement([Card(1, "S"), Card(1, "S")])


def test_best_knock_from_eleven_cards():
    big = best_knock("5H 6H 7H 8H KS KD KC 9C 9D 9S 9H")
    assert big.discard is None
    assert big.arrangement.deadwood_count == 0
    knock = best_knock("5H 6H 7H KS KD KC 9C 9D 9S AD QH")
    assert str(knock.discard) == "QH"
    assert knock.arrangement.deadwood_count == 1
    with pytest.raises(CardError, match="best_knock takes 11 cards, got 3"):
        best_knock("AS 2S 3S")


# --- the worked examples of SOURCES.md §11 -------------------------------------------------------


def test_sources_ex3_layoffs_reduce_deadwood():
    out = score_cards("5h 6h 7h Qs Qd Qc 8c 8d 8s 3d", "9c 9s 9d 4h 8h Qh Kd 2c 5s As")
    assert out.legal and out.reason == ""
    assert (out.knocker_deadwood, out.opponent_deadwood) == (3, 18)
    assert out.opponent_deadwood_before_layoffs == 40
    assert out.margin == 15
    assert not out.gin and not out.big_gin
    assert meld_names(out.knocker_melds) == ["5H 6H 7H", "8S 8D 8C", "QS QD QC"]
    assert names(out.knocker_deadwood_cards) == "3D"
    assert meld_names(out.opponent_melds) == ["9S 9D 9C"]
    assert names(out.opponent_deadwood_cards) == "AS 5S KD 2C"
    laid = sorted(str(card) for card, _ in out.layoffs)
    assert laid == ["4H", "8H", "QH"]
    for card, index in out.layoffs:
        target = out.knocker_melds[index]
        assert card.suit == target[0].suit or card.rank == target[0].rank


def test_sources_ex4_undercut_through_layoffs():
    # Knocks for two (2C); the opponent's 9S and 9H go on 6S-7S-8S and 10H-JH-QH: O = 1 (AS).
    out = score_cards("2C 6S 7S 8S 10H JH QH 4S 4D 4C", "9S 9H AS KC KD KS 5D 6D 7D 8D")
    assert out.legal
    assert (out.knocker_deadwood, out.opponent_deadwood) == (2, 1)
    assert out.opponent_deadwood_before_layoffs == 19
    assert out.margin == -1
    runs = {names(m): i for i, m in enumerate(out.knocker_melds)}
    assert sorted((str(c), i) for c, i in out.layoffs) == [
        ("9H", runs["10H JH QH"]),
        ("9S", runs["6S 7S 8S"]),
    ]
    assert names(out.opponent_deadwood_cards) == "AS"


def test_sources_ex6_gin_allows_no_layoffs():
    # Had the 2C been the 4H, the knocker goes gin: the opponent keeps his 19.
    out = score_cards("4H 6S 7S 8S 10H JH QH 4S 4D 4C", "9S 9H AS KC KD KS 5D 6D 7D 8D")
    assert out.gin and not out.big_gin and out.legal
    assert (out.knocker_deadwood, out.opponent_deadwood) == (0, 19)
    assert out.layoffs == ()


# --- lay-offs ---------------------------------------------------------------------------------


def test_layoffs_in_sequence_and_onto_a_set_of_three():
    # 4H then 3H onto 5H-6H-7H (3H alone would not fit), 9H as the fourth nine.
    out = score_cards("5H 6H 7H KS KD KC 9C 9D 9S AD", "4H 3H QS QD 8S 2C 5C JH 9H 7C")
    assert (out.knocker_deadwood, out.opponent_deadwood) == (1, 52)
    assert out.opponent_deadwood_before_layoffs == 68
    run = [i for i, m in enumerate(out.knocker_melds) if names(m) == "5H 6H 7H"][0]
    nines = [i for i, m in enumerate(out.knocker_melds) if names(m) == "9S 9D 9C"][0]
    assert [(str(c), i) for c, i in out.layoffs if i == run] == [("4H", run), ("3H", run)]
    assert [(str(c), i) for c, i in out.layoffs if i == nines] == [("9H", nines)]
    assert len(out.layoffs) == 3


def test_no_layoff_through_a_gap():
    # 3H cannot go on 5H-6H-7H without the 4H.
    out = score_cards("5H 6H 7H KS KD KC 9C 9D 9S AD", "3H 2H QS QD 8S 2C 5C JH 10D 7C")
    assert out.opponent_deadwood == out.opponent_deadwood_before_layoffs == 67
    assert out.layoffs == ()


def test_four_of_a_kind_split_leaves_nothing_to_lay_on_the_set():
    # 8S goes in 8S-9S-10S and 8H-8D-8C is a set whose fourth card the knocker holds: the
    # opponent lays 7S below the run, JS then QS above it, and 5H on 2H-3H-4H.
    out = score_cards("8S 8H 8D 8C 9S 10S 2H 3H 4H AD", "7S JS QS 5H KD KC 3C 6D 9D 10C")
    assert (out.knocker_deadwood, out.opponent_deadwood) == (1, 48)
    assert out.opponent_deadwood_before_layoffs == 80
    assert meld_names(out.knocker_melds) == ["2H 3H 4H", "8H 8D 8C", "8S 9S 10S"]
    by_meld = {}
    for card, index in out.layoffs:
        by_meld.setdefault(names(out.knocker_melds[index]), []).append(str(card))
    assert sorted(by_meld["8S 9S 10S"]) == ["7S", "JS", "QS"]
    assert by_meld["8S 9S 10S"].index("JS") < by_meld["8S 9S 10S"].index("QS")
    assert by_meld["2H 3H 4H"] == ["5H"]
    assert "8H 8D 8C" not in by_meld


def test_layoff_beats_own_meld_when_it_frees_a_card():
    # Alone the opponent's best is 10H-10S-10D (37 left) or 8H-9H-10H (40). Against
    # 5H-6H-7H he lays off 8H 9H so that 10H can join 10S 10D: 20 left (JS QD).
    out = score_cards("5H 6H 7H KS KD KC 2C 2D 2S AD", "8H 9H 10H 10S 10D 3C 4C 5C JS QD")
    assert (out.knocker_deadwood, out.opponent_deadwood) == (1, 20)
    assert out.opponent_deadwood_before_layoffs == 37
    assert meld_names(out.opponent_melds) == ["10S 10H 10D", "3C 4C 5C"]
    assert [str(c) for c, _ in out.layoffs] == ["8H", "9H"]


def test_layoffs_at_both_ends_of_a_run():
    out = score_cards("5H 6H 7H KS KD KC 2C 2D 2S AD", "3H 4H 8H 9H QS QD 8S 3C 6C JC")
    assert out.knocker_deadwood == 1
    assert out.opponent_deadwood == 10 + 10 + 8 + 3 + 6 + 10
    assert sorted(str(c) for c, _ in out.layoffs) == ["3H", "4H", "8H", "9H"]
    order = [str(c) for c, _ in out.layoffs]
    assert order.index("4H") < order.index("3H")
    assert order.index("8H") < order.index("9H")


def test_opponent_layoffs_directly():
    result = opponent_layoffs("4H 3H QS QD 8S 2C 5C JH 9H 7C", ["5H 6H 7H", "9S 9D 9C"])
    assert result.deadwood_count == 52
    assert result.layoffs == ((Card(4, "H"), 0), (Card(3, "H"), 0), (Card(9, "H"), 1))
    assert opponent_layoffs("4H 3H QS QD 8S 2C 5C JH 9H 7C", []).deadwood_count == 68
    with pytest.raises(CardError, match="5H 6H 8H is not a meld"):
        opponent_layoffs("4H 3H", ["5H 6H 8H"])


def test_knocker_lays_out_what_scores_best_not_least_deadwood():
    # With 2H-3H-4H-5H (K 4) the opponent lays off 6H 7H (O 63, margin 59). Keeping 5H as
    # deadwood (K 9) blocks both: O 76, margin 67; so a good player lays out 2H-3H-4H.
    knocker = "2H 3H 4H 5H KS KD KC AC AD 2S"
    opponent = "6H 7H 9S 9D JC QD 3S 4D 8C 10S"
    out = score_cards(knocker, opponent)
    assert (out.knocker_deadwood, out.opponent_deadwood) == (9, 76)
    assert meld_names(out.knocker_melds) == ["2H 3H 4H", "KS KD KC"]
    assert out.layoffs == ()
    assert best_arrangement(knocker).deadwood_count == 4
    # With a knock limit of 8 that layout is not allowed: back to the full run.
    out = score_cards(knocker, opponent, knock_limit=8)
    assert (out.knocker_deadwood, out.opponent_deadwood) == (4, 63)


def test_equal_deadwood_layouts_the_layoffs_decide():
    # K 6 either with 2S-3S-4S (the opponent lays off 5S then 6S) or with 3S-3H-3D (he lays
    # off only 3C): the knocker shows the set of threes.
    out = score_cards("2S 3S 4S 3H 3D 6C 7C 8C 9C 10C", "5S 6S 3C KH QD 8D 4C 10H 9S 7H")
    assert (out.knocker_deadwood, out.opponent_deadwood) == (6, 69)
    assert meld_names(out.knocker_melds) == ["3S 3H 3D", "6C 7C 8C 9C 10C"]
    assert [str(c) for c, _ in out.layoffs] == ["3C"]
    assert out.opponent_deadwood_before_layoffs == 72


# --- gin, big gin, knock limits -------------------------------------------------------------------


def test_gin_no_layoffs():
    out = score_cards("5H 6H 7H KS KD KC 9C 9D 9S 9H", "4H 3H QS QD 8S 2C 5C JH 10D 7C")
    assert out.gin and not out.big_gin and out.legal
    assert (out.knocker_deadwood, out.opponent_deadwood) == (0, 69)
    assert out.layoffs == ()


def test_big_gin_eleven_cards():
    out = score_cards("5H 6H 7H 8H KS KD KC 9C 9D 9S 9H", "4H 3H QS QD 8S 2C 5C JH 10D 7C")
    assert out.gin and out.big_gin and out.legal
    assert (out.knocker_deadwood, out.opponent_deadwood) == (0, 69)
    assert out.layoffs == ()


def test_eleven_cards_not_all_melded_is_refused():
    out = score_cards("5H 6H 7H 8H KS KD KC 9C 9D 9S AH", "4H 3H QS QD 8S 2C 5C JH 10D 7C")
    assert not out.legal and not out.big_gin
    assert out.reason == (
        "11 cards are a big gin only when all 11 are melded; they leave 1 deadwood"
    )
    assert out.knocker_deadwood == 1


def test_knock_above_the_limit():
    out = score_cards("5H 6H 7H KS KD KC 9C 9D 4S 8S", "4H 3H QS QD 8D 2C 5C JH 10D 7C")
    assert not out.legal
    assert out.knocker_deadwood == 30
    assert out.reason == "knocker deadwood 30 is above the knock limit 10"


def test_oklahoma_limits():
    knocker = "5H 6H 7H KS KD KC 9C 9D 9S 4D"
    opponent = "4H 3H QS QD 8S 2C 5C JH 10D 7C"
    assert score_cards(knocker, opponent, knock_limit=upcard_knock_limit("5S")).legal
    out = score_cards(knocker, opponent, knock_limit=upcard_knock_limit("3S"))
    assert not out.legal
    assert out.reason == "knocker deadwood 4 is above the knock limit 3"
    out = score_cards(knocker, opponent, ace_gin_only=True)
    assert not out.legal
    assert out.reason == "knocker deadwood 4: the up-card is an Ace, so only gin ends the hand"
    gin = score_cards("5H 6H 7H KS KD KC 9C 9D 9S 9H", opponent, ace_gin_only=True)
    assert gin.legal and gin.gin


def test_upcard_knock_limit():
    assert upcard_knock_limit("5S") == 5
    assert upcard_knock_limit("kh") == 10
    assert upcard_knock_limit("10D") == 10
    assert upcard_knock_limit("AS") == 0
    assert upcard_knock_limit("AS", "one") == 1
    with pytest.raises(ValueError):
        upcard_knock_limit("AS", "two")


def test_bad_knock_limit():
    with pytest.raises(ValueError):
        score_cards("5H 6H 7H KS KD KC 9C 9D 9S 9H", "4H 3H QS QD 8S 2C 5C JH 10D 7C", -1)


# --- counts given with the cards ------------------------------------------------------------------

EX3 = ("5h 6h 7h Qs Qd Qc 8c 8d 8s 3d", "9c 9s 9d 4h 8h Qh Kd 2c 5s As")


def test_counts_as_played_stand_if_some_play_gives_them():
    assert counts_possible(*EX3, 3, 18) is None  # the best lay-offs
    assert counts_possible(*EX3, 3, 40) is None  # the opponent laid nothing off
    assert counts_possible(*EX3, 3, 22) is None  # he forgot the 8H... or the 4H and 8H
    assert (3, 18) in possible_counts(*EX3)


def test_counts_refused_with_the_reason():
    assert counts_possible(*EX3, 3, 17) == (
        "opponent deadwood 17 is not possible with these cards when the knocker has 3 "
        "(possible: 18, 22, 26, 28, 30, 32, 36, 40, 45, 49, 53, 55, 57, 59, 63, 67)"
    )
    assert counts_possible(*EX3, 4, 18) == (
        "knocker deadwood 4 is not possible with these cards (possible: 3)"
    )


def test_counts_of_a_gin_allow_no_layoffs():
    knocker = "5H 6H 7H KS KD KC 9C 9D 9S 9H"
    opponent = "4H 3H QS QD 8S 2C 5C JH 10D 7C"
    assert counts_possible(knocker, opponent, 0, 69) is None
    assert "opponent deadwood 62" in counts_possible(knocker, opponent, 0, 62)
    # Laid out without the fourth nine the knocker has 9, and then 4H 3H go down.
    assert counts_possible(knocker, opponent, 9, 62) is None


def test_counts_with_no_legal_knock():
    reason = counts_possible(
        "5H 6H 7H KS KD KC 9C 9D 4S 8S", "4H 3H QS QD 8D 2C 5C JH 10D 7C", 25, 50
    )
    assert reason == (
        "no legal knock with these cards: knocker deadwood 30 is above the knock limit 10"
    )
    assert possible_counts("5H 6H 7H KS KD KC 9C 9D 4S 8S", "4H 3H QS QD 8D 2C 5C JH 10D 7C") == (
        set()
    )


def test_counts_of_a_big_gin():
    knocker = "5H 6H 7H 8H KS KD KC 9C 9D 9S 9H"
    opponent = "4H 3H QS QD 8S 2C 5C JH 10D 7C"
    assert {k for k, _ in possible_counts(knocker, opponent)} == {0}
    assert counts_possible(knocker, opponent, 0, 69) is None
    assert counts_possible(knocker, opponent, 0, 62) is not None


# --- CAP-IT ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "points"),
    [
        ("K 7 7", 20),
        ("JK 2 A", 50),
        ("9 3", 10),
        ("Q J 5", 25),
        ("a k 10 8", 40),
        ("jk jK", 40),
        ("", 0),
        ("2 2", 30),
        ("3 4 5 6 7 8 9", 35),
    ],
)
def test_capit_points(text, points):
    assert capit_points(text) == points


def test_capit_ace_value():
    assert capit_points("A A K", ace_value=1) == 12
    assert capit_points("A", ace_value=20) == 20


@pytest.mark.parametrize("token", ["KS", "1", "11", "T", "X", "JKR"])
def test_capit_unknown_token(token):
    with pytest.raises(CardError) as error:
        capit_points(f"K {token} 7")
    assert str(error.value) == (
        f'"{token}": not a CAP-IT card (by rank only: A K Q J 10 9 8 7 6 5 4 3 2 JK)'
    )
