"""Whole games of the club formats at 360x740, in English and German (issue 40): each played
deal by deal through the screens from the first deal to the settlement with the canon's
numbers (RULES §5 examples 14, 15, 18 and 19), then printed (the PDF's text checked),
downloaded as CSV, exported and imported again.

- A two-table streets game, 2 a side (examples 14 and 15): each card table reports its own
  part of every deal from its own phone, the scorekeeper picks a knock card once for a deal
  and saves; a share link's reader follows the street cards live.
- A club partnership game (rummytalk's boxes) with a roodle and a doubled deal (example 18's
  two-table deal, under a 7♠ knock card).
- Straight gin (example 19) and a best-of-seven match with its lump sum (example 19's match).

Each game starts as a keeper starts it: the evening's page, "New game", the variant and the
player count, then the start form (the WE/THEY grid by card table, the preset, the club
settings, best of 7 and the lump sum). Each tour ends at the evening's settlement on its
screen: who pays whom, to the cent, as the core's fewest payments of the games' money."""

from __future__ import annotations

import datetime
import io
import json
import re
from urllib.parse import urlsplit

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from ledger import services
from ledger.models import Game
from ledger.rules.money import fewest_payments, format_minor, to_minor
from ledger.selectors.games import game_result
from tests.scoresheets.conftest import pdf_text

from .helpers import FITS, duel, login, settled, shot, tap

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
MONDAY = datetime.date(2026, 11, 23)
WE, THEY = ("A", "B"), ("X", "Y")
LANGUAGES = ["en", "de"]
WORDS = {"en": {"start": "Start the game", "pays": "pays", "we": "We", "they": "They"},
         "de": {"start": "Partie beginnen", "pays": "zahlt", "we": "Wir", "they": "Ihr"}}


def _core(game) -> dict:
    return game_result(Game.objects.get(pk=game.pk))


def _whole(value: int) -> re.Pattern:
    return re.compile(rf"(^|\D){abs(value)}(\D|$)")


def _evening(keeper, language: str, players: list[str] = ()):
    table = services.table_create(name="Club", scorekeepers=[keeper])
    services.table_set_locale(table=table, language=language)
    if players:
        services.players_get_or_create(table=table, names=list(players))
    return services.session_create(table=table, date=MONDAY, currency="USD", rate="0.01",
                                   created_by=keeper)


def _start(page, live_server, session, variant: str, count: int, language: str, tag: str,
           fill) -> Game:
    """Start a game as a keeper taps it: the evening's page, "New game", the variant with its
    player count, the start form filled by ``fill(page)``, "Start the game"."""
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    page.locator(f"a[href$='/sessions/{session.pk}/games/new/']").click()
    page.locator(f"a[href$='/games/new/{variant}/{count}/']").click()
    start = page.get_by_role("button", name=WORDS[language]["start"])
    expect(start).to_be_visible()
    page.wait_for_load_state()  # its scripts ran (the seats' labels follow the sides' names)
    fill(page)
    assert page.evaluate(FITS) == [] and page.evaluate(SEGMENTS_FIT) == []
    page.evaluate("() => window.scrollTo(0, 0)")
    settled(page)
    shot(page, f"club-tour-{tag}-{language}-start")
    start.click()
    expect(page.locator(".entry")).to_be_visible()
    return Game.objects.filter(session=session).order_by("-pk").first()


#: The segmented buttons whose words are wider than the button (cut off at its edge).
SEGMENTS_FIT = """() => [...document.querySelectorAll('.seg-opt span')].filter(
  s => s.offsetParent && s.scrollWidth > s.clientWidth + 1).map(
  s => s.textContent.trim() + ' ' + s.scrollWidth + '>' + s.clientWidth)"""


