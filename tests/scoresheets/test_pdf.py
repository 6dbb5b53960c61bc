"""The printed documents, read back with pypdf: the numbers the rules give for the demo
evening (RULES.md §5 examples 5, 9, 11 and 13 are its games), corrections, blank sheets,
pagination of a 300-hand game, paper sizes, fonts and no network."""

from __future__ import annotations

import io
import re
import socket
import uuid

import pytest
from pypdf import PdfReader
from weasyprint.urls import FatalURLFetchingError

from ledger import services
from ledger.models import PaperSize
from ledger.presentation.catalog import CAPIT_CONTRACTS as CONTRACTS
from scoresheets import documents, selectors
from scoresheets.pdf import html_to_pdf, render_html
from tests.factories import gin_game

from .conftest import demo_game, pdf_pages, pdf_text, text_positions

# PDF layout and what the sheets print: the same on any engine (SQLite only in CI).
pytestmark = [pytest.mark.django_db, pytest.mark.engine_independent]

MINUS = "\u2212"


@pytest.fixture(autouse=True)
def no_network(monkeypatch):
    """Every rendering in this module runs with sockets that refuse to connect."""
    def refuse(*args, **kwargs):
        raise AssertionError("score sheet rendering tried to use the network")
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def sheet(session, sequence: int) -> str:
    pdf, _ = documents.game_sheet_pdf(demo_game(session, sequence))
    return pdf_text(pdf)


def test_gin_sheet_rules_example_5(demo):
    text = sheet(demo, 1)
    assert "Game 1: Gin (standard)" in text
    assert "$0.01 per point" in text
    assert "Game to 100 points" in text and "Gin bonus 25" in text
    assert "Box (line) bonus 25 a hand" in text and "Game bonus 100" in text
    # every hand on its row: number, dealer, play, deadwood, result, points, running totals
    assert "1 Bob Ann knocks 5 v Bob 17 12 12 0" in text
    assert "3 Bob Ann knocks 8 v Bob 6: Bob undercuts 12 27 66" in text
    assert "5 Ann Draw 68 66" in text
    assert "7 Ann Ann knocks 4 v Bob 30 26 118 66" in text
    assert "Hand points 118 66" in text
    assert "Boxes 4 × 25 = 100 2 × 25 = 50" in text
    assert "Game bonus 100 –" in text
    assert "Final total 318 116" in text
    assert "Ann wins the game." in text
    assert f"Bob 0.01 {MINUS}2.02" in text and "Ann 0.01 +2.02" in text
    assert "Bob pays Ann $2.02" in text
    assert "Page 1 of 1" in text


def test_box_sheet_rules_example_9(demo):
    text = sheet(demo, 2)
    assert "Cut order Carla, Dev, Eve" in text
    # who is in the box (and deals), captain and sitting out on each hand
    assert "1 Carla Dev Eve Carla knocks 3 v Dev 18 15 15 0 0" in text
    flat = " ".join(text.split()).replace("\u2010 ", "")  # the play wraps (and hyphenates)
    assert "4 Eve Carla Dev Eve knocks 9 v Carla 5: Carla undercuts 14 29 0 57" in flat
    assert "6 Carla Eve Dev Carla gin v Eve 30 55 106 0 57" in text
    assert "Final total 106 0 57" in text
    assert "Carla 0.01 +1.55" in text and f"Dev 0.01 {MINUS}1.63" in text
    assert "Eve 0.01 +0.08" in text
    assert "Dev pays Carla $1.55" in text and "Dev pays Eve $0.08" in text


def test_captain_five_sheet_shows_tables_and_substitution(demo):
    text = sheet(demo, 3)
    assert "Captains Bob and Finn" in text and "Sits out first Dev" in text
    assert "Bob v Ann" in text and "Finn v Carla" in text
    assert "Bob knocks 5 v Ann 65" in text and "Bob 60" in text
    assert "Dev in for Carla at table 2" in " ".join(text.split())
    assert "Abandoned before the target" in text
    assert "Final total 120 0" in text
    assert "Bob Captains 0.01 × 3/2 +1.80" in text  # the captain's stake with the cover
    assert f"Dev Opponents 0.01 {MINUS}1.20" in text
    assert "Dev pays Bob $0.60" in text


def test_partnership_sheet(demo):
    text = sheet(demo, 4)
    assert "Us Eve and Bob" in text and "Them Carla and Finn" in text
    assert "Eve v Finn" in text and "Eve gin v Finn" in text and "Eve 60" in text
    assert "Boxes 2 × 25 = 50 1 × 25 = 25" in text
    assert "Final total 275 39" in text
    assert "Us win the game." in text
    assert "Finn pays Eve $2.36" in text and "Carla pays Bob $2.36" in text


