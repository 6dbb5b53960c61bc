"""Every PDF the app prints, for every variant and count, to look at: game sheets in progress
and finished (one with a correction and an undo), blank sheets (from a game and from the
evening's form, seats chosen), and session reports (settled and not), in A4 and Letter, with
long player names and large numbers (4-digit totals, money in the thousands in USD, in a
0-decimal currency (JPY) and a 3-decimal one (KWD)).

Each document is also checked on WeasyPrint's layout boxes (tests/scoresheets/layout.py:
text past an edge, text over text, a row split across pages, a lone signature block or
heading); the faults are listed at the end. Pages are rendered with ``pdftoppm -r 60 -png``.

    scripts/render-all-pdfs [OUT_DIR [ONLY]]   (default /tmp/pdfs; ONLY: the documents whose
                                               file name holds this text)

Runs on a throwaway SQLite database; nothing else is touched.
"""

from __future__ import annotations

import copy
import datetime
import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TABLE = "The Featherstonehaugh Thursday Night Gin Rummy & Supper Society"



def game_configs() -> list[tuple[str, str, int, bool]]:
    """(label, variant, number of players, played to 1000 for large numbers): every variant
    for every number of players the catalog gives it (after ``django_setup``). The games
    of one card table on a plain sheet (no Hollywood games, tables, rounds or sitters) go
    to 1000."""
    from ledger.presentation.catalog import VARIANT_COUNTS, game_facts

    out = []
    for variant, counts in VARIANT_COUNTS.items():
        for count in counts:
            facts = game_facts(variant, count)
            big = not (facts.table_game or facts.columns or facts.rounds or facts.sitters)
            out.append((variant if len(counts) == 1 else f"{variant}-{count}", variant, count,
                        big))
    return out


def django_setup(db: str) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ["DJANGO_SETTINGS_MODULE"] = "tablestakes.settings.test"
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


# -- the evenings -----------------------------------------------------------------------------

def build() -> dict:
    """The table and its evenings; returns what to print."""
    from django.contrib.auth import get_user_model

    from ledger import services
    from ledger.presentation.catalog import game_facts
    from tests.scoresheets.playout import NAMES, play

    keeper = get_user_model().objects.create_user("keeper", password="pw")
    table = services.table_create(name=TABLE, scorekeepers=[keeper])
    evenings = {}
    plans = [
        # (key, currency, rate, date, finished?, configs)
        ("usd-finished", "USD", "0.75", datetime.date(2026, 11, 19), True, game_configs()),
        ("usd-running", "USD", "0.75", datetime.date(2026, 11, 20), False, game_configs()),
        # the currencies without and with three decimals: a third of the games each, in turn
        # (every kind of sheet appears in one of them or the other)
        ("jpy", "JPY", "10", datetime.date(2026, 11, 21), True, game_configs()[::3]),
        ("kwd", "KWD", "0.125", datetime.date(2026, 11, 22), True, game_configs()[1::3]),
    ]
    for seed, (key, currency, rate, date, finished, configs) in enumerate(plans):
        session = services.session_create(
            table=table, currency=currency, rate=rate, date=date, created_by=keeper,
            place="The back room of the Duke of Wellington, upstairs",
            notes="Rendered by scripts/render-all-pdfs: long names, large numbers.")
        games = {}
        for n, (label, variant, count, big) in enumerate(configs):
            players = NAMES[:count]
            facts = game_facts(variant, count)
            if facts.stake == "ante":
                ante = {"USD": "250.00", "JPY": "5000", "KWD": "12.500"}[currency]
                stakes = {"ante": ante, "currency": currency}
            else:
                stakes = {"rate": rate, "per_points": 1, "currency": currency}
            rules = {"target": 1000} if big else {}
            record = play(variant, players, stakes=stakes, rules=rules, seed=seed * 100 + n,
                          hands=None if finished else 3 if facts.rounds else 6, big=big)
            games[label] = services.game_import(session=session, record=record,
                                                imported_by=keeper)
        if key == "usd-finished":  # a correction and an undo on the gin game
            correct(games["gin"], keeper)
        evenings[key] = (session, games)
        if finished:
            services.session_settle(session=session, settled_by=keeper)
    return {"table": table, "keeper": keeper, "evenings": evenings}


def correct(game, keeper) -> None:
    """Hand 2 corrected (the loser's count one more), the last hand undone and re-entered."""
    from ledger import services

    hand = game.hands.filter(voided_at__isnull=True).get(number=2)
    entry = copy.deepcopy(hand.entry)
    if "deadwood" in entry:
        loser = next(p for p in entry["deadwood"] if p != entry["knocker"])
        entry["deadwood"][loser] += 1
    services.hand_correct(hand=hand, entry=entry, corrected_by=keeper,
                          reason="Bartholomew's king was counted as a queen: 1 point more")
    last = game.hands.filter(voided_at__isnull=True).order_by("-number").first()
    again = copy.deepcopy(last.entry)
    services.hand_undo_last(game=game, undone_by=keeper,
                            reason="entered twice by mistake")
    services.hand_record(game=game, entry=again, recorded_by=keeper,
                         idempotency_key=uuid.uuid4())


# -- printing ---------------------------------------------------------------------------------

def documents_to_print(world: dict):
    """(file stem, template, context, paper) of every document, both papers."""
    from scoresheets import documents, selectors
    from scoresheets.blank import evening_blank_context
    from tests.scoresheets.playout import NAMES, setup_of

    for key, (session, games) in world["evenings"].items():
        for paper in ("A4", "letter"):
            yield (f"{key}-session-{paper}", documents.SESSION_TEMPLATE,
                   selectors.session_report_context(session), paper)
        for label, game in games.items():
            for paper in ("A4", "letter"):
                yield (f"{key}-{label}-sheet-{paper}", documents.GAME_TEMPLATE,
                       selectors.game_sheet_context(game), paper)
                if key == "usd-running":
                    yield (f"{key}-{label}-blank-{paper}", documents.BLANK_TEMPLATE,
                           selectors.blank_sheet_context(game), paper)
    session, _ = world["evenings"]["usd-running"]
    for label, variant, count, _big in game_configs():
        players = list(reversed(NAMES[:count]))  # seats in another order than the game's
        context, _ = evening_blank_context(session, variant, players, setup_of(variant, players))
        for paper in ("A4", "letter"):
            yield (f"evening-blank-{label}-{paper}", documents.BLANK_TEMPLATE, context, paper)


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/pdfs")
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as tmp:
        django_setup(str(Path(tmp) / "pdfs.db"))
        from django.core.management import call_command

        from tests.scoresheets.layout import layout_problems, render_html

        call_command("migrate", verbosity=0)
        world = build()
        from scoresheets.pdf import render_html as template_html

        faults: list[str] = []
        count = pages = 0
        for stem, template, context, paper in documents_to_print(world):
            if only not in stem:
                continue
            document = render_html(template_html(template, context), paper)
            path = out / f"{stem}.pdf"
            path.write_bytes(document.write_pdf())
            subprocess.run(["pdftoppm", "-r", "60", "-png", str(path), str(out / stem)],
                           check=True)
            count += 1
            pages += len(document.pages)
            found = layout_problems(document)
            faults += [f"{stem}: {line}" for line in found]
            print(f"{stem:<48} {len(document.pages)} page{'s' if len(document.pages) > 1 else ''}"
                  + (f"  {len(found)} fault(s)" if found else ""))
    print(f"{count} documents, {pages} pages in {out}")
    for line in faults:
        print("FAULT", line)
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())
