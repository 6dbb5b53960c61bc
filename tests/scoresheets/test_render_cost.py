"""Issue 42: work WeasyPrint did for nothing on every printed document, which the renderer
no longer asks of it. Each test counts the work itself (not the time, which a shared machine
blurs): per-element pseudo-element styles, the footer boxes measured on every page, the HTML
parser's patterns built again for every run of text, full garbage collections over the
worker's objects. The pages themselves are unchanged (tests/scoresheets/test_pdf.py and the
others read them back)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from weasyprint import css as weasy_css
from weasyprint.layout import page as weasy_page

from scoresheets import documents, pdf

from .conftest import demo_game
from .test_render_slots import forks  # noqa: F401 - the renderer made as in a worker

pytestmark = [pytest.mark.django_db, pytest.mark.engine_independent]


@pytest.fixture
def game(demo):
    return demo_game(demo, 1)


def _pseudo_styles(monkeypatch) -> Counter:
    """The pseudo-element styles WeasyPrint computes, by pseudo-element type."""
    made: Counter = Counter()
    real = weasy_css.StyleFor.set_computed_styles

    def counted(self, element, parent, root=None, pseudo_type=None, **kwargs):
        if pseudo_type is not None and not isinstance(element, str):  # (not @page boxes)
            made[pseudo_type] += 1
        return real(self, element, parent, root=root, pseudo_type=pseudo_type, **kwargs)

    monkeypatch.setattr(weasy_css.StyleFor, "set_computed_styles", counted)
    return made


def test_a_sheet_computes_no_styles_for_markers_and_footnotes_it_has_not(game, monkeypatch,
                                                                       settings):
    """WeasyPrint's own stylesheet gave every element a list marker, footnote and note
    calls and markers: six styles computed for every cell (1,100 for a seven-hand sheet).
    A sheet has no footnotes and no list items but the reporting audit's."""
    settings.TABLESTAKES_PDF_NICE = 0  # laid out here, where it is counted
    made = _pseudo_styles(monkeypatch)
    documents.game_sheet_pdf(game)
    assert not {"footnote-call", "footnote-marker", "note-call", "note-marker",
                "note-callback"} & set(made)
    assert made["marker"] == 0  # no <li> on this sheet


def test_a_list_item_keeps_its_marker(monkeypatch):
    """(the bullet of the reporting audit's list is still drawn: its ::marker is kept)"""
    made = _pseudo_styles(monkeypatch)
    html = ('<html lang="en"><body><ul class="reported"><li>Hand 1: Ann</li>'
            "<li>Hand 2: Bob</li></ul></body></html>")
    document = pdf.html_document(html).render(
        stylesheets=pdf._stylesheets("A4")[1], font_config=pdf._stylesheets("A4")[0])
    assert made["marker"] == 2
    markers = [box for page in document.pages for box in page._page_box.descendants()
               if getattr(box, "element_tag", None) == "li::marker"]
    assert len(markers) == 2


def test_the_footer_boxes_are_not_measured_on_each_page(game, monkeypatch, settings):
    """The footer's two margin boxes had "width: auto": WeasyPrint measured both boxes'
    content (the printed line letter by letter) on every page to share the width. With set
    widths no generated margin box is measured."""
    settings.TABLESTAKES_PDF_NICE = 0
    measured = []
    for name in ("min_content_size", "max_content_size"):
        real = getattr(weasy_page.HorizontalBox, name)

        def counted(self, real=real, name=name):
            if self.box.is_generated:
                measured.append((self.box.at_keyword, name))
            return real.fget(self)

        monkeypatch.setattr(weasy_page.HorizontalBox, name, property(counted))
    documents.game_sheet_pdf(game)
    assert measured == []


