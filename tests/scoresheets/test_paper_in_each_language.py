"""Paper speaks the table's language (issue 22, "Local everywhere"): every printed document
(game sheets of several variants, the blank sheet of a stored game and of the evening's next
game, the session report) is rendered for a table in each shipped language, with long names,
and

- passes the layout checks of every printed page (tests/scoresheets/layout.py: nothing past
  an edge, nothing drawn over anything else, no row split, no heading left alone), in the
  longer German words and in Cyrillic too;
- keeps none of the paper's English words (a list per document, each checked on the English
  PDF first so the list cannot go stale) and none of the catalog's phrases the English PDF
  shows, unless the language writes them the same;
- writes money as the language does ("1.234,50" in German) and prints on Letter in English
  (US dollars) and on A4 in the other languages.

Each document is laid out once per language (a module-scoped fixture renders them all inside
one transaction rolled back at the end); the tests only read what was printed.
"""

from __future__ import annotations

import functools
import io
import re
from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from pypdf import PdfReader

from ledger import services
from ledger.clock import table_voice
from scoresheets import documents, selectors
from scoresheets.blank import evening_blank_context
from tests.i18n.catalogs import TRANSLATED
from tests.i18n.test_screens_translated import phrases, shows
from tests.rules.helpers import knock, record

from .conftest import pdf_pages
from .layout import layout_problems, render
from .playout import NAMES, play, setup_of

# django_db: the test database is made for this module (the fixture below writes and rolls
# back its own transaction; the tests only read what was printed).
# one worker lays the documents out (the module's fixture, about a minute): without the group
# each xdist worker that got one of its tests laid them all out again
pytestmark = [pytest.mark.django_db, pytest.mark.engine_independent,
              pytest.mark.xdist_group("paper_in_each_language")]

LANGUAGES = ["en", *TRANSLATED]
TABLE = "The Featherstonehaugh Thursday Night Gin Rummy & Supper Society"
CURRENCY = {"en": "USD", "de": "EUR", "es": "EUR", "fr": "EUR", "ru": "RUB"}
#: (document, variant, players) of the games played out with long names
GAMES = [("hollywood", "hollywood", 2), ("box", "box", 3), ("captain-7", "captain", 7),
         ("partnership-6", "partnership", 6), ("cap-it", "cap-it", 6)]
#: The width of a page in points: Letter and A4.
WIDTHS = {"letter": 612.0, "A4": 595.3}

# The paper's English words, per document (each must stand in the English PDF).
COMMON = ["Stakes", "Players", "Rules agreed before the first deal", "(to prevent arguments)",
          "End of the game", "Checked and agreed at the table:", "Page 1 of", "printed",
          "Wins / pays"]
GIN_RULES = ["Game to", "Gin bonus", "Undercut bonus", "Knock limit", "Shutout",
             "A tie is an undercut", "Next dealer"]
PAPER_WORDS = {
    "money": [*COMMON, "Score sheet", "Hands", "Play", "Hand points", "Final total",
              "Money", "pays", "per point", "First dealer", "Dealer", *GIN_RULES],
    "hollywood": [*COMMON, "Score sheet", "Hands", "Dealer", "Net over the three games",
                  "Net points", "Winner", "Third column counts double", "Final total"],
    "box": [*COMMON, "Score sheet", "Hands", "Box (deals)", "Sits out", "Cut order",
            "Money between three", "Hand points"],
    "captain-7": [*COMMON, "Score sheet", "Hands", "Dealer", "Captains", "Opponents",
                  "Sits out first", "Table score", "Sits out / change", "Captains cover",
                  "Side", "Stake", "Unequal stakes", "Lower side"],
    "partnership-6": [*COMMON, "Score sheet", "Hands", "Dealer", "Table score", "Stake",
                      "Unequal stakes", "Lower side", "Final total"],
    "cap-it": [*COMMON, "Score sheet", "Rounds", "Contract", "Went out", "Share", "Player",
               "Shares won", "From the pot", "Ante", "Round share", "each",
               "Ace counts", "Round winner by", "lowest in the round", "Seats"],
    "blank": [*COMMON, "Blank score sheet", "Hands", "write each hand on its row",
              "Hand points", "Final total", "Payments:", "Money", "First dealer", "Dealer",
              *GIN_RULES],
    "blank-captain-5": [*COMMON, "Blank score sheet", "Hands", "Captains", "Opponents",
                        "Sits out first", "Table score", "Dealer", "Payments:"],
    "blank-cap-it": [*COMMON, "Blank score sheet", "Rounds", "write each round on its row",
                     "Player", "Shares won", "From the pot", "Ante", "Payments:"],
    "report": ["Session report", "The games of the evening", "Final totals", "Result",
               "Each player's net", "every game", "Payments", "Paid", "From", "Amount",
               "Initials", "Scorekeeper", "Page 1 of", "printed", "per point", "Net"],
}
DOCUMENTS = list(PAPER_WORDS)