def _sides(page, language: str, we: tuple, they: tuple) -> None:
    """The WE/THEY grid: the sides named WE and THEY, a row per card table."""
    expect(page.locator("input[name=side_a]")).to_have_value(WORDS[language]["we"])
    expect(page.locator("fieldset.side-table")).to_have_count(len(we))
    page.fill("input[name=side_a]", "WE")
    page.fill("input[name=side_b]", "THEY")
    for i, (ours, theirs) in enumerate(zip(we, they, strict=True), start=1):
        page.select_option(f"select[name=a{i}]", ours)
        page.select_option(f"select[name=b{i}]", theirs)
        # each table's seats are labelled with the sides' names as typed (they said
        # "We" and "They" under the names WE and THEY until the form came back)
        expect(page.locator(f"label[for=id_a{i}]")).to_have_text("WE")
        expect(page.locator(f"label[for=id_b{i}]")).to_have_text("THEY")


def _settle(page, live_server, session, language: str, tag: str) -> list:
    """Settle the evening on its screen; the payments it lists are the core's fewest payments
    of the evening's games' money, to the cent. Returns them (payer, payee, units)."""
    nets: dict[str, int] = {}
    for game in session.games.order_by("pk"):
        for name, amount in _core(game)["money"].items():
            nets[name] = nets.get(name, 0) + to_minor(amount, "USD")
    plan = [(p.payer, p.payee, p.units) for p in fewest_payments(nets)]
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    page.locator("#settle a[data-dialog]").click()
    page.locator("dialog[open] button.btn-danger-solid").click()
    rows = page.locator("#payments + .payments li.payment")
    expect(rows).to_have_count(len(plan))
    for row, (payer, payee, units) in zip(rows.all(), plan, strict=True):
        amount = format_minor(units, "USD").replace(".", "[.,]")
        expect(row.locator(".pay-text")).to_have_text(re.compile(
            rf"^{payer} {WORDS[language]['pays']} {payee} \$?\s?{amount}(\s?\$)?$"))
    settled(page)
    shot(page, f"club-tour-{tag}-{language}-settled")
    assert page.evaluate(FITS) == []
    return plan


def _phone(browser, language: str, contexts: list):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                  locale=language, service_workers="block")
    contexts.append(context)
    return context.new_page()


def _save(page, result: dict, *, last: bool = False) -> None:
    """Save the deal on the scorekeeper's form; wait until the form offers the next one
    (``last``: the deal ends the game, and the form goes)."""
    save = page.locator(".entry button[type=submit]")
    save.click()
    if last:
        expect(page.locator(".entry")).to_have_count(0, timeout=8000)
    else:
        expect(save).to_contain_text(_whole(len(result["hands"]) + 2))
    settled(page)


def _printed_exported_imported(page, live_server, game) -> str:
    """The sheet's PDF text (as the scorekeeper's browser downloads it); the CSV downloads;
    export_game -> import_game -> export_game gives the same record."""
    response = page.request.get(f"{live_server.url}/sheets/games/{game.pk}.pdf")
    assert response.status == 200 and response.headers["content-type"] == "application/pdf"
    text = " ".join(pdf_text(response.body()).split())
    csv = page.request.get(f"{live_server.url}/games/{game.pk}/hands.csv")
    assert csv.status == 200
    out = io.StringIO()
    call_command("export_game", str(game.pk), stdout=out)
    first = out.getvalue()
    path = f"/tmp/club-tour-{game.pk}.json"
    with open(path, "w") as f:
        f.write(first)
    made = io.StringIO()
    call_command("import_game", path, stdout=made, stderr=io.StringIO())
    again = io.StringIO()
    call_command("export_game", made.getvalue().split()[0], stdout=again)
    assert again.getvalue() == first
    return text + "\n" + csv.text()


# -- a two-table streets game, each table reporting from its own phone ----------------------

