"""Hands entered with the cards (issue 6): the form sends them to the core, which works out
the counts and lay-offs; the picker's preview fragment; refusals at the field; the sheet's
melds; corrections with cards; tables of a side game with cards at one table."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from ledger import services
from ledger.models import Hand
from ledger.selectors.games import game_result
from tests.factories import gin_game as start_gin
from tests.pages import Page, field_error, field_value, text, tile

pytestmark = pytest.mark.django_db

KNOCKER = "5H 6H 7H QS QD QC 8C 8D 8S 3D"  # K 3: 5-6-7♥, three queens, three eights, 3♦
OPPONENT = "9C 9S 9D 4H 8H QH KD 2C 5S AS"  # lays off 4♥ 8♥ Q♥: O 18
GIN = "AD 2D 3D 4D JS JC JH 6C 7C 8C"  # all melded


@pytest.fixture
def gin_game(session, keeper):
    return start_gin(session, keeper)


def cards_post(number: int, knocker: str, cards: tuple[str, str], counts=("", ""),
               kind: str = "knock", **extra) -> dict:
    data = {"key": str(uuid.uuid4()), "number": number, "t1_knocker": knocker,
            "t1_kind": kind, "t1_c0": counts[0], "t1_c1": counts[1],
            "t1_cards0": cards[0], "t1_cards1": cards[1]}
    data.update(extra)
    return data


def post_hand(client, game, data):
    return client.post(reverse("ledger:hand_create", args=[game.pk]), data)


# -- recording from the cards ------------------------------------------------------------------

def test_a_hand_entered_by_cards_records_the_exact_counts_and_points(logged_in, gin_game):
    response = post_hand(logged_in, gin_game, cards_post(1, "Ann", (KNOCKER, OPPONENT)))
    assert response.status_code == 302, text(response)[-600:]
    hand = Hand.objects.get(game=gin_game, number=1)
    assert hand.entry == {"knocker": "Ann", "cards": {"Ann": KNOCKER, "Bob": OPPONENT}}
    result = game_result(gin_game)
    assert result["hands"][0]["deadwood"] == {"Ann": 3, "Bob": 18}
    assert result["hands"][0]["points"] == {"Ann": 15, "Bob": 0}
    page = logged_in.get(response.url)
    shown = text(page)
    assert "Hand 1 recorded: Ann +15." in shown
    assert tile(page, "Ann") == "15" and tile(page, "Bob") == "0"
    # The sheet: the counts the core worked out, and the melds in one short line each.
    assert "Ann knocks 3 v Bob 18" in shown
    assert "Ann: 8♠8♦8♣ Q♠Q♦Q♣ 5♥6♥7♥, left 3♦" in shown
    assert "Bob: 9♠9♦9♣, lays off 8♥ Q♥ 4♥, left A♠ 5♠ K♦ 2♣" in shown


def test_cards_are_read_in_any_case_and_written_to_the_record_plainly(logged_in, gin_game):
    data = cards_post(1, "Bob", (OPPONENT.lower(), "tc jc qc  kc,2h 3h 5h ad 2d 3d"))
    response = post_hand(logged_in, gin_game, data)
    assert response.status_code == 302, text(response)[-600:]
    entry = Hand.objects.get(game=gin_game, number=1).entry
    assert entry["cards"] == {"Bob": "10C JC QC KC 2H 3H 5H AD 2D 3D", "Ann": OPPONENT}


def test_gin_from_the_cards_without_tapping_gin(logged_in, gin_game):
    response = post_hand(logged_in, gin_game, cards_post(1, "Ann", (GIN, OPPONENT)))
    assert response.status_code == 302, text(response)[-600:]
    result = game_result(gin_game)
    hand = result["hands"][0]
    assert hand["result"] == "gin" and hand["deadwood"] == {"Ann": 0, "Bob": 40}
    assert hand["points"]["Ann"] == 40 + result["rules"]["gin_bonus"]
    assert "Ann: J♠J♥J♣ A♦2♦3♦4♦ 6♣7♣8♣ (all melded)" in text(logged_in.get(response.url))


def test_counts_given_with_the_cards_are_sent_and_checked(logged_in, gin_game):
    # Counts the table played (no lay-offs made: O 40) stand beside the cards.
    response = post_hand(logged_in, gin_game,
                         cards_post(1, "Ann", (KNOCKER, OPPONENT), counts=("3", "40")))
    assert response.status_code == 302, text(response)[-600:]
    entry = Hand.objects.get(game=gin_game, number=1).entry
    assert entry["deadwood"] == {"Ann": 3, "Bob": 40} and entry["cards"]["Ann"] == KNOCKER
    assert game_result(gin_game)["hands"][0]["points"]["Ann"] == 37


def test_counts_the_cards_cannot_give_are_refused_at_the_field(logged_in, gin_game):
    response = post_hand(logged_in, gin_game,
                         cards_post(1, "Ann", (KNOCKER, OPPONENT), counts=("5", "18")))
    assert response.status_code == 422
    assert field_error(response, "t1_c0") == (
        "Ann's count: knocker deadwood 5 is not possible with these cards (possible: 3)")
    assert field_value(response, "t1_c0") == "5"
    assert field_value(response, "t1_cards0") == KNOCKER
    assert not Hand.objects.filter(game=gin_game).exists()
    # One count alone with the cards: both or neither.
    response = post_hand(logged_in, gin_game,
                         cards_post(1, "Ann", (KNOCKER, OPPONENT), counts=("3", "")))
    assert response.status_code == 422
    assert field_error(response, "t1_c1") == (
        "Enter Bob's count too, or clear Ann's: the cards give both.")


def test_bad_cards_name_the_card_and_keep_what_was_typed(logged_in, gin_game):
    typed = "5H 6H 7H QS QD QC 8C 8D 8S 1X"
    response = post_hand(logged_in, gin_game, cards_post(1, "Ann", (typed, OPPONENT)))
    assert response.status_code == 422
    assert field_error(response, "t1_cards0") == (
        'Ann\'s cards: "1X": unknown suit "X" (suits are S H D C)')
    assert field_value(response, "t1_cards0") == typed
    assert field_value(response, "t1_cards1") == OPPONENT
    assert Page(response).all("details", class_="cards", open=True)  # the picker stays open

    twice = OPPONENT.replace("AS", "3D")  # 3♦ is in Ann's hand
    response = post_hand(logged_in, gin_game, cards_post(1, "Ann", (KNOCKER, twice)))
    assert response.status_code == 422
    assert field_error(response, "t1_cards1") == '"3D" is in both hands: Ann\'s and Bob\'s'

    response = post_hand(logged_in, gin_game,
                         cards_post(1, "Ann", (KNOCKER, OPPONENT + " 2H")))
    assert response.status_code == 422
    assert field_error(response, "t1_cards1") == (
        "Bob's cards: Bob has 11 cards: expected 10")

    response = post_hand(logged_in, gin_game, cards_post(1, "Ann", (KNOCKER, "")))
    assert field_error(response, "t1_cards1") == (
        "Enter Bob's cards too, or clear Ann's and enter the counts.")
    assert not Hand.objects.filter(game=gin_game).exists()


def test_an_illegal_knock_from_the_cards_is_refused_at_the_knockers_cards(logged_in, gin_game):
    high = "5H 6H 7H QS QD QC 8C 8D 9S KD"  # K 27
    rest = "9C 2S 9D 4H 8H QH 3D 2C 5S AS"
    response = post_hand(logged_in, gin_game, cards_post(1, "Ann", (high, rest)))
    assert response.status_code == 422
    assert field_error(response, "t1_cards0") == (
        "Ann's cards: knocker deadwood 35 is above the knock limit 10")
    # Without JavaScript the preview is drawn by the server under the refused form.
    assert "Not a legal knock: knocker deadwood 35 is above the knock limit 10." in text(
        response)


def test_tapping_gin_with_cards_that_are_not_gin_is_refused(logged_in, gin_game):
    response = post_hand(logged_in, gin_game,
                         cards_post(1, "Ann", (KNOCKER, OPPONENT), kind="gin"))
    assert response.status_code == 422
    assert field_error(response, "t1_cards0").startswith(
        "Ann's cards: a gin has no deadwood, but the knocker Ann counted 3")


# -- the preview -------------------------------------------------------------------------------

def preview(client, knocker="", opponent="", *, kname="Ann", oname="Bob", solo=False,
            game=None, **extra):
    """The preview as the picker asks for it: the table's fields, Ann's cards first."""
    params = {"table": 1, "a": kname, "b": oname, "t1_cards0": knocker, "t1_cards1": opponent,
              "t1_knocker": "" if solo else kname, **extra}
    if game is not None:
        params["game"] = game.pk
    return client.get(reverse("ledger:cards_preview"), params)


def game_with(session, keeper, variant="gin", **rules):
    return services.game_start(session=session, variant=variant, players=["Ann", "Bob"],
                               started_by=keeper, setup={"first_dealer": "Bob"}, rules=rules)


def test_preview_shows_melds_counts_and_layoffs(logged_in):
    response = preview(logged_in, KNOCKER, OPPONENT)
    assert response.status_code == 200
    body = response.content.decode()
    assert 'data-k="3" data-o="18" data-legal="1"' in body
    shown = text(response)
    assert "Ann knocks with 3; Bob counts 18: Ann wins by 15, Ann +15." in shown
    assert "Ann knocks 10 cards 3" in shown and "Bob 10 cards 18" in shown
    assert "8♠ 8♦ 8♣ Q♠ Q♦ Q♣ 5♥ 6♥ 7♥ 3♦" in shown  # Ann's melds, then her deadwood
    assert "Bob 10 cards 18 9♠ 9♦ 9♣ A♠ 5♠ K♦ 2♣" in shown
    assert ("Lays off 8♥ → 8♠ 8♦ 8♣ Q♥ → Q♠ Q♦ Q♣ 4♥ → 5♥ 6♥ 7♥ 40 before lay-offs"
            in shown)
    # Bob tapped as the knocker: his cards are the second field's.
    shown = text(logged_in.get(reverse("ledger:cards_preview"), {
        "table": 1, "a": "Ann", "b": "Bob", "t1_knocker": "Bob", "t1_cards0": OPPONENT,
        "t1_cards1": KNOCKER}))
    assert "Bob knocks with 3; Ann counts 18: Bob wins by 15, Bob +15." in shown


# 10 v 10: Ann holds 5-6-7♥, three queens, three eights and A♦ 2♦ 3♣ 4♣ (10 of deadwood).
TIE_KNOCKER = "5H 6H 7H QS QD QC 8C 8D 8S 10D"
TIE_OPPONENT = "9C 9S 9D KH KD KC 2C 3S 4D AS"  # sets of 9s and kings; A 2 3 4 left: 10


def test_preview_of_a_tie_says_the_undercut_the_game_scores(logged_in, session, keeper):
    game = game_with(session, keeper)
    response = preview(logged_in, TIE_KNOCKER, TIE_OPPONENT, game=game)
    body = response.content.decode()
    assert 'data-k="10" data-o="10" data-legal="1"' in body
    shown = text(response)
    assert "Ann knocks with 10; Bob counts 10 too: Bob undercuts, Bob +25." in shown
    # the same hand recorded: the sheet gives Bob the same 25
    post_hand(logged_in, game, cards_post(1, "Ann", (TIE_KNOCKER, TIE_OPPONENT)))
    assert game_result(game)["hands"][0]["points"] == {"Ann": 0, "Bob": 25}
    # a classic game's undercut bonus is 10
    classic = start_gin(session, keeper, preset="classic")
    shown = text(preview(logged_in, TIE_KNOCKER, TIE_OPPONENT, game=classic))
    assert "Bob undercuts, Bob +10." in shown


def test_preview_of_a_tie_without_the_undercut_rule(logged_in, session, keeper):
    # RULES §6: with undercut_on_tie false a tie is won by the knocker for 0 points.
    game = game_with(session, keeper, undercut_on_tie=False)
    shown = text(preview(logged_in, TIE_KNOCKER, TIE_OPPONENT, game=game))
    assert ("Ann knocks with 10; Bob counts 10 too: a tie, won by the knocker for 0 points "
            "(Ann +0).") in shown


def test_preview_of_a_gin_an_illegal_knock_and_hands_in_progress(logged_in, session, keeper):
    shown = text(preview(logged_in, GIN, OPPONENT))
    assert "Gin: Ann has no deadwood; Bob counts 40, no lay-offs: Ann +65." in shown
    assert "knocks with" not in shown
    assert "Ann gin 10 cards 0" in shown and "knocks" not in shown  # the chip says gin too
    low = game_with(session, keeper, knock_limit=2)
    shown = text(preview(logged_in, KNOCKER, OPPONENT, game=low))
    assert "Not a legal knock: knocker deadwood 3 is above the knock limit 2." in shown
    # An Oklahoma Ace: only gin (the rank is enough, before the suit is tapped).
    oklahoma = game_with(session, keeper, variant="oklahoma")
    shown = text(preview(logged_in, KNOCKER, OPPONENT, game=oklahoma, up_rank="A"))
    assert "the up-card is an Ace, so only gin ends the hand" in shown
    shown = text(preview(logged_in, KNOCKER, OPPONENT, game=oklahoma, up_rank="3",
                         up_suit="S"))
    assert "Ann wins by 15, Ann +30 (doubled: a spade up-card)." in shown
    # Cards still being tapped: the best melds of what there is.
    shown = text(preview(logged_in, "5H 6H 7H QS", ""))
    assert "Ann knocks 4 cards 10 5♥ 6♥ 7♥ Q♠" in shown
    shown = text(preview(logged_in, "5H 6H 7H QS QD QC 8C 8D 8S KD"))
    assert "Deadwood 10 is above" not in shown
    shown = text(preview(logged_in, "5H 6H 7H QS QD QC 8C 8D 9S KD"))
    assert "Deadwood 35 is above the knock limit 10." in shown
    # No knocker tapped yet: each hand on its own.
    shown = text(preview(logged_in, KNOCKER, OPPONENT, solo=True))
    assert "Tap who knocked" in shown and "Bob 10 cards 40" in shown
    assert "Tap the cards" in text(preview(logged_in))


def test_preview_of_another_tables_game_is_not_found(logged_in, session, keeper,
                                                     other_keeper):
    theirs = services.table_create(name="Theirs", scorekeepers=[other_keeper])
    their_session = services.session_create(table=theirs, currency="USD", rate="0.01",
                                            created_by=other_keeper)
    game = game_with(their_session, other_keeper)
    assert preview(logged_in, KNOCKER, OPPONENT, game=game).status_code == 404


def test_preview_names_bad_and_duplicate_cards(logged_in):
    shown = text(preview(logged_in, "AS 2S ZZ"))
    assert 'Ann\'s cards: "ZZ": unknown suit "Z" (suits are S H D C)' in shown
    shown = text(preview(logged_in, "AS 2S AS"))
    assert 'Ann\'s cards: "AS" appears twice' in shown
    shown = text(preview(logged_in, KNOCKER, OPPONENT.replace("AS", "8S")))
    assert '"8S" is in both hands: Ann\'s and Bob\'s' in shown
    shown = text(preview(logged_in, KNOCKER, OPPONENT + " 2H"))
    assert "Bob's cards: 11 cards; a gin hand is 10" in shown


def test_preview_needs_a_login(client):
    response = preview(client, knocker=KNOCKER, opponent=OPPONENT)
    assert response.status_code == 302 and "/accounts/login/" in response.url


def test_the_hand_form_has_the_picker_for_each_player(logged_in, gin_game):
    page = logged_in.get(reverse("ledger:game_detail", args=[gin_game.pk]))
    body = page.content.decode()
    assert 'name="t1_cards0"' in body and 'name="t1_cards1"' in body
    assert "Ann's cards" in text(page) and "Bob's cards" in text(page)
    assert body.count('class="deck-card"') == 52
    assert 'hx-get="/cards/preview/"' in body and "ledger/cards.js" in body
    assert f'"game": "{gin_game.pk}"' in body  # whose rules the preview applies
    assert "django_htmx/htmx-2.min.js" in body  # htmx itself, served from static


def test_a_page_draws_the_deck_once_and_a_saved_hand_does_not_send_it(logged_in, session,
                                                                      keeper):
    """Each table's picker is filled from the page's one deck (a <template> that cards.js
    copies), so a captain game's two pickers do not draw 104 buttons, and the answer to a
    Save (the next hand's form, sent on every hand) carries no deck at all."""
    game = services.game_start(session=session, variant="captain",
                               players=["R1", "R2", "B1", "B2", "B3"], started_by=keeper,
                               preset="standard",
                               setup={"captains": ["R1", "R2"], "opponents": ["B1", "B2"],
                                      "sitter": "B3"})
    body = logged_in.get(reverse("ledger:game_detail", args=[game.pk])).content.decode()
    assert body.count('class="picker"') == 2 and body.count('<div class="deck">') == 2
    assert body.count('id="card-deck"') == 1 and body.count('class="deck-card"') == 52
    assert 'aria-label="ace of spades"' in body.lower()
    answer = logged_in.post(
        reverse("ledger:hand_create", args=[game.pk]),
        {"key": str(uuid.uuid4()), "number": 1, "t1_knocker": "R1", "t1_kind": "knock",
         "t1_c0": "3", "t1_c1": "20", "t2_knocker": "B2", "t2_kind": "gin", "t2_c1": "0",
         "t2_c0": "15"}, HTTP_HX_REQUEST="true")
    saved = answer.content.decode()
    assert answer.status_code == 200 and 'name="t1_knocker"' in saved
    assert game.hands.count() == 1, text(answer)[:600]
    assert 'class="picker"' in saved and "deck-card" not in saved and "card-deck" not in saved


# -- corrections, side games -----------------------------------------------------------------

def test_the_fix_form_takes_cards(logged_in, gin_game):
    post_hand(logged_in, gin_game, {"key": str(uuid.uuid4()), "number": 1, "t1_knocker": "Ann",
                                    "t1_kind": "knock", "t1_c0": "3", "t1_c1": "20"})
    url = reverse("ledger:hand_correct", args=[gin_game.pk, 1])
    assert 'name="t1_cards0"' in logged_in.get(url).content.decode()
    response = logged_in.post(url, cards_post(1, "Ann", (KNOCKER, OPPONENT),
                                              reason="Bob laid off three cards"))
    assert response.status_code == 302, text(response)[-600:]
    page = logged_in.get(reverse("ledger:game_detail", args=[gin_game.pk]))
    assert tile(page, "Ann") == "15"
    assert "Ann knocks 3 v Bob 18" in text(page)
    # The corrected hand's form shows its cards again.
    form = logged_in.get(url)
    assert field_value(form, "t1_cards0") == KNOCKER
    assert field_value(form, "t1_c0") == ""
    # A hand entered with cards, then undone, is listed with its cards.
    logged_in.post(reverse("ledger:hand_undo", args=[gin_game.pk]), {"number": 1,
                                                                      "reason": "wrong game"})
    shown = text(logged_in.get(reverse("ledger:game_detail", args=[gin_game.pk])))
    # listed as every hand reads, with the melds the core laid out from its cards
    assert "Hand 1: Ann knocks 3 v Bob 18; Ann: 8♠8♦8♣ Q♠Q♦Q♣ 5♥6♥7♥, left 3♦" in shown


def test_a_side_game_table_can_be_entered_with_cards(logged_in, session, keeper):
    game = services.game_start(
        session=session, variant="partnership", players=["A", "B", "X", "Y"], started_by=keeper,
        setup={"sides": {"We": ["A", "B"], "They": ["X", "Y"]}})
    data = {"key": str(uuid.uuid4()), "number": 1,
            "t1_knocker": "A", "t1_kind": "knock", "t1_cards0": KNOCKER,
            "t1_cards1": OPPONENT,
            "t2_knocker": "Y", "t2_kind": "knock", "t2_c0": "20", "t2_c1": "4"}
    response = post_hand(logged_in, game, data)
    assert response.status_code == 302, text(response)[-600:]
    page = logged_in.get(response.url)
    # T1: A +15 from the cards; T2: Y knocks 4 v B 20, +16: They net +1.
    assert tile(page, "They") == "1" and tile(page, "We") == "0"
    shown = text(page)
    assert "T1 A knocks 3 v X 18 · A 15" in shown
    assert "T1 A: 8♠8♦8♣ Q♠Q♦Q♣ 5♥6♥7♥, left 3♦" in shown


def test_oklahoma_up_card_sets_the_limit_for_the_cards(logged_in, session, keeper):
    game = services.game_start(session=session, variant="oklahoma", players=["Ann", "Bob"],
                               started_by=keeper, setup={"first_dealer": "Bob"})
    page = logged_in.get(reverse("ledger:game_detail", args=[game.pk])).content.decode()
    assert "[name=up_rank], [name=up_suit]" in page  # the preview is sent the up-card
    data = cards_post(1, "Ann", (KNOCKER, OPPONENT), up_rank="2", up_suit="H")
    response = post_hand(logged_in, game, data)
    assert response.status_code == 422
    assert field_error(response, "t1_cards0") == (
        "Ann's cards: knocker deadwood 3 is above the knock limit 2")
    assert "Not a legal knock: knocker deadwood 3 is above the knock limit 2." in text(response)
    data = cards_post(1, "Ann", (KNOCKER, OPPONENT), up_rank="3", up_suit="H")
    response = post_hand(logged_in, game, data)
    assert response.status_code == 302, text(response)[-600:]
    assert tile(logged_in.get(response.url), "Ann") == "15"
