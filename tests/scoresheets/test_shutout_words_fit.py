"""A shutout's words stay in their cell on every language's paper: "ja: Gesamtpunkte des
Siegers verdoppelt" ran past the totals table into the loser's column on German paper
(the totals' cells keep numbers on one line; words may wrap)."""

from __future__ import annotations

import uuid

import pytest

from ledger import services
from ledger.clock import table_voice
from scoresheets import documents, selectors

from .layout import layout_problems, render

pytestmark = [pytest.mark.django_db, pytest.mark.engine_independent]


@pytest.mark.parametrize("code", ["de", "fr", "ru", "es", "en"])
def test_the_shutout_words_fit_their_cell(keeper, code):
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    table.language = code
    table.save(update_fields=["language"])
    session = services.session_create(table=table, currency="EUR", rate="12.50",
                                      created_by=keeper)
    game = services.game_start(session=session, variant="gin", players=["Anna", "Boris"],
                               started_by=keeper, preset="standard",
                               setup={"first_dealer": "Boris"})
    for _ in range(2):  # two gins of 55: Boris never scores, a shutout
        services.hand_record(game=game, entry={"knocker": "Anna",
                                               "deadwood": {"Anna": 0, "Boris": 30}},
                             recorded_by=keeper, idempotency_key=uuid.uuid4())
    game.refresh_from_db()
    assert game.status == "complete"
    with table_voice(table):
        context = selectors.game_sheet_context(game)
        assert [kind for _, _, kind in context["totals"]].count("text") == 1
        document = render(documents.GAME_TEMPLATE, context, table.paper_for("EUR"))
    assert layout_problems(document) == []
