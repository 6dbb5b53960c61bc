"""The server's side of issue 14: hands sent by the phone's queue (views/queue.py), the
share pages' live part answered 304 while nothing changed (views/live.py), the installable
app (views/pwa.py) and the share links' QR code and copy button."""

from __future__ import annotations

import json
import re
import uuid

import pytest
from django.contrib.staticfiles import finders
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger import services
from ledger.models import Hand, ShareLink
from ledger.views import freshness
from tests.factories import gin_game

pytestmark = pytest.mark.django_db

KNOCK = {"t1_knocker": "Ann", "t1_kind": "knock", "t1_c0": "5", "t1_c1": "20"}


@pytest.fixture
def gin(session, keeper):
    return gin_game(session, keeper, preset="standard")


@pytest.fixture
def client_in(client, keeper):
    client.force_login(keeper)
    return client


def send(client, game, number, fields, key=None):
    data = {"key": str(key or uuid.uuid4()), "number": str(number), **fields}
    response = client.post(reverse("ledger:hand_send", args=[game.pk]), data)
    return response, response.json() if response["Content-Type"].startswith(
        "application/json") else None


def live_hands(game):
    return [(h.number, h.entry) for h in Hand.objects.filter(game=game, voided_at=None)
            .order_by("number")]


# -- the queue's endpoint --------------------------------------------------------------------

def test_a_hand_sent_is_recorded_and_a_resend_with_its_key_stores_nothing(client_in, gin):
    key = uuid.uuid4()
    response, answer = send(client_in, gin, 1, KNOCK, key)
    assert response.status_code == 201
    assert answer == {"status": "recorded", "created": True, "number": 1,
                      "message": "Hand 1 recorded: Ann +15."}
    # the answer was lost; the phone sends the same hand again, later, maybe as "hand 1"
    # when the server is at hand 2: known by its key, stored once
    response, answer = send(client_in, gin, 1, KNOCK, key)
    assert response.status_code == 200
    assert (answer["status"], answer["created"], answer["number"]) == ("recorded", False, 1)
    assert live_hands(gin) == [(1, {"knocker": "Ann", "deadwood": {"Ann": 5, "Bob": 20}})]


def test_three_queued_hands_land_as_1_2_3_in_order(client_in, gin):
    hands = [KNOCK, {"t1_knocker": "Bob", "t1_kind": "knock", "t1_c0": "10", "t1_c1": "3"},
             {"t1_knocker": "-draw-"}]
    for number, fields in enumerate(hands, start=1):
        response, answer = send(client_in, gin, number, fields)
        assert (response.status_code, answer["number"]) == (201, number)
    assert live_hands(gin) == [
        (1, {"knocker": "Ann", "deadwood": {"Ann": 5, "Bob": 20}}),
        (2, {"knocker": "Bob", "deadwood": {"Bob": 3, "Ann": 10}}),
        (3, {"draw": True}),
    ]


def test_the_last_hand_sent_brings_back_the_parts_of_the_page_that_changed(client_in, gin):
    bob_knocks = {"t1_knocker": "Bob", "t1_kind": "knock", "t1_c0": "10", "t1_c1": "3"}
    send(client_in, gin, 1, KNOCK)  # the page shows hand 1 (it was reloaded after it)
    client_in.get(reverse("ledger:game_detail", args=[gin.pk]))  # its message is said there
    response, answer = send(client_in, gin, 2, {**bob_knocks, "parts": "2"})
    assert response.status_code == 201 and answer["next"] == 3
    parts = answer["parts"]
    # the next hand's form, the hand said, the score and only the new row of the sheet
    assert 'id="entry"' in parts and "Save hand 3" in parts and "<html" not in parts
    assert re.search(r'id="saved"[^>]*><li[^>]*>Hand 2 recorded: Bob \+7\.</li>', parts)
    assert 'hx-swap-oob="beforeend:#sheet-rows"' in parts
    assert 'id="hand-2"' in parts and 'id="hand-1"' not in parts
    tiles = dict(re.findall(r'data-key="(\w+)".*?class="score-value">(\d+)<', parts, re.S))
    assert tiles == {"Ann": "15", "Bob": "7"}  # 20 - 5 to Ann, 10 - 3 to Bob
    # said in place: not kept for the next page
    assert 'id="flash"' not in client_in.get(
        reverse("ledger:game_detail", args=[gin.pk])).content.decode()


