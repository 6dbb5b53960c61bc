"""What a printed page must never do, read off WeasyPrint's own layout boxes (not the PDF's
text, which says nothing about where a word ends): used by the paper tests and by
``scripts/render-all-pdfs``.

``layout_problems`` renders a template's HTML with the print stylesheet and returns one line
per fault found:

- text that runs past the page's content box (left, right or bottom edge);
- text drawn over other text (two text boxes of one page overlapping by more than a hair);
- a table row split across two pages (a row whose cells start on one page and go on);
- a page holding only the signature block, or only a heading (a section's title left at the
  bottom with nothing under it);
- a money or totals table on a page without its section heading and with nothing else of
  its section before it (a table cut from its heading).
"""

from __future__ import annotations

from weasyprint.formatting_structure import boxes

from scoresheets import pdf

EDGE_SLACK = 0.5  # points: what rounding may put past an edge
OVERLAP_SLACK = 0.6  # points of overlap two neighbouring text runs may share (kerning)


def render(template: str, context: dict, paper: str):
    html = pdf.render_html(template, context)
    return render_html(html, paper)


def render_html(html: str, paper: str):
    with pdf._lock:
        font_config, sheets = pdf._stylesheets(paper)
        return pdf.html_document(html).render(
            stylesheets=sheets, font_config=font_config)


def _classes(box) -> set[str]:
    element = getattr(box, "element", None)
    if element is None:
        return set()
    return set((element.get("class") or "").split())


def _text_boxes(page_box):
    """(text box, the classes of its ancestors) of the page's body, not its margin boxes
    (the running head and foot live there and are checked by their own rules)."""
    out = []

    def walk(box, classes: frozenset):
        if isinstance(box, boxes.MarginBox):
            return
        own = classes | _classes(box)
        if isinstance(box, boxes.TextBox):
            if box.text.strip():
                out.append((box, own))
            return
        for child in getattr(box, "children", []) or []:
            walk(child, own)

    walk(page_box, frozenset())
    return out


def _rows(page_box):
    """The body rows of the page's tables (a repeated header row is not a split row)."""
    found = []

    def walk(box):
        if isinstance(box, boxes.MarginBox):
            return
        if isinstance(box, boxes.TableRowGroupBox) and (box.is_header or box.is_footer):
            return
        if isinstance(box, boxes.TableRowBox):
            found.append(box)
        for child in getattr(box, "children", []) or []:
            walk(child)

    walk(page_box)
    return found


def _row_key(row) -> int:
    return id(row.element) if row.element is not None else id(row)


def layout_problems(document) -> list[str]:
    """Every fault of a rendered document (see the module's docstring), one line each."""
    problems: list[str] = []
    pages = document.pages
    rows_seen: dict[int, int] = {}
    for number, page in enumerate(pages, start=1):
        page_box = page._page_box
        left = page_box.margin_left
        right = page_box.margin_width() - page_box.margin_right
        bottom = page_box.margin_height() - page_box.margin_bottom
        texts = _text_boxes(page_box)
        for box, _ in texts:
            x, y = box.position_x, box.position_y
            if x + box.width > right + EDGE_SLACK:
                problems.append(f"page {number}: {box.text!r} ends at "
                                f"{x + box.width:.1f} pt, past the right edge {right:.1f}")
            if x < left - EDGE_SLACK:
                problems.append(f"page {number}: {box.text!r} starts at {x:.1f} pt, "
                                f"left of the edge {left:.1f}")
            if y + box.height > bottom + EDGE_SLACK:
                problems.append(f"page {number}: {box.text!r} ends at "
                                f"{y + box.height:.1f} pt, below the bottom {bottom:.1f}")
        ordered = sorted(texts, key=lambda item: (item[0].position_y, item[0].position_x))
        for i, (a, _) in enumerate(ordered):
            for b, _ in ordered[i + 1:]:
                if b.position_y >= a.position_y + a.height - OVERLAP_SLACK:
                    break
                across = min(a.position_x + a.width, b.position_x + b.width) - max(
                    a.position_x, b.position_x)
                down = min(a.position_y + a.height, b.position_y + b.height) - max(
                    a.position_y, b.position_y)
                if across > OVERLAP_SLACK and down > OVERLAP_SLACK:
                    problems.append(f"page {number}: {a.text!r} and {b.text!r} overlap")
        for row in _rows(page_box):
            key = _row_key(row)
            if key in rows_seen and rows_seen[key] != number:
                cells = " ".join(t.text for t, _ in _text_boxes_of(row))[:60]
                problems.append(f"page {number}: a table row is split across pages "
                                f"{rows_seen[key]} and {number} ({cells!r})")
            rows_seen.setdefault(key, number)
        body = [t for t, c in texts if not c & {"signatures", "sig", "sig-name", "sig-intro"}]
        if number > 1 and texts and not body:
            problems.append(f"page {number}: holds only the signature block")
        headings = [t for t, c in texts if "section" in c]
        if texts and headings and all(t in headings or _is_aside(t, c) for t, c in texts):
            problems.append(f"page {number}: holds only a heading")
        if texts:
            last = max(texts, key=lambda item: item[0].position_y)
            if "section" in last[1] and number < len(pages):
                problems.append(f"page {number}: ends with the heading {last[0].text!r}, its "
                                f"section starts on page {number + 1}")
    return problems


def _is_aside(box, classes) -> bool:
    return "aside" in classes


def _text_boxes_of(box):
    out = []

    def walk(b):
        if isinstance(b, boxes.TextBox):
            out.append((b, set()))
        for child in getattr(b, "children", []) or []:
            walk(child)

    walk(box)
    return out


def page_texts(document) -> list[str]:
    """Each page's body text, in layout order, whitespace collapsed."""
    out = []
    for page in document.pages:
        out.append(" ".join(" ".join(t.text.split()) for t, _ in _text_boxes(page._page_box)))
    return out
