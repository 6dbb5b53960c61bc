"""Bench the printed documents: time and peak memory of a one-game score sheet, a 300-hand
game and the demo session report, each against WeasyPrint rendering a plain HTML table of
the same rows in the same run.

The plain baseline is one unstyled <table> holding every row of text the document prints
(masthead and running header/footer text once, stakes, players, rules, each hand, each
correction's reason, status, totals, money, payments, the names to sign; for the report the
games, nets and payments), with the same shipped @font-face rules, page size and page
margins, and its stylesheet parsed once per process as the documents' is. What the
overhead then measures is the documents' own styling and layout: panels, floats, the
two-level table header, zebra rows, borders, running header and footer, "Page X of Y".

Every measurement runs in its own subprocess (so its peak RSS is that document's alone) on
a throwaway SQLite database holding the demo evening and a 300-hand game. "cold" is the
first render in the process (fonts and stylesheet loaded), "warm" the best of the next
three. The report's time covers all a request does (database reads, scoring, template,
PDF); the plain table's only the PDF of ready-made HTML. Overhead = report / plain - 1,
on warm times.

Budget (issue 5): a one-game sheet under 1 s; the report's overhead over the plain table
under 50%.

    python bench/bench_sheets.py
"""

from __future__ import annotations

import html
import json
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KINDS = ("one-game", "300-hand", "session")
WARM_RUNS = 3
ONE_GAME_BUDGET_S = 1.0
OVERHEAD_BUDGET = 0.50


def django_setup(db: str) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ["DJANGO_SETTINGS_MODULE"] = "tablestakes.settings.test"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def long_record(hands: int = 300) -> dict:
    """Gin, Ann v Bob, ``hands`` knocks, a target nobody reaches (abandoned: it settles)."""
    rng = random.Random(5)
    entries = []
    for _ in range(hands):
        knocker = rng.choice(["Ann", "Bob"])
        other = "Bob" if knocker == "Ann" else "Ann"
        k = rng.randint(0, 10)
        deadwood = {knocker: k, other: rng.randint(k + 1, 60)}
        entries.append({"knocker": knocker, "deadwood": deadwood})
    return {
        "format": "tablestakes.game/1", "variant": "gin", "rules": {"target": 100000},
        "players": ["Ann", "Bob"],
        "stakes": {"rate": "0.01", "per_points": 1, "currency": "USD"},
        "setup": {"first_dealer": "Bob"}, "abandoned": True, "hands": entries,
    }


def setup(db: str) -> None:
    """The database: migrations, the demo evening (games 1-5) and a 300-hand game (6)."""
    django_setup(db)
    from django.core.management import call_command

    from ledger import services

    call_command("migrate", verbosity=0)
    record = json.loads((ROOT / "fixtures" / "demo_session.json").read_text())
    session = services.session_import(record=record)
    services.game_import(session=session, record=long_record())


# -- one measurement (in a subprocess) --------------------------------------------------------

def plain_html(rows: list[list[str]], header: list[str]) -> str:
    cells = "".join(
        "<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows
    )
    head = "".join(f"<th>{html.escape(label)}</th>" for label in header)
    return (f"<html><body><table><thead><tr>{head}</tr></thead>"
            f"<tbody>{cells}</tbody></table></body></html>")


def _esc(value) -> str:
    return html.escape(str(value))


def head_rows(head: dict) -> list[list[str]]:
    """The text of the masthead and of the running header and footer, once each."""
    return [[_esc(head["club"]), _esc(head["kind"]), _esc(head["subtitle"]),
             _esc(head["short_date"])],
            [_esc(head["date"]), _esc(head["place"]), "printed " + _esc(head["printed"])]]


def sheet_rows(context: dict) -> tuple[list[str], list[list[str]]]:
    """Every row a game score sheet prints, as plain table rows: the masthead, the stakes,
    players and rules, the hand table (a corrected hand's reason on its own row), the
    status, the totals, the money, the payments and the names to sign."""
    table = context["hands"]
    header = [label for label, _ in table.columns]
    rows = head_rows(context["head"])
    rows += [[_esc(line)] for line in context["stakes"]]
    rows += [[_esc(label), _esc(value)] for label, value in context["cast"]]
    rows += [[_esc(v) for pair in two for v in pair] for two in context["rule_pairs"]]
    rows += [[_esc(label) for label, _ in table.groups if label]]
    for row in table.rows:
        rows.append([str(cell) for _, cell in row.cells])
        if row.void:
            rows.append(["", _esc(row.note)])
    rows.append([_esc(context["status"])])
    for column in context.get("columns") or []:
        rows += [[_esc(label)] + [_esc(v) for v in values] for label, values in column["rows"]]
    rows += [[_esc(label)] + [_esc(v) for v in values]
             for label, values in context.get("totals") or []]
    rows += [[_esc(c["name"]), _esc(c["final"]), _esc(c["rounds_won"]), _esc(c["pot_won"]),
              _esc(c["money"])] for c in context.get("capit") or []]
    money = context["money"]
    rows += [[_esc(r["name"]), _esc(r["side"]), _esc(r["stake"]), _esc(r["amount"])]
             for r in money["rows"]]
    rows += [[_esc(line)] for line in money["payments"]]
    rows.append([_esc(name) for name in context["signers"]])
    return header, rows


def report_rows(context: dict) -> tuple[list[str], list[list[str]]]:
    """Every row the session report prints: the masthead, the games, the nets, the
    payments and the names to sign."""
    header = ["#", "Game", "Hands", "Final totals", "Result", "Money"]
    rows = head_rows(context["head"])
    rows += [[str(g["game"].sequence),
              "<br>".join([_esc(g["title"]), _esc(", ".join(g["players"])),
                           _esc(g["stakes"])]),
              str(g["hands"]), "<br>".join(f"{_esc(k)} {v}" for k, v in g["finals"]),
              _esc(g["status"]),
              "<br>".join(f"{_esc(n)} {_esc(a)}" for n, a in g["money"].items())]
             for g in context["games"]]
    rows += [[_esc(n["name"]), _esc(n["amount"])] for n in context["nets"]]
    rows += [["", _esc(p["from"]), _esc(p["to"]), _esc(p["amount"])]
             for p in context["payments"]]
    rows.append(["Scorekeeper"] + [_esc(name) for name in context["signers"]])
    return header, rows


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
        if kind == "session":
            header, rows = report_rows(selectors.session_report_context(session))
        else:
            header, rows = sheet_rows(
                selectors.game_sheet_context(Game.objects.get(sequence=game)))
        document = plain_html(rows, header)
        fonts, sheet = plain_stylesheet(paper)

        def render():
            return plain_pdf(document, fonts, sheet)

    base_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    pdf = render()
    cold = time.perf_counter() - start
    warm = []
    for _ in range(WARM_RUNS):
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
    print("plain = one unstyled table of the same rows of text (head, stakes, rules, hands,"
          " totals,\n        money, payments, signers), same @font-face files, page size and"
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