def test_hands_that_landed_together_are_all_in_the_parts_and_said_once(client_in, gin):
    send(client_in, gin, 1, KNOCK)  # sent while the page showed no hand: not asking
    response, answer = send(client_in, gin, 2, {"t1_knocker": "-draw-", "parts": "1"})
    parts = answer["parts"]
    # two hands new to the page: the whole sheet, both rows; both hands said
    assert 'id="sheet" hx-swap-oob="true"' in parts
    assert 'id="hand-1"' in parts and 'id="hand-2"' in parts
    assert "Hand 1 recorded: Ann +15. Hand 2 recorded: Draw." in parts
    assert 'id="flash"' not in client_in.get(
        reverse("ledger:game_detail", args=[gin.pk])).content.decode()
    # a hand whose answer was lost, sent again asking for the parts: said as recorded
    hand = Hand.objects.get(game=gin, number=2)
    response, answer = send(client_in, gin, 2, {"t1_knocker": "-draw-", "parts": "3"},
                            key=hand.idempotency_key)
    assert (response.status_code, answer["created"], answer["next"]) == (200, False, 3)
    assert "Hand 2 recorded: Draw." in answer["parts"]
    assert len(live_hands(gin)) == 2


def test_the_hand_that_ends_the_game_brings_back_the_page_with_winner_and_money(
        client_in, gin, keeper):
    # Ann gins against 30: 30 + the gin bonus 25 = 55 a hand; twice is 110, past 100
    services.hand_record(game=gin, entry={"knocker": "Ann", "deadwood": {"Ann": 0, "Bob": 30}},
                         recorded_by=keeper, idempotency_key=uuid.uuid4())
    fields = {"t1_knocker": "Ann", "t1_kind": "gin", "t1_c1": "30", "parts": "2"}
    response, answer = send(client_in, gin, 2, fields)
    assert response.status_code == 201 and "parts" not in answer
    page = answer["page"]
    assert page.startswith("<!doctype html>") and 'id="over"' in page
    assert re.search(r'class="winner">Ann', page)
    assert 'id="money"' in page and "Hand 2 recorded: Ann +55. Game over" in page
    assert '<span class="chip chip-complete">Complete</span>' in page


def test_a_refused_hand_answers_its_reasons_in_the_save_bars_order(client_in, gin):
    response, answer = send(client_in, gin, 1, {**KNOCK, "t1_c0": "15", "parts": "1"})
    assert response.status_code == 422 and "parts" not in answer
    assert answer["problems"] == ["a knock must be 10 or less; Ann counted 15"]
    assert live_hands(gin) == []


def test_a_hand_typed_for_a_number_already_taken_is_kept_not_stored(client_in, gin, keeper):
    services.hand_record(game=gin, entry={"draw": True}, recorded_by=keeper,
                         idempotency_key=uuid.uuid4(), number=1)
    response, answer = send(client_in, gin, 1, KNOCK)
    assert response.status_code == 409
    assert answer["status"] == "stale" and answer["next"] == 2
    assert "Hand 1 is already recorded by keeper" in answer["message"]
    response, answer = send(client_in, gin, 3, KNOCK)
    assert (response.status_code, answer["status"], answer["next"]) == (409, "stale", 2)
    assert answer["message"] == "The next hand of this game is 2, not 3."
    assert live_hands(gin) == [(1, {"draw": True})]
    # sent again as the number the server gave: recorded
    response, answer = send(client_in, gin, 2, KNOCK)
    assert (response.status_code, answer["number"]) == (201, 2)


