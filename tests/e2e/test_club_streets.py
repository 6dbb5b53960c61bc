"""A streets game in the app at 360x740 and 1280 wide, in English and German (issue 40,
the least a streets game needs): the start page offers it, its start form offers its two
presets, and a streets game imported with its record shows its page (partnership's deal
entry and seating; the streets' own cards are not built yet) and fits the screen."""

from __future__ import annotations

import datetime
import json
import re

import pytest
from playwright.sync_api import expect

from ledger import services
from tests.rules.helpers import DATA

from .helpers import FITS, duel, login, settled, shot, tap

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language, streets", [("en", "Streets"), ("de", "Straßen")])
@pytest.mark.parametrize("width, height", [(360, 740), (1280, 900)])
def test_a_streets_game_in_the_app(browser, live_server, keeper, language, streets,
                                   width, height):
    table = services.table_create(name="Club", scorekeepers=[keeper])
    services.table_set_locale(table=table, language=language)
    session = services.session_create(table=table, date=datetime.date(2026, 11, 23),
                                      currency="USD", rate="0.01", created_by=keeper)
    record = json.loads((DATA / "club" / "streets-game.json").read_text())
    record["hands"] = record["hands"][:4]  # streets 1 and 2 still open
    game = services.game_import(session=session, record=record, imported_by=keeper)
    context = browser.new_context(viewport={"width": width, "height": height},
                                  is_mobile=width < 500, has_touch=width < 500,
                                  locale=language)
    page = context.new_page()
    login(page, live_server.url, keeper.username)
    tag = f"streets-{language}-{width}"
    page.goto(f"{live_server.url}/sessions/{session.pk}/games/new/")
    expect(page.get_by_text(streets, exact=False).first).to_be_visible()
    shot(page, f"{tag}-chooser")
    page.goto(f"{live_server.url}/sessions/{session.pk}/games/new/streets/4/")
    shot(page, f"{tag}-start")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    shot(page, f"{tag}-game")
    assert page.evaluate(FITS) == []
    context.close()


# -- a streets game played on the phone (issue 40: the street cards, the target change, the
# knock card): every number the street cards show is the core's result

WE, THEY = ("A", "B"), ("X", "Y")


def _core(game) -> dict:
    from ledger.models import Game
    from ledger.selectors.games import game_result
    return game_result(Game.objects.get(pk=game.pk))


def _whole(value: int) -> re.Pattern:
    return re.compile(rf"(^|\D){abs(value)}(\D|$)")


def _street_cards_are_the_cores(page, result: dict) -> None:
    for street in result["streets"]:
        card = page.locator(f".street[data-street='{street['number']}']")
        for key, t in street["totals"].items():
            side = card.locator(f".street-side[data-side='{key}']")
            expect(side.locator("[data-points]")).to_have_text(str(t["hand_points"]))
            expect(side).to_contain_text(_whole(t["boxes"]))
            if street["complete"]:
                expect(side.locator("[data-to-go]")).to_have_count(0)
            else:
                expect(side.locator("[data-to-go]")).to_contain_text(
                    _whole(street["target"] - t["hand_points"]))
    for key, g in result["game_points"].items():
        expect(page.locator(f".streets-g span[data-side='{key}'] b")).to_have_text(
            re.compile(rf"^[+\u2212]?{abs(g)}$"))
        expect(page.locator(f".score-tile[data-key='{key}'] .score-value")).to_have_text(
            re.compile(rf"^[+\u2212]?{abs(g)}$"))


def _deal(page, game, result: dict, winners: tuple, *, knock_card: str | None = None,
          gin: bool = False) -> dict:
    """One deal: at every table the member of ``winners`` knocks (3 v 20; gin 0 v 20)."""
    if knock_card:
        page.locator("details.knock-card summary").click()
        tap(page, "kc_rank", knock_card[:-1])
        tap(page, "kc_suit", knock_card[-1])
    for i, table in enumerate(result["next"]["tables"], start=1):
        a, b = table["players"]
        ours = 0 if a in winners else 1
        knocker = (a, b)[ours]
        duel(page, i, knocker, {ours: "0" if gin else "3", 1 - ours: "20"},
             kind="gin" if gin else "knock")
    save = page.locator(".entry button[type=submit]")
    save.click()
    # the answer is in when the button offers the next entry (read from the page, not the
    # database, which the server is writing)
    expect(save).to_contain_text(_whole(len(result["hands"]) + 2))
    settled(page)
    return _core(game)


@pytest.mark.parametrize("language, refused", [
    ("en", "target 20 is refused: WE already has"),
    ("de", "Eine Seite hat in einer noch offenen Straße schon so viele Punkte")])
def test_a_streets_game_played_on_the_phone(browser, live_server, keeper, language, refused):
    table = services.table_create(name="Club", scorekeepers=[keeper])
    services.table_set_locale(table=table, language=language)
    session = services.session_create(table=table, date=datetime.date(2026, 11, 23),
                                      currency="USD", rate="0.01", created_by=keeper)
    record = json.loads((DATA / "club" / "streets-game.json").read_text())
    record["hands"] = []
    game = services.game_import(session=session, record=record, imported_by=keeper)
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                                  has_touch=True, locale=language)
    page = context.new_page()
    login(page, live_server.url, keeper.username)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    result = _core(game)
    _street_cards_are_the_cores(page, result)
    result = _deal(page, game, result, WE)                      # WE: streets 1
    _street_cards_are_the_cores(page, result)
    result = _deal(page, game, result, THEY, gin=True)          # THEY: street 1
    _street_cards_are_the_cores(page, result)
    result = _deal(page, game, result, WE, knock_card="5S")     # a doubled deal: 1 and 2
    assert result["hands"][-1]["knock_card"] == "5S" and result["hands"][-1]["doubled"]
    page.goto(f"{live_server.url}/games/{game.pk}/")
    _street_cards_are_the_cores(page, result)
    # the target: 20 is refused at the field (WE is past it), 150 is recorded
    page.locator("#target summary").click()
    page.fill("input[name=target]", "20")
    page.locator("#target button[type=submit]").click()
    expect(page.locator("#id_target_error")).to_contain_text(refused)
    assert len(_core(game)["hands"]) == 3
    shot(page, f"streets-play-{language}-360-refused")
    page.fill("input[name=target]", "150")
    page.locator("#target button[type=submit]").click()
    expect(page.locator(".entry button[type=submit]")).to_contain_text(_whole(5))
    expect(page.locator("#id_target_error")).to_have_count(0)
    result = _core(game)
    assert result["hands"][-1]["result"] == "target"
    # an ended street keeps the target it ended with (RULES 3.9)
    assert [s["target"] for s in result["streets"]] == [
        100 if s["complete"] else 150 for s in result["streets"]]
    assert not result["streets"][2]["complete"]
    _street_cards_are_the_cores(page, result)
    result = _deal(page, game, result, WE, gin=True)
    _street_cards_are_the_cores(page, result)
    shot(page, f"streets-play-{language}-360")
    assert page.evaluate(FITS) == []
    context.close()
