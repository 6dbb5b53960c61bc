"""Paper with long names and large numbers (issue 11, "Paper"): every printed document stays
inside its page, nothing is drawn over anything else, no row is split or printed twice, no
heading or signature block is left alone; checked on WeasyPrint's own layout boxes
(tests/scoresheets/layout.py, the same checks ``scripts/render-all-pdfs`` runs on every
document)."""

from __future__ import annotations

import pytest

from ledger import services
from ledger.cleaning import MAX_NAME
from ledger.presentation.money import format_money
from ledger.rules.money import decimal_text
from scoresheets import documents, selectors
from scoresheets.blank import evening_blank_context
from tests.factories import gin_game

from .conftest import pdf_pages
from .layout import layout_problems, page_texts, render, render_html
from .playout import NAMES, play, setup_of

# PDF layout and what the sheets print: the same on any engine (SQLite only in CI).
pytestmark = [pytest.mark.django_db, pytest.mark.engine_independent]

TABLE = "The Featherstonehaugh Thursday Night Gin Rummy & Supper Society"
PAPERS = ["A4", "letter"]
#: (label, variant, players, large numbers)
GAMES = [("gin", "gin", 2, True), ("hollywood", "hollywood", 2, False),
         ("box", "box", 3, True), ("captain-7", "captain", 7, False),
         ("partnership-6", "partnership", 6, False), ("cap-it-6", "cap-it", 6, False)]


def evening(keeper, currency: str = "USD", rate: str = "0.75"):
    table = services.table_create(name=TABLE, scorekeepers=[keeper])
    return services.session_create(table=table, currency=currency, rate=rate,
                                   created_by=keeper, place="The back room, upstairs")


def long_game(session, keeper, variant: str, count: int, big: bool, seed: int = 1,
              hands: int | None = None):
    if variant == "cap-it":
        stakes = {"ante": {"USD": "250.00", "JPY": "5000", "KWD": "12.500"}[session.currency],
                  "currency": session.currency}
    else:
        stakes = {"rate": decimal_text(session.rate, session.currency), "per_points": 1,
                  "currency": session.currency}
    record = play(variant, NAMES[:count], stakes=stakes, rules={"target": 1000} if big else {},
                  hands=hands, seed=seed, big=big)
    return services.game_import(session=session, record=record, imported_by=keeper)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize(("label", "variant", "count", "big"), GAMES)
def test_a_finished_sheet_with_long_names_stays_on_the_page(keeper, label, variant, count,
                                                            big, paper):
    session = evening(keeper)
    game = long_game(session, keeper, variant, count, big)
    document = render(documents.GAME_TEMPLATE, selectors.game_sheet_context(game), paper)
    assert layout_problems(document) == []
    text = " ".join(page_texts(document))
    if big:  # four-digit totals, printed whole
        totals = selectors.game_sheet_context(game)["result"]["totals"]
        assert any(t["final"] >= 1000 for t in totals.values())
        assert all(str(t["final"]) in text for t in totals.values())
    signed = [page for page in page_texts(document) if "Checked and agreed" in page]
    assert len(signed) == 1 and "Money (USD)" in signed[0]


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize(("label", "variant", "count"),
                         [("box", "box", 3), ("hollywood", "hollywood", 2),
                          ("cap-it-6", "cap-it", 6), ("partnership-6", "partnership", 6),
                          # the sides' names over each street's narrow columns ran into
                          # each other on letter ("Magnificent" over "Formidable")
                          ("streets-6", "streets", 6)])
def test_a_blank_sheet_with_long_names_stays_on_the_page(keeper, label, variant, count,
                                                         paper):
    session = evening(keeper)
    players = list(reversed(NAMES[:count]))
    context, _ = evening_blank_context(session, variant, players, setup_of(variant, players))
    document = render(documents.BLANK_TEMPLATE, context, paper)
    assert layout_problems(document) == []
    # the signatures on the page of the end table they sign (with six names of thirty
    # letters CAP-IT's end moves to page 2 whole; with short names it fits on one, test_paper)
    signed = [page for page in page_texts(document) if "Checked and agreed" in page]
    assert len(signed) == 1 and "END OF THE GAME" in signed[0].upper()
    money = "Wins / pays (USD)" if variant == "cap-it" else "Money (USD)"
    assert money in " ".join(signed[0].split())


@pytest.mark.parametrize(("currency", "rate", "paper"),
                         [("USD", "0.75", "letter"), ("JPY", "10", "A4"),
                          ("KWD", "1.125", "A4"), ("KWD", "1.125", "letter")])