def test_a_refused_hand_answers_the_reason_at_its_field(client_in, gin):
    response, answer = send(client_in, gin, 1, {**KNOCK, "t1_c0": "15"})
    assert response.status_code == 422
    assert answer["status"] == "refused"
    assert answer["errors"] == {"t1_c0": ["a knock must be 10 or less; Ann counted 15"]}
    assert "a knock must be 10 or less" in answer["message"]
    response, answer = send(client_in, gin, 1, {"t1_kind": "knock"})
    assert answer["errors"]["t1_knocker"] == ["Who knocked? Tap a name, or Draw."]
    assert live_hands(gin) == []


def test_a_finished_game_takes_no_queued_hand(client_in, gin, keeper):
    services.game_abandon(game=gin, abandoned_by=keeper, reason="late")
    response, answer = send(client_in, gin, 1, KNOCK)
    assert (response.status_code, answer["status"]) == (409, "over")
    assert live_hands(gin) == []


def test_who_played_offline_is_checked_against_the_box(client_in, session, keeper):
    box = services.game_start(session=session, variant="box", players=["P", "Q", "R"],
                              started_by=keeper, preset="simple")
    services.hand_record(game=box, entry={"knocker": "P", "deadwood": {"P": 3, "Q": 18}},
                         recorded_by=keeper, idempotency_key=uuid.uuid4(), number=1)
    # hand 2: P stays in the box and R comes in as captain; the phone guessed Q and P
    response, answer = send(client_in, box, 2, {
        "t1_p0": "Q", "t1_p1": "P", "t1_knocker": "Q", "t1_kind": "knock",
        "t1_c0": "4", "t1_c1": "9"})
    assert response.status_code == 422
    assert list(answer["errors"]) == ["t1_knocker"]
    assert answer["errors"]["t1_knocker"][0].startswith(
        "after the hands before it, this hand is played by P (in the box) and R (captain), "
        "not Q and P.")
    # picked right but in the other order: each count goes to its player
    response, answer = send(client_in, box, 2, {
        "t1_p0": "R", "t1_p1": "P", "t1_knocker": "R", "t1_kind": "gin",
        "t1_c0": "", "t1_c1": "12"})
    assert response.status_code == 201, answer
    assert live_hands(box)[1] == (2, {"knocker": "R", "deadwood": {"R": 0, "P": 12}})


def test_the_queue_endpoint_is_the_scorekeepers_only(client, gin, other_keeper):
    response, _ = send(client, gin, 1, KNOCK)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(other_keeper)
    response, _ = send(client, gin, 1, KNOCK)
    assert response.status_code == 404
    assert client.get(reverse("ledger:hand_send", args=[gin.pk])).status_code in (404, 405)
    assert live_hands(gin) == []


def test_the_game_page_carries_the_queue_hook(client_in, gin):
    page = client_in.get(reverse("ledger:game_detail", args=[gin.pk])).content.decode()
    assert "data-offline-queue" in page
    assert f'data-send-url="/games/{gin.pk}/hands/send/"' in page
    assert 'data-players="[&quot;Ann&quot;, &quot;Bob&quot;]"' in page
    assert 'data-next="1"' in page and 'data-roles-vary="0"' in page
    assert "ledger/offline.js" in page


def test_the_copy_the_phone_keeps_leaves_the_messages_for_the_next_page(client_in, gin):
    send(client_in, gin, 1, KNOCK)  # its message waits for the next page
    url = reverse("ledger:game_detail", args=[gin.pk])
    kept = client_in.get(url + "?kept=1").content.decode()
    assert 'data-next="2"' in kept
    assert "Hand 1 recorded: Ann +15." in client_in.get(url).content.decode()
    assert "Hand 1 recorded" not in client_in.get(url).content.decode()  # said once


# -- the live share pages --------------------------------------------------------------------

@pytest.fixture
def game_link(gin, keeper):
    return ShareLink.objects.create(table=gin.session.table, game=gin, created_by=keeper)


def poll(client, url, etag=None):
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return client.get(url, **headers)