def test_the_footer_keeps_its_place(game):
    """Every run of text where it was with the boxes' widths left to WeasyPrint ("auto"):
    the printed line at the left margin, "Page 1 of 1" ending at the right one."""
    from weasyprint import CSS

    from ledger.clock import table_voice
    from scoresheets import selectors

    from .conftest import text_positions

    with table_voice(game.session.table):
        html = pdf.render_html(documents.GAME_TEMPLATE, selectors.game_sheet_context(game))
        font_config, sheets = pdf._stylesheets("A4")
        auto = CSS(string="@page { @bottom-left { width: auto } @bottom-right { width: auto } }",
                   font_config=font_config)
        printed = {}
        for name, extra in (("set", []), ("auto", [auto])):
            printed[name] = pdf.html_document(html).render(
                stylesheets=[*sheets, *extra], font_config=font_config).write_pdf()
    runs = text_positions(printed["set"])
    assert runs == text_positions(printed["auto"])
    assert any(text.startswith("Page 1 of 1") for text, _, _ in runs)


def test_the_html_parser_keeps_its_patterns(monkeypatch):
    """tinyhtml5's ``chars_until`` compiled a pattern for its stop characters and stored it
    under the pattern itself, so it built it again for every run of text; mended, it finds
    it where it looks, and the tree parsed is the same."""
    import tinyhtml5

    html = '<html lang="en"><body><p class="a">x &amp; y</p><table><tr><td>1</td></tr>' \
           "</table></body></html>"
    before = ET.tostring(tinyhtml5.parse(html, namespace_html_elements=False))
    pdf.LocalOnlyFetcher  # noqa: B018 - WeasyPrint made ready for a rendering
    tinyhtml5.parse(html, namespace_html_elements=False)
    built = []
    compile_ = re.compile
    monkeypatch.setattr(re, "compile", lambda *args: built.append(args) or compile_(*args))
    after = ET.tostring(tinyhtml5.parse(html, namespace_html_elements=False))
    monkeypatch.undo()
    assert built == []  # (it was one pattern for each run of text, tag and attribute)
    assert after == before


def test_the_renderer_leaves_the_workers_objects_out_of_collections(monkeypatch, forks):  # noqa: F811
    """What the worker made before the renderer was forked is frozen out of the garbage
    collector's rounds in the renderer (tens of thousands of objects: Django, templates,
    WeasyPrint), so a full collection no longer walks them during a layout."""
    import gc

    monkeypatch.setattr(pdf, "_render", lambda html, paper, pages: (
        str(gc.get_freeze_count()).encode()))
    frozen = int(pdf.html_to_pdf("<html><body><p>x</p></body></html>", nice=10,
                                 timeout=20))
    assert frozen > 10_000
    assert gc.get_freeze_count() == 0  # the worker itself is left as it was


def test_the_renderer_collects_once_per_document_after_its_answer(monkeypatch, forks):  # noqa: F811
    """In the renderer the collector does not run during a document's layout; after the
    answer, one collection frees the document's cycles and what outlives it (the parsed
    stylesheet, the fonts, caches) is frozen, so the next document's rounds do not walk it
    again. A cycle the first document left is gone by the second."""
    import gc
    import weakref

    class Cycle:
        pass

    kept: list = []

    def render(html, paper, pages):
        if not kept:  # the first document: a cycle of its own left behind
            cycle = Cycle()
            cycle.me = cycle
            kept.append(weakref.ref(cycle))
            return f"{gc.isenabled()} {gc.get_freeze_count()} -".encode()
        return f"{gc.isenabled()} {gc.get_freeze_count()} {kept[0]() is None}".encode()

    monkeypatch.setattr(pdf, "_render", render)
    page = "<html><body><p>x</p></body></html>"
    first = pdf.html_to_pdf(page, nice=10, timeout=20).decode().split()
    second = pdf.html_to_pdf(page, nice=10, timeout=20).decode().split()
    assert first[0] == second[0] == "False"  # no collection during a document
    assert int(second[1]) > int(first[1])  # the first one's survivors frozen
    assert second[2] == "True"  # and its garbage freed
    assert gc.isenabled()  # the worker's collector is left as it was


