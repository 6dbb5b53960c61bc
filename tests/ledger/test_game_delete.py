"""A game started by mistake can be deleted, while it has no hand (issue 37.10):
``services.game_delete``. Everything with a hand, money, a table report, or in a settled
evening is history and stays, with a reason that says why. These tests run on SQLite and
PostgreSQL (CI's second pass): on PostgreSQL a game change is append-only (migration 0012)
and may go only after its game (0021)."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction
from django.urls import reverse

from ledger import services
from ledger.exceptions import GameNotEmpty, SessionSettled
from ledger.models import (
    EveningStanding,
    Game,
    GameChange,
    GamePlayer,
    GameStanding,
    GameStatus,
    Player,
    PostingBatch,
    ReportLink,
    ShareLink,
    TableReport,
)
from tests.factories import ANN_KNOCKS, gin_game
from tests.pages import Page, text
from tests.refusing import refuses

pytestmark = pytest.mark.django_db


def rows_of(game_pk: int) -> dict[str, int]:
    """Every row that refers to the game, by model."""
    return {
        "game": Game.objects.filter(pk=game_pk).count(),
        "seats": GamePlayer.objects.filter(game_id=game_pk).count(),
        "changes": GameChange.objects.filter(game_id=game_pk).count(),
        "standings": GameStanding.objects.filter(game_id=game_pk).count(),
        "report_links": ReportLink.objects.filter(game_id=game_pk).count(),
        "share_links": ShareLink.objects.filter(game_id=game_pk).count(),
    }


GONE = {"game": 0, "seats": 0, "changes": 0, "standings": 0, "report_links": 0,
        "share_links": 0}


def test_a_game_with_no_hand_is_deleted_with_its_seats_and_links(session, keeper):
    kept = gin_game(session, keeper, hands=[ANN_KNOCKS])
    mistake = gin_game(session, keeper, players=("Ann", "Zed"), first_dealer="Zed")
    services.share_link_get_or_create(table=session.table, game=mistake, created_by=keeper)
    assert mistake.sequence == 2
    assert rows_of(mistake.pk)["seats"] == 2 and rows_of(mistake.pk)["share_links"] == 1

    assert services.game_delete(game=mistake, deleted_by=keeper) == 2
    assert rows_of(mistake.pk) == GONE
    # the other game as it was; Zed, whom the mistake added, stays on the table's list
    assert list(session.games.values_list("sequence", flat=True)) == [1]
    assert kept.hands.count() == 1
    assert Player.objects.filter(table=session.table, name="Zed").exists()
    # the next game takes its number again
    assert gin_game(session, keeper).sequence == 2


def test_an_abandoned_game_with_no_hand_goes_from_the_evenings_sums(session, keeper):
    played = gin_game(session, keeper, hands=[ANN_KNOCKS])
    services.game_abandon(game=played, abandoned_by=keeper, reason="out of time")
    mistake = gin_game(session, keeper)
    # a stake agreed before the first hand, then abandoned: two game changes, the book's rows
    services.game_change_stake(game=mistake, changed_by=keeper, rate="0.02", reason="agreed")
    services.game_abandon(game=mistake, abandoned_by=keeper, reason="started by mistake")
    assert rows_of(mistake.pk) == {"game": 1, "seats": 2, "changes": 2, "standings": 2,
                                   "report_links": 0, "share_links": 0}
    ann = EveningStanding.objects.get(session=session, player__name="Ann")
    assert (ann.games, ann.hands_played, ann.hand_points) == (2, 1, 12)

    services.game_delete(game=mistake, deleted_by=keeper)
    assert rows_of(mistake.pk) == GONE
    # the evening's sums: the abandoned game with its one hand alone (Ann knocks 5 v 17: 12)
    ann = EveningStanding.objects.get(session=session, player__name="Ann")
    assert (ann.games, ann.hands_played, ann.hand_points) == (1, 1, 12)
    assert GameChange.objects.filter(game=played).count() == 1  # its abandon stays


def test_a_game_with_a_hand_even_undone_stays(session, keeper):
    game = gin_game(session, keeper, hands=[ANN_KNOCKS])
    with refuses(GameNotEmpty, match="Game 1 has hands"):
        services.game_delete(game=game, deleted_by=keeper)
    services.hand_undo_last(game=game, undone_by=keeper)
    assert game.hands.filter(voided_at=None).count() == 0
    # the undone hand is history: "an undone hand stays in the history"
    with refuses(GameNotEmpty, match="undone hand stays in the history"):
        services.game_delete(game=game, deleted_by=keeper)
    assert rows_of(game.pk)["game"] == 1


def test_a_game_with_money_or_reports_stays(session, keeper):
    game = gin_game(session, keeper)
    PostingBatch.objects.create(game=game, number=1, kind="post", memo="test")
    with refuses(GameNotEmpty, match="Game 1 has money in the ledger"):
        services.game_delete(game=game, deleted_by=keeper)
    other = gin_game(session, keeper)
    link = ReportLink.objects.create(game=other, part=1)
    TableReport.objects.create(link=link, game=other, number=1, table=1, values=ANN_KNOCKS)
    with refuses(GameNotEmpty, match="Game 2 has reports from the tables"):
        services.game_delete(game=other, deleted_by=keeper)
    assert Game.objects.filter(pk__in=[game.pk, other.pk]).count() == 2


def test_a_game_of_a_settled_evening_stays_until_it_is_reopened(session, keeper):
    gin_game(session, keeper, hands=[ANN_KNOCKS])
    mistake = gin_game(session, keeper)
    services.game_abandon(game=mistake, abandoned_by=keeper)
    services.game_abandon(game=session.games.get(sequence=1), abandoned_by=keeper)
    services.session_settle(session=session, settled_by=keeper)
    with refuses(SessionSettled, match="Reopen the evening first"):
        services.game_delete(game=mistake, deleted_by=keeper)
    services.session_reopen(session=session, reopened_by=keeper, reason="game 2 was a mistake")
    services.game_delete(game=mistake, deleted_by=keeper)
    assert rows_of(mistake.pk) == GONE
    # settled again: the nets are the one game's (Ann +12 points at 0.01: 0.12)
    settlement = services.session_settle(session=session, settled_by=keeper)
    assert settlement.nets == {"Ann": 12, "Bob": -12}


# -- on the screens ----------------------------------------------------------------------------

def test_abandon_asks_first_and_names_what_happens(logged_in, session, keeper):
    game = gin_game(session, keeper, hands=[ANN_KNOCKS])
    url = reverse("ledger:game_abandon", args=[game.pk])
    page = Page(logged_in.get(reverse("ledger:game_detail", args=[game.pk])))
    dialog = page.one("dialog", id="confirm-abandon")
    assert page.text(dialog.find(".//h2")) == "Abandon game 1?"
    # Ann knocked 5 against Bob's 17: 12 to Ann
    assert "It ends now, after 1 hand, on the score as it stands: Ann 12 · Bob 0." in \
        page.text(dialog)
    assert page.one("input", id="confirm-abandon-reason").get("placeholder") == "e.g. out of time"
    # the page without JavaScript asks the same question (GET), the POST abandons
    question = logged_in.get(url)
    assert question.status_code == 200 and "Abandon game 1?" in text(question)
    game.refresh_from_db()
    assert game.status == GameStatus.IN_PROGRESS
    logged_in.post(url, {"reason": "out of time"})
    game.refresh_from_db()
    assert game.status == GameStatus.ABANDONED


def test_a_game_with_no_hand_offers_delete_not_abandon(logged_in, session, keeper):
    game = gin_game(session, keeper)
    page = Page(logged_in.get(reverse("ledger:game_detail", args=[game.pk])))
    assert page.all("dialog", id="confirm-abandon") == []
    dialog = page.one("dialog", id="confirm-delete")
    assert page.text(dialog.find(".//h2")) == "Delete game 1?"
    url = reverse("ledger:game_delete", args=[game.pk])
    assert "Delete game 1?" in text(logged_in.get(url))  # asked, nothing deleted
    assert Game.objects.filter(pk=game.pk).exists()
    response = logged_in.post(url, follow=True)
    assert response.redirect_chain[-1][0] == reverse("ledger:session_detail", args=[session.pk])
    assert "Game 1 deleted." in text(response)
    assert not Game.objects.filter(pk=game.pk).exists()


def test_deleting_a_game_with_a_hand_is_refused_with_its_reason(logged_in, session, keeper):
    game = gin_game(session, keeper, hands=[ANN_KNOCKS])
    response = logged_in.post(reverse("ledger:game_delete", args=[game.pk]), follow=True)
    assert "Game 1 has hands" in text(response)
    assert Game.objects.filter(pk=game.pk).exists()


def test_the_evening_says_an_abandoned_game_with_no_hand_can_go(logged_in, session, keeper):
    gin_game(session, keeper, hands=[ANN_KNOCKS])
    mistake = gin_game(session, keeper)
    services.game_abandon(game=mistake, abandoned_by=keeper)
    evening = reverse("ledger:session_detail", args=[session.pk])
    page = Page(logged_in.get(evening))
    rows = [page.text(li) for li in page.one("ul", class_="games").findall("li")]
    assert len(rows) == 2
    assert "Abandoned with no hand: it can be deleted on its page." in rows[1]
    assert "Abandoned with no hand" not in rows[0]  # game 1 has its hand
    logged_in.post(reverse("ledger:game_delete", args=[mistake.pk]))
    page = Page(logged_in.get(evening))
    rows = [page.text(li) for li in page.one("ul", class_="games").findall("li")]
    assert len(rows) == 1 and rows[0].startswith("Game 1")


# -- PostgreSQL: what raw SQL may do ------------------------------------------------------------

@pytest.mark.postgres
def test_postgres_lets_a_game_change_go_only_after_its_game(session, keeper):
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")
    game = gin_game(session, keeper)
    services.game_abandon(game=game, abandoned_by=keeper, reason="mistake")
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM ledger_gamechange WHERE game_id = %s", [game.pk])
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("UPDATE ledger_gamechange SET reason = 'x' WHERE game_id = %s",
                           [game.pk])
    # a game with a hand cannot go (its hands are never deleted), so neither can its changes
    played = gin_game(session, keeper, hands=[ANN_KNOCKS])
    services.game_abandon(game=played, abandoned_by=keeper)
    with pytest.raises(DatabaseError), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM ledger_gamestanding WHERE game_id = %s", [played.pk])
            cursor.execute("DELETE FROM ledger_gameplayer WHERE game_id = %s", [played.pk])
            cursor.execute("DELETE FROM ledger_game WHERE id = %s", [played.pk])
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    services.game_delete(game=game, deleted_by=keeper)
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # what COMMIT checks: nothing dangles
    assert rows_of(game.pk) == GONE

