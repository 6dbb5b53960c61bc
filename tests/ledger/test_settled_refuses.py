"""Every URL of ledger/urls.py against a settled evening and a finished game (issue 11).

The screens hide what would change a settled evening; a typed URL (or a page kept open
since) must be refused by the server too: before any form, with the evening's words, on
the game's or the evening's page, never an error page, and nothing changed. Every URL name
is listed here, either as such an action or as one that changes no game of the evening
(with why), so that a new URL cannot be added without deciding which it is."""

from __future__ import annotations

import datetime
import uuid

import pytest
from django.urls import reverse

from ledger import services
from ledger.models import Game, GameChange, GameStatus, Hand
from ledger.selectors.evenings import session_is_settled, session_nets
from ledger.selectors.games import game_posted_money
from ledger.urls import urlpatterns

from .conftest import load_case
from .test_table_screen import flash

pytestmark = pytest.mark.django_db

MONDAY = datetime.date(2026, 11, 23)
WORDS = "The evening of Monday, November 23, 2026 is settled;"


def _hand(_unused=0, **extra):
    return {"key": str(uuid.uuid4()), "number": "8", "t1_knocker": "A", "t1_kind": "knock",
            "t1_c0": "4", "t1_c1": "30", **extra}


#: name: (method, kwargs from the objects, POST data, where the answer leads)
REFUSED = {
    "game_new": [("get", lambda o: [o.session.pk], None, "session")],
    "game_start": [
        ("get", lambda o: [o.session.pk, "gin", 2], None, "session"),
        ("post", lambda o: [o.session.pk, "gin", 2],
         {"p1": "A", "p2": "B", "first_dealer": "A", "preset": "standard", "start": "1"},
         "session")],
    "hand_create": [("post", lambda o: [o.game.pk], _hand(0), "game")],
    "hand_undo": [("get", lambda o: [o.game.pk], None, "game"),
                  ("post", lambda o: [o.game.pk], {"number": "7"}, "game")],
    "hand_correct": [
        ("get", lambda o: [o.game.pk, 3], None, "game"),
        ("post", lambda o: [o.game.pk, 3],
         _hand(0, number="3", reason="wrong count"), "game")],
    "game_settings": [("get", lambda o: [o.game.pk], None, "game"),
                      ("post", lambda o: [o.game.pk],
                       {"rate": "0.02", "per_points": "1", "reason": "was 2 cents",
                        "confirm": "1"}, "game")],
    "game_abandon": [("get", lambda o: [o.game.pk], None, "game"),
                     ("post", lambda o: [o.game.pk], {"reason": "late"}, "game")],
    "game_delete": [("get", lambda o: [o.game.pk], None, "game"),
                    ("post", lambda o: [o.game.pk], {}, "game")],
    "target_change": [("post", lambda o: [o.game.pk], {"target": "150"}, "game")],
    "report_links_create": [("post", lambda o: [o.game.pk], {}, "game")],
    "confirm_link_create": [("post", lambda o: [o.game.pk], {"player": "A"}, "game")],
    "session_settle": [("get", lambda o: [o.session.pk], None, "session"),
                       ("post", lambda o: [o.session.pk], {}, "session")],
}

#: URL names that change no game of the evening, and why.
NOT_A_CHANGE = {
    "home": "the tables and games in progress",
    "table_detail": "the table: players, a new evening, paper (a rename changes a name only)",
    "table_locale": "the table's language and clock: how its sheets speak, not what they say",
    "share_create": "a share link: reading, not changing",
    "share_revoke": "a share link",
    "table_book": "reading",
    "book_settle": "marks the settled evenings' payments paid: what a settlement is for",
    "table_standings": "reading",
    "table_tidy": "the table's name and players who left",
    "player_detail": "reading",
    "session_reopen": "the way back to changing a settled evening, asked with a reason",
    "session_detail": "reading",
    "payment_mark": "marks a settled evening's payment paid",
    "book_settle_undo": "marks the payments a squaring of the book marked paid unpaid again",
    "game_detail": "reading",
    "hand_preview": "says what a hand would make; stores nothing (checked below)",
    "hand_send": "the offline queue: answers 'over' for a finished game (checked below)",
    "game_rematch": "a new game in a new evening when this one is settled",
    "game_export": "reading",
    "table_download": "reading (the whole table as one file)",
    "cards_preview": "reading",
    "shared": "reading", "shared_game": "reading", "shared_live": "reading",
    "shared_game_live": "reading",
    "service_worker": "the installable app", "manifest": "the installable app",
    "offline": "the installable app",
    "report_page": "a table's report (issue 23): changes nothing recorded, and once the "
                   "evening is settled the link shows the game's end and takes no report "
                   "(tests/ledger/test_report_pages.py)",
    "report_withdraw": "a table's report (refused once settled)",
    "report_live": "reading", "game_reports": "reading",
    "report_links_revoke": "a report link",
    "confirm_page": "a two-hand game's confirmation of a saved hand: changes nothing "
                    "recorded, and the link is dead once the evening is settled "
                    "(tests/ledger/test_hand_confirm.py)",
}