#: RULES §5 examples 14 and 15 as deals: the side that wins, each table's (knocker's
#: deadwood, the other's) for a member of that side knocking (None: the table is drawn).
#: Street 1: THEY 22, WE 65, 6, (drawn), 62: 133 v 22, boxes 3 v 1: net 261. Then THEY 53
#: opens street 2; WE 32 takes street 2 to 100 (250 v 53, net 197); THEY 71 opens street
#: 3; WE 19 takes it to 113 (263 v 71, net 192). G = 650, all three won: 1300.
DEALS = [
    (THEY, [(3, 25), None]),             # THEY +22
    (WE, [(2, 32), (5, 40)]),            # WE +65 (a 9♥ knock card: every knock is 9 or less)
    (WE, [(4, 10), None]),               # WE +6
    (None, [None, None]),                # both tables drawn
    (WE, [(1, 33), (2, 32)]),            # WE +62: street 1 ends 133 v 22
    (THEY, [(2, 30), (5, 30)]),          # THEY +53: street 2
    (WE, [(3, 35), None]),               # WE +32: street 2 ends 100 v 53
    (THEY, [(4, 40), (5, 40)]),          # THEY +71: street 3
    (WE, [(1, 20), None]),               # WE +19: street 3 ends 113 v 71
]


def _report(phone, side, counts) -> None:
    """A table's part of the deal from its phone: its member of ``side`` knocks."""
    players = [value for value in phone.locator("input[name=t1_knocker]").evaluate_all(
        "els => els.map(e => e.value)") if value != "-draw-"]
    if counts is None or side is None:
        tap(phone, "t1_knocker", "-draw-")
    else:
        ours = 0 if players[0] in side else 1
        tap(phone, "t1_knocker", players[ours])
        tap(phone, "t1_kind", "knock")
        phone.fill(f"input[name=t1_c{ours}]", str(counts[0]))
        phone.fill(f"input[name=t1_c{1 - ours}]", str(counts[1]))
    phone.locator("form[data-report-form] button[type=submit]").click()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_two_table_streets_game_reported_from_the_tables(browser, live_server, keeper,
                                                           language):
    session = _evening(keeper, language, [*WE, *THEY])
    contexts: list = []
    try:
        _streets_tour(browser, live_server, session, language, contexts)
    finally:  # no phone keeps polling while the database is emptied after the test
        for context in contexts:
            context.close()


