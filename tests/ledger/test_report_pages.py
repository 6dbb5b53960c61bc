"""Issue 23: the report link's page (a table's phone), its live part, and the scorekeeper's
side (the links on the game page, the polled reports that fill the hand form, the Save)."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client
from django.utils import translation

from ledger import services
from ledger.models import Hand, TableReport
from ledger.selectors import table_reports
from ledger.selectors.games import game_result
from tests.ledger.test_table_reports import capit, captain7
from tests.pages import Page

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(session, keeper):
    return captain7(session, keeper)


@pytest.fixture
def links(game, keeper):
    return services.report_links_get_or_create(game=game, created_by=keeper)


def phone() -> Client:
    return Client(enforce_csrf_checks=False)


def report(client, link, **data):
    post = {"number": "1", "key": str(uuid.uuid4()), **data}
    return client.post(f"/r/{link.token}/", post)


def test_the_page_shows_the_game_and_only_this_tables_part(links):
    response = phone().get(f"/r/{links[1].token}/")
    assert response.status_code == 200
    page = Page(response)
    text = page.text()
    assert "Table 2: Hand 1" in text and "R2 v B2" in text
    names = {el.get("name") for el in page.all("input")} | {
        el.get("name") for el in page.all("textarea")}
    assert {"t1_knocker", "t1_c0", "t1_c1", "number"} <= names
    assert not any(n and n.startswith("t2_") for n in names)
    assert "cut_loser" not in names
    assert response["Referrer-Policy"] == "same-origin"  # (no-referrer: Origin null, 403)
    # the live part, as the share page's: 304 while nothing changed
    live = phone().get(f"/r/{links[1].token}/live/")
    assert live.status_code == 200
    again = phone().get(f"/r/{links[1].token}/live/", HTTP_IF_NONE_MATCH=live["ETag"])
    assert again.status_code == 304


def test_a_table_reports_its_part_and_nothing_is_recorded(game, links):
    client = phone()
    response = report(client, links[0], t1_knocker="R1", t1_kind="knock", t1_c0="5",
                      t1_c1="30")
    assert response.status_code == 302
    saved = TableReport.objects.get()
    assert (saved.table, saved.number, saved.values) == (
        1, 1, {"knocker": "R1", "deadwood": {"R1": 5, "B1": 30}})
    assert Hand.objects.count() == 0
    page = client.get(response["Location"])
    assert "Sent: table 1's part of hand 1" in Page(page).text()


def test_a_refused_report_is_refused_on_the_phone_with_the_cores_words(links):
    response = report(phone(), links[0], t1_knocker="R1", t1_kind="knock", t1_c0="12",
                      t1_c1="30")
    assert response.status_code == 422
    assert "a knock must be 10 or less; R1 counted 12" in Page(response).text()
    assert TableReport.objects.count() == 0


def test_a_report_for_a_saved_hand_is_refused_and_the_phone_moves_on(game, links, keeper):
    services.hand_record(game=game, entry={"tables": [{"draw": True}] * 3},
                         recorded_by=keeper, idempotency_key=uuid.uuid4(), number=1)
    client = phone()
    response = report(client, links[0], t1_knocker="R1", t1_kind="knock", t1_c0="5",
                      t1_c1="30")
    assert response.status_code == 302
    page = Page(client.get(response["Location"])).text()
    assert "Hand 1 was already recorded; this phone moves on to hand 2." in page
    assert "Table 1: Hand 2" in page
    assert TableReport.objects.count() == 0


def test_a_revoked_or_dead_link_shows_the_friendly_page(game, links, keeper):
    services.report_links_revoke(game=game)
    response = phone().get(f"/r/{links[0].token}/")
    assert response.status_code == 404
    assert "This link no longer works" in Page(response).text()
    assert phone().get(f"/r/{links[0].token}/live/").status_code == 404
    assert phone().get("/r/not-a-token-at-all/").status_code == 404


def test_an_abandoned_games_link_shows_its_end_and_takes_no_report(game, links, keeper):
    services.game_abandon(game=game, abandoned_by=keeper, reason="late")
    response = phone().get(f"/r/{links[0].token}/")
    assert response.status_code == 200
    text = Page(response).text()
    assert "Table 1: Game abandoned" in text and "This link no longer works" not in text
    client = phone()
    sent = report(client, links[0], t1_knocker="-draw-")
    assert sent.status_code == 302
    assert "Not sent: this game is over" in Page(client.get(sent["Location"])).text()
    assert TableReport.objects.count() == 0


def test_a_settled_evenings_link_shows_the_end_and_takes_no_report(session, keeper):
    from tests.e2e.phone_games import finish, start

    game = start(session, keeper, "captain7")
    link = services.report_links_get_or_create(game=game, created_by=keeper)[0]
    finish(game, keeper)
    services.session_settle(session=session, settled_by=keeper)
    client = phone()
    assert "Table 1: Game over" in Page(client.get(f"/r/{link.token}/")).text()
    for url, data in ((f"/r/{link.token}/", {"number": "2", "t1_knocker": "-draw-"}),
                      (f"/r/{link.token}/withdraw/", {"number": "2"})):
        sent = client.post(url, data)
        assert sent.status_code == 302
        assert "Not sent: this game is over" in Page(client.get(sent["Location"])).text()
    assert TableReport.objects.count() == 0


@pytest.mark.parametrize(("key", "language", "words"), [
    ("captain7", "en", ("Table 1: Game over", "This game is over", "Game over: The captains win.",
                        "Money")),
    ("partnership6", "de", ("Tisch 1: Partie beendet", "Diese Partie ist vorbei",
                            "Partie beendet", "Geld")),
    ("capit6", "en", ("Players: Game over", "This game is over", "Game over", "Money")),
])
def test_a_finished_games_link_shows_the_final_score_and_money_read_only(
        table, session, keeper, key, language, words):
    """Issue 37.1: the report link of a finished game opens (read-only, in the table's
    language) on the game's end: the final score, the winner and each player's money, as
    the core settled them; its live part too (no "this link no longer works")."""
    from ledger.presentation.money import format_money
    from tests.e2e.phone_games import finish, start

    table.language = language
    table.save(update_fields=["language"])
    game = start(session, keeper, key)
    link = services.report_links_get_or_create(game=game, created_by=keeper)[0]
    result = finish(game, keeper)
    client = phone()
    response = client.get(f"/r/{link.token}/")
    assert response.status_code == 200
    page = Page(response)
    text = page.text()
    for word in words:
        assert word in text, (word, text[:600])
    box = page.one(id="money")
    with translation.override(language):
        for name, amount in result["money"].items():
            cells = [el for el in box.iter("td") if el.get("data-player") == name]
            assert [page.text(el) for el in cells] == [format_money(amount, sign=True)], name
    assert "Send to the scorekeeper" not in text and "Senden" not in text
    live = client.get(f"/r/{link.token}/live/")
    assert live.status_code == 200 and words[2] in Page(live).text()


def test_reports_are_rate_limited(links, settings):
    settings.TABLESTAKES_REPORTS_PER_LINK = 2
    client = phone()
    report(client, links[0], t1_knocker="-draw-")
    report(client, links[0], t1_knocker="R1", t1_kind="knock", t1_c0="5", t1_c1="30")
    response = report(client, links[0], t1_knocker="-draw-")
    assert response.status_code == 429
    assert "Too many reports from this table" in Page(response).text()
    assert TableReport.objects.count() == 2


def test_a_report_can_be_withdrawn_from_the_phone(links):
    client = phone()
    report(client, links[2], t1_knocker="-draw-")
    response = client.post(f"/r/{links[2].token}/withdraw/", {"number": "1"})
    assert response.status_code == 302
    assert TableReport.objects.get().withdrawn_at is not None


def test_a_capit_player_picks_his_name_once(session, keeper):
    game = capit(session, keeper)
    link = services.report_links_get_or_create(game=game, created_by=keeper)[0]
    client = phone()
    response = client.post(f"/r/{link.token}/", {"number": "1", "player": "B",
                                                  "went_out": "no", "points": "25"})
    assert response.status_code == 302
    assert TableReport.objects.get().values == {"went_out": None, "points": {"B": 25}}
    page = Page(client.get(f"/r/{link.token}/"))
    checked = [el.get("value") for el in page.all("input", name="player")
               if el.get("checked") is not None]
    assert checked == ["B"]



def test_a_capit_player_reports_his_cards_and_the_core_counts_them(session, keeper,
                                                                    logged_in):
    """K 7 7 left in hand: 10 + 5 + 5 = 20 points (RULES' CAP-IT card points); the cards
    are kept with the report, and the scorekeeper's form gets the 20."""
    game = capit(session, keeper)
    link = services.report_links_get_or_create(game=game, created_by=keeper)[0]
    client = phone()
    response = client.post(f"/r/{link.token}/", {"number": "1", "player": "C",
                                                  "went_out": "no", "cards": "K 7 7"})
    assert response.status_code == 302
    assert TableReport.objects.get().values == {"went_out": None, "cards": {"C": "K 7 7"},
                                                "points": {"C": 20}}
    polled = logged_in.get(f"/games/{game.pk}/reports/").json()
    fields = {}
    for part in polled["parts"]:
        fields.update(part["fields"])
    assert fields["pts_2"] == "20"
    # cards that are not cards, or that disagree with the points given: refused at the field
    refused = client.post(f"/r/{link.token}/", {"number": "1", "player": "C",
                                                 "went_out": "no", "cards": "K X"})
    assert refused.status_code == 422 and Page(refused).field_error("cards")
    disagree = client.post(f"/r/{link.token}/", {"number": "1", "player": "C",
                                                  "went_out": "no", "cards": "K 7 7",
                                                  "points": "25"})
    assert disagree.status_code == 422
    assert "the cards make 20 points" in Page(disagree).text()
    assert TableReport.objects.count() == 1  # nothing stored for the refused ones

# -- the scorekeeper's side ------------------------------------------------------------------

def test_the_game_page_offers_the_links_and_shows_them_with_qr_codes(logged_in, game):
    page = Page(logged_in.get(f"/games/{game.pk}/"))
    assert "Report links for the tables" in page.text()
    response = logged_in.post(f"/games/{game.pk}/reports/links/")
    assert response.status_code == 302
    page = logged_in.get(f"/games/{game.pk}/")
    html = page.content.decode()
    assert html.count('class="qr"') >= 3
    for link in game.report_links.all():
        assert f"/r/{link.token}/" in html
    logged_in.post(f"/games/{game.pk}/reports/revoke/")
    assert not game.report_links.filter(revoked_at__isnull=True).exists()


def test_the_polled_reports_fill_the_forms_fields_and_answer_304_when_unchanged(
        logged_in, game, links):
    url = f"/games/{game.pk}/reports/"
    first = logged_in.get(url)
    body = first.json()
    assert body["number"] == 1
    assert [p["state"] for p in body["parts"]] == ["waiting"] * 3
    assert logged_in.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    report(phone(), links[1], t1_knocker="B2", t1_kind="gin", t1_c0="10", t1_c1="")
    second = logged_in.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200
    part = second.json()["parts"][1]
    assert part["state"] == "reported" and part["text"].startswith("reported by table 2 at")
    assert part["fields"] == {"t2_knocker": "B2", "t2_kind": "gin", "t2_c0": "10",
                              "t2_c1": "0"}
    report(phone(), links[1], t1_knocker="R2", t1_kind="knock", t1_c0="3", t1_c1="9")
    part = logged_in.get(url).json()["parts"][1]
    assert part["changed"] and part["text"].startswith("changed by table 2")


def test_save_alone_records_the_reported_hand_and_its_history_shows_who_reported(
        logged_in, game, links):
    report(phone(), links[0], t1_knocker="R1", t1_kind="knock", t1_c0="5", t1_c1="30")
    # the counts in the order of the table: R2 10, B2 2
    report(phone(), links[1], t1_knocker="B2", t1_kind="knock", t1_c0="10", t1_c1="2")
    report(phone(), links[2], t1_knocker="-draw-")
    fields = {}
    for part in logged_in.get(f"/games/{game.pk}/reports/").json()["parts"]:
        fields.update(part["fields"])
    assert Hand.objects.count() == 0
    response = logged_in.post(f"/games/{game.pk}/hands/",
                              {"number": "1", "key": str(uuid.uuid4()), **fields})
    assert response.status_code == 302, Page(logged_in.get(f"/games/{game.pk}/")).text()
    hand = Hand.objects.get()
    assert hand.entry["tables"][0] == {"knocker": "R1", "deadwood": {"R1": 5, "B1": 30}}
    assert hand.reports.count() == 3
    assert table_reports.report_parts_of(game)["number"] == 2
    # the core's numbers: captains +25 at table 1, opponents +8 at table 2: captains +17
    scored = game_result(game)["hands"][0]
    assert (scored["winner"], scored["points"]) == ("captains", {"captains": 17,
                                                                 "opponents": 0})
    text = Page(logged_in.get(f"/games/{game.pk}/")).text()
    assert "Hand 1: table 1 at" in text and "R1 knocks 5 v B1 30" in text


def test_a_poll_that_finds_nothing_new_is_a_few_queries_and_no_body(logged_in, game, links):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    url = f"/games/{game.pk}/reports/"
    etag = logged_in.get(url)["ETag"]
    with CaptureQueriesContext(connection) as keeper_poll:
        unchanged = logged_in.get(url, HTTP_IF_NONE_MATCH=etag)
    assert unchanged.status_code == 304 and unchanged.content == b""
    live = f"/r/{links[0].token}/live/"
    etag = phone().get(live)["ETag"]
    with CaptureQueriesContext(connection) as phone_poll:
        assert phone().get(live, HTTP_IF_NONE_MATCH=etag).status_code == 304
    # measured when written: 3 each (the test client's session and user are cached)
    assert len(keeper_poll) <= 4, [q["sql"] for q in keeper_poll]
    assert len(phone_poll) <= 4, [q["sql"] for q in phone_poll]


# -- issue 38.3: a CAP-IT player whose name is not ASCII --------------------------------------

def _russian_capit(session, keeper):
    return services.game_start(session=session, variant="cap-it",
                               players=["Дмитрий", "Ольга", "Ann", "Bob"],
                               setup={"first_dealer": "Ann"}, started_by=keeper,
                               preset="standard")


def test_a_player_with_a_cyrillic_name_is_remembered_by_an_ascii_cookie(session, keeper):
    game = _russian_capit(session, keeper)
    link = services.report_links_get_or_create(game=game, created_by=keeper)[0]
    client = phone()
    response = client.post(f"/r/{link.token}/", {"number": "1", "player": "Ольга",
                                                  "went_out": "no", "points": "25"})
    assert response.status_code == 302
    cookie = response.cookies[f"ts_report_player_{link.pk}"]
    assert cookie.value == "1"  # Ольга's place in the game, not her name
    cookie.output().encode("latin-1")  # a header the server can send
    page = Page(client.get(f"/r/{link.token}/"))
    checked = [el.get("value") for el in page.all("input", name="player")
               if el.get("checked") is not None]
    assert checked == ["Ольга"]
    assert "Sent at" in page.text()  # her report, shown to her phone
    withdrawn = client.post(f"/r/{link.token}/withdraw/", {"number": "1"})
    assert withdrawn.status_code == 302
    assert TableReport.objects.get(player="Ольга").withdrawn_at is not None
    # a cookie that names no player (an old name, junk) remembers nobody
    client.cookies[f"ts_report_player_{link.pk}"] = "Ольга"
    assert phone().get(f"/r/{link.token}/").status_code == 200
    client.cookies[f"ts_report_player_{link.pk}"] = "9"
    page = Page(client.get(f"/r/{link.token}/"))
    assert not [el for el in page.all("input", name="player") if el.get("checked") is not None]


@pytest.mark.django_db(transaction=True)
def test_a_cyrillic_name_reports_through_a_real_server(live_server, django_user_model):
    """The same through the server's own request path (wsgiref, as the browser tests'):
    the old raw cookie broke the answer there (a redirect without its headers; a 500 under
    gunicorn), the report stored and the player not remembered."""
    import http.cookiejar
    import re
    import urllib.parse
    import urllib.request

    keeper = django_user_model.objects.create_user("keeper2", password="pw")
    table = services.table_create(name="Club", scorekeepers=[keeper], language="ru")
    session = services.session_create(table=table, currency="USD", rate="0.01",
                                      created_by=keeper)
    game = _russian_capit(session, keeper)
    link = services.report_links_get_or_create(game=game, created_by=keeper)[0]
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    url = f"{live_server.url}/r/{link.token}/"
    first = opener.open(url).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', first).group(1)
    data = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "number": "1",
                                   "player": "Дмитрий", "went_out": "yes"}).encode()
    answer = opener.open(urllib.request.Request(url, data=data, headers={"Referer": url}))
    assert answer.status == 200  # the redirect followed to the page
    body = answer.read().decode()
    assert re.search(r'name="player" value="Дмитрий"[^>]*checked', body), body[:2000]
    assert jar and all(cookie.value.isascii() for cookie in jar)
    assert TableReport.objects.get().values == {"went_out": "Дмитрий",
                                                "points": {"Дмитрий": 0}}


