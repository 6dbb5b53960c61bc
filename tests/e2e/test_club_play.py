"""Issue 40 at the table, on the phone (360x740) and at 1280 wide, in English and German:
a streets game started from the start form with its WE/THEY seating, one, two and three
players a side, and played to the end of street 1 with the canon's numbers (RULES 5,
example 14: street 1 ends WE 133, THEY 22, boxes 3 to 1, net 261); a best-of-seven match
started with its lump sum and played to its end (example 19: hands won by A, B, a draw, A, A,
B, A: A wins 4-2 on the seventh hand and B pays A the lump sum); a best-of of an even number
refused at its field; and the club settings on the settings screen."""

from __future__ import annotations

import datetime
import re

import pytest
from playwright.sync_api import expect

from ledger import services

from .helpers import FITS, duel, login, settled, shot, tap

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": {"we": "We", "they": "They", "start": "Start the game",
           "leads": "A leads 3–1, first to 4", "wins": "A wins the match 4–2",
           "even": "8 is even", "settings": "Save changes", "street_bonus": "Street bonus"},
    "de": {"we": "Wir", "they": "Ihr", "start": "Partie beginnen",
           "leads": "A führt 3–1, wer zuerst 4 hat", "wins": "A gewinnt das Match 4–2",
           "even": "8 ist gerade", "settings": "Änderungen speichern",
           "street_bonus": "Straßenbonus"},
}


def _evening(keeper, language: str, players: list[str]):
    table = services.table_create(name="Club", scorekeepers=[keeper])
    services.table_set_locale(table=table, language=language)
    services.players_get_or_create(table=table, names=players)
    return services.session_create(table=table, date=datetime.date(2026, 11, 23),
                                   currency="USD", rate="0.01", created_by=keeper)


def _phone(browser, language: str, width: int = 360, height: int = 740):
    context = browser.new_context(viewport={"width": width, "height": height},
                                  is_mobile=width < 500, has_touch=width < 500, locale=language)
    return context, context.new_page()


def _game():
    from ledger.models import Game
    return Game.objects.order_by("-pk").first()


def _core():
    from ledger.selectors.games import game_result
    return game_result(_game())


def _save(page, number: int) -> None:
    save = page.locator(".entry button[type=submit]")
    save.click()
    # the answer is in when the button offers the next entry
    expect(save).to_contain_text(re.compile(rf"(^|\D){number + 1}(\D|$)"))
    settled(page)


# -- streets: WE/THEY seating, one to three a side, example 14's street 1 ------------------