def test_capit_sheet_rules_example_13(demo):
    text = sheet(demo, 5)
    assert "Ante $5.00 each" in text and "Pot $20.00" in text
    assert "Round share $2.00" in text
    flat = " ".join(text.split())  # a long contract wraps in its cell
    for contract in CONTRACTS:
        assert contract in flat
    assert "K 7 7" in text  # the cards left, as entered
    assert "Dev 1.00\nAnn 1.00" in text  # the tied round's split share, as English writes it
    assert "Dev 70 3 $15.00 $5.00" in text
    assert "Ann 85 1 $1.00 $5.00" in text
    assert "Dev +10.00" in text and f"Ann {MINUS}4.00" in text
    assert "Ann pays Dev $4.00" in text


def test_hollywood_sheet_prints_its_three_columns_side_by_side(demo, keeper):
    """RULES 3.3 by hand: A's 1st win scores in column 1, his 2nd in 1 and 2, later ones in
    every open column; B's gin (10 + 25 = 35) is his 1st win: column 1 only. Column 1 ends
    at hand 5 (A 100 + 4 boxes + game 100 = 300; B 35 + 1 box = 60); columns 2 and 3 at
    hands 6 and 7, B shut out: (100 + 100 + 100) x 2 = 600. Net 240 + 600 + 600 = 1440."""
    a_wins = {"knocker": "A", "deadwood": {"A": 5, "B": 30}}
    record = {"format": "tablestakes.game/1", "variant": "hollywood", "players": ["A", "B"],
              "stakes": {"rate": "0.01", "per_points": 1, "currency": "USD"},
              "setup": {"first_dealer": "B"},
              "hands": [a_wins, a_wins, {"knocker": "B", "deadwood": {"A": 10, "B": 0}},
                        a_wins, a_wins, a_wins, a_wins]}
    game = services.game_import(session=demo, record=record, imported_by=keeper)
    pdf = documents.game_sheet_pdf(game)[0]
    pages = pdf_pages(pdf)
    assert len(pages) == 1
    text = pages[0]
    assert "3 A B gin v A 10 B 35 50 35" in text
    assert "5 A A knocks 5 v B 30 A 25 100 35 75 0 50 0" in text
    assert "7 A A knocks 5 v B 30 A 25 100 0" in text
    for column, tail in (("Game 1", "300 60"), ("Game 2", "600 0"), ("Game 3", "600 0")):
        block = text[text.index(f"{column} A B\n"):]
        block = block[:block.index("Winner A")]
        assert f"Final total {tail}" in block
    assert "Boxes 4 \u00d7 25 = 100 1 \u00d7 25 = 25" in text
    assert text.count("Shutout yes, total \u00d72 \u2013") == 2
    # the three column tables stand side by side: same height on the page, left to right
    heads = [(x, y) for run, x, y in text_positions(pdf) if run.startswith("Game ")
             and run.endswith(" A B")]
    assert len(heads) == 3 and len({y for _, y in heads}) == 1
    assert [x for x, _ in heads] == sorted(x for x, _ in heads)
    assert f"Net points +1,440 {MINUS}1,440" in text  # grouped as English groups
    assert "A 0.01 +14.40" in text and f"B 0.01 {MINUS}14.40" in text
    assert "B pays A $14.40" in text


def test_correction_is_struck_through_with_its_reason(corrected_game):
    pdf, _ = documents.game_sheet_pdf(corrected_game)
    text = pdf_text(pdf)
    assert "2 corrections shown struck through" in text
    # the voided hand 2 with the points it had, its reason, then the hand that replaced it
    voided = "2 Ann Bob gin v Ann 14 12 39 39"
    note = "Corrected: Ann held 24, a king was missed — keeper"
    live = "2 Ann Bob gin v Ann 24 12 49 49"
    assert text.index(voided) < text.index(note) < text.index(live)
    assert "3 Bob Ann knocks 8 v Bob 6: Bob undercuts 12 27 76" in text
    assert "Undone: entered on the wrong game" in text
    assert "Final total 12 49" in text
    html = render_html(documents.GAME_TEMPLATE, selectors.game_sheet_context(corrected_game))
    struck = re.findall(r'<tr class="void">(.*?)</tr>', html)
    assert len(struck) == 2
    assert all("<s>" in row for row in struck)
    assert "<s>Bob gin v Ann 14</s>" in struck[0]


