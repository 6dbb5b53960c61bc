"""Bench the printed documents: time and peak memory of a one-game score sheet, a 300-hand
game and the demo session report, each against WeasyPrint rendering a plain HTML table of
the same rows in the same run.

The plain baseline is one unstyled <table> holding the document's own text, row for row
(read off the rendered HTML: each table row's cells, and each heading, paragraph, header
or footer line and signature name as a one-cell row; "Page X of Y" is not in it), with the
same shipped @font-face rules, page size and page margins, and its stylesheet parsed once
per process as the documents' is. What the overhead then measures is the documents' own
styling and layout: panels, floats, the two-level table header, zebra rows, borders,
running header and footer, "Page X of Y", and for the documents the request's database
reads, scoring and template.

Every measurement runs in its own subprocess (so its peak RSS is that document's alone) on
a throwaway SQLite database holding the demo evening and a 300-hand game. "cold" is the
first render in the process (fonts and stylesheet loaded), "warm" the best of the next
ones (at least five, and more until two seconds are spent: a small document's time varies
by tens of percent from run to run on a shared machine). The report's time covers all a
request does (database reads, scoring, template, PDF); the plain table's only the PDF of
ready-made HTML. Overhead = report / plain - 1, on warm times.

Budget (issue 5): a one-game sheet under 1 s; the report's overhead over the plain table
under 50%.

    python bench/bench_sheets.py
"""

from __future__ import annotations

import html
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KINDS = ("one-game", "300-hand", "session")
WARM_RUNS = 5  # at least
WARM_SECONDS = 2.0  # and more runs until this much is spent
MAX_WARM_RUNS = 20
ONE_GAME_BUDGET_S = 1.0
OVERHEAD_BUDGET = 0.50


def django_setup(db: str) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ["DJANGO_SETTINGS_MODULE"] = "tablestakes.settings.test"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def setup(db: str) -> None:
    """The database: migrations, the demo evening (games 1-5) and a 300-hand game (6)."""
    django_setup(db)
    from django.core.management import call_command

    from ledger import services
    from tests.scoresheets.conftest import long_record  # the same 300-hand game as the tests

    call_command("migrate", verbosity=0)
    record = json.loads((ROOT / "fixtures" / "demo_session.json").read_text())
    session = services.session_import(record=record)
    services.game_import(session=session, record=long_record())


# -- one measurement (in a subprocess) --------------------------------------------------------

def plain_html(rows: list[list[str]]) -> str:
    """One table; a row with fewer cells than the widest spans its last cell to the edge
    (so a heading or a paragraph does not widen the first column)."""
    width = max(len(row) for row in rows)

    def tr(row: list[str]) -> str:
        last = "" if len(row) == width else f' colspan="{width - len(row) + 1}"'
        return ("<tr>" + "".join(f"<td>{cell}</td>" for cell in row[:-1])
                + f"<td{last}>{row[-1]}</td></tr>")

    cells = "".join(tr(row) for row in rows)
    return f"<html><body><table><tbody>{cells}</tbody></table></body></html>"


