"""Words a walk of two evenings on phones found in English or written the English way
(issue 37.8 and the word parts of 37.14), each drawn in the languages it was found in.

Hollywood's "games 600 · 600 · 600"; CAP-IT's five contracts, its shares and pot written
"2.00" without a currency; a score "+1800" where German writes "+1.800"; "Use this
device's zone"; French "Points de Eve" and "Greta est sorti"; Oklahoma's refusal naming the
up-card "7H"; the one players' link of CAP-IT called "The tables' links and QR codes"; "no
tie" as a label; a free-typed time zone ("localtime" and "Factory" taken); "Box bonus"
where most players say the line bonus."""

from __future__ import annotations

import copy
import re
import uuid
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from ledger import services
from ledger.cleaning import Refused, clean_time_zone
from ledger.forms import HandForm
from ledger.forms.tables import TableLocaleForm
from ledger.presentation import problems as shown
from ledger.presentation.catalog import SETTING_LABELS
from ledger.presentation.money import format_money
from ledger.presentation.refusals import refusal_words
from ledger.rules import RecordError, score_record
from tests.pages import text

from ..ledger.conftest import load_case
from ..ledger.test_table_reports import capit
from .catalogs import TRANSLATED
from .drawn import LANGUAGES

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
CONTRACTS = ["two sets of 3", "a set of 3 and a run of 4", "two runs of 4", "three sets of 3",
             "a run of 3 and a run of 7"]


@pytest.fixture
def evening(keeper):
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    return services.session_create(table=table, currency="USD", rate="0.05",
                                   created_by=keeper)


def _page(client, keeper, name, pk, code) -> str:
    """A page in ``code``: the account's language on screens, the table's on paper."""
    from ledger.models import Table
    Table.objects.update(language=code)
    client.force_login(keeper)
    return text(client.get(reverse(name, args=[pk]), HTTP_ACCEPT_LANGUAGE=code))


# -- Hollywood's games and the scores' digits ---------------------------------------------

@pytest.mark.parametrize("code", ["de", "fr", "ru"])
def test_hollywoods_games_are_named_in_the_language(client, keeper, evening, code):
    game = services.game_import(session=evening, record=load_case("hollywood-columns"),
                                imported_by=keeper)
    words = {"de": "Partien 79 · 54 · 36", "fr": "parties 79 · 54 · 36",
             "ru": "партии 79 · 54 · 36"}[code]
    for page in (_page(client, keeper, "ledger:game_detail", game.pk, code),
                 _page(client, keeper, "scoresheets:session_html", evening.pk, code)):
        assert words in page
        assert "games 79" not in page


@pytest.mark.parametrize(("code", "net", "score"), [
    ("en", "+1,800", "1,800"), ("de", "+1.800", "1.800"), ("fr", "+1\u202f800", "1\u202f800"),
    ("ru", "+1\xa0800", "1\xa0800")])
def test_a_score_is_grouped_as_the_language_groups_a_number(code, net, score):
    from ledger.templatetags.money import points, signed
    with translation.override(code):
        assert format_money(1800, sign=True) == net  # Hollywood's net points
        assert signed(-1800) == "\u2212" + net[1:]
        assert points(1800) == score
        assert points(80) == "80"


# -- CAP-IT: its contracts, shares and pot ------------------------------------------------

@pytest.mark.parametrize("code", TRANSLATED)
def test_the_contracts_are_said_in_every_language(code):
    from ledger.presentation.catalog import contract_text
    with translation.override(code):
        words = [contract_text(contract) for contract in CONTRACTS]
    assert not set(words) & set(CONTRACTS)
    assert len(set(words)) == 5


