"""A streets game's target changed between deals from the game page (RULES 3.9): recorded as
the record's ``{"target": N}`` entry through ``services.target_change``; the core's refusal
(``target_passed``) at the field, nothing stored."""

from __future__ import annotations

import datetime
import json
import uuid

import pytest

from ledger import services
from ledger.models import Hand
from ledger.selectors.games import game_record, game_result
from tests.rules.helpers import DATA

pytestmark = pytest.mark.django_db


@pytest.fixture
def streets_game(keeper):
    table = services.table_create(name="Club", scorekeepers=[keeper])
    session = services.session_create(table=table, date=datetime.date(2026, 11, 23),
                                      currency="USD", rate="0.01", created_by=keeper)
    record = json.loads((DATA / "club" / "streets-game.json").read_text())
    record["hands"] = record["hands"][:2]  # WE 60, THEY 32 in street 1
    return services.game_import(session=session, record=record, imported_by=keeper)


def test_the_page_offers_the_target_change(logged_in, streets_game):
    html = logged_in.get(f"/games/{streets_game.pk}/").content.decode()
    assert f'action="/games/{streets_game.pk}/target/"' in html
    assert "Change the target" in html


def test_a_target_change_is_recorded_as_its_entry(logged_in, streets_game):
    response = logged_in.post(f"/games/{streets_game.pk}/target/",
                              {"target": "150", "key": str(uuid.uuid4())})
    assert response.status_code == 302
    assert game_record(streets_game)["hands"][-1] == {"target": 150}
    result = game_result(streets_game)
    assert [s["target"] for s in result["streets"]] == [150, 150, 150]
    html = logged_in.get(f"/games/{streets_game.pk}/").content.decode()
    assert html.count("Target changed to 150") >= 2  # the flash and the row of the sheet
    assert "90 to go" in html  # WE: 150 - 60 in street 1


def test_a_target_already_passed_is_refused_at_the_field(logged_in, streets_game):
    before = Hand.objects.filter(game=streets_game).count()
    response = logged_in.post(f"/games/{streets_game.pk}/target/",
                              {"target": "50", "key": str(uuid.uuid4())})
    assert response.status_code == 422
    html = response.content.decode()
    assert 'id="id_target_error"' in html
    assert "target 50 is refused: WE already has 60 in open street 1" in html
    assert Hand.objects.filter(game=streets_game).count() == before


def test_the_refusal_in_german(logged_in, streets_game):
    response = logged_in.post(f"/games/{streets_game.pk}/target/",
                              {"target": "60", "key": str(uuid.uuid4())},
                              HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 422
    assert "Eine Seite hat in einer noch offenen Stra\u00dfe schon so viele Punkte" in (
        response.content.decode())


def test_the_service_refuses_a_passed_target(streets_game, keeper):
    from ledger.exceptions import RecordRefused
    with pytest.raises(RecordRefused) as refused:
        services.target_change(game=streets_game, target=60, changed_by=keeper,
                               idempotency_key=uuid.uuid4())
    assert [p.code for p in refused.value.details] == ["target_passed"]