def test_a_shared_game_is_not_modified_until_a_hand_is_recorded(client, gin, game_link,
                                                                 keeper):
    page = client.get(reverse("ledger:shared", args=[game_link.token])).content.decode()
    etag = re.search(r'data-etag="([^"]+)"', page).group(1).replace("&quot;", '"')
    url = reverse("ledger:shared_game_live", args=[game_link.token, gin.pk])
    assert f'hx-get="{url}"' in page and 'hx-trigger="every 2s"' in page

    with CaptureQueriesContext(connection) as queries:
        response = poll(client, url, etag)
    assert response.status_code == 304 and response.content == b""
    assert len(queries) == 2  # the link, the version: whatever the number of hands

    services.hand_record(game=gin, entry={"knocker": "Ann", "deadwood": {"Ann": 5, "Bob": 20}},
                         recorded_by=keeper, idempotency_key=uuid.uuid4(), number=1)
    response = poll(client, url, etag)
    assert response.status_code == 200
    body = response.content.decode()
    assert '<div class="score-tile' in body and "<html" not in body
    assert re.search(r'data-key="Ann">\s*<span class="score-name">Ann</span>\s*'
                     r'<span class="score-value">15</span>', body)
    new = response["ETag"]
    # polled with its ETag; kept by no cache, as every capability page (issue 38)
    assert new != etag and response["Cache-Control"] == "no-cache, private, no-store"
    assert f'data-etag="{new.replace(chr(34), "&quot;")}"' in body
    assert poll(client, url, new).status_code == 304

    # an undo changes it too (no new row: the hand is stamped voided)
    services.hand_undo_last(game=gin, undone_by=keeper, reason="wrong")
    response = poll(client, url, new)
    assert response.status_code == 200 and response["ETag"] != new


def test_a_rule_change_and_the_game_page_url_of_a_table_link_change_the_etag(client, gin,
                                                                             keeper):
    link = ShareLink.objects.create(table=gin.session.table, created_by=keeper)
    url = reverse("ledger:shared_game_live", args=[link.token, gin.pk])
    first = poll(client, url)
    assert first.status_code == 200
    assert poll(client, url, first["ETag"]).status_code == 304
    services.game_change_rules(game=gin, changes={"target": 150}, changed_by=keeper,
                               reason="longer game")
    assert poll(client, url, first["ETag"]).status_code == 200


def test_a_table_link_lists_games_with_their_hands_and_follows_them(client, gin, keeper):
    link = ShareLink.objects.create(table=gin.session.table, created_by=keeper)
    url = reverse("ledger:shared_live", args=[link.token])
    first = poll(client, url)
    assert "0 hands" in first.content.decode()
    assert poll(client, url, first["ETag"]).status_code == 304
    services.hand_record(game=gin, entry={"draw": True}, recorded_by=keeper,
                         idempotency_key=uuid.uuid4(), number=1)
    second = poll(client, url, first["ETag"])
    assert second.status_code == 200 and "1 hand<" in second.content.decode()


def test_live_parts_answer_404_for_a_revoked_link_or_a_game_of_another_table(
        client, gin, game_link, keeper, session):
    other_table = services.table_create(name="Elsewhere", scorekeepers=[keeper])
    other_session = services.session_create(table=other_table, currency="USD", rate="0.01",
                                            created_by=keeper)
    other = services.game_start(session=other_session, variant="gin", players=["X", "Y"],
                                started_by=keeper, setup={"first_dealer": "X"})
    table_link = ShareLink.objects.create(table=gin.session.table, created_by=keeper)
    url = reverse("ledger:shared_game_live", args=[table_link.token, other.pk])
    # even with the right ETag, a game the link does not show is not found (no 304 hint)
    assert poll(client, url, freshness.game_etag(other.pk)).status_code == 404
    game_link.revoked_at = game_link.created_at
    game_link.save()
    assert poll(client, reverse("ledger:shared_live", args=[game_link.token])).status_code == 404


# -- the installable app ---------------------------------------------------------------------

def test_manifest_names_the_app_with_its_icons(client):
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert (data["name"], data["display"], data["start_url"], data["theme_color"]) == (
        "Tablestakes", "standalone", "/?source=app", "#14532d")
    icons = {(i["sizes"], i["purpose"]): i["src"] for i in data["icons"]}
    assert set(icons) == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for (sizes, _), src in icons.items():
        path = finders.find(src.removeprefix("/static/"))
        with open(path, "rb") as png:
            head = png.read(24)
        assert head[:8] == b"\x89PNG\r\n\x1a\n"
        width = int.from_bytes(head[16:20], "big")
        assert f"{width}x{width}" == sizes