@pytest.mark.parametrize("code", ["de", "fr", "ru"])
def test_capit_on_screen_and_on_paper_says_its_contracts_shares_and_pot(client, keeper, evening,
                                                                       code):
    game = services.game_import(session=evening, record=load_case("cap-it-pot"),
                                imported_by=keeper)
    from ledger.presentation.catalog import contract_text
    with translation.override(code):
        first = contract_text("two sets of 3")
        pot, share, took = (format_money(amount, "USD", show_currency=True)
                            for amount in ("20.00", "2.00", "15.00"))
    screen = _page(client, keeper, "ledger:game_detail", game.pk, code)
    paper = _page(client, keeper, "scoresheets:game_html", game.pk, code)
    for page in (screen, paper):
        assert first in page
        assert not any(contract in page for contract in CONTRACTS), page
        assert " ".join(share.split()) in page and "A 2.00" not in page
        assert " ".join(took.split()) in page and "15.00" not in page
    assert " ".join(pot.split()) in screen  # "lowest wins · pot 20,00 $"
    assert "20.00" not in screen


def test_the_next_rounds_contract_is_said_in_german(client, keeper, evening):
    game = capit(evening, keeper)
    page = _page(client, keeper, "ledger:game_detail", game.pk, "de")
    assert "zwei Sätze zu 3" in page and "two sets of 3" not in page


def test_capits_one_players_link_is_named_in_the_singular(client, keeper, evening):
    game = capit(evening, keeper)
    services.report_links_get_or_create(game=game, created_by=keeper)
    page = _page(client, keeper, "ledger:game_detail", game.pk, "en")
    assert "The link and its QR code" in page and "Revoke the report link" in page
    assert "The tables' links" not in page and "report links" not in page


# -- French elision and agreement, Russian agreement -----------------------------------------

def test_french_elides_de_before_a_name_that_begins_with_a_vowel():
    spec = {"rounds": False, "duels": [{"players": ["Eve", "Bob"]}], "upcard": False,
            "big_gin": True, "rules": {}}
    with translation.override("fr"):
        form = HandForm(spec=spec)
        labels = [str(form.fields[name].label) for name in ("t1_c0", "t1_c1")]
        cards = str(form.fields["t1_cards0"].label)
    assert labels == ["Points d\u2019Eve", "Points de Bob"]
    assert cards == "Cartes d\u2019Eve"


def test_a_french_refusal_elides_before_the_players_name():
    problem = _refusal({"upcard": "7H", "knocker": "Ann", "deadwood": {"Ann": 9, "Bob": 20}})
    with translation.override("fr"):
        assert shown.at_field(problem, "count").startswith("Points d\u2019Ann\u00a0:")


@pytest.mark.parametrize("code", ["fr", "ru"])
def test_who_went_out_needs_no_agreement_with_the_players_gender(client, keeper, evening, code):
    game = services.game_import(session=evening, record=load_case("cap-it-pot"),
                                imported_by=keeper)
    page = _page(client, keeper, "ledger:game_detail", game.pk, code)
    assert {"fr": "A sort", "ru": "A выходит"}[code] in page
    assert "est sorti" not in page and "вышел" not in page


# -- the word parts of 37.14 ------------------------------------------------------------------

OKLAHOMA = {"format": "tablestakes.game/1", "variant": "oklahoma", "players": ["Ann", "Bob"],
            "setup": {"first_dealer": "Ann"}, "hands": []}


def _refusal(hand: dict):
    record = copy.deepcopy(OKLAHOMA)
    record["hands"] = [hand]
    with pytest.raises(RecordError) as caught:
        score_record(record)
    return caught.value.details[0]


@pytest.mark.parametrize(("upcard", "count", "shown_card"), [("7H", 9, "7\u2665"),
                                                             ("AH", 1, "A\u2665")])
def test_oklahomas_refusal_writes_the_up_card_as_every_page_does(upcard, count, shown_card):
    problem = _refusal({"upcard": upcard, "knocker": "Ann",
                        "deadwood": {"Ann": count, "Bob": 20}})
    with translation.override("en"):
        said = [shown.line(problem), shown.at_field(problem, "count"), shown.words(problem),
                shown.field_words(problem, "t1_c0", problem.hint)]
    for words in said:
        assert f"the up-card {shown_card}" in words, words
        assert f"up-card {upcard}" not in words