def says(text: str, words: str) -> bool:
    """Whether the PDF's text holds ``words`` as words, as written or in capitals (the
    headings are set in capitals by the stylesheet). A word broken at the end of a line is
    read whole ("change-" "ment" is the French "changement", not the English "change")."""
    text = _joined(text)
    return shows(text, words) or shows(text, words.upper())


@functools.lru_cache(maxsize=128)
def _joined(text: str) -> str:
    """``text`` with the words broken at a line's end made whole again: once per document's
    text, not once for each of the catalog's thousand phrases looked for in it."""
    return re.sub(r"(\w)[-\u00ad\u2010]\s+(\w)", r"\1\2", text)

# Catalog phrases the translated PDFs may show in English: the names the players gave their
# sides ("Our Magnificent Side" holds the catalog's "Side").
NOT_MARKED_YET = ["Side"]


@dataclass
class Printed:
    problems: list[str]
    data: bytes
    pages: list[str]
    widths: list[float]
    paper: str

    @functools.cached_property
    def text(self) -> str:
        return " ".join(" ".join(self.pages).split())


def _print(template: str, context: dict, paper: str) -> Printed:
    document = render(template, context, paper)
    data = document.write_pdf()
    reader = PdfReader(io.BytesIO(data))
    return Printed(problems=layout_problems(document), data=data, pages=pdf_pages(data),
                   widths=[round(float(page.mediabox.width), 1) for page in reader.pages],
                   paper=paper)


def _stakes(variant: str, currency: str) -> dict:
    if variant == "cap-it":
        return {"ante": "250.00", "currency": currency}
    return {"rate": "0.75", "per_points": 1, "currency": currency}


def _print_language(code: str, user) -> dict[str, Printed]:
    currency = CURRENCY[code]
    # (one name per keeper: the table's language code after it)
    table = services.table_create(name=f"{TABLE} {code}", scorekeepers=[user], language=code)
    session = services.session_create(table=table, currency=currency, rate="0.75",
                                      created_by=user, place="The back room, upstairs")
    paper = table.paper_for(currency)
    games = {}
    # a game that settles on 50 hand points at 24.69 a point: 1234.50 changes hands
    games["money"] = services.game_import(session=session, record=record(
        "gin", ("Ann", "Bob"), [knock("Ann", 5, "Bob", 55)], stakes=("24.69", 1, currency),
        abandoned=True), imported_by=user)
    for seed, (name, variant, count) in enumerate(GAMES):
        games[name] = services.game_import(session=session, record=play(
            variant, NAMES[:count], stakes=_stakes(variant, currency), rules={}, hands=None,
            seed=seed, big=False), imported_by=user)
    services.session_settle(session=session, settled_by=user)
    out = {}
    with table_voice(table):
        for name, game in games.items():
            out[name] = _print(documents.GAME_TEMPLATE, selectors.game_sheet_context(game),
                               paper)
        out["blank"] = _print(documents.BLANK_TEMPLATE,
                              selectors.blank_sheet_context(games["money"]), paper)
        for variant, count in (("captain", 5), ("cap-it", 4)):
            players = list(reversed(NAMES[:count]))
            context, _ = evening_blank_context(session, variant, players,
                                               setup_of(variant, players))
            out[f"blank-{variant}-{count}" if variant == "captain" else "blank-cap-it"] = \
                _print(documents.BLANK_TEMPLATE, context, paper)
        out["report"] = _print(documents.SESSION_TEMPLATE,
                               selectors.session_report_context(session), paper)
    return out