def test_the_service_worker_is_served_from_the_root_named_by_the_release(client):
    response = client.get("/sw.js")
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"
    assert response["Service-Worker-Allowed"] == "/"
    code = response.content.decode()
    config = json.loads(code.split("\n", 1)[0].removeprefix("self.TABLESTAKES = ")
                        .removesuffix(";"))
    assert config["version"] == freshness.release()
    assert config["offline"] == "/offline/"
    for url in config["precache"]:  # every file it keeps exists (else it never installs)
        assert finders.find(url.removeprefix("/static/")), url
    assert '"ts-static-" + CONFIG.version' in code


def test_a_new_release_renames_the_caches(client, settings):
    freshness.release.cache_clear()
    before = freshness.release()
    settings.TABLESTAKES_RELEASE = "2026.11.23"
    freshness.release.cache_clear()
    try:
        assert freshness.release() == "2026.11.23" != before
        assert '"version": "2026.11.23"' in client.get("/sw.js").content.decode()
    finally:
        freshness.release.cache_clear()


def test_the_offline_page_names_nobody(client_in):
    response = client_in.get("/offline/")
    page = response.content.decode()
    assert response.status_code == 200 and "No connection" in page
    assert "keeper" not in page and "csrfmiddlewaretoken" not in page


# -- share links: QR code and copy -------------------------------------------------------------

def test_share_links_have_a_qr_code_and_a_copy_button(client_in, gin, game_link, keeper):
    table_link = ShareLink.objects.create(table=gin.session.table, created_by=keeper)
    for url, link in ((reverse("ledger:game_detail", args=[gin.pk]), game_link),
                      (reverse("ledger:table_detail", args=[gin.session.table.pk]), table_link)):
        page = client_in.get(url).content.decode()
        full = f"http://testserver/s/{link.token}/"
        assert f'value="{full}"' in page
        assert '<svg viewBox="0 0 ' in page and 'class="qr"' in page
        assert re.search(r'<button class="btn btn-small" type="button" data-copy="share-url-',
                         page)
        assert "onclick=" not in page and "style=" not in page.split("<svg", 1)[1][:4000]


def test_a_changed_live_part_is_sent_gzipped_and_still_matches(client, gin, game_link):
    url = reverse("ledger:shared_live", args=[game_link.token])
    plain = poll(client, url)
    packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert packed["Content-Encoding"] == "gzip"
    assert len(packed.content) < len(plain.content) / 3
    assert packed["ETag"] == "W/" + plain["ETag"]  # weak once compressed; still matches
    assert poll(client, url, packed["ETag"]).status_code == 304


def test_a_key_already_used_for_another_number_is_refused_not_taken_as_recorded(client_in,
                                                                                 gin):
    key = uuid.uuid4()
    send(client_in, gin, 1, KNOCK, key)
    # an old copy of the page offered the same key for what is really the next hand
    response, answer = send(client_in, gin, 2, {"t1_knocker": "-draw-"}, key)
    assert response.status_code == 422
    assert answer["errors"]["__all__"][0].startswith("This entry's key was already used")
    assert len(live_hands(gin)) == 1