# -- issue 37.3: CAP-IT reports: who went out is the round's ----------------------------------

def _capit_link(session, keeper):
    from tests.ledger.test_table_reports import capit

    game = capit(session, keeper)
    return game, services.report_links_get_or_create(game=game, created_by=keeper)[0]


def _say(link, player, went_out=False, points=None, number=1):
    values = {"went_out": player if went_out else None,
              "points": {player: 0 if went_out else points}}
    services.report_submit(link=link, number=number, values=values, player=player)


def test_two_players_who_both_say_they_went_out_are_a_conflict(logged_in, session, keeper):
    game, link = _capit_link(session, keeper)
    _say(link, "A", went_out=True)
    _say(link, "B", went_out=True)
    _say(link, "C", points=10)
    body = logged_in.get(f"/games/{game.pk}/reports/").json()
    assert body["went_out"] == {
        "state": "conflict", "value": "",
        "text": "A and B each say they went out; only one can have. Ask the table, then tap "
                "who went out."}
    parts = {p["label"]: p for p in body["parts"]}
    assert parts["A"]["state"] == parts["B"]["state"] == "conflict"
    assert parts["A"]["fields"] == parts["B"]["fields"] == {}  # neither 0 is filled
    assert parts["A"]["text"].startswith("A says at ")
    assert parts["A"]["text"].endswith("that he went out, as does B")
    assert (parts["C"]["state"], parts["C"]["fields"]) == ("reported", {"pts_2": "10"})
    # B takes it back: A went out, and his 0 is filled
    _say(link, "B", points=25)
    body = logged_in.get(f"/games/{game.pk}/reports/").json()
    assert body["went_out"] == {"state": "out", "value": "A", "text": ""}
    parts = {p["label"]: p for p in body["parts"]}
    assert parts["A"]["fields"] == {"pts_0": "0"} and parts["B"]["fields"] == {"pts_1": "25"}
    assert all("went_out" not in p["fields"] for p in body["parts"])