def _boxes(box):
    yield box
    for child in getattr(box, "children", ()):
        yield from _boxes(child)


def _widths(table) -> list:
    """The border widths collapsing set on a table and every box in it."""
    sides = ("border_top_width", "border_right_width", "border_bottom_width",
             "border_left_width")
    groups = [column for group in table.column_groups for column in (group, *group.children)]
    return [(type(box).__name__, [getattr(box, side, None) for side in sides])
            for box in [*_boxes(table), *groups]]


def test_collapsed_borders_are_resolved_as_weasyprint_resolves_them(
        demo, corrected_game, monkeypatch, settings):
    """The collapsed borders of every table (cells, rows, groups, columns, colspans, the
    voided rows of a correction) resolved once per side of each box, not once per grid cell
    it covers (half the box building of a one-game sheet, 6 -> 3 ms): the same grid and the
    same widths on every box as WeasyPrint's own resolution gives."""
    from weasyprint.formatting_structure import build

    from scoresheets.pdf_tables import mend_collapsed_borders

    settings.TABLESTAKES_PDF_NICE = 0  # laid out here, where it is compared
    pdf._fetcher_class()  # (which mends, once, on the first rendering)
    mend_collapsed_borders()  # (and again: nothing more)
    mended = build.collapse_table_borders
    original = mended.original
    compared = []

    def both(table, grid_width, grid_height):
        theirs = original(table, grid_width, grid_height)
        their_widths = _widths(table)
        ours = mended(table, grid_width, grid_height)
        assert ours == theirs
        assert _widths(table) == their_widths
        compared.append(grid_width * grid_height)
        return ours

    monkeypatch.setattr(build, "collapse_table_borders", both)
    for game in (demo_game(demo, 1), demo_game(demo, 2), demo_game(demo, 5), corrected_game):
        documents.game_sheet_pdf(game)
        documents.blank_sheet_pdf(game)
    documents.session_report_pdf(demo)
    assert len(compared) > 30 and sum(compared) > 500


def test_collapsed_borders_read_each_side_of_a_box_once(game, monkeypatch, settings):
    """WeasyPrint read a row's (a group's, a column's, the table's) border style, width and
    colour once for every grid cell the box covers: a seven-column row's bottom seven times.
    Now each side of each box is read once at most (boxes that share one style object:
    once for each of them)."""
    from weasyprint import css as weasy_css
    from weasyprint.formatting_structure import build

    settings.TABLESTAKES_PDF_NICE = 0  # laid out here, where it is counted
    pdf._fetcher_class()  # (the mended resolution, once the first rendering asks for it)
    reads: Counter = Counter()
    inside = []
    computing = []  # (a width's computation reads its side's style: not the resolver's read)

    def counting(self, key):
        if inside and not computing and key.startswith("border_"):
            reads[id(self), key] += 1
        computing.append(key)
        try:
            return dict.__getitem__(self, key)
        finally:
            computing.pop()

    for kind in (weasy_css.ComputedStyle, weasy_css.AnonymousStyle):
        monkeypatch.setattr(kind, "__getitem__", counting, raising=False)
    resolve = build.collapse_table_borders
    over = []

    def counted(table, grid_width, grid_height):
        reads.clear()
        inside.append(True)
        try:
            grid = resolve(table, grid_width, grid_height)
        finally:
            inside.pop()
        boxes_of: Counter = Counter(id(box.style) for box in [
            *_boxes(table), *(c for g in table.column_groups for c in (g, *g.children))])
        over.extend((key, count) for (style, key), count in reads.items()
                    if count > boxes_of[style])
        return grid

    monkeypatch.setattr(build, "collapse_table_borders", counted)
    documents.game_sheet_pdf(game)
    assert over == []


class _Colour(tuple):
    alpha = property(lambda self: self[3])


