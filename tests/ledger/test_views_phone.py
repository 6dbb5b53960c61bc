"""The game page's htmx answers (issue 11): a saved hand answers with the parts that change
(the next form, the score, the new row, the totals), not the whole page; a refused one with
the form alone, its reasons next to Save and at the field, nothing stored; the live preview
gives the core's score of the typed hand (or its refusal) without storing it; a finished
game opens on the winner and the money."""

from __future__ import annotations

import html
import re
import uuid

import pytest
from django.urls import reverse

from ledger import services
from ledger.selectors.games import game_result
from ledger.selectors.hands import preview_hand
from tests.factories import gin_game
from tests.pages import text, tile

from .test_views import hand_post

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


@pytest.fixture
def gin(session, keeper):
    return gin_game(session, keeper)


def record(game, keeper, entry):
    services.hand_record(game=game, entry=entry, recorded_by=keeper,
                         idempotency_key=str(uuid.uuid4()))


def test_a_saved_hand_answers_with_the_parts_that_change(logged_in, gin, keeper):
    record(gin, keeper, {"knocker": "Ann", "deadwood": {"Ann": 3, "Bob": 24}})  # Ann +21
    url = reverse("ledger:hand_create", args=[gin.pk])
    response = logged_in.post(url, hand_post(2, "Bob", ("30", "5")), headers=HX)  # Bob +25
    assert response.status_code == 200
    page = response.content.decode()
    assert "<html" not in page and 'id="hand-1"' not in page  # not the whole sheet
    assert 'id="hand-2"' in page and 'hx-swap-oob="beforeend:#sheet-rows"' in page
    assert "Hand 2 recorded: Bob +25." in text(response)
    assert tile(response, "Ann") == "21" and tile(response, "Bob") == "25"
    assert "Save hand 3" in page and 'id="totals" hx-swap-oob="true"' in page
    assert "Undo hand 2" in page
    assert game_result(gin)["totals"]["Bob"]["final"] == 25


def test_the_first_hand_and_capit_rounds_redraw_the_sheet(logged_in, session, keeper):
    capit = services.game_start(session=session, variant="cap-it",
                                players=["Ann", "Bob", "Cy", "Di"], started_by=keeper,
                                setup={"first_dealer": "Ann"}, ante="1.00")
    response = logged_in.post(reverse("ledger:hand_create", args=[capit.pk]), {
        "key": str(uuid.uuid4()), "number": 1, "went_out": "Ann",
        "pts_0": "", "pts_1": "20", "pts_2": "15", "pts_3": "35"}, headers=HX)
    page = response.content.decode()
    assert response.status_code == 200 and 'id="sheet" hx-swap-oob="true"' in page
    assert 'aria-label="Fix round 1"' in page  # the ✎ folded into the round number
    assert tile(response, "Di") == "35" and "Save round 2" in page


def test_a_hand_that_ends_the_game_reloads_onto_the_money(logged_in, gin, keeper):
    record(gin, keeper, {"knocker": "Ann", "deadwood": {"Ann": 5, "Bob": 60}})  # Ann 55
    response = logged_in.post(reverse("ledger:hand_create", args=[gin.pk]),
                              hand_post(2, "Ann", ("", "50"), kind="gin"), headers=HX)
    assert response.status_code == 204
    assert response["HX-Location"] == reverse("ledger:game_detail", args=[gin.pk])
    page = logged_in.get(response["HX-Location"])
    over = page.content.decode().split('id="over"')[1].split("</section>")[0]
    result = game_result(gin)
    assert result["complete"] and result["winner"] == "Ann"
    assert "Ann" in over and 'data-player="Bob"' in over
    for payment in result["payments"]:  # who pays whom, in the first card
        assert f"<b>{payment['from']}</b> pays <b>{payment['to']}</b>" in over
        assert payment["amount"] in over


def test_a_refused_hand_comes_back_alone_with_its_reason_next_to_save(logged_in, gin, keeper):
    url = reverse("ledger:hand_create", args=[gin.pk])
    response = logged_in.post(url, hand_post(1, "Ann", ("11", "24")), headers=HX)
    assert response.status_code == 200  # htmx swaps it in
    page = response.content.decode()
    assert "<html" not in page and page.lstrip().startswith("<section")
    reason = re.search(r'id="save-error"[^>]*>(.*?)</div>', page, re.S).group(1)
    assert "a knock must be 10 or less" in html.unescape(reason)
    assert 'id="id_t1_c0_error"' in page  # and at the field
    assert 'value="11"' in page and 'value="24"' in page
    assert "Please check the marked field" not in page
    assert gin.hands.count() == 0
    # without JavaScript: the whole page, 422, the reason next to Save as well
    response = logged_in.post(url, hand_post(1, "Ann", ("4x", "24")))
    assert response.status_code == 422 and 'id="save-error"' in response.content.decode()
    assert gin.hands.count() == 0