def test_every_player_saying_no_means_the_stock_ran_out(logged_in, session, keeper):
    game, link = _capit_link(session, keeper)
    url = f"/games/{game.pk}/reports/"
    for player, points in (("A", 5), ("B", 25), ("C", 10)):
        _say(link, player, points=points)
    assert logged_in.get(url).json()["went_out"] == {"state": "open", "value": "",
                                                     "text": ""}
    _say(link, "D", points=40)
    body = logged_in.get(url).json()
    assert body["went_out"] == {"state": "stock", "value": "-nobody-",
                                "text": "Every player says he did not go out: the stock "
                                        "ran out."}
    fields = {"went_out": body["went_out"]["value"]}
    for part in body["parts"]:
        fields.update(part["fields"])
    saved = logged_in.post(f"/games/{game.pk}/hands/",
                           {"number": "1", "key": str(uuid.uuid4()), **fields})
    assert saved.status_code == 302
    round_one = game_result(game)["hands"][0]
    assert round_one["went_out"] is None  # the stock ran out: everyone scores his cards
    assert round_one["points"] == {"A": 5, "B": 25, "C": 10, "D": 40}


def test_a_capit_phone_says_round_as_the_page_does(session, keeper):
    game, link = _capit_link(session, keeper)
    client = phone()
    sent = client.post(f"/r/{link.token}/", {"number": "1", "player": "B", "went_out": "no",
                                             "points": "25"})
    text = Page(client.get(sent["Location"])).text()
    assert "Players: Round 1" in text
    assert "Sent: B's part of round 1 at" in text and "saves the round." in text
    assert "the scorekeeper checks it and saves the round. Send again" in text
    assert " hand" not in text.replace("in your hand", "").replace("left in hand", "")
    services.hand_record(game=game, entry={"went_out": "A", "points": {
        "A": 0, "B": 25, "C": 10, "D": 5}}, recorded_by=keeper,
        idempotency_key=uuid.uuid4(), number=1)
    stale = client.post(f"/r/{link.token}/", {"number": "1", "player": "B", "went_out": "no",
                                              "points": "20"})
    text = Page(client.get(stale["Location"])).text()
    assert "Round 1 was already recorded; this phone moves on to round 2." in text
    assert "Players: Round 2" in text
    # a form that lost its number is out of date; a number written otherwise than with the
    # digits 0-9 is a 400 naming the parameter (the one number reader)
    damaged = client.post(f"/r/{link.token}/withdraw/", {"number": ""})
    assert ("This form was out of date; here is the current round."
            in Page(client.get(damaged["Location"])).text())
    assert client.post(f"/r/{link.token}/withdraw/", {"number": "x"}).status_code == 400