def test_a_settled_report_with_long_names_and_large_sums(keeper, currency, rate, paper):
    session = evening(keeper, currency, rate)
    for seed, (_, variant, count, big) in enumerate(GAMES):
        long_game(session, keeper, variant, count, big, seed=seed)
    services.session_settle(session=session, settled_by=keeper)
    context = selectors.session_report_context(session)
    document = render(documents.SESSION_TEMPLATE, context, paper)
    assert layout_problems(document) == []
    pages = page_texts(document)
    # each money table on the page of its heading, with its first line
    for heading, first in (("each player's net", context["nets"][0].name),
                           ("payments ·", context["payments"][0].payer)):
        page = next(page for page in pages if heading in page.lower())
        assert first in page[page.lower().index(heading):], heading
    # the largest sum is printed, in the currency's decimals
    amounts = [row.amount for row in context["nets"]]
    assert max(abs(float(a)) for a in amounts) >= 1000
    decimals = {"USD": 2, "JPY": 0, "KWD": 3}[currency]
    largest = max(amounts, key=lambda a: abs(float(a)))
    assert largest.lstrip("-").count(".") == (1 if decimals else 0)
    # printed as the table's language writes it (English: "2,015.75", issue 22)
    assert format_money(largest.lstrip("-")) in " ".join(pages)
    data = documents.session_report_pdf(session, paper_size=paper)[0]
    assert len(pdf_pages(data)) == len(pages)


def test_a_running_sheet_with_a_correction_and_long_names(keeper):
    session = evening(keeper)
    game = long_game(session, keeper, "gin", 2, True, hands=8)
    hand = game.hands.get(number=2)
    entry = dict(hand.entry, deadwood=dict(hand.entry["deadwood"]))
    loser = next(p for p in entry["deadwood"] if p != entry["knocker"])
    entry["deadwood"][loser] += 1
    services.hand_correct(hand=hand, entry=entry, corrected_by=keeper,
                          reason="Bartholomew's king was counted as a queen: 1 point more")
    services.hand_undo_last(game=game, undone_by=keeper, reason="entered on the wrong game")
    for paper in PAPERS:
        document = render(documents.GAME_TEMPLATE, selectors.game_sheet_context(game), paper)
        assert layout_problems(document) == []
        text = " ".join(page_texts(document))
        assert "2 corrections shown struck through" in text
        assert "counted as a queen" in text and "entered on the wrong game" in text


# -- the checks themselves fail on what they are meant to catch --------------------------------

PAGE = ('<html lang="en"><body class="sheet">{}</body></html>')


def test_the_check_sees_text_past_the_edge_and_text_over_text():
    wide = PAGE.format('<table style="width:auto"><tr><td style="white-space:nowrap">'
                       + "Featherstonehaugh " * 20 + "</td></tr></table>"
                       '<div style="height:0">Maximiliana</div><div>Bartholomew</div>')
    problems = layout_problems(render_html(wide, "A4"))
    assert any("past the right edge" in line for line in problems)
    assert any("'Maximiliana' and 'Bartholomew' overlap" in line for line in problems)


def test_the_check_sees_a_lone_signature_block_and_a_heading_left_at_the_bottom():
    lone = PAGE.format('<div style="height:230mm">x</div>'
                       '<h2 class="section" style="break-after: auto">Money</h2>'
                       '<div style="height:60mm; break-inside: avoid">'
                       '<table><tr><td>Ann +2.00</td></tr></table></div>'
                       '<div class="signatures" style="break-before: page">'
                       '<p class="sig-intro">Checked</p><span class="sig-name">Ann</span></div>')
    problems = layout_problems(render_html(lone, "A4"))
    assert any("holds only the signature block" in line for line in problems)
    assert any("ends with the heading 'MONEY'" in line for line in problems)


def test_the_check_sees_a_row_split_across_pages():
    tall = PAGE.format('<div style="height:200mm">x</div><table><tr style="break-inside:auto">'
                       '<td>' + "line<br>" * 80 + "</td></tr></table>")
    assert any("split across pages" in line for line in layout_problems(render_html(tall, "A4")))


