"""Limits: hands per game, imported records, printing; each a setting with a sane default
and a refusal that says which limit and what to do. (Log-in and sign-up limits are in
test_accounts.py.)"""

from __future__ import annotations

import copy
import io
import json
import sys
import time
import uuid

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from weasyprint.urls import FatalURLFetchingError

from ledger import limits, services
from ledger.exceptions import LedgerError
from ledger.models import Game, Hand, Session, Table
from ledger.presentation.refusals import refusal_words
from scoresheets import documents, pdf
from scoresheets.pdf import PRINT_CSS, STATIC_DIR, LocalOnlyFetcher, PdfTooLarge, html_to_pdf
from tests.refusing import refuses

from .conftest import load_case

pytestmark = pytest.mark.django_db

DRAW = {"draw": True}


def draws(n: int) -> dict:
    record = copy.deepcopy(load_case("gin-standard-game"))
    record["hands"] = [dict(DRAW) for _ in range(n)]
    return record


@pytest.fixture
def no_scoring(monkeypatch):
    """Fail loudly if anything is scored: the refusal must come first."""
    def explode(record):
        raise AssertionError("scored a record that should have been refused first")

    monkeypatch.setattr(services.core, "score_record", explode)


def test_the_defaults(settings):
    assert settings.TABLESTAKES_MAX_HANDS_PER_GAME == 500
    assert settings.TABLESTAKES_MAX_IMPORT_HANDS == 2000
    assert settings.TABLESTAKES_MAX_IMPORT_BYTES == 4 * 1024 * 1024
    assert (settings.TABLESTAKES_PDF_MAX_HANDS, settings.TABLESTAKES_PDF_MAX_PAGES,
            settings.TABLESTAKES_PDF_TIMEOUT) == (600, 40, 20)


# -- hands per game --------------------------------------------------------------------------

def test_the_501st_hand_is_refused_draws_included(session, keeper):
    game = services.game_import(session=session, record=draws(500), imported_by=keeper)
    with pytest.raises(limits.LimitReached) as refused:
        services.hand_record(game=game, entry=DRAW, recorded_by=keeper,
                             idempotency_key=uuid.uuid4())
    assert "already has 500 hands, the most one game may hold here (500)" in \
        refusal_words(refused.value) and "Abandon it" in refusal_words(refused.value)
    assert Hand.objects.filter(game=game).count() == 500
    # it counts live hands: after an undo there is room for one again
    services.hand_undo_last(game=game, undone_by=keeper)
    services.hand_record(game=game, entry=DRAW, recorded_by=keeper, idempotency_key=uuid.uuid4())
    assert Hand.objects.filter(game=game, voided_at__isnull=True).count() == 500


def test_a_record_with_more_hands_than_a_game_holds_is_refused_unscored(session, keeper,
                                                                      no_scoring):
    with refuses(limits.LimitReached, match="a game holds at most 500 here"):
        services.game_import(session=session, record=draws(501), imported_by=keeper)
    assert not Game.objects.exists()


def test_the_hand_form_says_the_game_is_full(client, session, keeper, settings):
    from .conftest import start_empty

    settings.TABLESTAKES_MAX_HANDS_PER_GAME = 2
    game = start_empty(session, keeper, load_case("gin-standard-game"))
    for _ in range(2):
        services.hand_record(game=game, entry=DRAW, recorded_by=keeper,
                             idempotency_key=uuid.uuid4())
    client.force_login(keeper)
    response = client.post(reverse("ledger:hand_create", args=[game.pk]), {
        "key": str(uuid.uuid4()), "number": 3, "t1_knocker": "-draw-"})
    assert response.status_code == 422
    assert "the most one game may hold here (2)" in response.content.decode()
    assert Hand.objects.filter(game=game).count() == 2


# -- imported records ------------------------------------------------------------------------

def test_a_file_too_large_is_refused_before_it_is_read(tmp_path, settings, monkeypatch):
    settings.TABLESTAKES_MAX_IMPORT_BYTES = 1000
    path = tmp_path / "big.json"
    path.write_text(json.dumps(draws(200)))

    def no_parsing(*args, **kwargs):
        raise AssertionError("parsed a file that should have been refused first")

    monkeypatch.setattr("ledger.cleaning.records.json.loads", no_parsing)
    for command in ("import_game", "import_session"):
        with pytest.raises(CommandError) as refused:
            call_command(command, str(path), stdout=io.StringIO(), stderr=io.StringIO())
        assert f"{path} is {path.stat().st_size:,} bytes; records up to 1,000 bytes" in \
            str(refused.value) and "Nothing was stored." in str(refused.value)
    assert not Session.objects.exists() and not Table.objects.exists()


def test_standard_input_is_read_no_further_than_the_limit(settings, monkeypatch):
    settings.TABLESTAKES_MAX_IMPORT_BYTES = 1000
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(draws(200))))
    with pytest.raises(CommandError, match="standard input is 1,001 bytes"):
        call_command("import_game", "-", stdout=io.StringIO(), stderr=io.StringIO())