def test_the_preview_scores_the_typed_hand_without_storing_it(logged_in, gin, keeper):
    record(gin, keeper, {"knocker": "Ann", "deadwood": {"Ann": 3, "Bob": 24}})
    url = reverse("ledger:hand_preview", args=[gin.pk])
    response = logged_in.post(url, hand_post(2, "Bob", ("30", "5")), headers=HX)
    assert text(response) == "If saved: Bob knocks 5 v Ann 30 Bob +25"
    # an undercut, in the core's words and points
    response = logged_in.post(url, hand_post(2, "Bob", ("3", "5")), headers=HX)
    assert "Ann +27" in text(response)  # 2 and the undercut bonus 25
    # the core's refusal, not a score
    response = logged_in.post(url, hand_post(2, "Bob", ("3", "12")), headers=HX)
    assert 'class="pv pv-bad"' in response.content.decode()
    assert "10 or less" in text(response)
    # still typing: nothing said; a letter: said at once
    assert text(logged_in.post(url, {"number": 2, "t1_knocker": "Bob"}, headers=HX)) == ""
    response = logged_in.post(url, {"number": 2, "t1_knocker": "Bob", "t1_c1": "5x"},
                              headers=HX)
    assert "pv-bad" in response.content.decode()
    assert gin.hands.count() == 1


def test_preview_hand_is_the_scorer_on_the_record_plus_the_entry(gin, keeper):
    record(gin, keeper, {"knocker": "Ann", "deadwood": {"Ann": 3, "Bob": 24}})
    verdict = preview_hand(gin, {"knocker": "Bob", "deadwood": {"Bob": 0, "Ann": 10}})
    assert verdict["hand"]["number"] == 2 and verdict["hand"]["points"]["Bob"] == 35
    assert verdict["result"]["totals"]["Bob"]["final"] == 35
    refused = preview_hand(gin, {"knocker": "Bob", "deadwood": {"Bob": 40, "Ann": 3}})
    assert refused["problems"] and refused["problems"][0].field == "deadwood"
    assert gin.hands.count() == 1


def test_a_hand_another_phone_saved_first_keeps_what_was_typed(logged_in, gin, keeper):
    url = reverse("ledger:hand_create", args=[gin.pk])
    typed = hand_post(1, "Bob", ("30", "5"))
    record(gin, keeper, {"knocker": "Ann", "deadwood": {"Ann": 3, "Bob": 24}})  # other phone
    response = logged_in.post(url, typed, headers=HX)
    page = response.content.decode()
    assert response.status_code == 200 and "<html" not in page
    assert "kept below as hand 2" in html.unescape(page) and 'value="30"' in page
    assert 'id="sheet" hx-swap-oob="true"' in page and 'id="hand-1"' in page
    assert tile(response, "Ann") == "21" and gin.hands.count() == 1


def test_a_finished_game_answers_an_old_form_with_a_page_load(logged_in, gin, keeper):
    record(gin, keeper, {"knocker": "Ann", "deadwood": {"Ann": 0, "Bob": 90}})  # Ann 115
    response = logged_in.post(reverse("ledger:hand_create", args=[gin.pk]),
                              hand_post(2, "Bob", ("30", "5")), headers=HX)
    assert response.status_code == 204 and response["HX-Location"].endswith(f"/{gin.pk}/")
    assert gin.hands.count() == 1


def test_a_refused_correction_says_why_next_to_save(logged_in, gin, keeper):
    record(gin, keeper, {"knocker": "Ann", "deadwood": {"Ann": 3, "Bob": 24}})
    hand = gin.hands.get()
    data = {**hand_post(1, "Ann", ("12", "24")), "hand": hand.pk, "reason": "miscounted"}
    response = logged_in.post(reverse("ledger:hand_correct", args=[gin.pk, 1]), data)
    assert response.status_code == 422
    reason = re.search(r'id="save-error"[^>]*>(.*?)</div>', response.content.decode(), re.S)
    assert "10 or less" in html.unescape(reason.group(1))
    assert game_result(gin)["totals"]["Ann"]["final"] == 21