def test_the_oklahoma_refusal_on_the_page_names_the_card(client, keeper):
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="USD", created_by=keeper)
    game = services.game_start(session=session, variant="oklahoma", players=["Ann", "Bob"],
                               setup={"first_dealer": "Ann"}, started_by=keeper,
                               preset="standard")
    client.force_login(keeper)
    response = client.post(reverse("ledger:hand_create", args=[game.pk]), {
        "key": str(uuid.uuid4()), "number": 1, "up_rank": "7", "up_suit": "H",
        "t1_knocker": "Ann", "t1_kind": "knock", "t1_c0": "9", "t1_c1": "20"},
        HTTP_ACCEPT_LANGUAGE="en")
    page = text(response)
    assert "7\u2665" in page and "7H" not in page


@pytest.mark.parametrize("code", LANGUAGES)
def test_no_tie_is_a_label_with_a_capital(code):
    spec = {"rounds": False, "duels": [{"players": ["Ann", "Bob"]}], "upcard": False,
            "big_gin": True, "rules": {}, "cut_candidates": ["Ann", "Bob"]}
    with translation.override(code):
        label = dict(HandForm(spec=spec).fields["cut_loser"].choices)["-no-tie-"]
    assert str(label)[0].isupper(), label


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_box_bonus_names_the_line_bonus_too(code):
    with translation.override(code):
        label = SETTING_LABELS["box_bonus"]
    assert re.search(r"\(.+\)", label), label
    if code == "en":
        assert label == "Box (line) bonus"


def test_the_glossaries_name_the_box_line_bonus():
    assert "Box (line) bonus" in (ROOT / "docs" / "glossary.md").read_text()
    for code in TRANSLATED:
        with translation.override(code):
            label = SETTING_LABELS["box_bonus"]
        assert label in (ROOT / "docs" / "glossary" / f"{code}.md").read_text(), code


# -- the table's time zone ----------------------------------------------------------------

@pytest.mark.parametrize("name", ["localtime", "Factory", "Mars/Olympus", "posixrules"])
def test_names_that_are_no_places_zone_are_refused_with_the_reason(name):
    with pytest.raises(Refused) as refused:
        clean_time_zone(name)
    assert f"'{name}' is not a time zone; choose one from the list" in refusal_words(refused.value)


def test_a_place_and_an_old_alias_are_still_taken():
    assert clean_time_zone(" Europe/Berlin ") == "Europe/Berlin"
    assert clean_time_zone("US/Eastern") == "US/Eastern"


def test_the_zone_is_chosen_from_a_list_the_keyboard_searches():
    from ledger.cleaning import time_zone_choices
    zones = time_zone_choices()
    assert "Europe/Berlin" in zones and "America/New_York" in zones and "UTC" in zones
    assert not {"localtime", "Factory", "US/Eastern", "Etc/GMT+5"} & set(zones)
    assert list(zones) == sorted(zones)
    with translation.override("de"):
        html = str(TableLocaleForm(initial={"time_zone": "UTC"})["time_zone"])
    assert 'list="time-zones"' in html and '<datalist id="time-zones">' in html
    assert '<option value="Europe/Berlin">' in html
    # the device's zone button, in the page's language (static/ledger/timezone.js)
    assert 'data-browser-time-zone-label="Zone dieses Geräts nehmen: "' in html


@pytest.mark.parametrize("code", ["de", "fr", "ru"])
def test_the_table_page_refuses_localtime_in_the_language(client, keeper, code):
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    client.force_login(keeper)
    response = client.post(reverse("ledger:table_locale", args=[table.pk]),
                           {"language": "en", "time_zone": "localtime"},
                           HTTP_ACCEPT_LANGUAGE=code, follow=True)
    table.refresh_from_db()
    assert table.time_zone == "UTC"
    page = text(response)
    assert "localtime" in page and "is not a time zone" not in page