# example 14's deals, each a list of tables: (the side that wins the table, knock, count)
# or None for a drawn table; every deal nets as the canon's: THEY +22, WE +65, +6, a drawn
# deal, WE +62 (each table the same, so one, two and three tables a side give those nets)
DEALS = {
    1: [[("THEY", 2, 24)], [("WE", 1, 66)], [("WE", 2, 8)], [None], [("WE", 1, 63)]],
    2: [[("THEY", 2, 13)] * 2, [("WE", 1, 33), ("WE", 2, 35)], [("WE", 2, 5)] * 2,
        [None] * 2, [("WE", 1, 32)] * 2],
    3: [[("THEY", 2, 13), ("THEY", 2, 13), None], [("WE", 1, 33), ("WE", 2, 35), None],
        [("WE", 2, 5), ("WE", 2, 5), None], [None] * 3, [("WE", 1, 32), ("WE", 1, 32), None]],
}
WE_SIDE, THEY_SIDE = ["Ann", "Bob", "Cat"], ["Xan", "Yul", "Zed"]


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("a_side, width", [(1, 360), (2, 360), (3, 360), (2, 1280)])
def test_a_streets_game_seated_we_and_they_and_played(browser, live_server, keeper, language,
                                                      a_side, width):
    session = _evening(keeper, language, WE_SIDE + THEY_SIDE)
    context, page = _phone(browser, language, width, 740 if width < 500 else 900)
    login(page, live_server.url, keeper.username)
    tag = f"clubplay-streets{a_side}-{language}-{width}"
    page.goto(f"{live_server.url}/sessions/{session.pk}/games/new/streets/{2 * a_side}/")
    # the WE/THEY grid: a row per card table, each side's seat at it
    tables = page.locator("fieldset.side-table")
    expect(tables).to_have_count(a_side)
    expect(page.locator("input[name=side_a]")).to_have_value(WORDS[language]["we"])
    page.fill("input[name=side_a]", "WE")
    page.fill("input[name=side_b]", "THEY")
    # a player seated twice is refused at his second seat, naming him
    page.select_option("select[name=a1]", "Ann")
    page.select_option("select[name=b1]", "Ann")
    for i in range(2, a_side + 1):
        page.select_option(f"select[name=a{i}]", WE_SIDE[i - 1])
        page.select_option(f"select[name=b{i}]", THEY_SIDE[i - 1])
    page.get_by_role("button", name=WORDS[language]["start"]).click()
    expect(page.locator("#id_b1_error")).to_contain_text("Ann")
    shot(page, f"{tag}-refused")
    page.select_option("select[name=b1]", "Xan")
    shot(page, f"{tag}-start")
    assert page.evaluate(FITS) == []
    page.get_by_role("button", name=WORDS[language]["start"]).click()
    expect(page.locator(".entry")).to_be_visible()
    game = _game()
    assert game.variant == "streets" and game.setup["sides"] == {
        "WE": WE_SIDE[:a_side], "THEY": THEY_SIDE[:a_side]}
    for number, deal in enumerate(DEALS[a_side], start=1):
        result = _core()
        for i, (table, play) in enumerate(zip(result["next"]["tables"], deal, strict=True),
                                          start=1):
            if play is None:
                duel(page, i, None, {})
                continue
            side, knock, count = play
            players = table["players"]
            ours = 0 if players[0] in result["sides"][side] else 1
            duel(page, i, players[ours], {ours: str(knock), 1 - ours: str(count)})
        _save(page, number)
    result = _core()
    street = result["streets"][0]
    # RULES 5, example 14: street 1 ends WE 133, THEY 22, boxes 3 to 1: 283 v 22, net 261
    assert street["complete"] and street["winner"] == "WE"
    assert street["totals"]["WE"]["hand_points"] == 133
    assert street["totals"]["THEY"]["hand_points"] == 22
    assert (street["totals"]["WE"]["boxes"], street["totals"]["THEY"]["boxes"]) == (3, 1)
    assert street["totals"]["WE"]["final"] == 283 and street["net"]["WE"] == 261
    page.goto(f"{live_server.url}/games/{game.pk}/")
    card = page.locator(".street[data-street='1']")
    expect(card.locator(".street-side[data-side='WE'] [data-points]")).to_have_text("133")
    expect(card.locator(".street-side[data-side='THEY'] [data-points]")).to_have_text("22")
    expect(card.locator("[data-net]")).to_contain_text("261")
    expect(card.locator(".street-side[data-side='WE']")).to_contain_text("283")
    # street 2 holds the last two wins (6 + 62), street 3 the last (62): each still to go
    two = page.locator(".street[data-street='2'] .street-side[data-side='WE']")
    expect(two.locator("[data-points]")).to_have_text("68")
    expect(two.locator("[data-to-go]")).to_contain_text("32")
    # the card says in which hand the street was won, in the glossary's word
    expect(card.locator(".street-state")).to_contain_text(
        {"en": "WE out in hand 5", "de": "WE in Spiel 5 ausgegangen"}[language])
    shot(page, f"{tag}-game")
    assert page.evaluate(FITS) == []
    context.close()


# -- a best-of-seven match with its lump sum (example 19) ----------------------------------

# example 19's hands: A gins v 22, B gins v 15, a draw, A gins v 31, then A, B, A
MATCH = [("A", 22), ("B", 15), (None, 0), ("A", 31), ("A", 12), ("B", 20), ("A", 9)]


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("width", [360, 1280])
def test_a_best_of_seven_match_started_and_played(browser, live_server, keeper, language,
                                                  width):
    session = _evening(keeper, language, ["A", "B"])
    context, page = _phone(browser, language, width, 740 if width < 500 else 900)
    login(page, live_server.url, keeper.username)
    tag = f"clubplay-match-{language}-{width}"
    page.goto(f"{live_server.url}/sessions/{session.pk}/games/new/gin/2/")
    page.select_option("select[name=p1]", "A")
    page.select_option("select[name=p2]", "B")
    page.select_option("select[name=first_dealer]", "B")
    tap(page, "preset", "straight")
    page.fill("input[name=rate]", "")
    page.fill("input[name=lump_sum_stake]", "10.00")
    page.locator("details.more summary").click()
    page.select_option("select[name=rule_straight_format]", "best_of")
    page.fill("input[name=rule_best_of]", "8")
    page.get_by_role("button", name=WORDS[language]["start"]).click()
    # the core's refusal of an even best-of, at its field
    expect(page.locator("#id_rule_best_of_error")).to_contain_text(WORDS[language]["even"])
    shot(page, f"{tag}-refused")
    page.fill("input[name=rule_best_of]", "7")
    page.get_by_role("button", name=WORDS[language]["start"]).click()
    expect(page.locator(".entry")).to_be_visible()
    game = _game()
    assert game.rules["straight_format"] == "best_of" and game.rules["best_of"] == 7
    assert str(game.lump_sum_stake) == "10.0000" and game.rate is None
    for number, (winner, count) in enumerate(MATCH, start=1):
        if winner is None:
            duel(page, 1, None, {})
        else:
            at = 0 if winner == "A" else 1
            duel(page, 1, winner, {at: "0", 1 - at: str(count)}, kind="gin")
        if number == 5:
            # after A, B, draw, A, A: the match line, the numbers the core's
            page.locator(".entry button[type=submit]").click()
            expect(page.locator("[data-match]")).to_contain_text(WORDS[language]["leads"])
            assert _core()["match"]["hands_won"] == {"A": 3, "B": 1}
            settled(page)
            shot(page, f"{tag}-leads")
            continue
        if number == len(MATCH):
            page.locator(".entry button[type=submit]").click()
            expect(page.locator("[data-match]")).to_contain_text(WORDS[language]["wins"])
        else:
            _save(page, number)
    result = _core()
    assert result["complete"] and result["match"]["winner"] == "A"
    assert result["match"]["hands_won"] == {"A": 4, "B": 2}
    ten = re.compile(r"10[.,]00")  # as the language writes it
    expect(page.locator("td.money[data-player='A']")).to_contain_text(ten)
    expect(page.locator("td.money[data-player='B']")).to_contain_text(ten)
    expect(page.locator("[data-lump]")).to_contain_text(ten)
    shot(page, f"{tag}-won")
    assert page.evaluate(FITS) == []
    context.close()


