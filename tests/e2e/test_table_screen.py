"""The table screen at midnight (issue 11) in Chromium at 360x740: a settled evening offers
nothing that changes a game, undo / settle / revoke ask first in a dialog, the error pages
render, games in progress are one tap from home, and the pages in dark mode.

Screenshots go to $SHOTS_DIR when it is set: 11-*.png."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect

from ledger import services
from ledger.models import ShareLink

from .helpers import DESKTOP, GIN, MONDAY, login, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}


@pytest.fixture
def evening(keeper):
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    return services.session_create(table=table, date=MONDAY, currency="USD", rate="0.05",
                                   created_by=keeper)


@pytest.fixture
def phone(browser):
    context = browser.new_context(**PHONE)
    yield context.new_page()
    context.close()


def view_shot(page, name: str) -> None:
    """What the screen shows now (not the whole page): for dialogs."""
    shot(page, f"{name}", full_page=False)


def no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def test_a_settled_evening_offers_no_change(phone, live_server, keeper, evening):
    game = services.game_import(session=evening, record=GIN, imported_by=keeper)
    services.session_settle(session=evening, settled_by=keeper)
    login(phone, live_server.url, "keeper")
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    expect(phone.locator(".over")).to_contain_text("Sal wins.")
    expect(phone.locator(".over")).to_contain_text(
        "The evening of Monday, November 23, 2026 is settled")
    for words in ("Undo", "Stakes and rules", "Next game", "Abandon"):
        expect(phone.locator("a, button, summary").filter(has_text=words)).to_have_count(0)
    expect(phone.locator("a.fix")).to_have_count(0)
    # issue 21: on a settled evening it asks before opening a new evening (a dialog)
    expect(phone.get_by_role("link", name="Same players again")).to_be_visible()
    no_sideways_scroll(phone)
    shot(phone, "11-settled-game-360")
    phone.goto(f"{live_server.url}/sessions/{evening.pk}/")
    expect(phone.get_by_role("link", name="New game")).to_have_count(0)
    expect(phone.locator("a, button").filter(has_text="Settle up")).to_have_count(0)
    no_sideways_scroll(phone)
    shot(phone, "11-settled-evening-360")


def test_undo_asks_in_a_dialog_and_offers_the_hand_again(phone, live_server, keeper,
                                                         evening):
    game = services.game_import(session=evening, record=GIN, imported_by=keeper)
    login(phone, live_server.url, "keeper")
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    shot(phone, "11-game-over-360")
    phone.get_by_role("link", name="Undo hand 3").click()
    dialog = phone.locator("dialog[open]")
    expect(dialog).to_contain_text("Undo hand 3?")
    expect(dialog).to_contain_text("undoing reopens it and takes its money back")
    box = dialog.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360 and box["y"] >= 0
    view_shot(phone, "11-undo-dialog-360")
    dialog.get_by_role("button", name="Keep hand 3").click()
    expect(phone.locator("dialog[open]")).to_have_count(0)
    assert game.hands.filter(voided_at__isnull=True).count() == 3
    phone.get_by_role("link", name="Undo hand 3").click()
    phone.locator("dialog[open]").get_by_role("button", name="Undo hand 3").click()
    expect(phone.locator(".flash")).to_contain_text("Hand 3 undone (Sal gin v Vic 35)")
    expect(phone.locator(".again-note")).to_contain_text("Hand 3 as it was before the undo")
    assert phone.locator("input[name=t1_c1]").input_value() == "35"
    shot(phone, "11-after-undo-360")
    phone.get_by_role("button", name="Save hand 3").click()
    expect(phone.locator(".flash")).to_contain_text("Hand 3 recorded: Sal +60. Game over: "
                                                    "Sal wins.")


def test_undo_without_javascript_asks_on_a_page(browser, live_server, keeper, evening):
    context = browser.new_context(**PHONE, java_script_enabled=False)
    page = context.new_page()
    game = services.game_import(session=evening, record=GIN, imported_by=keeper)
    login(page, live_server.url, "keeper")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.get_by_role("link", name="Undo hand 3").click()
    expect(page).to_have_url(re.compile(r"/hands/undo/$"))
    expect(page.get_by_role("heading", name="Undo hand 3?")).to_be_visible()
    shot(page, "11-undo-page-nojs-360")
    page.get_by_role("link", name="Keep hand 3").click()
    expect(page).to_have_url(re.compile(rf"/games/{game.pk}/#actions$"))
    context.close()


def test_settle_and_revoke_ask_first(phone, live_server, keeper, evening):
    services.game_import(session=evening, record=GIN, imported_by=keeper)
    link = ShareLink.objects.create(table=evening.table, created_by=keeper)
    login(phone, live_server.url, "keeper")
    phone.goto(f"{live_server.url}/sessions/{evening.pk}/")
    phone.get_by_role("link", name="Settle up").click()
    expect(phone.locator("dialog[open]")).to_contain_text(
        "The evening of Monday, November 23, 2026 is closed")
    view_shot(phone, "11-settle-dialog-360")
    phone.locator("dialog[open]").get_by_role("button", name="Settle up").click()
    expect(phone.locator("#payments + .payments")).to_contain_text("Vic pays Sal")
    phone.goto(f"{live_server.url}/tables/{evening.table.pk}/")
    phone.get_by_role("link", name="Revoke link").click()
    expect(phone.locator("dialog[open]")).to_contain_text("stops working at once")
    view_shot(phone, "11-revoke-dialog-360")
    phone.locator("dialog[open]").get_by_role("button", name="Revoke link").click()
    expect(phone.locator(".flash")).to_contain_text("Link revoked")
    # What a player who still has the link sees:
    phone.goto(f"{live_server.url}/s/{link.token}/")
    expect(phone.get_by_role("heading", name="This link no longer works")).to_be_visible()
    no_sideways_scroll(phone)
    shot(phone, "11-link-gone-360")


def test_error_pages_render_on_a_phone(phone, live_server, keeper):
    phone.goto(f"{live_server.url}/s/not-a-token/")
    expect(phone.get_by_role("heading", name="This link no longer works")).to_be_visible()
    login(phone, live_server.url, "keeper")
    response = phone.goto(f"{live_server.url}/games/424242/")
    assert response.status == 404
    expect(phone.get_by_role("heading", name="Nothing here")).to_be_visible()
    expect(phone.get_by_role("link", name="Your tables")).to_be_visible()
    no_sideways_scroll(phone)
    shot(phone, "11-not-found-360")


def test_home_lists_games_in_progress_one_tap_away(phone, live_server, keeper, evening):
    game = services.game_start(session=evening, variant="captain", players=["Sal", "Vic", "Ann"],
                               started_by=keeper)
    services.hand_record(game=game, entry={"knocker": "Sal", "deadwood": {"Sal": 4, "Vic": 24}},
                         recorded_by=keeper, idempotency_key=uuid.uuid4())
    login(phone, live_server.url, "keeper")
    expect(phone.get_by_role("heading", name="Playing now")).to_be_visible()
    shot(phone, "11-home-playing-360")
    phone.get_by_role("link", name=re.compile("Sal · Vic · Ann")).click()
    expect(phone).to_have_url(re.compile(rf"/games/{game.pk}/$"))
    # Vic lost hand 1 and sits out: the next hand's flash says so (captain play)
    phone.locator("label.seg-opt:has(input[name='t1_knocker'][value='Ann'])").click()
    phone.locator("label.seg-opt:has(input[name='t1_kind'][value='knock'])").click()
    phone.fill("input[name=t1_c0]", "30")
    phone.fill("input[name=t1_c1]", "2")
    phone.get_by_role("button", name="Save hand 2").click()
    expect(phone.locator(".flash")).to_contain_text(
        "Hand 2 recorded: the opponents +28.")
    shot(phone, "11-captain-flash-360")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_screens_in_light_and_dark(browser, live_server, keeper, evening, scheme):
    game = services.game_import(session=evening, record=GIN, imported_by=keeper)
    running = services.game_start(session=evening, variant="captain", players=["Sal", "Vic", "Ann"],
                                  started_by=keeper)
    for name, options in (("360", PHONE), ("desktop", DESKTOP)):
        context = browser.new_context(**options, color_scheme=scheme)
        page = context.new_page()
        login(page, live_server.url, "keeper")
        page.goto(f"{live_server.url}/games/{game.pk}/")
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        assert background == ("rgb(14, 20, 17)" if scheme == "dark" else "rgb(243, 245, 244)")
        shot(page, f"11-{scheme}-game-{name}")
        page.goto(f"{live_server.url}/sessions/{evening.pk}/")
        page.locator("summary:has-text('Print a blank sheet')").click()
        page.select_option("select[name=game]", "captain-3")  # the seats come next
        shot(page, f"11-{scheme}-evening-{name}")
        page.goto(f"{live_server.url}/")
        shot(page, f"11-{scheme}-home-{name}")
        page.goto(f"{live_server.url}/games/{running.pk}/")
        page.locator("label.seg-opt:has(input[name='t1_knocker'][value='Sal'])").click()
        shot(page, f"11-{scheme}-entry-{name}")
        page.goto(f"{live_server.url}/s/gone/")
        shot(page, f"11-{scheme}-link-gone-{name}")
        context.close()


def test_the_preset_buttons_keep_their_words_whole(phone, live_server, keeper, evening):
    """'Standard' wrapped as 'Standar / d' at 360 px."""
    for name in ("Sal", "Vic"):
        services.player_get_or_create(table=evening.table, name=name)
    login(phone, live_server.url, "keeper")
    phone.goto(f"{live_server.url}/sessions/{evening.pk}/games/new/gin/2/")
    heights = {value: phone.locator(f"label.seg-opt:has(input[name=preset][value={value}]) span")
               .bounding_box()["height"] for value in ("standard", "classic", "simple")}
    assert heights["standard"] == heights["classic"] == heights["simple"], heights
    no_sideways_scroll(phone)
    shot(phone, "11-start-gin-360")


def test_a_crash_shows_the_500_page(phone, live_server, keeper, monkeypatch):
    from ledger.views import tables

    def crash(user):
        raise RuntimeError("boom")

    monkeypatch.setattr(tables, "_games_in_progress", crash)
    phone.goto(live_server.url + "/accounts/login/")
    phone.fill("input[name=username]", "keeper")
    phone.fill("input[name=password]", "pw")
    phone.click("button:has-text('Log in')")
    expect(phone.get_by_role("heading", name="Something went wrong on our side")).to_be_visible()
    assert "boom" not in phone.content()
    no_sideways_scroll(phone)
    shot(phone, "11-server-error-360")