def _streets_tour(browser, live_server, session, language, contexts):
    scorer = _phone(browser, language, contexts)
    login(scorer, live_server.url, "keeper")

    def fill(page):  # the streets preset (the start form's default for streets) as it is
        _sides(page, language, WE, THEY)
        expect(page.locator("input[name=preset][value=streets]")).to_be_checked()

    game = _start(scorer, live_server, session, "streets", 4, language, "streets", fill)
    assert game.variant == "streets" and game.preset == "streets"
    assert game.setup["sides"] == {"WE": list(WE), "THEY": list(THEY)}
    # the game's share link, as the keeper makes it on the game's page for a reader to scan
    scorer.locator(f"form[action$='/share/']:has(input[name=game][value='{game.pk}']) button.btn"
                   ).click()
    shared = urlsplit(scorer.locator("#shared-link input.copy").input_value()).path
    assert shared == f"/s/{game.share_links.get().token}/"
    scorer.locator("#reports form[action$='/reports/links/'] button").click()
    links = list(game.report_links.order_by("part"))
    assert len(links) == 2
    tables = []
    for report in links:
        phone = _phone(browser, language, contexts)
        phone.goto(f"{live_server.url}/r/{report.token}/")
        tables.append(phone)
    reader = _phone(browser, language, contexts)
    reader.goto(f"{live_server.url}{shared}")
    result = _core(game)
    for number, (side, parts) in enumerate(DEALS, start=1):
        last = number == len(DEALS)
        for phone, counts in zip(tables, parts, strict=True):
            expect(phone.locator("form[data-report-form] input[name=number]")).to_have_value(
                str(number), timeout=8000)
            _report(phone, side, counts)
        # both parts reach the scorekeeper's form; nothing is stored before the Save
        expect(scorer.locator("#reports .report-state").nth(1)).not_to_have_text(
            re.compile(r"^$"), timeout=3000)
        for t, counts in enumerate(parts, start=1):
            if counts is None:
                expect(scorer.locator(f"input[name=t{t}_knocker][value='-draw-']")
                       ).to_be_checked(timeout=4000)
            else:
                expect(scorer.locator(f"input[name=t{t}_c0], input[name=t{t}_c1]").first
                       ).not_to_have_value("", timeout=4000)
        assert len(_core(game)["hands"]) == number - 1
        if number == 2:
            scorer.locator("details.knock-card summary").click()
            tap(scorer, "kc_rank", "9")
            tap(scorer, "kc_suit", "H")
            shot(scorer, f"club-tour-streets-{language}-knock-card")
        _save(scorer, result, last=last)
        result = _core(game)
        deal = result["hands"][-1]
        net = {WE: deal["points"]["WE"], THEY: deal["points"]["THEY"]}
        if side is not None:
            expected = sum((c[1] - c[0]) for c in parts if c)
            assert net[side] == expected, (number, deal)
        if number == 2:
            assert deal["knock_card"] == "9H" and not deal["doubled"]
        if number == 5:  # example 14: street 1 ends 133 v 22; 283 v 22, net 261
            street = result["streets"][0]
            assert street["complete"] and street["totals"]["WE"]["hand_points"] == 133
            assert street["totals"]["WE"]["boxes"] == 3 and street["totals"]["THEY"]["boxes"] == 1
            assert street["totals"]["WE"]["final"] == 283 and street["net"]["WE"] == 261
            expect(scorer.locator(".street[data-street='1'] [data-net]")).to_contain_text("261")
            # the share link's reader follows: its page shows the street settled
            expect(reader.locator(".street[data-street='1'] [data-net]")).to_contain_text(
                "261", timeout=6000)
            shot(reader, f"club-tour-streets-{language}-share")
            shot(tables[0], f"club-tour-streets-{language}-table-phone")
            assert reader.evaluate(FITS) == []
    # example 15: streets 261, 197, 192; G 650 x 2 = 1300; A, B +13.00
    assert result["complete"] and result["sweep"]
    assert [s["net"]["WE"] for s in result["streets"]] == [261, 197, 192]
    assert [s["totals"]["WE"]["final"] for s in result["streets"]] == [283, 250, 263]
    assert result["game_points"] == {"WE": 1300, "THEY": -1300}
    assert result["money"] == {"A": "13.00", "B": "13.00", "X": "-13.00", "Y": "-13.00"}
    scorer.goto(f"{live_server.url}/games/{game.pk}/")
    expect(scorer.locator(".score-tile[data-key='WE'] .score-value")).to_have_text(
        re.compile(r"^\+?1[,.]?300$"))
    shot(scorer, f"club-tour-streets-{language}-end")
    assert scorer.evaluate(FITS) == []
    expect(reader.locator(".streets-g")).to_contain_text(re.compile(r"1[,.]300"),
                                                         timeout=16000)
    shot(reader, f"club-tour-streets-{language}-share-end")
    text = _printed_exported_imported(scorer, live_server, game)
    if language == "en":
        assert "Street total 283 22 WE out in hand 5 net WE +261" in text
        assert "Street total 250 53 WE out in hand 7 net WE +197" in text
        assert "Street total 263 71 WE out in hand 9 net WE +192" in text
        assert "Game points G +1,300 −1,300" in text
        assert "knock card 9♥" in text
        assert "Game points G,WE 1300,THEY -1300" in text
    else:
        assert "Straßensumme 283 22 WE raus bei Deal 5" in text or "283 22" in text
        assert "Partiepunkte G +1.300 −1.300" in text
        assert "Klopfkarte 9♥" in text
    assert "Y pays A $13.00" in text or "Y zahlt A" in text
    # the evening settled: THEY's two pay WE's two $13.00 each
    plan = _settle(scorer, live_server, session, language, "streets")
    assert sorted(units for *_, units in plan) == [1300, 1300]
    assert {payer for payer, *_ in plan} == set(THEY)