@pytest.fixture(scope="module")
def printed(django_db_setup, django_db_blocker) -> dict[str, dict[str, Printed]]:
    """language -> document -> what was printed (each laid out once)."""
    with django_db_blocker.unblock(), transaction.atomic():
        user = get_user_model().objects.create_user("paper-keeper", password="pw")
        out = {code: _print_language(code, user) for code in LANGUAGES}
        transaction.set_rollback(True)
    return out


@pytest.mark.parametrize("document", DOCUMENTS)
@pytest.mark.parametrize("code", LANGUAGES)
def test_every_page_stays_whole_in_every_language(printed, code, document):
    assert printed[code][document].problems == []


@pytest.mark.parametrize("code", LANGUAGES)
def test_letter_in_english_and_a4_in_the_other_languages(printed, code):
    expected = "letter" if code == "en" else "A4"
    for name, doc in printed[code].items():
        assert doc.paper == expected, name
        assert set(doc.widths) == {WIDTHS[expected]}, name


@pytest.mark.parametrize("document", DOCUMENTS)
def test_the_english_paper_says_the_listed_words(printed, document):
    text = printed["en"][document].text
    missing = [words for words in PAPER_WORDS[document] if not says(text, words)]
    assert missing == []


@pytest.mark.parametrize("document", DOCUMENTS)
@pytest.mark.parametrize("code", TRANSLATED)
def test_no_english_word_is_left_on_translated_paper(printed, code, document):
    text = printed[code][document].text
    left = [words for words in PAPER_WORDS[document] if says(text, words)]
    assert left == [], f"{code} {document}: still English: {left}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_catalog_phrase_on_the_english_paper_is_translated(printed, code):
    left = []
    for english, translation in phrases(code):
        if english in NOT_MARKED_YET or english == translation:
            continue
        for document in DOCUMENTS:
            if says(printed["en"][document].text, english) and says(
                    printed[code][document].text, english):
                text = printed[code][document].text
                at = text.find(english)
                left.append((document, english, text[max(at - 40, 0):at + 40]))
    assert left == [], f"{code}: catalog phrases still in English on paper: {left}"


def test_german_paper_writes_money_as_german_does(printed):
    sheet = printed["de"]["money"].text.replace("\u00a0", " ")
    assert "Bob zahlt Ann 1.234,50 €" in sheet  # the symbol where German puts it
    assert "+1.234,50" in sheet and "\u22121.234,50" in sheet
    assert "24,69 € pro Punkt" in sheet
    report = printed["de"]["report"].text
    assert "Bob Ann 1.234,50" in report
    assert "Seite 1 von" in report
    english = printed["en"]["money"].text
    assert "Bob pays Ann $1,234.50" in english and "$24.69 per point" in english


@pytest.mark.parametrize(("code", "words"), [
    ("de", ["Spielzettel", "Ende der Partie", "Am Tisch geprüft und anerkannt:"]),
    ("es", ["Hoja de puntos", "Final de la partida", "Revisado y aceptado en la mesa:"]),
    ("fr", ["Feuille de marque", "Fin de la partie", "Vérifié et approuvé à la table :"]),
    ("ru", ["Лист счёта", "Конец партии", "Проверено и согласовано за столом:"]),
])
def test_the_captain_sheet_speaks_the_tables_language(printed, code, words):
    text = printed[code]["captain-7"].text
    for word in words:
        assert says(text, word), word
    assert re.search(r"\d", text)