@pytest.mark.parametrize(("variant", "count"), [("captain", 7), ("partnership", 6)])
def test_each_table_of_a_hand_is_a_line_of_its_own(keeper, variant, count):
    """A table game prints a row per table: table number, players, dealer, play and table
    score start on the same line however long the names (a cell of several lines drifted
    from its neighbours as soon as a name wrapped)."""
    from weasyprint.formatting_structure import boxes

    session = evening(keeper)
    game = long_game(session, keeper, variant, count, False, hands=4)
    context = selectors.game_sheet_context(game)
    tables = count // 2
    hands = len([row for row in context["view"].rows if row.played and not row.void])
    rows = [row for body in context["hands"].bodies for row in body]
    assert hands >= 2 and len(rows) == hands * tables
    document = render(documents.GAME_TEMPLATE, context, "A4")
    assert layout_problems(document) == []

    def first_lines(box):
        """The top of each cell's first line of text, cell by cell."""
        tops = []
        for cell in box.children:
            texts = [b for b in cell.descendants() if isinstance(b, boxes.TextBox)]
            if texts:
                tops.append(round(min(t.position_y for t in texts), 1))
        return tops

    checked = 0
    for page in document.pages:
        for box in page._page_box.descendants():
            if isinstance(box, boxes.TableRowBox) and "more" in (
                    box.element.get("class") or "").split():
                tops = first_lines(box)
                assert len(tops) >= 5 and len(set(tops)) == 1, tops  # Tbl .. Table score
                checked += 1
    assert checked == hands * (tables - 1)


def test_the_box_prints_who_deals_once(demo):
    """In the box the box player deals every hand (RULES 2): one "Box (deals)" column, not a
    Dealer column repeating the Box column's name (four name columns did not fit)."""
    from .conftest import demo_game

    context = selectors.game_sheet_context(demo_game(demo, 2))
    grid = context["hands"]
    assert [label for label, _ in grid.columns][:5] == [
        "#", "Box (deals)", "Captain", "Sits out", "Play"]
    result = context["result"]
    for row, hand in zip(grid.rows, result["hands"], strict=True):
        assert row.cells[1][1] == hand["dealer"]  # the box column names the dealer
    text = pdf_pages(documents.game_sheet_pdf(demo_game(demo, 2))[0])[0]
    assert "# Box (deals) Captain Sits out Play" in text


def test_an_evening_with_open_games_says_so_where_the_payments_go(demo, keeper):
    """As the evening's screen does ("Finish or abandon game 6 to settle up"), never
    "Nobody owes anybody" beside nets that are not zero."""
    gin_game(demo, keeper, first_dealer="Ann")
    text = " ".join(pdf_pages(documents.session_report_pdf(demo)[0]))
    assert "not yet: game 6 still open" in text
    assert "Finish or abandon game 6 to settle up" in text
    assert "Nobody owes anybody" not in text


def test_a_hollywood_net_keeps_its_space_before_the_games(demo, keeper):
    """The report's "+10 (games 100 · 90 · 0)": the template's {% spaceless %} must not eat
    the space between the net and its detail."""
    import re

    from .test_every_variant import hollywood

    services.game_import(session=demo, record=hollywood(), imported_by=keeper)
    text = " ".join(" ".join(pdf_pages(documents.session_report_pdf(demo)[0])).split())
    assert re.search(r"Lou [+\u2212][\d,]+ \(games [\d,]+ · [\d,]+ · [\d,]+\)", text), text


#: A player's name as long as a name may be (MAX_NAME) and with nowhere to break it.
UNBROKEN = ["W" * MAX_NAME, "Q" * MAX_NAME]


@pytest.mark.parametrize(("variant", "count"), [
    ("gin", 2), ("hollywood", 2), ("box", 3), ("captain", 5), ("partnership", 4),
    ("cap-it", 4)])
def test_a_name_of_the_longest_length_with_no_break_stays_on_the_page(keeper, variant, count):
    """A name of 60 letters without a space or a syllable breaks anywhere, as a last resort,
    in the stakes panel, the hands, the headers over a player's columns, the money and the
    signatures: before, each ran past the page's edge or over the next name."""
    session = evening(keeper)
    names = (UNBROKEN + ["Ann", "Bob", "Cy"])[:count]
    stakes = ({"ante": "1.00", "currency": "USD"} if variant == "cap-it"
              else {"rate": "0.75", "per_points": 1, "currency": "USD"})
    game = services.game_import(session=session, imported_by=keeper, record=play(
        variant, names, stakes=stakes, rules={}, hands=3, seed=1, big=False))
    document = render(documents.GAME_TEMPLATE, selectors.game_sheet_context(game), "A4")
    assert layout_problems(document) == []
