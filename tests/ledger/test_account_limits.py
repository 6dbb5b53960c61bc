"""One account cannot slow everyone down with ordinary pages (issue 38, item 5): its heavy
pages and downloads run in its slots (TABLESTAKES_HEAVY_PER_ACCOUNT, 1), held in the
database so the bound holds across gunicorn's workers, and a request without a free slot
is answered at once, 429 with Retry-After; new tables and evenings are counted per account
and hour (TABLESTAKES_TABLES_PER_HOUR 10, TABLESTAKES_EVENINGS_PER_HOUR 20)."""

from __future__ import annotations

import time

import pytest
from django.urls import resolve, reverse

from ledger import counters, limits, services
from ledger.models import Session, Table
from tests.factories import ANN_KNOCKS, gin_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(session, keeper):
    return gin_game(session, keeper, hands=[ANN_KNOCKS] * 3)


def heavy_urls(game) -> dict[str, str]:
    table, session = game.session.table, game.session
    player = table.players.first()
    return {
        "game page": reverse("ledger:game_detail", args=[game.pk]),
        "CSV": reverse("ledger:game_export", args=[game.pk]),
        "XLSX": reverse("ledger:game_export", args=[game.pk]) + "?_export=xlsx",
        "table JSON": reverse("ledger:table_download", args=[table.pk]),
        "evening": reverse("ledger:session_detail", args=[session.pk]),
        "book": reverse("ledger:table_book", args=[table.pk]),
        "standings": reverse("ledger:table_standings", args=[table.pk]),
        "standings CSV": reverse("ledger:table_standings", args=[table.pk]) + "?_export=csv",
        "player": reverse("ledger:player_detail", args=[player.pk]),
        "tidy": reverse("ledger:table_tidy", args=[table.pk]),
        "sheet preview": reverse("scoresheets:game_html", args=[game.pk]),
        "evening preview": reverse("scoresheets:session_html", args=[session.pk]),
    }


def test_while_another_worker_makes_a_heavy_page_the_account_s_next_is_refused_at_once(
        logged_in, keeper, game, django_user_model):
    urls = heavy_urls(game)
    assert {name: logged_in.get(url).status_code for name, url in urls.items()} == dict.fromkeys(
        urls, 200)
    # another worker is making one of this account's heavy pages: its slot is taken
    slot = limits.heavy_slot_take(keeper)
    answers = {name: logged_in.get(url) for name, url in urls.items()}
    assert {name: r.status_code for name, r in answers.items()} == dict.fromkeys(urls, 429)
    busy = answers["CSV"]
    assert busy["Retry-After"] == "3" and "no-store" in busy["Cache-Control"]
    body = busy.content.decode()
    assert "Your other page or download is still being made" in body
    assert "ask again in about 3 seconds" in body and busy["Content-Type"].startswith("text/html")
    # the hand entry and the home page are not heavy: the scorekeeper keeps scoring
    assert logged_in.get(reverse("ledger:home")).status_code == 200
    # another account is not held up
    other = django_user_model.objects.create_user("other", password="pw")
    services.table_set_scorekeepers(table=game.session.table, scorekeepers=[keeper, other])
    logged_in.force_login(other)
    assert logged_in.get(urls["game page"]).status_code == 200
    logged_in.force_login(keeper)
    # the other worker is done and the Retry-After has passed: the account's pages come again
    limits.heavy_slot_give_back(slot)
    limits.forget_refusals()
    assert logged_in.get(urls["XLSX"]).status_code == 200


def test_the_slot_is_given_back_however_the_view_ends(logged_in, keeper, game,
                                                     django_user_model):
    stranger = django_user_model.objects.create_user("stranger", password="pw")
    theirs = services.table_create(name="Theirs", scorekeepers=[stranger])
    # a 404 (not this account's table) and a 400 (a bad parameter) give the slot back too
    assert logged_in.get(reverse("ledger:table_book", args=[theirs.pk])).status_code == 404
    bad = reverse("ledger:game_export", args=[game.pk]) + "?_export=pdf"
    assert logged_in.get(bad).status_code == 400
    assert logged_in.get(reverse("ledger:game_detail", args=[game.pk])).status_code == 200
    assert not counters.current(f"heavy:user:{keeper.pk}:0")[0]


def test_a_slot_left_by_a_killed_worker_frees_itself(keeper, settings):
    assert settings.TABLESTAKES_HEAVY_SLOT_SECONDS == 60
    now = time.time()
    slots = [f"heavy:user:{keeper.pk}:0"]
    assert counters.slot_take(slots, 60, now=now) is not None
    assert counters.slot_take(slots, 60, now=now + 59) is None
    assert counters.slot_take(slots, 60, now=now + 60) is not None


