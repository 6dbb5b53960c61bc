"""The table's book in real Chromium at 360x740: the book, a player's page, the standings
(filter in the browser) and squaring the book, with nothing wider than the phone and a
screenshot of each page (in $SHOTS_DIR, when it is set)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ledger import services
from tests.ledger.book_scenario import build

from .helpers import login, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 360, "height": 740}}


# A head-to-head row: its height, its link's height and the vertical middles of the name's
# words and of the games' number.
ROW_LEVEL = """(name) => {
  const row = document.querySelector('tr[data-against="' + name + '"]');
  const link = row.querySelector('td.who a');
  const words = document.createRange();
  words.selectNodeContents(link);
  const middle = (r) => (r.top + r.bottom) / 2;
  return {height: row.getBoundingClientRect().height,
          link: link.getBoundingClientRect().height,
          name: middle(words.getBoundingClientRect()),
          games: middle(row.cells[1].getBoundingClientRect())};
}"""


def fits(page) -> None:
    """Nothing makes the page scroll sideways (wide tables scroll inside their own box)."""
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_book_player_and_standings_on_a_phone(page, live_server, django_user_model):
    keeper = django_user_model.objects.create_user("keeper", password="pw")
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    build(table, keeper)
    login(page, live_server.url, "keeper")
    page.get_by_role("link", name="Friday").click()
    page.get_by_role("link", name="Book", exact=True).click()
    expect(page.get_by_role("heading", name="The book")).to_be_visible()
    ann = page.locator("tr[data-player=Ann]")
    expect(ann.locator("td").nth(3)).to_have_text("+3.57")
    expect(ann.locator("td").nth(4)).to_have_text("+1.55")
    expect(page.locator(".owed .payment").first).to_have_text("Bob pays Ann $1.55")
    fits(page)
    shot(page, "book-360")

    ann.get_by_role("link", name="Ann").click()
    expect(page.get_by_role("heading", name="Ann")).to_be_visible()
    expect(page.locator("[data-stat=money-USD]")).to_have_text("+5.59")
    expect(page.locator("svg.chart")).to_be_visible()
    # money between two: their two-hand games only (docs/head-to-head.md), not the box game
    expect(page.locator("tr[data-against=Bob] td").nth(4)).to_have_text("+2.02")
    # a row of head to head is one line: as high as its name's 44 px target, the name's words
    # level with the numbers beside it (no empty band under each name)
    row = page.evaluate(ROW_LEVEL, "Bob")
    assert row["link"] >= 44 and row["height"] <= 46, row
    assert abs(row["name"] - row["games"]) <= 1, row
    fits(page)
    shot(page, "book-player-360")

    page.get_by_role("link", name="Book", exact=True).click()
    page.get_by_role("link", name="Standings").click()
    page.click("details.filters > summary")
    page.select_option("select[name=variant]", "box")
    page.click("button:has-text('Show')")
    expect(page.locator("details.filters > summary")).to_contain_text("Three-handed")
    expect(page.locator("table.standings tbody tr")).to_have_count(3)
    fits(page)
    shot(page, "book-standings-360")

    page.get_by_role("link", name="Book", exact=True).click()
    # issue 21: squaring asks first (a dialog), and says how to undo it
    page.click("a:has-text('square the book')")
    question = page.locator("dialog#confirm-square-USD")
    expect(question).to_be_visible()
    expect(question).to_contain_text("Square the book in USD?")
    expect(question).to_contain_text("Bob pays Ann $1.55")
    shot(page, "book-square-question-360")
    question.locator("button", has_text="square the book").click()
    expect(page.locator(".flash")).to_contain_text("3 payments of the evenings marked paid")
    expect(page.locator("tr[data-player=Bob] td").nth(4)).to_have_text("0.00")
    fits(page)
    shot(page, "book-squared-360")
