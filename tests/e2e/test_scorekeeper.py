"""The scorekeeper's evening in real Chromium at phone size: whole games entered hand by hand
through the screens, checking the totals, roles and money the screens show.

Expected numbers are the worked examples of RULES.md (and, for the captain game, the core's
result for the same hands, worked out once and written down here).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from ledger import services
from tests.factories import gin_game

from .helpers import (
    choose_game,
    create_table,
    duel,
    login,
    money,
    next_panel,
    save_hand,
    score,
    seat,
    shot,
    start_evening,
    start_game,
    tap,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_two_hand_gin_game_to_the_settlement(page, live_server, keeper):
    base = live_server.url
    login(page, base, "keeper")
    shot(page, "01-home")
    create_table(page, "Friday", ["Ann", "Bob"])
    shot(page, "02-table")
    start_evening(page, rate="0.01")
    choose_game(page, "Gin", 2)

    # The cut, drawn by the server: both seats and a first dealer get filled.
    page.click("button:has-text('Cut for us')")
    expect(page.locator(".flash")).to_contain_text("The cut:")
    drawn = {page.locator("select[name=p1]").input_value(),
             page.locator("select[name=p2]").input_value()}
    assert drawn == {"Ann", "Bob"}
    assert page.locator("select[name=first_dealer]").input_value() in drawn
    shot(page, "03-game-setup")

    seat(page, {"p1": "Ann", "p2": "Bob", "first_dealer": "Bob"})
    start_game(page)
    assert "Hand 1" in next_panel(page) and "deals Bob" in next_panel(page)
    # Counts get the numeric keypad and a 16px+ font (no zoom on focus).
    count = page.locator("input[name=t1_c0]")
    assert count.get_attribute("inputmode") == "numeric"
    assert float(count.evaluate("e => getComputedStyle(e).fontSize")[:-2]) >= 16
    shot(page, "04-hand-entry")

    duel(page, 1, "Ann", {1: "30"}, kind="gin")
    save_hand(page, 1)
    assert score(page, "Ann") == "55" and score(page, "Bob") == "0"
    assert "deals Ann" in next_panel(page)  # winner deals

    duel(page, 1, "Ann", {0: "2", 1: "60"})
    save_hand(page, 2)
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    # standard: 113 hand points + 2 boxes (50) + game 100, shutout doubles: 526.
    assert score(page, "Ann") == "526" and score(page, "Bob") == "0"
    totals = page.locator("#totals table.totals tbody tr").first.inner_text().split()
    assert totals == ["Ann", "113", "2", "50", "100", "526", "SHUTOUT"]
    assert money(page, "Ann") == "+5.26" and money(page, "Bob") == "-5.26"
    rows = page.locator("#sheet table.sheet tbody tr")
    expect(rows).to_have_count(2)
    # (the text, not innerText: the long sheet is laid out only near the screen, app.css)
    expect(rows.nth(0)).to_contain_text("Ann gin v Bob 30")
    assert page.locator("svg.chart polyline").count() == 2
    shot(page, "05-game-over")

    page.click("a:has-text('The evening')")
    assert money(page, "Ann") == "+5.26"
    page.click("a:has-text('Settle up')")  # asks first, in a dialog
    page.locator("dialog[open] button:has-text('Settle up')").click()
    payment = page.locator("#payments + .payments li").first
    expect(payment).to_contain_text("Bob pays Ann $5.26")
    payment.locator("button:has-text('Mark paid')").click()
    expect(page.locator(".payment.paid")).to_contain_text("Bob pays Ann $5.26")
    shot(page, "06-settled")


def test_box_game_rotation(page, live_server, keeper):
    """RULES §5 example 9: P box, Q captain, R out; the box rotates with each result."""
    base = live_server.url
    login(page, base, "keeper")
    create_table(page, "Three", ["P", "Q", "R"])
    start_evening(page, rate="0.01")
    choose_game(page, "Three-handed (in the box)", 3)
    seat(page, {"p1": "P", "p2": "Q", "p3": "R"})
    start_game(page)

    # (box, opponent, sitter, who knocks, kind, counts by position [box, opponent])
    hands = [
        ("P", "Q", "R", "P", "knock", {0: "3", 1: "18"}),
        ("P", "R", "Q", "R", "gin", {0: "12"}),
        ("R", "Q", "P", "R", "knock", {0: "3", 1: "23"}),
        ("R", "P", "Q", "R", "knock", {0: "9", 1: "5"}),   # P undercuts the box
        ("P", "Q", "R", "P", "knock", {0: "1", 1: "23"}),
        ("P", "R", "Q", "P", "gin", {1: "30"}),
    ]
    for number, (box, opponent, sitter, knocker, kind, counts) in enumerate(hands, start=1):
        panel = next_panel(page)
        assert f"Hand {number}" in panel
        assert f"{box} in the box v {opponent}" in panel, panel
        assert f"Sits out: {sitter}" in panel and f"deals {box}" in panel, panel
        if number == 4:
            shot(page, "07-box-hand")
        duel(page, 1, knocker, counts, kind=kind)
        save_hand(page, number)

    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    assert [score(page, name) for name in "PQR"] == ["106", "0", "57"]
    assert money(page, "P") == "+1.55" and money(page, "R") == "+0.08"
    assert money(page, "Q") == "-1.63"
    assert "P (box) v Q" in page.locator("#hand-1").inner_text()
    shot(page, "08-box-over")

    page.click("a:has-text('The evening')")
    page.click("a:has-text('Settle up')")  # asks first, in a dialog
    page.locator("dialog[open] button:has-text('Settle up')").click()
    payments = page.locator("#payments + .payments").inner_text()
    assert "Q pays P $1.55" in payments and "Q pays R $0.08" in payments


def test_five_player_captain_game_with_a_substitution(page, live_server, keeper):
    base = live_server.url
    login(page, base, "keeper")
    create_table(page, "Five", ["R1", "R2", "B1", "B2", "B3"])
    start_evening(page, rate="0.01")
    choose_game(page, "Captain play", 5)
    seat(page, {"c1": "R1", "c2": "R2", "o1": "B1", "o2": "B2", "sitter": "B3"})
    start_game(page)
    panel = next_panel(page)
    assert "Table 1 R1 captain v B1 deals B1" in panel
    assert "Table 2 R2 captain v B2 deals B2" in panel
    assert "Sits out: B3" in panel
    shot(page, "09-captain-entry")

    # Hand 1: the captains win both tables; B1 lost most (60), so B3 comes in for him.
    duel(page, 1, "R1", {0: "5", 1: "65"})
    duel(page, 2, "R2", {0: "4", 1: "44"})
    save_hand(page, 1)
    panel = next_panel(page)
    assert "Table 1 R1 captain v B3 deals R1" in panel, panel
    assert "Table 2 R2 captain v B2 deals R2" in panel, panel
    assert "Sits out: B1" in panel
    assert "B3 in for B1 at table 1" in page.locator("#hand-1").inner_text()
    assert score(page, "captains") == "100"

    # Hand 2: the opponents win on the net (45 - 7); no substitution.
    duel(page, 1, "R1", {0: "3", 1: "10"})
    duel(page, 2, "B2", {0: "20"}, kind="gin")
    save_hand(page, 2)
    assert score(page, "opponents") == "38"
    assert "Sits out: B1" in next_panel(page)

    # Hand 3: the captains reach 125.
    duel(page, 1, "R1", {1: "20"}, kind="gin")
    duel(page, 2, "R2", {0: "2", 1: "12"})
    save_hand(page, 3)
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    assert score(page, "captains") == "305" and score(page, "opponents") == "63"
    assert [money(page, name) for name in ("R1", "R2", "B1", "B2", "B3")] == [
        "+3.63", "+3.63", "-2.42", "-2.42", "-2.42"]
    shot(page, "10-captain-over")


def test_capit_game(page, live_server, keeper):
    """RULES §5 example 13: ante 5.00, 10% a round; A +10.00, B -4.00, C -3.00, D -3.00."""
    base = live_server.url
    login(page, base, "keeper")
    create_table(page, "Rummy", ["A", "B", "C", "D"])
    start_evening(page, rate="0.01")
    choose_game(page, "CAP-IT", 4)
    seat(page, {"p1": "A", "p2": "B", "p3": "C", "p4": "D", "first_dealer": "D"})
    page.fill("input[name=ante]", "5.00")
    start_game(page)

    rounds = [
        ("two sets of 3", "D", "A", {"B": 20, "C": 50, "D": 10}),
        ("a set of 3 and a run of 4", "A", "C", {"A": 25, "B": 5, "D": 40}),
        ("two runs of 4", "B", None, {"A": 10, "B": 20, "C": 20, "D": 15}),
        ("three sets of 3", "C", None, {"A": 10, "B": 10, "C": 35, "D": 35}),
        ("a run of 3 and a run of 7", "D", "D", {"A": 25, "B": 30, "C": 5}),
    ]
    seats = ["A", "B", "C", "D"]
    for number, (contract, dealer, out, points) in enumerate(rounds, start=1):
        panel = next_panel(page)
        assert f"Round {number} of 5" in panel and contract in panel, panel
        assert f"deals {dealer}" in panel
        tap(page, "went_out", out or "-nobody-")
        for name, value in points.items():
            page.fill(f"input[name=pts_{seats.index(name)}]", str(value))
        if number == 3:
            shot(page, "11-capit-entry")
        save_hand(page, number)

    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    assert [score(page, name) for name in seats] == ["70", "85", "110", "100"]
    assert [money(page, name) for name in seats] == ["+10.00", "-4.00", "-3.00", "-3.00"]
    grid = page.locator("#sheet table.sheet tbody tr")
    expect(grid).to_have_count(5)
    expect(grid.nth(3)).to_contain_text("three sets of 3")
    shot(page, "12-capit-over")


def test_a_rejected_hand_keeps_what_was_typed(page, live_server, keeper):
    table = services.table_create(name="Friday", scorekeepers=[keeper])
    session = services.session_create(table=table, rate="0.01", created_by=keeper)
    game = gin_game(session, keeper)
    base = live_server.url
    login(page, base, "keeper")
    page.goto(f"{base}/games/{game.pk}/")
    duel(page, 1, "Ann", {0: "12", 1: "30"})
    page.click("button:has-text('Save hand 1')")
    error = page.locator("#id_t1_c0_error")
    expect(error).to_have_text("a knock must be 10 or less; Ann counted 12")
    assert page.locator("input[name=t1_c0]").input_value() == "12"
    assert page.locator("input[name=t1_c1]").input_value() == "30"
    assert page.locator("input[name=t1_knocker][value=Ann]").is_checked()
    shot(page, "13-rejected-hand")
    # Fixing the count records the hand, once, even with a double tap.
    page.fill("input[name=t1_c0]", "2")
    page.get_by_role("button", name="Save hand 1").dblclick()
    expect(page.locator(".flash")).to_contain_text(re.compile(r"Hand 1 (recorded|was already)"))
    assert game.hands.count() == 1
    assert score(page, "Ann") == "28"
    # Undo, and the history keeps the voided hand with its reason.
    page.click("a:has-text('Undo hand 1')")  # asks first, in a dialog
    page.locator("dialog[open] button:has-text('Undo hand 1')").click()
    expect(page.locator("#history")).to_contain_text("Hand 1: Ann knocks")
    assert score(page, "Ann") == "0"
