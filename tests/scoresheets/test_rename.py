"""A player renamed (from the table's screen or the admin) stays the same person: every
game page, session page, CSV, PDF, share page and settlement of his keeps working and shows
the new name (docs/rules-decisions.md, "A renamed player")."""

from __future__ import annotations

import csv
import io
import re
import uuid

import pytest
from django.urls import reverse

from ledger import services
from ledger.exceptions import LedgerError
from ledger.models import Player, ShareLink
from ledger.selectors.evenings import session_nets, settlement_nets
from ledger.selectors.exports import session_export
from ledger.selectors.games import game_result
from scoresheets import documents
from tests.factories import gin_game
from tests.refusing import refuses

from .conftest import pdf_text

pytestmark = pytest.mark.django_db


def visible(response) -> str:
    html = response.content.decode()
    html = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def rename_on_screen(client, table, player: Player, name: str):
    return client.post(reverse("ledger:table_detail", args=[table.pk]),
                       {"rename_player": "1", "rename-player": player.pk, "rename-name": name})


def _settle_and_rename(client, keeper, demo) -> None:
    """The demo evening settled, then Eve renamed Evelyn and Bob Robert on the table's
    screen."""
    client.force_login(keeper)
    services.session_settle(session=demo, settled_by=keeper)
    for old, new in (("Eve", "Evelyn"), ("Bob", "Robert")):
        response = rename_on_screen(client, demo.table, demo.table.players.get(name=old), new)
        assert response.status_code == 302, visible(response)[-300:]


def test_everything_of_a_renamed_player_opens_and_shows_the_new_name(client, keeper, demo):
    table = demo.table
    before = {game.pk: game_result(game) for game in demo.games.all()}
    nets_before = session_nets(demo)
    _settle_and_rename(client, keeper, demo)
    page = client.get(reverse("ledger:table_detail", args=[table.pk]))
    assert "Evelyn" in visible(page) and "Robert" in visible(page)

    token = services_share(client, table)
    for game in demo.games.all():
        result = game_result(game)
        old = before[game.pk]
        # the same scores and money, under the new names
        rename = {"Eve": "Evelyn", "Bob": "Robert"}
        assert result["money"] == {rename.get(k, k): v for k, v in old["money"].items()}
        assert [h["points"] for h in result["hands"]] == [
            {rename.get(k, k): v for k, v in h["points"].items()} for h in old["hands"]]
        shown = visible(client.get(reverse("ledger:game_detail", args=[game.pk])))
        csv_text = client.get(reverse("ledger:game_export", args=[game.pk])).content.decode()
        shared = client.get(reverse("ledger:shared_game", args=[token, game.pk]))
        assert shared.status_code == 200
        for text in (shown, csv_text, visible(shared)):
            assert_new_names(text, result["players"])

    session_page = visible(client.get(reverse("ledger:session_detail", args=[demo.pk])))
    nets = session_nets(demo)
    assert nets["Evelyn"] == nets_before["Eve"] and nets["Robert"] == nets_before["Bob"]
    settled = settlement_nets(demo.settlement)
    assert settled == nets
    assert "Evelyn" in session_page and "Robert" in session_page
    assert not re.search(r"\b(Eve|Bob)\b", session_page)
    export = session_export(demo)
    assert export["settlement"]["nets"]["Evelyn"] == export["settlement"]["nets"].get("Evelyn")
    assert "Eve" not in export["settlement"]["nets"]


@pytest.mark.engine_independent  # the names come from the rows the test above reads on both
def test_every_pdf_of_a_renamed_player_shows_the_new_name(client, keeper, demo):
    """The score sheets (through their URLs), the blank sheets and the session report: the
    new names, never the old ones (laid out once per document: a PDF reads the same rows on
    either engine, and those rows are the previous test's, which runs on both)."""
    _settle_and_rename(client, keeper, demo)
    for game in demo.games.all():
        pdf = pdf_text(client.get(reverse("scoresheets:game_pdf", args=[game.pk])).content)
        assert_new_names(" ".join(pdf.split()), game_result(game)["players"])
        assert client.get(reverse("scoresheets:blank_pdf", args=[game.pk])).status_code == 200
    report = " ".join(pdf_text(documents.session_report_pdf(demo)[0]).split())
    assert "Evelyn" in report and "Robert" in report
    assert not re.search(r"\b(Eve|Bob)\b", report)


