"""The table screen on a phone (Chromium at 360x740) as hands are entered: a refused hand's
reason is in view, next to Save and not covered; the last Save puts the winner and the money
on the first screen without a reload; CAP-IT rounds save in place; the preview says what the
core will make of the hand as it is typed.

How every variant's running and finished game fits the phone (the sheet, the totals, a
finished game's winner and money on the first screen) is checked by the phone tour
(test_every_screen.py, ``phone_checks``), which visits each of them."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ledger import services
from ledger.selectors.games import game_result

from .helpers import FITS, UNCOVERED, login, shot
from .phone_games import play, start

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTH, HEIGHT = 360, 740

@pytest.fixture
def session(keeper):
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    return services.session_create(table=table, currency="USD", rate="0.05",
                                   created_by=keeper)


@pytest.fixture
def phone(browser, live_server, keeper):
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT},
                                  device_scale_factor=1, is_mobile=True, has_touch=True)
    page = context.new_page()
    login(page, live_server.url, "keeper")
    yield page
    context.close()


def phone_shot(page, name: str, *, full: bool = True) -> None:
    shot(page, f"phone-{name}", full_page=full)


def test_a_refused_hand_says_why_next_to_save_and_at_its_field(phone, live_server, session,
                                                              keeper):
    game = services.game_start(session=session, variant="gin", players=["Sal", "Vic"],
                               started_by=keeper, setup={"first_dealer": "Vic"})
    play(game, keeper, 3)
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    phone.evaluate("window.notReloaded = true")
    phone.locator("label.seg-opt:has(input[name='t1_knocker'][value='Sal'])").click()
    phone.fill("input[name=t1_c0]", "11")
    phone_shot(phone, "before-save", full=False)
    phone.fill("input[name=t1_c1]", "24")
    phone.get_by_role("button", name="Save hand 4").click()
    reason = phone.locator("#save-error")
    expect(reason).to_contain_text("10")
    assert phone.evaluate("window.notReloaded") is True  # answered in place (htmx)
    assert reason.evaluate(UNCOVERED) == "ok"
    field = phone.locator(".field.has-error").first
    assert field.evaluate(UNCOVERED.replace("el.contains(top)", "el.contains(top) || true")) \
        == "ok"  # the marked field is on the screen too
    assert phone.evaluate("document.activeElement.name") == "t1_c0"
    phone_shot(phone, "refused", full=False)
    assert game.hands.count() == 3

    # a letter in a count: the same, and the typed values are kept
    phone.fill("input[name=t1_c0]", "4x")
    expect(phone.locator("#hand-preview")).to_contain_text("whole number")  # said as typed
    phone.get_by_role("button", name="Save hand 4").click()
    expect(reason).to_be_visible()
    assert reason.evaluate(UNCOVERED) == "ok"
    assert phone.input_value("input[name=t1_c1]") == "24"

    # put right and saved: the page is updated in place, the row added
    phone.fill("input[name=t1_c0]", "4")
    expect(phone.locator("#hand-preview")).to_contain_text("Sal +20")  # the stale reason goes
    expect(reason).to_be_hidden()
    phone.get_by_role("button", name="Save hand 4").click()
    expect(phone.locator("#saved")).to_contain_text("Hand 4 recorded: Sal +20.")
    expect(phone.locator("#hand-4")).to_be_visible()
    assert phone.evaluate("window.notReloaded") is True
    expect(phone.get_by_role("button", name="Save hand 5")).to_be_visible()
    assert game.hands.count() == 4
    phone_shot(phone, "after-in-place-save", full=False)
    # the new form is live: its preview speaks as hand 5 is typed (Vic 2 v Sal 12: +10)
    phone.locator("label.seg-opt:has(input[name='t1_knocker'][value='Vic'])").click()
    phone.fill("input[name=t1_c1]", "2")
    phone.fill("input[name=t1_c0]", "12")
    expect(phone.locator("#hand-preview")).to_contain_text("Vic +10")


def test_the_last_save_shows_winner_and_money_on_the_first_screen_without_a_reload(
        phone, live_server, session, keeper):
    game = services.game_start(session=session, variant="gin", players=["Sal", "Vic"],
                               started_by=keeper, setup={"first_dealer": "Vic"})
    before = play(game, keeper, 3)
    points = {name: t["hand_points"] for name, t in before["totals"].items()}
    assert points == {"Sal": 46, "Vic": 23}  # 20-3, then Vic 27-4, then 34-5
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    phone.evaluate("window.notReloaded = true")
    phone_shot(phone, "before-last-save", full=False)
    phone.locator("label.seg-opt:has(input[name='t1_knocker'][value='Sal'])").click()
    phone.locator("label.seg-opt:has(input[name='t1_kind'][value='gin'])").click()
    phone.fill("input[name=t1_c1]", "60")  # gin: Vic's 60 and the gin bonus 25 to Sal
    phone.get_by_role("button", name="Save hand 4").click()
    over = phone.locator("#over")
    expect(over).to_contain_text("Game over")
    assert phone.evaluate("window.notReloaded") is True  # put in place, no reload
    result = game_result(game)
    assert result["complete"] and result["winner"] == "Sal"
    assert result["totals"]["Sal"]["hand_points"] == 46 + 85  # Vic's 60 and the gin 25
    assert result["totals"]["Vic"]["hand_points"] == 23
    expect(over.locator(".winner")).to_contain_text("Sal", ignore_case=True)
    expect(phone.locator(".flash")).to_contain_text("Hand 4 recorded: Sal +")
    assert phone.evaluate("window.scrollY") == 0
    box = phone.locator("#money").bounding_box()
    assert box["y"] + box["height"] <= HEIGHT, box
    amounts = [phone.locator(f"#money [data-player='{name}']").inner_text()
               for name in result["money"]]
    assert [a.replace("\u2212", "-").lstrip("+") for a in amounts] == \
        [str(v).lstrip("+") for v in result["money"].values()]
    expect(phone.locator("#money .payment")).to_have_count(len(result["payments"]))
    expect(phone.locator("#entry")).to_have_count(0)
    expect(phone.locator("#sheet #hand-4")).to_be_visible()
    expect(phone.locator("#totals")).to_contain_text("Final score")
    expect(phone.locator(".title-row .chip")).to_have_text("Complete", ignore_case=True)
    phone_shot(phone, "over-after-last-save", full=False)
    # the page as a reload draws it: the same sections (not the scripts: the core's worker is
    # started once per page, not again by a Save), and the queue's list still works
    sections = "[...document.querySelectorAll('main.page > [id]:not(script)')].map(e => e.id)"
    ids = phone.evaluate(sections)
    phone.reload()
    assert phone.evaluate(sections) == [i for i in ids if i != "flash"]
    assert phone.evaluate(FITS) == []


def test_the_preview_says_what_the_core_makes_of_the_hand(phone, live_server, session, keeper):
    game = services.game_start(session=session, variant="gin", players=["Sal", "Vic"],
                               started_by=keeper, setup={"first_dealer": "Vic"})
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    phone.locator("label.seg-opt:has(input[name='t1_knocker'][value='Sal'])").click()
    phone.fill("input[name=t1_c0]", "3")
    phone.fill("input[name=t1_c1]", "24")
    preview = phone.locator("#hand-preview")
    expect(preview).to_contain_text("Sal +21")
    phone.fill("input[name=t1_c1]", "2")  # an undercut: Vic gets the difference and 25
    expect(preview).to_contain_text("Vic +26")
    phone.fill("input[name=t1_c0]", "12")
    expect(preview.locator(".pv-bad")).to_contain_text("10")
    phone_shot(phone, "preview", full=False)
    assert game.hands.count() == 0


def test_capit_rounds_save_in_place_and_fix_from_the_round_number(phone, live_server, session,
                                                                  keeper):
    game = start(session, keeper, "capit4")
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    phone.evaluate("window.notReloaded = true")
    phone.locator("label.seg-opt:has(input[name='went_out'][value='Sal'])").click()
    for j, value in ((1, "20"), (2, "15"), (3, "35")):
        phone.fill(f"input[name=pts_{j}]", value)
    phone.get_by_role("button", name="Save round 1").click()
    expect(phone.locator("#saved")).to_contain_text("Round 1 recorded")
    assert phone.evaluate("window.notReloaded") is True
    expect(phone.locator("#hand-1 a.fix")).to_have_attribute("aria-label", "Fix round 1")
    expect(phone.locator("#score")).to_contain_text("35")
    assert phone.evaluate(FITS) == []
    phone_shot(phone, "capit4-after-round", full=False)
