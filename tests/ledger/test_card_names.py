"""The card picker's words for a screen reader (issue 21): a card as people say it."""

from ledger.forms.hands import HandForm
from ledger.presentation.cardtext import card_name


def test_a_card_is_named_as_people_say_it():
    assert card_name("AS") == "Ace of spades"
    assert card_name("10H") == "10 of hearts"
    assert card_name("qd") == "Queen of diamonds"
    assert card_name("KC") == "King of clubs"
    assert card_name("JH") == "Jack of hearts"
    assert card_name("7S") == "7 of spades"


def test_the_pickers_deck_names_all_52_cards_once():
    spec = {"rounds": False, "duels": [{"players": ["Sal", "Vic"], "label": None}]}
    deck = HandForm(spec=spec).card_deck()
    cards = [card for suit in deck for card in suit["cards"]]
    assert len(cards) == 52 and len({c["name"] for c in cards}) == 52
    assert [s["red"] for s in deck] == [False, True, True, False]
    assert cards[0] == {"code": "AS", "rank": "A", "name": "Ace of spades"}
    assert cards[-1] == {"code": "KC", "rank": "K", "name": "King of clubs"}