def test_who_played_each_table_in_captain_play_for_five(client_in, session, keeper):
    game = services.game_start(session=session, variant="captain",
                               players=["R1", "R2", "B1", "B2", "B3"], started_by=keeper,
                               preset="standard",
                               setup={"captains": ["R1", "R2"], "opponents": ["B1", "B2"],
                                      "sitter": "B3"})
    # table 2 picked in the other order (B2 v R2): its counts go to their players
    response, answer = send(client_in, game, 1, {
        "t1_p0": "R1", "t1_p1": "B1", "t1_knocker": "R1", "t1_kind": "knock",
        "t1_c0": "5", "t1_c1": "65",
        "t2_p0": "B2", "t2_p1": "R2", "t2_knocker": "R2", "t2_kind": "knock",
        "t2_c0": "64", "t2_c1": "4", "cut_loser": "B2"})
    assert response.status_code == 201, answer
    assert live_hands(game) == [(1, {"tables": [
        {"knocker": "R1", "deadwood": {"R1": 5, "B1": 65}},
        {"knocker": "R2", "deadwood": {"R2": 4, "B2": 64}}], "cut_loser": "B2"})]
    # the captains won hand 1: the sitter B3 comes in for the opponent who lost most, a tie
    # of 60 settled by the cut (B2): hand 2 is R1 v B1 and R2 v B3; the phone kept B2
    response, answer = send(client_in, game, 2, {
        "t1_p0": "R1", "t1_p1": "B1", "t1_knocker": "-draw-",
        "t2_p0": "R2", "t2_p1": "B2", "t2_knocker": "-draw-"})
    assert response.status_code == 422
    assert list(answer["errors"]) == ["t2_knocker"]
    assert answer["errors"]["t2_knocker"][0].startswith(
        "Table 2: after the hands before it, this hand is played by R2 (captain) and B3 "
        "(opponent), not R2 and B2.")


def test_a_player_renamed_changes_both_live_parts(client, gin, game_link, keeper):
    table_link = ShareLink.objects.create(table=gin.session.table, created_by=keeper)
    game_url = reverse("ledger:shared_live", args=[game_link.token])
    table_url = reverse("ledger:shared_live", args=[table_link.token])
    game_tag, table_tag = poll(client, game_url)["ETag"], poll(client, table_url)["ETag"]
    ann = gin.session.table.players.get(name="Ann")
    services.player_rename(player=ann, name="Annie")
    answer = poll(client, game_url, game_tag)
    assert answer.status_code == 200 and "Annie" in answer.content.decode()
    assert poll(client, table_url, table_tag).status_code == 200


def test_the_version_is_one_query_whatever_the_hands(gin, keeper, django_assert_num_queries):
    from ledger.selectors.sharing import game_live_version, table_live_version

    for number in range(1, 4):
        services.hand_record(game=gin, entry={"draw": True}, recorded_by=keeper,
                             idempotency_key=uuid.uuid4(), number=number)
    with django_assert_num_queries(1):
        version = game_live_version(gin.pk)
    assert version.startswith(f"g{gin.pk}|in_progress|Friday|")
    assert version.endswith("=Ann|" + f"{gin.seats.get(seat=1).player_id}=Bob")
    with django_assert_num_queries(1):
        table_live_version(gin.session.table_id)


def test_an_unchanged_share_poll_reads_two_small_rows(client, gin, game_link, keeper):
    """Issue 42: a poll that ends in 304 reads the link's ids and the version, nothing
    more: the link used to be read with its table and game joined and built as models
    (most of the poll's time); they are read only to draw a changed part."""
    url = reverse("ledger:shared_live", args=[game_link.token])
    etag = poll(client, url)["ETag"]
    with CaptureQueriesContext(connection) as queries:
        response = poll(client, url, etag)
    assert response.status_code == 304 and response.content == b""
    sql = [q["sql"] for q in queries.captured_queries]
    assert len(sql) == 2, sql
    link_query = next(q for q in sql if "ledger_sharelink" in q)
    assert "ledger_table" not in link_query and "ledger_game" not in link_query, link_query
    # the changed part is still drawn in the table's language, from the whole link
    table = gin.session.table
    table.language = "de"
    table.save(update_fields=["language"])
    services.hand_record(game=gin, entry={"knocker": "Ann", "deadwood": {"Ann": 5, "Bob": 20}},
                         recorded_by=keeper, idempotency_key=uuid.uuid4(), number=1)
    response = poll(client, url, etag)
    assert response.status_code == 200
    body = response.content.decode()
    assert "Partie 1" in body and "Partie bis 100" in body and "Punktestand" in body
    game_link.revoked_at = gin.started_at
    game_link.save(update_fields=["revoked_at"])
    assert poll(client, url, response["ETag"]).status_code == 404