def test_two_slots_when_the_setting_says_two(logged_in, keeper, game, settings):
    settings.TABLESTAKES_HEAVY_PER_ACCOUNT = 2
    first = limits.heavy_slot_take(keeper)
    url = reverse("ledger:game_export", args=[game.pk])
    assert logged_in.get(url).status_code == 200
    second = limits.heavy_slot_take(keeper)
    assert logged_in.get(url).status_code == 429
    with pytest.raises(limits.Busy):
        limits.heavy_slot_take(keeper)
    limits.heavy_slot_give_back(first)
    limits.heavy_slot_give_back(second)


def test_every_download_and_big_page_is_heavy():
    heavy = {name for name in (
        "ledger:game_detail", "ledger:game_export", "ledger:table_download",
        "ledger:session_detail", "ledger:table_book", "ledger:table_standings",
        "ledger:player_detail", "ledger:table_tidy", "scoresheets:game_html",
        "scoresheets:session_html")
        if getattr(resolve(reverse(name, args=[1])).func, "heavy", False)}
    assert len(heavy) == 10
    for light in ("ledger:hand_create", "ledger:table_detail"):
        assert not getattr(resolve(reverse(light, args=[1])).func, "heavy", False)


# -- tables and evenings per account and hour ---------------------------------------------------

def new_table(client, n):
    return client.post(reverse("ledger:home"), {"name": f"Table {n}", "players": "Ann\nBob",
                                                "language": "en", "time_zone": "UTC"})


def test_the_eleventh_table_in_an_hour_is_refused(logged_in, keeper, settings,
                                                  django_user_model):
    assert settings.TABLESTAKES_TABLES_PER_HOUR == 10
    answers = [new_table(logged_in, n).status_code for n in range(1, 12)]
    assert answers == [302] * 10 + [429]
    refused = new_table(logged_in, 12)
    assert refused.status_code == 429
    assert ("This account made 10 new tables in the last hour, the most one account may here. "
            "Try again in 60 minutes.") in refused.content.decode()
    assert Table.objects.filter(scorekeepers=keeper).count() == 10
    # another account makes its own
    logged_in.force_login(django_user_model.objects.create_user("other", password="pw"))
    assert new_table(logged_in, 1).status_code == 302


def test_the_twenty_first_evening_in_an_hour_is_refused(logged_in, table, settings):
    assert settings.TABLESTAKES_EVENINGS_PER_HOUR == 20
    url = reverse("ledger:table_detail", args=[table.pk])

    def new_evening(n):
        return logged_in.post(url, {"new_session": "1", "date": "2026-11-28",
                                    "place": f"Room {n}", "currency": "USD", "rate": "0.01",
                                    "per_points": "1"})

    answers = [new_evening(n).status_code for n in range(1, 22)]
    assert answers == [302] * 20 + [429]
    assert "This account began 20 new evenings in the last hour" in new_evening(
        22).content.decode()
    assert Session.objects.filter(table=table).count() == 20



def test_heavy_pages_asked_in_parallel_rest_the_slot_as_long_again(logged_in, keeper, game,
                                                                   monkeypatch):
    """One account asking for heavy pages in parallel keeps a worker busy half the time at
    most: when another of its heavy pages was refused while one was made, the slot stays
    taken as long again as that one took. Pages asked one after the other are never held
    up."""
    slots = [f"heavy:user:{keeper.pk}:0"]
    alone = counters.slot_take(slots, 60)
    limits.heavy_slot_give_back(alone, took=2.0)  # nobody asked meanwhile
    assert not counters.current(slots[0])[0]
    asked = counters.slot_take(slots, 60)
    assert counters.slot_take(slots, 60) is None  # another worker's request, refused
    limits.heavy_slot_give_back(asked, took=2.0)
    later = time.time()
    assert counters.slot_take(slots, 60, now=later + 1.5) is None
    again = counters.slot_take(slots, 60, now=later + 2.1)
    assert again is not None
    counters.slot_give_back(again)
    # through a view: a game page that took 2 s while the account's CSV was refused
    from ledger.views import heavy

    game_page = reverse("ledger:game_detail", args=[game.pk])
    csv = reverse("ledger:game_export", args=[game.pk])

    def slow_clock():
        ticks = iter([100.0, 102.0])
        return lambda: next(ticks)

    monkeypatch.setattr(heavy.time, "monotonic", slow_clock())
    real_take = limits.heavy_slot_take

    def take_then_another_asks(user):
        slot = real_take(user)
        assert counters.slot_take(slots, 60) is None  # the CSV, in another worker
        return slot

    monkeypatch.setattr(limits, "heavy_slot_take", take_then_another_asks)
    assert logged_in.get(game_page).status_code == 200
    monkeypatch.undo()
    refused = logged_in.get(csv)
    assert refused.status_code == 429
    assert "Your other page or download is still being made" in refused.content.decode()
    # one after the other, however long each took: never refused
    counters.forget(*slots)
    limits.forget_refusals()
    monkeypatch.setattr(heavy.time, "monotonic", slow_clock())
    assert logged_in.get(game_page).status_code == 200
    monkeypatch.undo()
    assert logged_in.get(csv).status_code == 200