def test_hands_entered_with_cards_print_their_melds(demo, keeper):
    """A hand entered with the cards prints, under its play, the melds the core laid out:
    Ann's three melds and 9♣ left; Bob's two melds, 3♥ laid off on Ann's hearts, 15 left;
    Ann scores 15 - 9 = 6. A hand entered as counts has no meld lines."""
    game = gin_game(demo, keeper)
    for entry in (
        {"knocker": "Ann", "cards": {"Ann": "AS 2S 3S 4H 5H 6H 7C 7D 7H 9C",
                                     "Bob": "KS KH KD 10C JC QC 2D 5D 8S 3H"}},
        {"knocker": "Bob", "deadwood": {"Ann": 14, "Bob": 0}},
    ):
        services.hand_record(game=game, entry=entry, recorded_by=keeper,
                             idempotency_key=uuid.uuid4())
    text = pdf_text(documents.game_sheet_pdf(game)[0])
    assert "1 Bob Ann knocks 9 v Bob 15 6 6 0" in text
    assert "Ann: A♠2♠3♠ 4♥5♥6♥ 7♥7♦7♣, left 9♣" \
        in text
    assert "Bob: K♠K♥K♦ 10♣J♣Q♣, lays off 3♥, " \
        "left 8♠ 2♦ 5♦" in text
    assert "2 Ann Bob gin v Ann 14 6 39 39" in text
    assert text.count("lays off") + text.count("all melded") == 1  # hand 2: counts only


def test_a_correction_is_signed_with_the_keepers_name_when_the_account_has_one(
        corrected_game, keeper):
    keeper.first_name, keeper.last_name = "Marta", "Quinn"
    keeper.save()
    text = pdf_text(documents.game_sheet_pdf(corrected_game)[0])
    assert "Corrected: Ann held 24, a king was missed \u2014 Marta Quinn" in text
    assert "\u2014 keeper" not in text


def test_session_report_demo_evening(demo):
    pdf, name = documents.session_report_pdf(demo)
    assert name == "thursday-rummy-club-2025-11-20.pdf"
    text = pdf_text(pdf)
    assert "Session report" in text and "5 games" in text
    for title in ("Gin (standard)", "Three-handed (in the box) (simple)",
                  "Captain play (standard)", "Partnership gin (standard)", "CAP-IT"):
        assert title in " ".join(text.split())  # a long title may wrap in its column
    # each player's net over the evening (sum of the five games' money)
    nets = {"Ann": f"{MINUS}3.18", "Bob": "+2.14", "Carla": f"{MINUS}2.01",
            "Dev": "+7.17", "Eve": f"{MINUS}0.56", "Finn": f"{MINUS}3.56"}
    for name_, amount in nets.items():
        assert f"\n{name_} {amount}\n" in text
    # the payments plan, fewest payments, each with a box to tick
    for payer, payee, amount in (("Finn", "Dev", "3.56"), ("Ann", "Dev", "3.18"),
                                 ("Carla", "Bob", "2.01"), ("Eve", "Dev", "0.43"),
                                 ("Eve", "Bob", "0.13")):
        assert f"☐ {payer} {payee} {amount}" in text
    assert "proposed" in text
    assert "Scorekeeper" in text


def test_session_report_after_settlement_shows_paid(demo, keeper):
    from ledger import services

    settlement = services.session_settle(session=demo, settled_by=keeper)
    first = settlement.payments.order_by("order").first()
    services.settlement_payment_mark_paid(payment=first, paid_by=keeper)
    text = pdf_text(documents.session_report_pdf(demo)[0])
    assert "settled" in text
    assert f"☑ {first.payer.name} {first.payee.name}" in text
    assert text.count("☐ ") == settlement.payments.count() - 1


def test_blank_sheet_lists_players_rules_and_stakes(demo):
    game = demo_game(demo, 2)
    pdf, name = documents.blank_sheet_pdf(game)
    assert name == "thursday-rummy-club-2025-11-20-game-2-blank.pdf"
    text = pdf_text(pdf)
    assert "Blank score sheet" in text
    assert "$0.01 per point" in text
    assert "Cut order Carla, Dev, Eve" in text
    assert "Carla in the box" in text and "Eve sits out" in text
    assert "Undercut bonus 10" in text
    assert "Money between three each pair settles" in text.replace("\n", " ")
    assert "\n1 Carla\n" in text and "\n30\n" in text  # first dealer, thirty rows
    assert "Final total" in text
    assert "106" not in text  # nothing of the played game


def test_blank_capit_sheet_has_the_contracts(demo):
    text = pdf_text(documents.blank_sheet_pdf(demo_game(demo, 5))[0])
    for contract in CONTRACTS:
        assert contract in text.replace("\n", " ")
    assert "Ante $5.00 each" in text


