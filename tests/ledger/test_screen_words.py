"""Words on the screens found by looking at every screen (issue 11): the correction form
labels its fields with their own names only (the old hand is said once, above), the stake
reads "per point", a settled evening says so under its title, the standings say that they
scroll sideways."""

from __future__ import annotations

import datetime
import html
import re
import uuid

import pytest
from django.urls import reverse

from ledger import services
from tests.pages import text

from .conftest import load_case

pytestmark = pytest.mark.django_db


def labels(response) -> list[str]:
    page = response.content.decode()
    return [html.unescape(" ".join(re.sub(r"<[^>]+>", " ", label).split()))
            for label in re.findall(r"<label class=\"label\"[^>]*>(.*?)</label>", page, re.S)]


def test_the_correction_form_says_the_old_hand_once(logged_in, session, keeper):
    game = services.game_start(session=session, variant="captain",
                               players=["Sal", "Vic", "Ann", "Bo", "Cy"], started_by=keeper,
                               setup={"captains": ["Sal", "Vic"], "opponents": ["Ann", "Bo"],
                                      "sitter": "Cy"})
    services.hand_record(game=game, recorded_by=keeper, idempotency_key=str(uuid.uuid4()), entry={
        "tables": [{"knocker": "Sal", "deadwood": {"Sal": 3, "Ann": 20}},
                   {"knocker": "Bo", "deadwood": {"Vic": 28, "Bo": 4}}]})
    response = logged_in.get(reverse("ledger:hand_correct", args=[game.pk, 1]))
    assert response.status_code == 200
    words = text(response)
    assert words.count("Sal knocks 3 v Ann 20") == 1
    assert "Entered as: T1 Sal knocks 3 v Ann 20 / T2 Bo knocks 4 v Vic 28" in words
    assert [label for label in labels(response) if "cards" not in label] == [
        "Sal's count", "Ann's count", "Vic's count", "Bo's count", "Why the correction?"]
    assert "was" not in " ".join(labels(response))


def test_the_stake_reads_per_point_and_a_settled_evening_says_so(logged_in, table, keeper):
    evening = services.session_create(table=table, date=datetime.date(2026, 11, 23),
                                      currency="USD", rate="0.05", created_by=keeper)
    by_five = services.session_create(table=table, date=datetime.date(2026, 11, 24),
                                      currency="USD", rate="0.05", per_points=5,
                                      created_by=keeper)
    page = text(logged_in.get(reverse("ledger:session_detail", args=[evening.pk])))
    assert "$0.05 per point" in page and "per 1 point" not in page
    assert "settled" not in page.split("Games")[0]
    assert "$0.05 per 5 points" in text(
        logged_in.get(reverse("ledger:session_detail", args=[by_five.pk])))
    table_page = text(logged_in.get(reverse("ledger:table_detail", args=[table.pk])))
    assert "$0.05 per point" in table_page and "$0.05 per 5 points" in table_page
    services.game_import(session=evening, record=load_case("gin-standard-game"),
                         imported_by=keeper)
    services.session_settle(session=evening, settled_by=keeper)
    page = text(logged_in.get(reverse("ledger:session_detail", args=[evening.pk])))
    assert "$0.05 per point · settled Games" in page
    assert "New game" not in page


def test_the_standings_say_they_scroll_sideways(logged_in, table, keeper, session):
    services.game_import(session=session, record=load_case("gin-standard-game"),
                         imported_by=keeper)
    page = logged_in.get(reverse("ledger:table_standings", args=[table.pk])).content.decode()
    assert "More columns to the right" in page
    assert '<div class="sheet-wrap scrolls"' in page and "sheet standings wide" in page


def test_the_table_lists_tonight_first(logged_in, table, keeper):
    """The table's evenings, latest first (the Count of games made the query ignore the
    model's ordering: the oldest came first)."""
    for day in (9, 23, 16):
        services.session_create(table=table, date=datetime.date(2026, 11, day),
                                currency="USD", rate="0.05", created_by=keeper)
    page = text(logged_in.get(reverse("ledger:table_detail", args=[table.pk])))
    days = re.findall(r"Monday, November (\d+), 2026", page)
    assert days == ["23", "16", "9"]
