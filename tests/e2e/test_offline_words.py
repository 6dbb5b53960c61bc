"""What the offline queue says on the phone, in the page's language (issue 37): the Save
button and the title name the hand the form is for wherever the language puts the number,
the line under "who deals" comes from the catalogs, and a hand refused at Save is said at
its field only, not again in the list of hands not sent yet. Chromium at 360x740, in
English and German. Expected scores are the rules' (RULES.md §2, two-hand gin, standard
preset): a knock scores the difference of the deadwood counts to the knocker; the knock
limit is 10."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ledger import services
from ledger.models import Hand
from tests.factories import ANN_KNOCKS, gin_game

from .helpers import SCALE, duel, login, score, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}

WORDS = {
    "en": {"save": "Save hand {n}", "title": "Hand {n}",
           "unknown": "Who deals and plays is worked out when the hands before are sent.",
           "recorded": "Hand {n} recorded"},
    "de": {"save": "Spiel {n} speichern", "title": "Spiel {n}",
           "unknown": "Wer gibt und wer spielt, steht fest, sobald die Spiele davor gesendet "
                      "sind.",
           "recorded": "Spiel {n} eingetragen"},
}


@pytest.fixture
def evening(keeper):
    table = services.table_create(name="Basement", scorekeepers=[keeper])
    return services.session_create(table=table, currency="USD", rate="0.01", created_by=keeper)


@pytest.fixture
def phone(browser, live_server):
    contexts = []

    def open_(code: str, game):
        context = browser.new_context(viewport=PHONE, locale=code, service_workers="block",
                                      device_scale_factor=SCALE)
        contexts.append(context)
        page = context.new_page()
        login(page, live_server.url, "keeper")
        page.goto(f"{live_server.url}/games/{game.pk}/")
        return context, page

    yield open_
    for context in contexts:
        context.close()


def save_button(page, words, n):
    return page.get_by_role("button", name=words["save"].format(n=n), exact=True)


@pytest.mark.parametrize("code", ["en", "de"])
def test_offline_the_form_names_the_hand_after_the_kept_ones_in_the_pages_language(
        phone, evening, keeper, code):
    # three hands recorded: the page is drawn for hand 4
    gin = gin_game(evening, keeper, preset="standard", hands=[ANN_KNOCKS] * 3)
    words = WORDS[code]
    context, page = phone(code, gin)
    expect(save_button(page, words, 4)).to_be_visible()
    note = page.locator("#next .next-unknown-note")
    expect(note).to_be_hidden()  # nothing kept: who deals is the page's

    context.set_offline(True)
    for n, (knocker, counts) in enumerate(
            [("Ann", {0: "5", 1: "20"}), ("Bob", {0: "10", 1: "3"}), (None, {})], start=4):
        duel(page, 1, knocker, counts)
        save_button(page, words, n).click()
    # three hands kept: the form is for hand 7, its button and its title say so
    expect(save_button(page, words, 7)).to_be_visible()
    expect(page.locator("#next .next-title")).to_have_text(words["title"].format(n=7))
    expect(page.locator("#offline-queue .queue-item")).to_have_count(3)
    # who deals hand 7 depends on the hands kept: said in the page's language
    expect(note).to_be_visible()
    expect(note).to_have_text(words["unknown"])
    page.evaluate("document.getElementById('next').scrollIntoView({block: 'center'})")
    shot(page, f"offline-words-kept-{code}", full_page=False)

    context.set_offline(False)
    expect(page.locator(".flash")).to_contain_text(words["recorded"].format(n=6),
                                                   timeout=15_000)
    expect(save_button(page, words, 7)).to_be_visible()
    expect(note).to_be_hidden()
    assert Hand.objects.filter(game=gin, voided_at=None).count() == 6
    # Ann 3 x 12 + 15; Bob 7; the draw nothing
    assert score(page, "Ann") == "51" and score(page, "Bob") == "7"


@pytest.mark.parametrize("code", ["en", "de"])
def test_a_hand_refused_at_save_is_said_at_its_field_not_in_the_list(
        phone, evening, keeper, code):
    gin = gin_game(evening, keeper, preset="standard", hands=[ANN_KNOCKS])
    words = WORDS[code]
    context, page = phone(code, gin)
    duel(page, 1, "Ann", {0: "15", 1: "20"})  # a knock above the knock limit (10)
    save_button(page, words, 2).click()
    # the reason at Ann's count and next to Save, the hand still in the form
    expect(page.locator(".field.has-error .error").first).to_contain_text("15")
    expect(page.locator("#save-error")).to_contain_text("10")
    assert page.locator("input[name=t1_c0]").input_value() == "15"
    expect(save_button(page, words, 2)).to_be_enabled()
    # not again as a hand "not sent yet" whose sending "stopped", nor under the totals
    expect(page.locator("#offline-queue")).to_be_hidden()
    expect(page.locator("#score-pending")).to_have_count(0)
    shot(page, f"offline-words-refused-{code}", full_page=False)
    # kept on the phone all the same: a reload brings it back into the form, still unlisted
    page.reload()
    expect(page.locator(".field.has-error .error").first).to_contain_text("15")
    assert page.locator("input[name=t1_c0]").input_value() == "15"
    expect(page.locator("#offline-queue")).to_be_hidden()

    page.fill("input[name=t1_c0]", "6")
    save_button(page, words, 2).click()
    expect(page.locator(".flash")).to_contain_text(words["recorded"].format(n=2),
                                                   timeout=15_000)
    expect(page.locator("#offline-queue")).to_be_hidden()
    assert [h.entry for h in Hand.objects.filter(game=gin, voided_at=None).order_by("number")] \
        == [ANN_KNOCKS, {"knocker": "Ann", "deadwood": {"Ann": 6, "Bob": 20}}]
    # Ann 12 + 14
    assert score(page, "Ann") == "26" and score(page, "Bob") == "0"