GREY, BLACK, CLEAR = _Colour((0.6, 0.6, 0.6, 1)), _Colour((0, 0, 0, 1)), _Colour((0, 0, 0, .5))


def test_runs_gather_next_segments_of_one_solid_opaque_width_and_colour():
    """Segments next to each other in WeasyPrint's order, solid, opaque, of one width and
    colour, share a run; touching segments along a row or down a column are one line. A
    segment of another colour between two ends the run (the order of painting is kept);
    dashed or translucent segments are painted one by one, as WeasyPrint paints them."""
    from scoresheets.pdf_tables import _runs

    lines = [
        (0, 10, 20, 10, .25, "solid", GREY), (19.5, 10, 40, 10, .25, "solid", GREY),
        (40, 10, 60, 10, .25, "solid", GREY),  # one row: one line 0-60
        (20, 0, 20, 10, .25, "solid", GREY), (20, 10, 20, 25, .25, "solid", GREY),  # a column
        (0, 30, 60, 30, .75, "solid", BLACK),  # another width and colour: a run of its own
        (0, 40, 60, 40, .25, "solid", GREY),  # grey again: a new run, after the black
        (0, 50, 60, 50, .25, "dashed", GREY), (0, 60, 60, 60, .25, "solid", CLEAR),
    ]
    assert list(_runs(lines)) == [
        (.25, GREY, [(0, 10, 60, 10), (20, 0, 20, 25)]),
        (.75, BLACK, [(0, 30, 60, 30)]),
        (.25, GREY, [(0, 40, 60, 40)]),
        (None, lines[7]),
        (None, lines[8]),
    ]


def _drawing(pdf_bytes: bytes) -> bytes:
    """The drawing of a PDF's pages: their content streams and the forms they draw, not the
    embedded fonts (whose bytes may hold a "q" or a "Q" of their own, as the printed time's
    glyphs decide)."""
    from io import BytesIO

    from pypdf import PdfReader

    parts, seen = [], set()

    def forms(resources):
        for xobject in (resources or {}).get("/XObject", {}).values():
            form = xobject.get_object()
            if form.get("/Subtype") == "/Form" and id(form) not in seen:
                seen.add(id(form))
                parts.append(form.get_data())
                forms(form.get("/Resources"))

    for page in PdfReader(BytesIO(pdf_bytes)).pages:
        parts.append(page.get_contents().get_data())
        forms(page.get("/Resources"))
    return b"\n".join(parts)


def _strokes(pdf_bytes: bytes) -> dict:
    """The lines a PDF strokes, by (colour, width), each row's and column's touching
    pieces made one: what the marks on the page are, however they were painted."""
    stream = _drawing(pdf_bytes)
    state, stack, path = {"RG": (), "w": 1.0}, [], []
    lines: dict = {}
    numbers: list = []
    for token in stream.split():
        try:
            numbers.append(round(float(token), 3))
            continue
        except ValueError:
            pass
        op = token.decode("latin-1")
        if op == "q":
            stack.append(dict(state))
        elif op == "Q":
            state = stack.pop()
        elif op == "RG":
            state["RG"] = tuple(numbers[-3:])
        elif op == "w":
            state["w"] = numbers[-1]
        elif op in ("m", "l"):
            path.append((op, *numbers[-2:]))
        elif op == "S":
            for (first, x1, y1), (then, x2, y2) in zip(path, path[1:], strict=False):
                if first in ("m", "l") and then == "l":
                    lines.setdefault((state["RG"], state["w"]), []).append((x1, y1, x2, y2))
            path = []
        elif op in ("n", "f", "f*", "B", "b"):
            path = []
        numbers = []
    merged = {}
    for key, found in lines.items():
        rows: dict = {}
        for x1, y1, x2, y2 in found:
            along = ("row", y1) if y1 == y2 else ("column", x1)
            a, b = (min(x1, x2), max(x1, x2)) if y1 == y2 else (min(y1, y2), max(y1, y2))
            rows.setdefault(along, []).append((a, b))
        out = []
        for along, spans in rows.items():
            spans.sort()
            start, end = spans[0]
            for a, b in spans[1:]:
                if a <= end + 0.01:
                    end = max(end, b)
                else:
                    out.append((along, start, end))
                    start, end = a, b
            out.append((along, start, end))
        merged[key] = sorted(out)
    return merged