def assert_new_names(text: str, players) -> None:
    """``text`` names every one of the game's ``players`` (one of them renamed) and neither
    old name."""
    assert set(players) & {"Evelyn", "Robert"}
    assert all(name in text for name in players)
    assert not re.search(r"\b(Eve|Bob)\b", text)


def services_share(client, table) -> str:
    client.post(reverse("ledger:share_create", args=[table.pk]))
    return ShareLink.objects.get(table=table, game__isnull=True, revoked_at__isnull=True).token


def test_a_game_in_progress_goes_on_after_a_rename(client, keeper, demo):
    client.force_login(keeper)
    game = gin_game(demo, keeper)
    services.hand_record(game=game, entry={"knocker": "Ann", "deadwood": {"Ann": 5, "Bob": 17}},
                         recorded_by=keeper, idempotency_key=uuid.uuid4())
    services.player_rename(player=demo.table.players.get(name="Ann"), name="Annie")
    # the next hand is typed with the new name (the form shows it) ...
    response = client.post(reverse("ledger:hand_create", args=[game.pk]), {
        "key": str(uuid.uuid4()), "number": 2, "t1_knocker": "Annie", "t1_kind": "knock",
        "t1_c0": "3", "t1_c1": "20"})
    assert response.status_code == 302, visible(response)[-400:]
    # ... and hand 1, from before the rename, is corrected with it too
    services.hand_correct(hand=game.hands.get(number=1),
                          entry={"knocker": "Annie", "deadwood": {"Annie": 4, "Bob": 17}},
                          corrected_by=keeper, reason="4, not 5")
    result = game_result(game)
    assert [h["points"] for h in result["hands"]] == [{"Annie": 13, "Bob": 0},
                                                      {"Annie": 17, "Bob": 0}]
    # the stored hands keep the name as played: one set of names per game
    assert all("Ann" in hand.entry["deadwood"] for hand in game.hands.all())
    page = visible(client.get(reverse("ledger:game_detail", args=[game.pk])))
    assert "Annie knocks 4 v Bob 17" in page and "Annie knocks 3 v Bob 20" in page
    assert "Hand 1: Annie knocks 5 v Bob 17" in page  # the voided hand, in today's name
    fix = client.get(reverse("ledger:hand_correct", args=[game.pk, 1])).content.decode()
    assert 'value="Annie"' in fix
    rows = list(csv.reader(io.StringIO(
        client.get(reverse("ledger:game_export", args=[game.pk])).content.decode())))
    assert rows[0][4:8] == ["Annie points", "Annie total", "Bob points", "Bob total"]


def test_a_rename_that_clashes_is_refused_at_the_field(client, keeper, demo):
    client.force_login(keeper)
    table = demo.table
    eve = table.players.get(name="Eve")
    response = rename_on_screen(client, table, eve, "  ann ")
    assert response.status_code == 422
    html = response.content.decode()
    assert re.search(r'id="id_rename-name_error"[^>]*>Ann already plays at this table', html)
    assert table.players.filter(name="Eve").exists()
    with refuses(LedgerError, match="kept for the hand form"):
        services.player_rename(player=eve, name="-draw-")
    with refuses(LedgerError, match="needs a name"):
        services.player_rename(player=eve, name="   ")


def test_two_players_swap_names_and_their_games_follow(keeper, demo):
    """Ann becomes Zed, then Bob takes the name Ann: each game still knows who was who."""
    game = demo.games.get(sequence=1)
    before = game_result(game)["money"]
    services.player_rename(player=demo.table.players.get(name="Ann"), name="Zed")
    services.player_rename(player=demo.table.players.get(name="Bob"), name="Ann")
    after = game_result(game)["money"]
    assert after == {"Zed": before["Ann"], "Ann": before["Bob"]}


def test_the_admin_renames_through_the_service(admin_client, demo):
    eve = demo.table.players.get(name="Eve")
    url = reverse("admin:ledger_player_change", args=[eve.pk])
    response = admin_client.post(url, {"name": "dev"})
    assert response.status_code == 200 and "Dev already plays at this table" in \
        response.content.decode()
    response = admin_client.post(url, {"name": "Evelyn"})
    assert response.status_code == 302
    box = demo.games.get(sequence=2)
    assert "Evelyn" in game_result(box)["money"]
    assert "Evelyn knocks 3 v Dev 23" in pdf_text(documents.game_sheet_pdf(box)[0])