def test_every_url_is_decided():
    names = {pattern.name for pattern in urlpatterns}
    assert names == set(REFUSED) | set(NOT_A_CHANGE)
    assert not set(REFUSED) & set(NOT_A_CHANGE)


class Objects:
    def __init__(self, session, game):
        self.session, self.game = session, game


@pytest.fixture
def settled(keeper, table):
    session = services.session_create(table=table, date=MONDAY, currency="USD", rate="0.01",
                                      created_by=keeper)
    game = services.game_import(session=session, record=load_case("gin-standard-game"),
                                imported_by=keeper)
    services.session_settle(session=session, settled_by=keeper)
    return Objects(session, game)


def fingerprint(session) -> dict:
    """What a change of the evening would change."""
    games = Game.objects.filter(session=session)
    return {
        "games": list(games.order_by("pk").values_list("pk", "status")),
        "hands": list(Hand.objects.filter(game__session=session).order_by("pk")
                      .values_list("pk", "voided_at")),
        "changes": GameChange.objects.filter(game__session=session).count(),
        "settled": session_is_settled(session),
        "nets": session_nets(session, list(games)),
        "money": {game.pk: game_posted_money(game) for game in games},
    }


CASES = [(name, i) for name, ways in REFUSED.items() for i in range(len(ways))]


@pytest.mark.parametrize(("name", "i"), CASES, ids=[f"{n}-{REFUSED[n][i][0]}" for n, i in CASES])
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_a_settled_evening_refuses_before_any_form(client, keeper, settled, name, i, htmx):
    client.force_login(keeper)
    method, args, data, lands = REFUSED[name][i]
    if name == "hand_correct" and method == "post":
        hand = Hand.objects.get(game=settled.game, number=3, voided_at__isnull=True)
        data = {**data, "hand": str(hand.pk)}
    before = fingerprint(settled.session)
    url = reverse(f"ledger:{name}", args=args(settled))
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = getattr(client, method)(url, data or {}, **headers)
    target = (reverse("ledger:game_detail", args=[settled.game.pk]) if lands == "game"
              else reverse("ledger:session_detail", args=[settled.session.pk]))
    if htmx:  # a page load, never a page swapped into a part of another
        assert response.status_code == 204
        assert response["HX-Location"] == target
    else:
        assert response.status_code == 302
        assert response["Location"] == target
    page = client.get(target)
    assert page.status_code == 200
    assert WORDS in flash(page), flash(page)
    assert fingerprint(settled.session) == before


def test_what_stores_nothing_stores_nothing_on_a_settled_evening(client, keeper, settled):
    client.force_login(keeper)
    before = fingerprint(settled.session)
    preview = client.post(reverse("ledger:hand_preview", args=[settled.game.pk]), _hand(0))
    assert preview.status_code == 200
    sent = client.post(reverse("ledger:hand_send", args=[settled.game.pk]), _hand(0))
    assert sent.status_code == 409 and sent.json()["status"] == "over"
    asked = client.post(reverse("ledger:game_rematch", args=[settled.game.pk]))
    assert asked.status_code == 200 and "Open a new evening?" in asked.content.decode()
    assert not Game.objects.exclude(session=settled.session).exists()
    again = client.post(reverse("ledger:game_rematch", args=[settled.game.pk]),
                        {"new_evening": "1"})
    assert again.status_code == 302
    new = Game.objects.exclude(session=settled.session).get()
    assert new.session.table == settled.session.table and new.status == GameStatus.IN_PROGRESS
    assert fingerprint(settled.session) == before


def test_a_finished_game_takes_no_hand_and_cannot_be_abandoned(client, keeper, table):
    session = services.session_create(table=table, date=MONDAY, currency="USD", rate="0.01",
                                      created_by=keeper)
    game = services.game_import(session=session, record=load_case("gin-standard-game"),
                                imported_by=keeper)
    client.force_login(keeper)
    before = fingerprint(session)
    page = reverse("ledger:game_detail", args=[game.pk])
    created = client.post(reverse("ledger:hand_create", args=[game.pk]), _hand(0))
    assert created.status_code == 302 and created["Location"] == page
    assert "This game is over; it takes no more hands." in flash(client.get(page))
    sent = client.post(reverse("ledger:hand_send", args=[game.pk]), _hand(0))
    assert sent.status_code == 409
    abandoned = client.post(reverse("ledger:game_abandon", args=[game.pk]), {"reason": "x"})
    assert abandoned.status_code == 302 and abandoned["Location"] == page
    assert flash(client.get(page))  # said why
    assert fingerprint(session) == before