# -- a club partnership game: a roodle and a doubled deal ---------------------------------

@pytest.mark.parametrize("language", LANGUAGES)
def test_a_club_partnership_game_with_a_roodle_and_a_doubled_deal(browser, live_server,
                                                                   keeper, language):
    """Example 18's deal (A knocks 4 v 20, B gins v 12: net 53, 1 + 2 roodle... here with
    the club settings gin 2, undercut 1, roodle 1), then a deal under the 7♠ knock card:
    doubled, its extra boxes doubled, and the game is over (151 of 125)."""
    session = _evening(keeper, language, [*WE, *THEY])
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                  locale=language, service_workers="block")
    page = context.new_page()
    login(page, live_server.url, "keeper")

    def fill(page):  # the standard preset with the club's boxes: gin 2, undercut 1, roodle 1
        _sides(page, language, WE, THEY)
        expect(page.locator("input[name=preset][value=standard]")).to_be_checked()
        page.locator("details.more summary").click()
        page.fill("input[name=rule_gin_boxes]", "2")
        page.fill("input[name=rule_undercut_boxes]", "1")
        page.fill("input[name=rule_roodle_boxes]", "1")

    game = _start(page, live_server, session, "partnership", 4, language, "partnership", fill)
    assert game.variant == "partnership" and game.preset == "standard"
    assert (game.rules["gin_boxes"], game.rules["undercut_boxes"],
            game.rules["roodle_boxes"]) == (2, 1, 1)
    assert game.setup["sides"] == {"WE": list(WE), "THEY": list(THEY)}
    result = _core(game)

    def deal(plays: list[tuple[str, int, int]], knock_card: str | None = None,
             last: bool = False) -> dict:
        """Each table: (kind, the WE member's deadwood, the THEY member's)."""
        if knock_card:
            page.locator("details.knock-card summary").click()
            tap(page, "kc_rank", knock_card[:-1])
            tap(page, "kc_suit", knock_card[-1])
        for i, (table, (kind, ours, theirs)) in enumerate(
                zip(result["next"]["tables"], plays, strict=True), start=1):
            a, b = table["players"] if isinstance(table, dict) else table
            we_at = 0 if a in WE else 1
            duel(page, i, (a, b)[we_at], {we_at: str(ours), 1 - we_at: str(theirs)},
                 kind=kind)
        _save(page, result, last=last)
        return _core(game)

    # example 18: A (or B) knocks 4 v 20 (+16), the other gins v 12 (+37): net 53; boxes
    # 1 + 1 roodle per table (2) + 2 for the gin = 5
    result = deal([("knock", 4, 20), ("gin", 0, 12)])
    first = result["hands"][-1]
    assert first["points"]["WE"] == 53 and first["boxes"]["WE"] == 5
    # a doubled deal (7♠): a knock 3 v 18 (+15 x 2) and a gin v 9 (+34 x 2): 98; extra
    # boxes (2 roodle + 2 gin) x 2 + 1 = 9
    result = deal([("knock", 3, 18), ("gin", 0, 9)], knock_card="7S", last=True)
    doubled = result["hands"][-1]
    assert doubled["knock_card"] == "7S" and doubled["doubled"]
    assert doubled["points"]["WE"] == 98 and doubled["boxes"]["WE"] == 9
    shot(page, f"club-tour-partnership-{language}-doubled")
    # WE 53 + 98 = 151: past the target 125, the game is over
    assert result["complete"] and result["winner"] == "WE"
    boxes = result["totals"]["WE"]["boxes"]
    assert result["totals"]["WE"]["box_bonus"] == 25 * boxes
    shot(page, f"club-tour-partnership-{language}-end")
    assert page.evaluate(FITS) == []
    text = _printed_exported_imported(page, live_server, game)
    if language == "en":
        assert "knock card 7♠, doubled · WE 9 boxes" in text
        assert f"Boxes {boxes} × 25 = {25 * boxes}" in text
    else:
        assert "Klopfkarte 7♠, verdoppelt · WE 9 Boxen" in text
    # the evening settled: THEY's two pay WE's two, each the core's money of the game
    money = {name: to_minor(amount, "USD") for name, amount in result["money"].items()}
    assert money["A"] == money["B"] == -money["X"] == -money["Y"] > 0
    plan = _settle(page, live_server, session, language, "partnership")
    assert sorted(units for *_, units in plan) == [money["A"]] * 2
    context.close()