def _three_documents(demo, corrected_game) -> list[str]:
    """The HTML of a one-game sheet, a corrected game's sheet and the evening's report."""
    from ledger.clock import table_voice
    from scoresheets import selectors

    with table_voice(demo.table):
        return [*(pdf.render_html(documents.GAME_TEMPLATE, selectors.game_sheet_context(game))
                  for game in (demo_game(demo, 1), corrected_game)),
                pdf.render_html(documents.SESSION_TEMPLATE,
                                selectors.session_report_context(demo))]


def test_table_rules_are_painted_in_runs_with_the_same_marks(demo, corrected_game, settings):
    """Each run of a table's solid rules of one width and colour is one path: the same
    lines stroked (colour, width, where) as WeasyPrint's own painting, a cell's side at a
    time, gives on a one-game sheet, a corrected game's and the evening's report, with far
    fewer saved states (q) in the page's drawing."""
    from weasyprint import draw

    settings.TABLESTAKES_PDF_NICE = 0
    pdf._fetcher_class()  # (mended on the first rendering)
    mended = draw.draw_collapsed_borders
    assert hasattr(mended, "original")
    font_config, sheets = pdf._stylesheets("A4")
    for html in _three_documents(demo, corrected_game):
        printed = {}
        for name, painter in (("weasyprint", mended.original), ("runs", mended)):
            draw.draw_collapsed_borders = painter
            try:
                printed[name] = pdf.html_document(html).render(
                    stylesheets=sheets, font_config=font_config).write_pdf(uncompressed_pdf=True)
            finally:
                draw.draw_collapsed_borders = mended
        theirs, ours = _strokes(printed["weasyprint"]), _strokes(printed["runs"])
        assert ours == theirs
        assert sum(len(lines) for lines in ours.values()) > 10
        saved = {name: _drawing(out).split().count(b"q") for name, out in printed.items()}
        assert saved["runs"] * 2 < saved["weasyprint"], saved


def test_computed_styles_take_the_short_way_to_the_same_pages(demo, corrected_game, settings):
    """A property an element's rules do not set is read from its parent or from the initial
    values without WeasyPrint's long way (scoresheets/pdf_styles.py): most of the style
    reads of a one-game sheet, a corrected game's and the evening's report take the short
    way, and each document is the same, byte for byte, as with WeasyPrint's own function."""
    settings.TABLESTAKES_PDF_NICE = 0
    pdf._fetcher_class()  # (mended on the first rendering)
    mended = weasy_css.ComputedStyle.__missing__
    assert hasattr(mended, "original")
    for html in _three_documents(demo, corrected_game):
        printed = {}
        short = _short_counted(mended)
        for name, function in (("weasyprint", mended.original), ("short", short)):
            weasy_css.ComputedStyle.__missing__ = function
            try:
                printed[name] = pdf._render(html, "A4", None)
            finally:
                weasy_css.ComputedStyle.__missing__ = mended
        assert printed["short"] == printed["weasyprint"]
        short = short.calls
        assert short["all"] > 2000, short
        assert short["long way"] * 4 < short["all"], short  # the short way for most


def _short_counted(mended):
    """``mended`` counting its calls ("all") and those it passes to WeasyPrint's own
    function ("long way")."""
    calls = Counter()
    original = mended.original

    def long_way(self, key):
        calls["long way"] += 1
        return original(self, key)

    from scoresheets.pdf_styles import _shortened

    short = _shortened(long_way)

    def counted(self, key):
        calls["all"] += 1
        return short(self, key)

    counted.calls = calls
    return counted
