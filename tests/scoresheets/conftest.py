"""Fixtures of the score sheet tests: the demo evening stored through the services, a
game with a correction and an undo, a 300-hand game, and PDF text helpers."""

from __future__ import annotations

import io
import json
import random
import uuid
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from ledger import services
from tests.factories import gin_game

ROOT = Path(__file__).resolve().parents[2]
DEMO_SESSION = ROOT / "fixtures" / "demo_session.json"


@pytest.fixture
def demo(keeper):
    """The demo evening (fixtures/demo_session.json), kept by ``keeper``."""
    record = json.loads(DEMO_SESSION.read_text())
    session = services.session_import(record=record, imported_by=keeper)
    session.table.scorekeepers.add(keeper)
    return session


def demo_game(session, sequence: int):
    return session.games.select_related("session__table").get(sequence=sequence)


def long_record(hands: int = 300, seed: int = 5) -> dict:
    """A gin game of ``hands`` knocks with a target no one reaches (so it never ends),
    marked abandoned so that it settles on hand points."""
    rng = random.Random(seed)
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


@pytest.fixture
def long_game(demo, keeper):
    return services.game_import(session=demo, record=long_record(), imported_by=keeper)


@pytest.fixture
def corrected_game(demo, keeper):
    """Gin, Ann v Bob: three hands; hand 2 corrected (Bob's gin against 14 was against 24),
    then hand 3 undone."""
    game = gin_game(demo, keeper)
    for entry in (
        {"knocker": "Ann", "deadwood": {"Ann": 5, "Bob": 17}},
        {"knocker": "Bob", "deadwood": {"Ann": 14, "Bob": 0}},
        {"knocker": "Ann", "deadwood": {"Ann": 8, "Bob": 6}},
    ):
        services.hand_record(game=game, entry=entry, recorded_by=keeper,
                             idempotency_key=uuid.uuid4())
    services.hand_correct(hand=game.hands.get(number=2),
                          entry={"knocker": "Bob", "deadwood": {"Ann": 24, "Bob": 0}},
                          corrected_by=keeper, reason="Ann held 24, a king was missed")
    services.hand_undo_last(game=game, undone_by=keeper, reason="entered on the wrong game")
    return game


def pdf_pages(pdf: bytes) -> list[str]:
    """The text of each page as PDFium reads it (the PDF engine of Chromium), whitespace runs
    collapsed to one space per line. PDFium takes about 5 ms for a sheet where pypdf took 80
    to 190; pypdf still reads the positions (``text_positions``) and the pages' boxes."""
    document = pdfium.PdfDocument(pdf)
    try:
        return [
            "\n".join(" ".join(line.split())
                      for line in page.get_textpage().get_text_range().splitlines())
            for page in document
        ]
    finally:
        document.close()


def pdf_text(pdf: bytes) -> str:
    return "\n".join(pdf_pages(pdf))


def text_positions(pdf: bytes, page: int = 0) -> list[tuple[str, float, float]]:
    """(text, x, y) of each run of text on a page, in points from the bottom left."""
    found = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            found.append((text.strip(), round(tm[4] * cm[0] + cm[4], 1),
                          round(tm[5] * cm[3] + cm[5], 1)))

    PdfReader(io.BytesIO(pdf)).pages[page].extract_text(visitor_text=visit)
    return found