class RowsOfText(HTMLParser):
    """The text of a rendered document, row for row: each table row's cells, and each
    block outside tables (heading, paragraph, panel line, signature) as a one-cell row.
    Line breaks inside a cell are kept; tags and classes are dropped; <head> is skipped."""

    BLOCKS = {"p", "h1", "h2", "div", "header", "section", "table", "tr", "body"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows: list[list[str]] = []
        self.row: list[str] | None = None  # inside a <tr>
        self.cell: list[str] | None = None  # inside a <td>/<th>
        self.block: list[str] = []  # text outside tables
        self.skip = 0

    def _flush_block(self):
        text = " ".join("".join(self.block).split())
        if text:
            self.rows.append([html.escape(text)])
        self.block = []

    def handle_starttag(self, tag, attrs):
        if tag in ("head", "style", "script"):
            self.skip += 1
        elif tag == "tr":
            self._flush_block()
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = []
        elif tag == "br":
            (self.cell if self.cell is not None else self.block).append("\0")
        elif tag in self.BLOCKS:
            self._flush_block()

    def handle_endtag(self, tag):
        if tag in ("head", "style", "script"):
            self.skip -= 1
        elif tag in ("td", "th") and self.cell is not None:
            lines = "".join(self.cell).split("\0")
            self.row.append("<br>".join(html.escape(" ".join(line.split())) for line in lines))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.rows.append(self.row)
            self.row = None
        elif tag in self.BLOCKS:
            self._flush_block()

    def handle_data(self, data):
        if self.skip:
            return
        (self.cell if self.cell is not None else self.block).append(data)


def rows_of_text(document: str) -> list[list[str]]:
    parser = RowsOfText()
    parser.feed(document)
    parser.close()
    return parser.rows


def plain_stylesheet(paper: str):
    """The plain table's only styling: the shipped @font-face rules (copied from print.css,
    so the same files are embedded and no host font is used), the page size and margins,
    and the base font. Parsed once per process, as the documents' stylesheet is."""
    from weasyprint import CSS
    from weasyprint.text.fonts import FontConfiguration

    from scoresheets.pdf import PRINT_CSS, STATIC_DIR, LocalOnlyFetcher

    css = PRINT_CSS.read_text()
    font_faces = "\n".join(re.findall(r"@font-face \{[^}]*\}", css))
    margin = re.search(r"@page \{\s*(margin:[^;]*;)", css).group(1)
    fonts = FontConfiguration()
    sheet = CSS(string=(
        f"{font_faces}\n@page {{ size: {paper}; {margin} }}\n"
        'html { font-family: "TS Sans"; font-size: 9pt; }'
    ), base_url=str(STATIC_DIR) + "/", font_config=fonts, url_fetcher=LocalOnlyFetcher())
    return fonts, sheet


def plain_pdf(document: str, fonts, sheet) -> bytes:
    """WeasyPrint on a plain table with the same fonts, page size and margins."""
    from weasyprint import HTML

    from scoresheets.pdf import LocalOnlyFetcher

    return HTML(string=document, url_fetcher=LocalOnlyFetcher()).write_pdf(
        stylesheets=[sheet], font_config=fonts)


def measure(db: str, kind: str, which: str) -> dict:
    django_setup(db)
    from ledger.models import Game, Session
    from scoresheets import documents, selectors

    session = Session.objects.select_related("table").get()
    game = {"one-game": 1, "300-hand": 6}.get(kind)
    paper = session.table.paper_size
    if which == "report":
        if kind == "session":
            def render():
                return documents.session_report_pdf(
                    Session.objects.select_related("table").get(pk=session.pk))[0]
        else:
            def render():
                return documents.game_sheet_pdf(
                    Game.objects.select_related("session__table").get(sequence=game))[0]
    else:
        from scoresheets.pdf import render_html

        if kind == "session":
            source = render_html(documents.SESSION_TEMPLATE,
                                 selectors.session_report_context(session))
        else:
            source = render_html(documents.GAME_TEMPLATE, selectors.game_sheet_context(
                Game.objects.select_related("session__table").get(sequence=game)))
        document = plain_html(rows_of_text(source))
        fonts, sheet = plain_stylesheet(paper)

        def render():
            return plain_pdf(document, fonts, sheet)

    base_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    pdf = render()
    cold = time.perf_counter() - start
    warm: list[float] = []
    while len(warm) < MAX_WARM_RUNS and (len(warm) < WARM_RUNS or sum(warm) < WARM_SECONDS):
        start = time.perf_counter()
        render()
        warm.append(time.perf_counter() - start)
    from io import BytesIO

    from pypdf import PdfReader

    return {
        "cold": cold, "warm": min(warm),
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "growth_mb": (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base_rss) / 1024,
        "pages": len(PdfReader(BytesIO(pdf)).pages),
    }


# -- the run ----------------------------------------------------------------------------------

def run_child(*args: str) -> str:
    done = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True,
                          cwd=ROOT)
    if done.returncode != 0:
        sys.stderr.write(done.stderr)
        raise SystemExit(f"bench_sheets: child {args} failed")
    return done.stdout


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "bench.db")
        run_child("--setup", db)
        results = {}
        for kind in KINDS:
            for which in ("report", "plain"):
                results[kind, which] = json.loads(run_child("--measure", db, kind, which))
    print("Printed documents (weasyprint; each figure from its own process)")
    print("plain = one unstyled table of the document's own text, row for row (every table row,"
          "\n        heading, paragraph and signature), same @font-face files, page size and"
          " margins")
    print(f"{'document':<10} {'render':<7} {'pages':>5} {'cold s':>7} {'warm s':>7} "
          f"{'peak MB':>8} {'+MB':>6} {'overhead':>9}")
    failed = []
    for kind in KINDS:
        report, plain = results[kind, "report"], results[kind, "plain"]
        overhead = report["warm"] / plain["warm"] - 1
        for which, row in (("report", report), ("plain", plain)):
            extra = f"{overhead:>+8.0%}" if which == "report" else ""
            print(f"{kind:<10} {which:<7} {row['pages']:>5} {row['cold']:>7.3f} "
                  f"{row['warm']:>7.3f} {row['peak_mb']:>8.1f} {row['growth_mb']:>6.1f} {extra:>9}")
        if overhead > OVERHEAD_BUDGET:
            failed.append(f"{kind}: overhead {overhead:.0%} > {OVERHEAD_BUDGET:.0%}")
    one = results["one-game", "report"]
    if one["cold"] > ONE_GAME_BUDGET_S:
        failed.append(f"one-game sheet: {one['cold']:.2f} s cold > {ONE_GAME_BUDGET_S} s")
    print("budget: one-game sheet < 1 s (cold), overhead over the plain table < 50% (warm): "
          + ("OK" if not failed else "OVER: " + "; ".join(failed)))
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--setup":
        setup(sys.argv[2])
    elif len(sys.argv) > 1 and sys.argv[1] == "--measure":
        print(json.dumps(measure(sys.argv[2], sys.argv[3], sys.argv[4])))
    else:
        sys.exit(main())
