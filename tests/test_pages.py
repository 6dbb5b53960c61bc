"""The tests' one HTML reader (tests/pages.py) builds the tree the standard's parser builds
and reads the text a person sees: if it did not, the screens' tests would pass or fail on
the parser, not on the page."""

from tests.pages import Page, element_tree


def test_the_tree_is_the_standards():
    root = element_tree("<!doctype html><title>T</title><p>one<p>two<table><tr><td>1<td>2"
                        "</table><ul><li>a<li>b</ul>")
    body = root.find("body")
    assert [el.tag for el in body] == ["p", "p", "table", "ul"]  # a <p> ends at the next
    # the rows of a table go in a <tbody> the parser makes, cells end at the next cell
    table = body.find("table")
    assert [el.tag for el in table] == ["tbody"]
    assert [td.text for td in table.iter("td")] == ["1", "2"]
    assert [li.text for li in body.iter("li")] == ["a", "b"]
    assert root.find("head/title").text == "T"


def test_attributes_entities_and_comments():
    page = Page('<p data-key="Ann &amp; Bob" class="a score-tile b">x<!-- note -->y'
                '<input name="n" value="5" checked></p>')
    tile = page.one("p", class_="score-tile")
    assert tile.get("data-key") == "Ann & Bob"
    assert page.checked("n", "5")[0].get("checked") == ""  # a bare attribute is there, empty
    assert page.text(tile) == "xy"  # the comment is not text, the words around it are kept


def test_the_text_is_what_is_drawn():
    page = Page("<body><h1>Score</h1><script>var hidden = 'no';</script><style>p{}</style>"
                "<template id='t'><b>inert</b></template><p>Ann&nbsp;<b>12</b>\n  points</p>"
                "</body>")
    assert page.text() == "Score Ann 12 points"
    assert page.all("b") == [page.one("b")]  # a template's content is not on the page
