"""Paper (issue 11): nothing runs past an edge, the signature block stays with what it signs,
the paper follows the currency unless the table chose, file names say the date and the
game's number, and a blank sheet is printed from the evening's screen."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader
from weasyprint.formatting_structure import boxes

from ledger import services
from ledger.models import PaperSize
from scoresheets import documents, pdf
from scoresheets.blank import evening_blank_context
from tests.factories import gin_game

from .conftest import demo_game, pdf_pages, pdf_text

# PDF layout and what the sheets print: the same on any engine (SQLite only in CI).
pytestmark = [pytest.mark.django_db, pytest.mark.engine_independent]

LONG_NAMES = ["Dev", "Annabelle", "Finnegan", "Eve", "Charlotte", "Maximilian"]
SIZES = {"A4": (595.28, 841.89), "letter": (612.0, 792.0)}


def capit_game(session, keeper, count: int):
    """CAP-IT with long names; with 5 players the pot is 25.00 and a round share 2.50."""
    names = LONG_NAMES[:count]
    hands = [{"went_out": names[r % count], "cards": {p: "K 7" for p in names
                                                     if p != names[r % count]}}
             for r in range(5)]
    record = {"format": "tablestakes.game/1", "variant": "cap-it", "players": names,
              "stakes": {"ante": "5.00", "currency": "USD"},
              "setup": {"first_dealer": names[0]}, "abandoned": False, "hands": hands}
    return services.game_import(session=session, record=record, imported_by=keeper)


def overflowing_text(template: str, context: dict, paper: str) -> list[str]:
    """Text laid out (by WeasyPrint itself) past the right edge of the page's content box."""
    html = pdf.render_html(template, context)
    with pdf._lock:
        font_config, sheets = pdf._stylesheets(paper)
        document = pdf.html_document(html).render(
            stylesheets=sheets, font_config=font_config)
    out = []
    for page in document.pages:
        page_box = page._page_box
        right = page_box.margin_width() - page_box.margin_right
        for box in page_box.descendants():
            if isinstance(box, boxes.TextBox) and box.position_x + box.width > right + 0.5:
                out.append(f"{box.text!r} ends at {box.position_x + box.width:.1f} > {right:.1f}")
    return out


@pytest.mark.parametrize("paper", ["A4", "letter"])
@pytest.mark.parametrize("count", [5, 6])
def test_capit_shares_stay_inside_the_table(demo, keeper, paper, count):
    from scoresheets import selectors

    game = capit_game(demo, keeper, count)
    context = selectors.game_sheet_context(game)
    text = pdf_text(documents.game_sheet_pdf(game, paper_size=paper)[0])
    share = "2.50" if count == 5 else "3.00"
    assert text.count(share) >= 5  # every round's share is printed (and the pot line)
    assert overflowing_text(documents.GAME_TEMPLATE, context, paper) == []


SIGNED = [("captain 5 sheet", "sheet", 3), ("CAP-IT blank", "blank", 5)]


@pytest.mark.parametrize("paper", ["A4", "letter"])
@pytest.mark.parametrize(("what", "kind", "sequence"), SIGNED)
def test_the_signatures_stay_with_the_money_they_sign(demo, paper, what, kind, sequence):
    game = demo_game(demo, sequence)
    make = documents.game_sheet_pdf if kind == "sheet" else documents.blank_sheet_pdf
    pages = pdf_pages(make(game, paper_size=paper)[0])
    signed = [page for page in pages if "Checked and agreed at the table" in page]
    assert len(signed) == 1, what
    money = "Money (USD)" if kind == "sheet" else "Wins / pays (USD)"
    assert money in " ".join(signed[0].split()) and "END OF THE GAME" in signed[0], (what, paper)


@pytest.mark.parametrize("count", [5, 6])
def test_a_capit_blank_sheet_with_five_or_six_fits_one_a4_page(demo, keeper, count):
    game = capit_game(demo, keeper, count)
    pages = pdf_pages(documents.blank_sheet_pdf(game, paper_size="A4")[0])
    assert len(pages) == 1
    assert "Checked and agreed at the table" in pages[0]


def page_size(data: bytes) -> tuple[float, float]:
    box = PdfReader(io.BytesIO(data)).pages[0].mediabox
    return round(float(box.width), 2), round(float(box.height), 2)


@pytest.mark.parametrize(("currency", "paper"), [
    ("USD", "letter"), ("CAD", "letter"), ("MXN", "letter"), ("EUR", "A4"), ("GBP", "A4"),
])
def test_a_new_table_prints_on_the_paper_of_its_currency(keeper, currency, paper):
    table = services.table_create(name="Club", scorekeepers=[keeper])
    assert table.paper_size == PaperSize.AUTO
    session = services.session_create(table=table, currency=currency, rate="0.01",
                                      created_by=keeper)
    game = gin_game(session, keeper, first_dealer="Ann")
    for data, _ in (documents.game_sheet_pdf(game), documents.blank_sheet_pdf(game),
                    documents.session_report_pdf(session)):
        assert page_size(data) == SIZES[paper]


def test_a_table_that_chose_its_paper_keeps_it(keeper):
    table = services.table_create(name="Club", scorekeepers=[keeper], paper_size="A4")
    session = services.session_create(table=table, currency="USD", created_by=keeper)
    assert page_size(documents.session_report_pdf(session)[0]) == SIZES["A4"]


def test_file_names_say_the_table_date_and_game_number(client, demo, keeper):
    client.force_login(keeper)
    game = demo_game(demo, 3)
    response = client.get(reverse("scoresheets:game_pdf", kwargs={"pk": game.pk}))
    assert response["Content-Disposition"] == (
        'inline; filename="thursday-rummy-club-2025-11-20-game-3.pdf"')


def test_the_blank_builder_needs_no_stored_game(demo):
    players = ["Ann", "Bob", "Dev", "Eve"]
    context, sequence = evening_blank_context(demo, "cap-it", players, {"first_dealer": "Dev"})
    assert sequence == 6 and context["blank"] and context["result"]["players"] == players
    assert demo.games.count() == 5


def test_the_table_page_chooses_the_paper(client, keeper):
    table = services.table_create(name="Club", scorekeepers=[keeper])
    client.force_login(keeper)
    url = reverse("ledger:table_detail", args=[table.pk])
    page = client.get(url).content.decode()
    # the choice's words fit a phone; what "by currency" means is said under it
    assert '<option value="auto" selected>By currency</option>' in page
    assert "By currency: Letter for USD, CAD and MXN; A4 for the others." in page
    response = client.post(url, {"paper": "A4"}, follow=True)
    table.refresh_from_db()
    assert table.paper_size == "A4" and "Sheets print on: A4." in response.content.decode()
    response = client.post(url, {"paper": "legal"}, follow=True)
    table.refresh_from_db()
    assert table.paper_size == "A4"
    assert "Paper: &#x27;legal&#x27; is not one of" in response.content.decode()
