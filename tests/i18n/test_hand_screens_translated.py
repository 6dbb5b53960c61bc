"""The hands speak the reader's language (issue 22): the game page with finished hands of gin
(a knock, a gin, an undercut, a draw), of Oklahoma (a spade up-card doubles) and of captain
play, the correction screen, a card table's report page, the other player's confirm page and
the share pages are drawn in English and in German, Spanish, French and Russian. The screens'
own English words (each checked on the English page first, so that a list cannot go stale)
and every catalog phrase the English page shows must be gone from the translated one.

The game page and the correction screen speak the reader's language (Accept-Language); the
report, confirm and share pages speak the table's (``Table.language``, docs/i18n.md), whoever
opens them."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from ledger import services
from tests.pages import text

from .catalogs import params
from .drawn import drawn_once
from .test_screens_translated import english_left

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("i18n-hand_screens")]

GIN = {"variant": "gin", "players": ["Anna", "Boris"], "setup": {"first_dealer": "Boris"},
       "hands": [{"knocker": "Anna", "deadwood": {"Anna": 5, "Boris": 17}},     # a knock
                 {"knocker": "Boris", "deadwood": {"Anna": 14, "Boris": 0}},    # a gin
                 {"knocker": "Anna", "deadwood": {"Anna": 8, "Boris": 6}},      # an undercut
                 {"draw": True}]}
OKLAHOMA = {"variant": "oklahoma", "players": ["Anna", "Boris"],
            "setup": {"first_dealer": "Boris"},
            "hands": [{"upcard": "5S", "knocker": "Anna", "deadwood": {"Anna": 4, "Boris": 20}},
                      {"upcard": "7D", "knocker": "Boris", "deadwood": {"Anna": 30, "Boris": 6}}]}
CAPTAIN = {"variant": "captain", "players": ["Cora", "Xaver", "Yuri"],
           "hands": [{"knocker": "Xaver", "deadwood": {"Xaver": 5, "Cora": 25}},
                     {"knocker": "Cora", "deadwood": {"Cora": 0, "Xaver": 15}}]}
CAPTAIN_FIVE = {"variant": "captain", "players": ["Rita", "Rolf", "Bea", "Ben", "Bert"],
                "setup": {"captains": ["Rita", "Rolf"], "opponents": ["Bea", "Ben"],
                          "sitter": "Bert"}, "hands": []}

# Each screen's English words, as the English page shows them: the hand lines, the results,
# the words around them.
SCREEN_WORDS = {
    "gin": ["Anna knocks 5 v Boris 17", "Boris gin v Anna 14",
            "Anna knocks 8 v Boris 6: Boris undercuts", "Draw", "Boris dealt", "Hand 4: Draw",
            "Undo hand 4", "Keep hand 4", "It stays in the history", "hand 0", "game 100",
            "Confirm from the other phone", "Boris scans this to confirm each hand you save",
            "Revoke the confirm link"],
    "oklahoma": ["Anna knocks 4 v Boris 20 ×2", "5♠ up", "Boris knocks 6 v Anna 30",
                 "7♦ up", "Undo hand 2", "Who confirms", "Confirm link",
                 "Optional: the other player confirms each hand"],
    "captain": ["Xaver knocks 5 v Cora 25", "Cora gin v Xaver 15", "Cora (captain) v Xaver",
                "Xaver dealt", "Undo hand 2", "Captain 40", "Opponents 20"],
    "correction": ["Fix hand 1", "Entered as:", "Anna knocks 5 v Boris 17", "Save correction",
                   "Cancel", "Why the correction?"],
    "report": ["Table 1 reports", "Table 1: Hand 1", "Send to the scorekeeper",
               "Rolf captain v Ben", "live", "Captains 0", "Opponents 0"],
    "confirm": ["Confirm", "Hand 4", "Draw: no score, correct?", "Correct", "Not correct",
                "Show the latest hand"],
    "shared_game": ["read-only", "Game 1", "Anna knocks 5 v Boris 17", "Boris gin v Anna 14",
                    "Anna knocks 8 v Boris 6: Boris undercuts", "Draw", "Boris dealt", "live",
                    "hand 0"],
    "shared_table": ["read-only", "4 hands", "2 hands", "Boris leads", "Anna leads",
                     "The captain leads", "Not begun", "Captain 40", "Captains 0",
                     "Money so far", "still in play: finished games only"],
}

# Catalog phrases these screens still show in English from words other parts of issue 22
# mark: the totals' short headers ("Pts Won Box Game Total", ledger/presentation/columns.py)
# and the variants' names ("Captain play", ledger/presentation/catalog.py).
OTHERS = ["Game", "Captain"]

def _screens(client, keeper):
    """name -> function(language) returning the screen's visible text in that language."""
    table = services.table_create(name="Freitag", scorekeepers=[keeper], language="en")
    session = services.session_create(table=table, currency="EUR", rate="0.05",
                                      created_by=keeper)
    client.force_login(keeper)

    def play(record: dict):
        game = services.game_start(session=session, variant=record["variant"],
                                   players=record["players"], started_by=keeper,
                                   setup=record.get("setup"))
        for entry in record["hands"]:
            services.hand_record(game=game, entry=entry, recorded_by=keeper,
                                 idempotency_key=uuid.uuid4())
        return game

    gin, oklahoma, captain = play(GIN), play(OKLAHOMA), play(CAPTAIN)
    table_game = play(CAPTAIN_FIVE)
    confirm = services.confirm_link_get_or_create(game=gin, player="Boris", created_by=keeper)
    report = services.report_links_get_or_create(game=table_game, created_by=keeper)[0]
    shared_game = services.share_link_get_or_create(table=table, game=gin, created_by=keeper)
    shared_table = services.share_link_get_or_create(table=table, created_by=keeper)

    def screen(url):  # the reader's language
        return lambda code: text(client.get(url, HTTP_ACCEPT_LANGUAGE=code))

    def tables(url):  # the table's language, whatever the reader's
        def draw(code):
            services.table_set_locale(table=table, language=code)
            return text(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
        return draw

    return {
        "gin": screen(reverse("ledger:game_detail", args=[gin.pk])),
        "oklahoma": screen(reverse("ledger:game_detail", args=[oklahoma.pk])),
        "captain": screen(reverse("ledger:game_detail", args=[captain.pk])),
        "correction": screen(reverse("ledger:hand_correct", args=[gin.pk, 1])),
        "report": tables(reverse("ledger:report_page", args=[report.token])),
        "confirm": tables(reverse("ledger:confirm_page", args=[confirm.token])),
        "shared_game": tables(reverse("ledger:shared", args=[shared_game.token])),
        "shared_table": tables(reverse("ledger:shared", args=[shared_table.token])),
    }


screens = drawn_once(_screens)


@pytest.mark.parametrize("name", sorted(SCREEN_WORDS))
def test_the_english_screen_shows_its_words(screens, name):
    english = screens[name]("en")
    assert [w for w in SCREEN_WORDS[name] if w not in english] == []


@pytest.mark.parametrize("code", params())
@pytest.mark.parametrize("name", sorted(SCREEN_WORDS))
def test_no_english_word_of_the_screen_is_left(screens, name, code):
    english, translated = screens[name]("en"), screens[name](code)
    left = english_left(english, translated, code, SCREEN_WORDS[name], ignore=OTHERS)
    assert left == [], f"{name} in {code}: English left: {left}\n{translated}"


def test_a_german_hand_line_says_who_knocked_the_counts_and_the_points(screens):
    page = screens["gin"]("de")
    for line in ("Anna klopft 5 gegen Boris 17", "Boris Gin gegen Anna 14",
                 "Anna klopft 8 gegen Boris 6: Boris unterbietet", "Boris gab",
                 "Spiel 4: Remis", "Spiel 4 rückgängig", "Spiel 0", "Partie 100"):
        assert line in page, line
    # the points beside the line: Anna's knock +12, Boris's gin 25 + 14 = +39
    assert "Anna klopft 5 gegen Boris 17 Boris gab 12 +12 0" in page
    assert "Boris Gin gegen Anna 14 Anna gab 12 39 +39" in page
    shared = screens["shared_table"]("de")
    for words in ("4 Spiele", "Boris führt", "Der Kapitän führt", "Kapitän 40", "Geld bisher"):
        assert words in shared, words


def test_russian_counts_hands_with_russian_plurals(screens):
    shared = screens["shared_table"]("ru")
    assert "4 раздачи" in shared and "2 раздачи" in shared and "0 раздач" in shared
    assert "Anna стучит 5 против Boris 17" in screens["shared_game"]("ru")


def test_a_hand_saved_and_a_hand_refused_are_said_in_german(client, keeper):
    table = services.table_create(name="Freitag", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="EUR", rate="0.05",
                                      created_by=keeper)
    game = services.game_start(session=session, variant="gin", players=["Anna", "Boris"],
                               started_by=keeper, setup={"first_dealer": "Boris"})
    client.force_login(keeper)
    url = reverse("ledger:hand_create", args=[game.pk])
    refused = text(client.post(url, {"number": 1, "key": uuid.uuid4(), "t1_knocker": "Anna",
                                     "t1_kind": "knock", "t1_c0": "5"},
                               HTTP_ACCEPT_LANGUAGE="de"))
    assert "Gib die Punkte von Boris ein." in refused and "Enter Boris" not in refused
    saved = text(client.post(url, {"number": 1, "key": uuid.uuid4(), "t1_knocker": "Anna",
                                   "t1_kind": "knock", "t1_c0": "5", "t1_c1": "17"},
                             HTTP_ACCEPT_LANGUAGE="de", follow=True))
    assert "Spiel 1 eingetragen: Anna +12." in saved