# -- straight gin and a best-of-seven ------------------------------------------------------

@pytest.mark.parametrize("language", LANGUAGES)
def test_straight_gin_and_a_best_of_seven(browser, live_server, keeper, language):
    """Example 19: B deals first; A gins v 22 (47), B gins v 15 (40), a draw, A gins v 31
    (56): A 103 + 100 + 2 x 25 = 253, B 40 + 25 = 65, net 188; dealers B, A, B, B. Then the
    best of seven: A, B, (draw), A, A, B, A: A wins 4-2 on the seventh hand and B pays A the
    lump sum."""
    session = _evening(keeper, language, ["A", "B"])
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                  locale=language, service_workers="block")
    page = context.new_page()
    login(page, live_server.url, "keeper")

    def straight_form(page):  # the straight preset; B deals first
        page.select_option("select[name=p1]", "A")
        page.select_option("select[name=p2]", "B")
        page.select_option("select[name=first_dealer]", "B")
        tap(page, "preset", "straight")

    straight = _start(page, live_server, session, "gin", 2, language, "straight",
                      straight_form)
    assert (straight.preset, straight.setup) == ("straight", {"first_dealer": "B"})
    result = _core(straight)
    for i, (winner, deadwood) in enumerate((("A", 22), ("B", 15), (None, 0), ("A", 31))):
        _two_hand(page, winner, deadwood)
        _save(page, result, last=i == 3)
        result = _core(straight)
    assert result["complete"] and result["winner"] == "A"
    assert result["totals"]["A"]["final"] == 253 and result["totals"]["B"]["final"] == 65
    assert [h["dealer"] for h in result["hands"]] == ["B", "A", "B", "B"]
    assert result["money"] == {"A": "1.88", "B": "-1.88"}
    shot(page, f"club-tour-straight-{language}-end")
    assert page.evaluate(FITS) == []
    text = _printed_exported_imported(page, live_server, straight)
    assert "Final total 253 65" in text or "253 65" in text

    def match_form(page):  # straight, best of 7, $10.00 to the match's winner, no rate
        straight_form(page)
        page.fill("input[name=rate]", "")
        page.fill("input[name=lump_sum_stake]", "10.00")
        page.locator("details.more summary").click()
        page.select_option("select[name=rule_straight_format]", "best_of")
        page.fill("input[name=rule_best_of]", "7")

    match = _start(page, live_server, session, "gin", 2, language, "best-of", match_form)
    assert (match.rules["straight_format"], match.rules["best_of"]) == ("best_of", 7)
    assert str(match.lump_sum_stake) == "10.0000" and match.rate is None
    result = _core(match)
    for i, (winner, deadwood) in enumerate((("A", 10), ("B", 12), (None, 0), ("A", 8),
                                            ("A", 20), ("B", 5), ("A", 9))):
        _two_hand(page, winner, deadwood)
        _save(page, result, last=i == 6)
        result = _core(match)
    assert result["complete"] and result["winner"] == "A"
    assert result["match"]["hands_won"] == {"A": 4, "B": 2}
    assert result["money"] == {"A": "10.00", "B": "-10.00"}
    shot(page, f"club-tour-best-of-{language}-end")
    assert page.evaluate(FITS) == []
    text = _printed_exported_imported(page, live_server, match)
    if language == "en":
        assert "A wins the match 4‑2." in text
        assert "$10.00 to the winner of the match" in text
        assert "Hands won,A 4,B 2" in text
    else:
        assert "A gewinnt das Match 4‑2." in text
    # the evening settled: B pays A the straight game's $1.88 and the match's $10.00
    assert _settle(page, live_server, session, language, "straight") == [("B", "A", 1188)]
    context.close()


