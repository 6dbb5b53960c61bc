"""The knock limit, worked out in one place (ledger/rules/limits.py) for the scorer, the
card engine's checks, the hand form and the card preview (RULES §1, §3.2)."""

from __future__ import annotations

import pytest

from ledger.rules.cards import upcard_knock_limit
from ledger.rules.limits import KnockLimit, knock_limit


def test_the_setting_applies_outside_oklahoma_and_without_an_up_card():
    assert knock_limit({"knock_limit": 7}) == KnockLimit(7, False, "the knock limit")
    assert knock_limit({}, oklahoma=False, upcard="5S").limit == 10
    assert knock_limit({"knock_limit": 7}, oklahoma=True, upcard=None).limit == 7


@pytest.mark.parametrize(("upcard", "limit", "name"), [
    ("5S", 5, "the up-card 5S"), ("kh", 10, "the up-card KH"), ("TD", 10, "the up-card 10D"),
    ("9", 9, "the up-card 9"), ("Q", 10, "the up-card Q"),
])
def test_oklahoma_takes_the_up_cards_value_its_rank_is_enough(upcard, limit, name):
    got = knock_limit({"knock_limit": 10}, oklahoma=True, upcard=upcard)
    assert (got.limit, got.gin_only, got.name) == (limit, False, name)


def test_an_ace_up_card_allows_only_gin_or_one_by_the_setting():
    ace = knock_limit({}, oklahoma=True, upcard="AS")
    assert ace == KnockLimit(0, True, "the up-card AS (an Ace: gin only)", "AS")
    assert knock_limit({"oklahoma_ace": "one"}, oklahoma=True, upcard="A").limit == 1
    assert not ace.allows(1) and ace.allows(0)
    with pytest.raises(ValueError):
        knock_limit({"oklahoma_ace": "two"}, oklahoma=True, upcard="AS")
    # the card engine's helper gives the same numbers
    assert upcard_knock_limit("AS") == 0 and upcard_knock_limit("AS", "one") == 1
    assert upcard_knock_limit("7C") == 7


def test_allows_eleven_cards_only_all_melded():
    limit = knock_limit({"knock_limit": 10})
    assert limit.allows(10) and not limit.allows(11)
    assert limit.allows(0, cards=11) and not limit.allows(3, cards=11)
