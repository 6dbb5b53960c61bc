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

Cold time, peak memory and pages: each document and each plain table alone in its own
subprocess (so its peak RSS is that render's alone; a document's is the larger of its
process's and its renderer's), on a throwaway SQLite database holding the demo evening and
a 300-hand game; "cold" is the first render in the process (fonts and stylesheet loaded;
for the document, its renderer started: a child process, as in a gunicorn worker). Warm
time and overhead: a third process renders the document and its plain table in pairs, the
order alternating (report-plain, plain-report, ...), at least five pairs and more until
twelve seconds are spent, so that the drift of a shared machine falls on both alike; warm =
each side's median wall time; overhead = median(report) / median(plain) - 1 of their
processor time (user + system, the process's and, for the document, its renderer's: the
renderer runs at TABLESTAKES_PDF_NICE, 10, on purpose, so on a loaded machine its wall
time counts the processor it leaves to the others, which the plain table at the bench's
own priority does not; the wall-time overhead is printed beside it), with the quartiles of
the pairs' ratios and "best" = least report / least plain - 1 (the budget holds only if both
are under it). The report's time covers all a request does (database reads, scoring,
template, sending it to the renderer, the PDF); the plain table's only the PDF of
ready-made HTML.

Budget (issues 5, 42): a one-game sheet under 1 s of processor time cold; the report's
overhead over the plain table under 50%. The load average is printed with the figures.

    python bench/bench_sheets.py
"""

from __future__ import annotations

import html
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KINDS = ("one-game", "300-hand", "session")
MIN_PAIRS = 5  # warm (report, plain) pairs: at least
PAIR_SECONDS = 12.0  # and more pairs until this much is spent
MAX_PAIRS = 40
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


def renderer(kind: str, which: str):
    """A function that renders `kind` as the document ("report") or as the plain table."""
    from ledger.models import Game, Session
    from scoresheets import documents, selectors

    session = Session.objects.select_related("table").get()
    game = {"one-game": 1, "300-hand": 6}.get(kind)
    if which == "report":
        if kind == "session":
            def render():
                return documents.session_report_pdf(
                    Session.objects.select_related("table").get(pk=session.pk))[0]
        else:
            def render():
                return documents.game_sheet_pdf(
                    Game.objects.select_related("session__table").get(sequence=game))[0]
        return render
    from scoresheets.pdf import render_html

    if kind == "session":
        source = render_html(documents.SESSION_TEMPLATE,
                             selectors.session_report_context(session))
    else:
        source = render_html(documents.GAME_TEMPLATE, selectors.game_sheet_context(
            Game.objects.select_related("session__table").get(sequence=game)))
    document = plain_html(rows_of_text(source))
    fonts, sheet = plain_stylesheet(session.table.paper_for(session.currency))  # as the report

    def render():
        return plain_pdf(document, fonts, sheet)
    return render


def renderer_state() -> tuple[int | None, float]:
    """(pid, processor seconds so far) of this process's PDF renderer (None, 0 without)."""
    from scoresheets import pdf

    current = getattr(pdf, "_renderer", None)  # (none in the code before issue 42)
    return (None, 0.0) if current is None else (current.pid, current.cpu)


def renderer_peak_kb() -> int:
    """The peak resident memory of this process's PDF renderer (KiB; 0 without one)."""
    pid, _ = renderer_state()
    if pid is None:
        return 0
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1))


def processor() -> float:
    """This process's processor time and its ended children's (seconds)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def timed(render) -> tuple[float, float]:
    """(wall seconds, processor seconds) of ``render()``: this process's, its renderer's and
    any child's it waited for."""
    pid, cpu = renderer_state()
    start, start_cpu = time.perf_counter(), processor()
    render()
    took, took_cpu = time.perf_counter() - start, processor() - start_cpu
    new_pid, new_cpu = renderer_state()
    return took, took_cpu + (new_cpu - cpu if new_pid == pid else new_cpu)


def measure(db: str, kind: str, which: str) -> dict:
    """Cold time, peak memory and pages of one render, alone in its process (the document's
    peak is the larger of its process's and its renderer's)."""
    django_setup(db)
    render = renderer(kind, which)
    base_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    pdf = []
    cold, cold_cpu = timed(lambda: pdf.append(render()))
    pdf = pdf[0]
    render()  # the second render: what memory a warm process settles at
    from io import BytesIO

    from pypdf import PdfReader

    peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, renderer_peak_kb())
    return {
        "cold": cold,
        "cold_cpu": cold_cpu,
        "peak_mb": peak / 1024,
        "growth_mb": (peak - base_rss) / 1024,
        "pages": len(PdfReader(BytesIO(pdf)).pages),
    }


