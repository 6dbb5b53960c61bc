"""Bench the printed documents: time and peak memory of a one-game score sheet, a 300-hand
game and the demo session report, each against WeasyPrint rendering a plain HTML table of
the same rows (same fonts and page size, no other styling) in the same run. "The same rows"
is every row of data the document prints: for a game sheet the hands and also the stakes,
players, rule settings, totals, money and payments lines; for the report its games, nets and
payments.

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

def plain_html(rows: list[list[str]], header: list[str],
               other_rows: list[list[str]] = ()) -> str:
    """The rows as a plain table; ``other_rows`` (the document's other lines) as a second
    plain table after it, so they do not change the widths of the first one's columns."""
    def body(rows):
        return "".join(
            "<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows
        )

    head = "".join(f"<th>{html.escape(label)}</th>" for label in header)
    second = f"<table><tbody>{body(other_rows)}</tbody></table>" if other_rows else ""
    return (f"<html><body><table><thead><tr>{head}</tr></thead>"
            f"<tbody>{body(rows)}</tbody></table>{second}</body></html>")


def plain_pdf(document: str, paper: str) -> bytes:
    """WeasyPrint on a plain table: only the fonts (the same files) and the page size."""
    from weasyprint import CSS, HTML
    from weasyprint.text.fonts import FontConfiguration

    from scoresheets.pdf import STATIC_DIR, LocalOnlyFetcher

    fonts = FontConfiguration()
    css = CSS(string=(
        f'@font-face {{ font-family: "TS Sans"; src: url({STATIC_DIR}/fonts/'
        'DejaVuSansCondensed.ttf); }\n'
        f'@page {{ size: {paper}; }} html {{ font-family: "TS Sans"; font-size: 9pt; }}'
    ), font_config=fonts, url_fetcher=LocalOnlyFetcher())
    return HTML(string=document, url_fetcher=LocalOnlyFetcher()).write_pdf(
        stylesheets=[css], font_config=fonts)


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
            context = selectors.session_report_context(session)
            header = ["#", "Game", "Hands", "Final totals", "Result", "Money"]
            rows = [[str(g["game"].sequence), g["title"], str(g["hands"]),
                     "<br>".join(f"{k} {v}" for k, v in g["finals"]), g["status"],
                     "<br>".join(f"{n} {a}" for n, a in g["money"].items())]
                    for g in context["games"]]
            rows += [[n["name"], n["amount"]] for n in context["nets"]]
            rows += [[p["from"], p["to"], p["amount"]] for p in context["payments"]]
            other = []
        else:
            context = selectors.game_sheet_context(Game.objects.get(sequence=game))
            header = [label for label, _ in context["hands"].columns]
            rows = [[cell for _, cell in row.cells] for row in context["hands"].rows]
            # Every other row the sheet prints, as plain rows: stakes, players, rules,
            # totals, money and payments (the same content, none of the layout).
            other = [[line] for line in context["stakes"]]
            other += [[label, value] for label, value in context["cast"] + context["rules"]]
            other += [[label, *values] for label, values in context.get("totals") or []]
            other += [[m["name"], m["stake"], m["amount"]] for m in context["money"]["rows"]]
            other += [[line] for line in context["money"]["payments"]]
            other += [[context["status"]]]
        document = plain_html(rows, header, other)

        def render():
            return plain_pdf(document, paper)

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