def test_a_record_of_too_many_hands_is_refused_before_scoring(tmp_path, no_scoring):
    game = draws(2001)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game))
    with pytest.raises(CommandError, match="has 2,001 hands; records of up to 2,000 hands"):
        call_command("import_game", str(path), stdout=io.StringIO(), stderr=io.StringIO())
    session = {"format": "tablestakes.session/1", "table": "Big", "date": "2025-11-21",
               "currency": "USD", "players": ["A", "B"],
               "games": [draws(450) for _ in range(5)]}
    path.write_text(json.dumps(session))
    with pytest.raises(CommandError, match="has 2,250 hands; records of up to 2,000"):
        call_command("import_session", str(path), stdout=io.StringIO(), stderr=io.StringIO())
    assert not Table.objects.exists() and not Game.objects.exists()


# -- printing --------------------------------------------------------------------------------

@pytest.fixture
def no_rendering(monkeypatch):
    def explode(*args, **kwargs):
        raise AssertionError("rendered a document that should have been refused first")

    monkeypatch.setattr(pdf, "_render", explode)


def test_a_game_with_too_many_hands_is_not_rendered(client, session, keeper, settings,
                                                    no_rendering):
    settings.TABLESTAKES_PDF_MAX_HANDS = 50
    game = services.game_import(session=session, record=draws(51), imported_by=keeper)
    client.force_login(keeper)
    response = client.get(reverse("scoresheets:game_pdf", args=[game.pk]))
    assert response.status_code == 422 and response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert "Game 1 has 51 hands; sheets of up to 50 hands are printed here." in page
    assert "Download its hands as CSV" in page
    assert reverse("ledger:game_detail", args=[game.pk]) in page
    response = client.get(reverse("scoresheets:session_pdf", args=[session.pk]))
    assert response.status_code == 422 and "This evening has 51 hands" in \
        response.content.decode()
    with pytest.raises(CommandError, match="Game 1 has 51 hands"):
        call_command("print_game", str(game.pk), "-o", "-", stderr=io.StringIO())


def test_a_document_longer_than_the_page_cap_is_refused(client, session, keeper, settings):
    settings.TABLESTAKES_PDF_MAX_PAGES = 1
    game = services.game_import(session=session, record=draws(40), imported_by=keeper)
    with pytest.raises(PdfTooLarge, match=r"runs to \d+ pages; at most 1 are printed here"):
        documents.game_sheet_pdf(game)
    client.force_login(keeper)
    response = client.get(reverse("scoresheets:game_pdf", args=[game.pk]))
    assert response.status_code == 422 and "at most 1 are printed here" in \
        response.content.decode()


def test_a_rendering_past_its_time_is_stopped_and_the_next_one_works():
    rows = "".join(f"<tr><td>{n}</td><td>hand {n}</td></tr>" for n in range(3000))
    html = f"<html><body><table>{rows}</table></body></html>"
    with pytest.raises(PdfTooLarge, match="took more than 0.05 seconds and was stopped"):
        html_to_pdf(html, timeout=0.05)
    assert html_to_pdf("<html><body><p>after</p></body></html>", timeout=20).startswith(b"%PDF")


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_an_alarm_dropped_in_a_destructor_rings_again(monkeypatch):
    """Python prints and drops an exception raised in a ``__del__``: the deadline's alarm that
    lands in one (a temporary file closed during the layout) must still stop the rendering.
    (The dropped one is noted by a hook of the test's own: pytest's formats a traceback,
    reading source files, and on a loaded machine the repeating alarm rang inside it.)"""
    dropped = []
    monkeypatch.setattr(sys, "unraisablehook", lambda unraisable: dropped.append(
        unraisable.exc_type))

    class Slow:
        def __del__(self):
            time.sleep(0.3)  # the first alarm rings here, and its PdfTooLarge is dropped

    with pytest.raises(PdfTooLarge):
        with pdf._deadline(0.05):
            Slow()
            until = time.monotonic() + 3
            while time.monotonic() < until:  # the rendering going on
                pass
    assert PdfTooLarge in dropped


# -- the PDF fetcher's path check --------------------------------------------------------------

@pytest.mark.parametrize("tail", [
    "%2e%2e/%2e%2e/settings.py", "%2E%2E/%2E%2E/settings.py", "..%2f..%2fsettings.py",
    "fonts/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "%00/print.css",
])
def test_the_fetcher_decodes_and_normalises_before_checking(tail):
    url = STATIC_DIR.as_uri() + "/" + tail
    with pytest.raises(ValueError, match="refused"):
        LocalOnlyFetcher().fetch(url)


def test_the_fetcher_still_serves_its_own_files():
    url = (STATIC_DIR / "fonts" / "..").as_uri() + "/print.css"
    fetched = LocalOnlyFetcher().fetch(url)
    body = fetched.read() if hasattr(fetched, "read") else fetched["string"]
    assert body.startswith(PRINT_CSS.read_bytes()[:20])


def test_an_encoded_escape_in_a_document_stops_the_rendering():
    with pytest.raises(FatalURLFetchingError):
        html_to_pdf('<html><body><img src="fonts/%2e%2e/%2e%2e/%2e%2e/views.py"></body></html>')


def test_limit_errors_are_ledger_errors():
    assert issubclass(limits.LimitReached, LedgerError)