def paired(db: str, kind: str) -> dict:
    """Warm times of the report and the plain table, taken in pairs in one process, the
    order alternating (report-plain, plain-report, ...) so drift on a shared machine falls
    on both alike. Overhead = median(report) / median(plain) - 1."""
    django_setup(db)
    renders = {which: renderer(kind, which) for which in ("report", "plain")}
    for render in renders.values():  # warm both: fonts, stylesheets, templates, queries
        render()
        render()
    times: dict[str, list[float]] = {"report": [], "plain": []}
    cpu: dict[str, list[float]] = {"report": [], "plain": []}
    spent = 0.0
    pair = 0
    while pair < MAX_PAIRS and (pair < MIN_PAIRS or spent < PAIR_SECONDS):
        order = ("report", "plain") if pair % 2 == 0 else ("plain", "report")
        for which in order:
            took, took_cpu = timed(renders[which])
            times[which].append(took)
            cpu[which].append(took_cpu)
            spent += took
        pair += 1
    report, plain = statistics.median(times["report"]), statistics.median(times["plain"])
    cpu_report, cpu_plain = statistics.median(cpu["report"]), statistics.median(cpu["plain"])
    ratios = [r / p for r, p in zip(cpu["report"], cpu["plain"], strict=True)]
    return {"report": report, "plain": plain, "pairs": pair, "wall": report / plain - 1,
            "cpu_report": cpu_report, "cpu_plain": cpu_plain,
            "overhead": cpu_report / cpu_plain - 1,
            "spread": statistics.quantiles(ratios, n=4),
            "best": min(cpu["report"]) / min(cpu["plain"]) - 1}


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
        alone = {(kind, which): json.loads(run_child("--measure", db, kind, which))
                 for kind in KINDS for which in ("report", "plain")}
        warm = {kind: json.loads(run_child("--paired", db, kind)) for kind in KINDS}
    print(f"Printed documents (weasyprint), load average {os.getloadavg()[0]:.2f}")
    print("plain = one unstyled table of the document's own text, row for row (every table row,"
          "\n        heading, paragraph and signature), same @font-face files, page size and"
          " margins")
    print("cold, peak MB, +MB: first render, each in its own process (the document's: its"
          " renderer's too);\n        warm, cpu: medians of report/plain renders alternating in"
          " one process (wall, and\n        processor time of the process and its renderer);"
          " overhead = cpu report/plain - 1\n        (pair ratios' quartiles); wall = warm"
          " report/plain - 1; best = fastest/fastest - 1")
    print(f"{'document':<10} {'render':<7} {'pages':>5} {'cold s':>7} {'warm s':>7} "
          f"{'cpu s':>6} {'peak MB':>8} {'+MB':>6} {'overhead':>9}  quartiles    best   wall"
          "  pairs")
    failed = []
    for kind in KINDS:
        w = warm[kind]
        for which in ("report", "plain"):
            row = alone[kind, which]
            extra = ""
            if which == "report":
                q1, _, q3 = w["spread"]
                extra = (f"{w['overhead']:>+9.0%}  {q1 - 1:+.0%}..{q3 - 1:+.0%}  "
                         f"{w['best']:>+5.0%} {w['wall']:>+6.0%}  {w['pairs']:>5}")
            print(f"{kind:<10} {which:<7} {row['pages']:>5} {row['cold']:>7.3f} "
                  f"{w[which]:>7.3f} {w['cpu_' + which]:>6.3f} {row['peak_mb']:>8.1f} "
                  f"{row['growth_mb']:>6.1f} {extra}")
        if max(w["overhead"], w["best"]) > OVERHEAD_BUDGET:
            failed.append(f"{kind}: overhead {w['overhead']:.0%} (best {w['best']:.0%}) > "
                          f"{OVERHEAD_BUDGET:.0%}")
    one = alone["one-game", "report"]
    print(f"one-game sheet cold: {one['cold']:.2f} s, {one['cold_cpu']:.2f} s of processor time"
          " (the process's and its renderer's)")
    if one["cold_cpu"] > ONE_GAME_BUDGET_S:
        failed.append(f"one-game sheet: {one['cold_cpu']:.2f} s of processor time cold > "
                      f"{ONE_GAME_BUDGET_S} s")
    print("budget: one-game sheet < 1 s of processor time (cold), overhead over the plain table"
          " < 50% (warm, processor time): "
          + ("OK" if not failed else "OVER: " + "; ".join(failed)))
    return 1 if failed else 0  # scripts/bench's summary says "failed" for a budget not held


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--setup":
        setup(sys.argv[2])
    elif len(sys.argv) > 1 and sys.argv[1] == "--measure":
        print(json.dumps(measure(sys.argv[2], sys.argv[3], sys.argv[4])))
    elif len(sys.argv) > 1 and sys.argv[1] == "--paired":
        print(json.dumps(paired(sys.argv[2], sys.argv[3])))
    else:
        sys.exit(main())
