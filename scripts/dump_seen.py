"""What people see, dumped to files to compare before and after a change that must not change
it (a refactor): every game page of every variant and count (running and over), its CSV and
XLSX, the printed sheet's and the session report's HTML (and, with --pdf, each PDF page's
text), the evening, the book, the standings and the players' pages, in English and German.

    .venv/bin/python scripts/dump_seen.py OUT_DIR [--pdf]
    diff -r /tmp/seen-before /tmp/seen-after

The world is scripts/render_all_pdfs.py's (every variant and count, finished and running, a
correction and an undo, three currencies), on a throwaway SQLite database, with the clock
stopped (``timezone.now`` fixed) so that two runs of the same code give the same bytes. What
differs by nature between runs is written over: CSRF tokens, CSP nonces, link tokens, UUIDs.
"""

from __future__ import annotations

import datetime
import io
import re
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import render_all_pdfs as world_of  # noqa: E402

NOW = datetime.datetime(2026, 11, 19, 20, 0, tzinfo=datetime.UTC)

SCRUB = [
    (re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]+'), r"\1CSRF"),
    (re.compile(r'(csrf[-_]token["\']?\s*[:=]\s*["\'])[^"\']+', re.I), r"\1CSRF"),
    (re.compile(r'nonce="[^"]+"'), 'nonce="NONCE"'),
    (re.compile(r"'nonce-[^']+'"), "'nonce-NONCE'"),
    (re.compile(r"/([rsc])/[A-Za-z0-9_-]{16,}/"), r"/\1/TOKEN/"),
    (re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"), "UUID"),
]


def scrub(text: str) -> str:
    for pattern, replacement in SCRUB:
        text = pattern.sub(replacement, text)
    return text


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/seen")
    pdf = "--pdf" in sys.argv
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as tmp:
        # the clock stopped before the models are made: their defaults (a settlement's
        # settled_at=timezone.now) keep the function they were given
        from django.utils import timezone

        timezone.now = lambda: NOW
        world_of.django_setup(str(Path(tmp) / "seen.db"))
        from django.conf import settings

        settings.ALLOWED_HOSTS = ["testserver"]
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        world = world_of.build()
        dump(world, out, pdf)
    print(f"{sum(1 for _ in out.rglob('*') if _.is_file())} files in {out}")
    return 0


def dump(world: dict, out: Path, pdf: bool) -> None:
    from django.test import Client
    from openpyxl import load_workbook

    table = world["table"]
    for language in ("en", "de"):
        client = Client(HTTP_ACCEPT_LANGUAGE=language)
        client.force_login(world["keeper"])
        client.cookies["django_language"] = language
        folder = out / language
        folder.mkdir()

        def get(url: str, name: str, binary: bool = False, client=client, folder=folder):
            answer = client.get(url)
            if answer.status_code != 200:
                (folder / name).write_text(f"HTTP {answer.status_code}\n")
                return None
            if binary:
                return answer.content
            (folder / name).write_text(scrub(answer.content.decode()))
            return answer

        get(f"/tables/{table.pk}/", "table.html")
        get(f"/tables/{table.pk}/book/", "book.html")
        get(f"/tables/{table.pk}/standings/", "standings.html")
        for player in table.players.all().order_by("pk"):
            get(f"/players/{player.pk}/", f"player-{player.pk}.html")
        for key, (session, games) in world["evenings"].items():
            get(f"/sessions/{session.pk}/", f"{key}-evening.html")
            get(f"/sheets/sessions/{session.pk}.html", f"{key}-session-report.html")
            for label, game in games.items():
                stem = f"{key}-{label}"
                get(f"/games/{game.pk}/", f"{stem}-page.html")
                get(f"/games/{game.pk}/hands.csv", f"{stem}.csv")
                xlsx = get(f"/games/{game.pk}/hands.csv?_export=xlsx", f"{stem}.xlsx.txt",
                           binary=True)
                if xlsx:
                    book = load_workbook(io.BytesIO(xlsx), read_only=True)
                    lines = [repr(row) for sheet in book.worksheets
                             for row in sheet.iter_rows(values_only=True)]
                    (folder / f"{stem}.xlsx.txt").write_text("\n".join(lines) + "\n")
                get(f"/sheets/games/{game.pk}.html", f"{stem}-sheet.html")
                if pdf and language == "en":
                    pdf_text(client, f"/sheets/games/{game.pk}.pdf",
                             folder / f"{stem}-sheet.pdf.txt")
            if pdf and language == "en":
                pdf_text(client, f"/sheets/sessions/{session.pk}.pdf",
                         folder / f"{key}-session.pdf.txt")


def pdf_text(client, url: str, path: Path) -> None:
    import pypdfium2

    answer = client.get(url)
    if answer.status_code != 200:
        path.write_text(f"HTTP {answer.status_code}\n")
        return
    document = pypdfium2.PdfDocument(answer.content)
    pages = [document[i].get_textpage().get_text_range() for i in range(len(document))]
    path.write_text("\n\f\n".join(pages))


if __name__ == "__main__":
    sys.exit(main())