def _two_hand(page, winner: str | None, deadwood: int) -> None:
    """A straight-gin hand on the phone's form: ``winner`` goes gin against ``deadwood``,
    or (None) the hand is drawn."""
    if winner is None:
        duel(page, 1, None, {})
        return
    players = [value for value in page.locator("input[name=t1_knocker]").evaluate_all(
        "els => els.map(e => e.value)") if value != "-draw-"]
    ours = players.index(winner)
    duel(page, 1, winner, {ours: "0", 1 - ours: str(deadwood)}, kind="gin")


# -- what the tours' games look like on a wide screen and on the evening's page ------------

@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("width, height", [(360, 740), (1280, 900)])
def test_the_club_games_pages_wide_and_on_the_evening(browser, live_server, keeper, language,
                                                      width, height):
    """The club samples imported into one evening: each game's page, its share page and the
    evening's page (a match's hands won, a streets game's G) fit the screen."""
    from tests.rules.helpers import DATA

    session = _evening(keeper, language)
    games = {}
    for name in ("streets-game", "partnership-club-roodle", "straight-best-of-seven"):
        record = json.loads((DATA / "club" / f"{name}.json").read_text())
        games[name] = services.game_import(session=session, record=record,
                                           imported_by=keeper)
    link = services.share_link_get_or_create(table=session.table, created_by=keeper)
    context = browser.new_context(viewport={"width": width, "height": height},
                                  is_mobile=width < 500, has_touch=width < 500,
                                  locale=language, service_workers="block")
    page = context.new_page()
    login(page, live_server.url, "keeper")
    for name, game in games.items():
        page.goto(f"{live_server.url}/games/{game.pk}/")
        shot(page, f"club-pages-{name}-{language}-{width}")
        assert page.evaluate(FITS) == [], name
    page.goto(f"{live_server.url}/sessions/{session.pk}/")
    # the match's standing is its hands won (it showed the hands' points, 162 v 147)
    expect(page.locator("main")).to_contain_text("A 3 · B 4")
    expect(page.locator("main")).to_contain_text(re.compile(r"WE \+1[,.]100"))
    shot(page, f"club-pages-evening-{language}-{width}")
    assert page.evaluate(FITS) == []
    page.goto(f"{live_server.url}/s/{link.token}/")
    shot(page, f"club-pages-share-{language}-{width}")
    assert page.evaluate(FITS) == []
    # the three games' evening settled on its screen, as the core's fewest payments
    _settle(page, live_server, session, language, f"samples-{width}")
    context.close()


def test_every_preset_fits_its_button_on_a_phone(browser, live_server, keeper):
    """The presets of gin and streets at 360 wide in the five languages: each name within
    its button ("Scarne, Pauschalbetrag" and "Скарни, фиксированная сумма" ran 23 and 25
    pixels past theirs, cut off)."""
    session = _evening(keeper, "en")
    wide = {}
    for language in ("en", "de", "es", "fr", "ru"):
        services.table_set_locale(table=session.table, language=language)
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                      locale=language)
        page = context.new_page()
        login(page, live_server.url, "keeper")
        for variant, count in (("gin", 2), ("streets", 4)):
            page.goto(f"{live_server.url}/sessions/{session.pk}/games/new/{variant}/{count}/")
            expect(page.locator("html")).to_have_attribute("lang", language)
            wide[language, variant] = page.evaluate(SEGMENTS_FIT)
            if language in ("de", "ru") and variant == "gin":
                shot(page.locator(".seg:has(input[name=preset])"),
                     f"club-tour-presets-{language}")
        context.close()
    assert {key: words for key, words in wide.items() if words} == {}