# -- the club settings on the settings screen -----------------------------------------------

@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("width", [360, 1280])
def test_club_settings_on_the_settings_screen(browser, live_server, keeper, language, width):
    session = _evening(keeper, language, ["A", "B", "X", "Y"])
    game = services.game_start(
        session=session, variant="streets", players=["A", "B", "X", "Y"], started_by=keeper,
        preset="streets", setup={"sides": {"WE": ["A", "B"], "THEY": ["X", "Y"]}},
        rate="0.01")
    context, page = _phone(browser, language, width, 740 if width < 500 else 900)
    login(page, live_server.url, keeper.username)
    page.goto(f"{live_server.url}/games/{game.pk}/settings/")
    expect(page.get_by_text(WORDS[language]["street_bonus"], exact=True)).to_be_visible()
    # the field kinds: a number, a yes/no, a choice
    expect(page.locator("input[name=rule_gin_boxes]")).to_have_value("0")
    expect(page.locator("select[name=rule_double_extra_boxes]")).to_have_value("yes")
    expect(page.locator("select[name=rule_clean_sweep_mode]")).to_have_value("bonus")
    shot(page, f"clubplay-settings-{language}-{width}")
    page.fill("input[name=rule_gin_boxes]", "2")
    page.fill("input[name=rule_street_bonus]", "50")
    page.select_option("select[name=rule_clean_sweep_mode]", "double")
    page.fill("input[name=reason]", "club rules")
    page.get_by_role("button", name=WORDS[language]["settings"]).click()
    expect(page.locator(".entry")).to_be_visible()
    game.refresh_from_db()
    assert (game.rules["gin_boxes"], game.rules["street_bonus"],
            game.rules["clean_sweep_mode"]) == (2, 50, "double")
    context.close()


# -- the streets' words in the other languages ------------------------------------------------

@pytest.mark.parametrize("language, words", [
    ("es", ["Calle 1", "Bono de calle", "salió en la mano"]),
    ("fr", ["Rue 1", "Prime de rue", "sort à la donne"]),
    ("ru", ["Улица 1", "Бонус улицы", "вышли в раздаче"])])
def test_the_streets_screens_in_spanish_french_and_russian(browser, live_server, keeper,
                                                           language, words):
    import json

    from tests.rules.helpers import DATA

    session = _evening(keeper, language, WE_SIDE + THEY_SIDE)
    record = json.loads((DATA / "club" / "streets-game.json").read_text())
    game = services.game_import(session=session, record=record, imported_by=keeper)
    context, page = _phone(browser, language)
    login(page, live_server.url, keeper.username)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    expect(page.locator(".street[data-street='1']")).to_contain_text(words[0])
    expect(page.locator(".street[data-street='1'] .street-state")).to_contain_text(words[2])
    assert page.evaluate(FITS) == []
    shot(page, f"clubplay-streets-{language}-360-game")
    page.goto(f"{live_server.url}/games/{game.pk}/settings/")
    expect(page.get_by_text(words[1], exact=True)).to_be_visible()
    assert page.evaluate(FITS) == []
    shot(page, f"clubplay-settings-{language}-360")
    page.goto(f"{live_server.url}/sessions/{session.pk}/games/new/streets/6/")
    expect(page.locator("fieldset.side-table")).to_have_count(3)
    page.locator("details.more summary").click()
    assert page.evaluate(FITS) == []
    shot(page, f"clubplay-streets-{language}-360-start")
    context.close()
