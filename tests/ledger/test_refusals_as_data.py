"""Refusals are data (issue 39): a service's refusal carries a code and its facts, and the
presentation's one function (``ledger.presentation.refusals.refusal_words``) words it in
the language in force, with the very sentences the catalogs translate."""

from __future__ import annotations

import datetime
import uuid

import pytest
from django.utils import translation
from django.utils.translation import gettext

from ledger import services
from ledger.exceptions import GameNotEmpty, GameNotInProgress, LedgerError, SessionSettled
from ledger.presentation.refusals import SENTENCES, STALE, WORDS, refusal_words
from tests.factories import ANN_KNOCKS, gin_game

from .conftest import load_case

pytestmark = pytest.mark.django_db

MONDAY = datetime.date(2026, 11, 23)


def test_a_refusal_carries_its_code_and_facts_and_is_worded_by_the_presentation(session,
                                                                                 keeper):
    game = gin_game(session, keeper, hands=[ANN_KNOCKS])
    with pytest.raises(GameNotEmpty) as refused:
        services.game_delete(game=game, deleted_by=keeper)
    exc = refused.value
    assert (exc.code, exc.params) == ("game_has_hands", {"n": 1})
    expected = ("Game 1 has hands (or had them: an undone hand stays in the history), so it "
                "stays; abandon it instead.")
    assert refusal_words(exc) == refusal_words(exc) == expected
    with translation.override("de"):  # the same facts, in the language of the page
        german = refusal_words(LedgerError(code="game_has_hands", n=1))
    assert german == gettext_in("de", SENTENCES["game_has_hands"]) % {"n": 1}
    assert german != expected and "1" in german


def test_a_status_is_a_code_in_the_record_and_a_word_on_the_page(session, keeper):
    game = gin_game(session, keeper)
    services.game_abandon(game=game, abandoned_by=keeper)
    with pytest.raises(GameNotInProgress) as refused:
        services.game_abandon(game=game, abandoned_by=keeper)
    assert refused.value.params == {"n": 1, "status": "abandoned"}
    assert refusal_words(refused.value) == "Game 1 is already Abandoned."


def test_a_settled_evening_refuses_with_its_date_as_a_date(keeper):
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    session = services.session_create(table=table, date=MONDAY, currency="USD", rate="0.05",
                                      created_by=keeper)
    game = services.game_import(session=session, record=load_case("gin-standard-game"),
                                imported_by=keeper)
    services.session_settle(session=session, settled_by=keeper)
    with pytest.raises(SessionSettled) as refused:
        services.hand_record(game=game, entry={"draw": True}, recorded_by=keeper,
                             idempotency_key=uuid.uuid4())
    assert (refused.value.code, refused.value.params) == ("session_settled_games",
                                                          {"date": MONDAY})
    assert refusal_words(refused.value).startswith("The evening of Monday, November 23, 2026 is "
                                            "settled;")


def test_the_record_has_no_words_of_its_own_for_a_refusal():
    """The record imports nothing of the presentation, even at run time: no hook hands it
    the wording function, so a refusal raised as data is only its code and facts until a
    screen words it, in the language of the page that shows it."""
    from ledger import exceptions

    assert not hasattr(exceptions, "words_with") and not hasattr(LedgerError, "message")
    with translation.override("de"):
        exc = LedgerError(code="game_has_hands", n=1)  # raised while German was in force
    assert str(exc) == "game_has_hands (n=1)"
    with translation.override("fr"):
        french = refusal_words(exc)
    assert french == gettext_in("fr", SENTENCES["game_has_hands"]) % {"n": 1}
    assert french != gettext_in("de", SENTENCES["game_has_hands"]) % {"n": 1}


def test_a_service_that_words_its_own_refusal_keeps_its_words():
    exc = LedgerError("Say why.")
    assert (exc.code, exc.params, refusal_words(exc), str(exc)) == (
        "refused", {}, "Say why.", "Say why.")


@pytest.mark.parametrize("language", ["de", "es", "fr", "ru"])
def test_every_sentence_of_a_refusal_is_translated(language):
    untranslated = [code for code, sentence in [*SENTENCES.items(), *STALE.items()]
                    if gettext_in(language, sentence) == sentence]
    assert untranslated == []
    assert not (set(SENTENCES) & set(WORDS) or set(STALE) & set(WORDS)
                or set(SENTENCES) & set(STALE))


def gettext_in(language: str, msgid: str) -> str:
    with translation.override(language):
        return gettext(msgid)