def test_blank_hollywood_sheet_has_three_column_totals_side_by_side(demo, keeper):
    game = services.game_start(session=demo, variant="hollywood", players=["Ann", "Bob"],
                               started_by=keeper, setup={"first_dealer": "Bob"},
                               rules={"hollywood_third_double": True})
    pdf = documents.blank_sheet_pdf(game)[0]
    text = pdf_text(pdf)
    assert "Third column counts double" in text
    assert text.count("Final total") == 3
    assert "Net over the three games Ann Bob" in " ".join(text.split())
    last = len(pdf_pages(pdf)) - 1
    heads = [(x, y) for run, x, y in text_positions(pdf, last)
             if run in ("Game 1 Ann Bob", "Game 2 Ann Bob", "Game 3 \u00d72 Ann Bob")]
    assert len(heads) == 3 and len({y for _, y in heads}) == 1
    assert [x for x, _ in heads] == sorted(x for x, _ in heads)


def test_long_game_spans_pages_with_headers_and_whole_rows(long_game):
    pdf, _ = documents.game_sheet_pdf(long_game)
    pages = pdf_pages(pdf)
    count = len(pages)
    assert count >= 5
    assert f"Page 1 of {count}" in pages[0]
    for index, page in enumerate(pages, start=1):
        assert f"Page {index} of {count}" in page
        # the running header on every page
        assert "THURSDAY RUMMY CLUB · Score sheet · Game 6: Gin (standard)" in page
        # the table header repeated on every page that has hand rows
        if re.search(r"^\d+ (Ann|Bob) ", page, re.M):
            assert "# Dealer Play pts total pts total" in page
    # every hand on exactly one page, whole: number, dealer, play, deadwood, result, totals
    rows = [re.findall(r"^(\d+) (?:Ann|Bob) \w+ (?:knocks \d+|gin) v \w+ \d+ .*\d$", page,
                      re.M)
            for page in pages]
    numbers = [int(n) for page_rows in rows for n in page_rows]
    assert numbers == list(range(1, 301))
    assert sum(1 for page_rows in rows if page_rows) >= 5
    result = selectors.game_sheet_context(long_game)["result"]
    last = pages[-1]
    ann, bob = result["totals"]["Ann"]["final"], result["totals"]["Bob"]["final"]
    assert f"Final total {ann} {bob}" in last
    assert "Abandoned" in last


@pytest.mark.parametrize(("paper", "size"), [
    (PaperSize.A4, (595.28, 841.89)), (PaperSize.LETTER, (612.0, 792.0)),
])
def test_paper_size_of_the_table(demo, paper, size):
    demo.table.paper_size = paper
    demo.table.save(update_fields=["paper_size"])
    game = demo_game(demo, 1)
    for pdf, _ in (documents.game_sheet_pdf(game), documents.blank_sheet_pdf(game),
                   documents.session_report_pdf(demo)):
        for page in PdfReader(io.BytesIO(pdf)).pages:
            box = page.mediabox
            assert (round(float(box.width), 2), round(float(box.height), 2)) == size


def test_only_the_shipped_fonts_are_embedded(demo):
    """WeasyPrint names an @font-face font after its CSS family: every embedded font is
    one of ours (a host font would carry its own name, e.g. DejaVuSans or LiberationSans),
    check marks and minus signs included."""
    pdfs = [documents.game_sheet_pdf(demo_game(demo, n))[0] for n in range(1, 6)]
    pdfs.append(documents.session_report_pdf(demo)[0])
    pdfs.append(documents.blank_sheet_pdf(demo_game(demo, 1))[0])
    seen = set()
    for pdf in pdfs:
        for page in PdfReader(io.BytesIO(pdf)).pages:
            for font in page["/Resources"]["/Font"].values():
                seen.add(str(font.get_object()["/BaseFont"]).lstrip("/").split("+")[-1])
    assert {"TS-Sans-Semi-Condensed", "TS-Serif-Bold"} <= seen
    assert all(name.startswith(("TS-Sans-", "TS-Serif-")) for name in seen), seen


def test_rendering_refuses_to_fetch_from_the_network():
    html = ('<html><body><p>x</p><img src="http://example.com/logo.png">'
            '<link rel="stylesheet" href="https://example.com/x.css"></body></html>')
    with pytest.raises(FatalURLFetchingError):
        html_to_pdf(html)


def test_rendering_refuses_files_outside_the_static_folder():
    with pytest.raises(FatalURLFetchingError):
        html_to_pdf('<html><body><img src="file:///etc/passwd"></body></html>')
