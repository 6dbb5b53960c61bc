"""The table screen at midnight (issue 11) in Chromium at 360x740: undo / settle / revoke ask
first in a dialog (or on a page without JavaScript), and games in progress are one tap from
home. A settled evening offering nothing that changes a game, the error pages, the presets'
words and the pages in dark mode are checked on the phone and desktop tours
(test_every_screen.py); the crash page's words in tests/ledger/test_table_screen.py.

Screenshots go to $SHOTS_DIR when it is set: 11-*.png."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect

from ledger import services
from ledger.models import ShareLink

from .helpers import GIN, MONDAY, SCALE, login, shot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": SCALE,
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
