"""Issue 37.3 in a browser: the scorekeeper's form fed by a CAP-IT game's players' reports.
Round 1: every player says he did not go out: "Who went out?" is filled with "Nobody: stock
out" and the Save takes the round. Round 2: two players say they went out: the conflict is
shown at "Who went out?" with both names, nothing is chosen for the scorekeeper and no
report reads "changed by the scorekeeper"; when one takes it back, the other is chosen. The
player's phone says "round" as the page does."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ledger import services
from ledger.selectors.games import game_result

from .helpers import login, shot, tap

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
PLAYERS = ["Ann", "Борис", "Cy", "Di"]


def _say(link, player, number, went_out=False, points=None):
    services.report_submit(link=link, number=number, player=player,
                           values={"went_out": player if went_out else None,
                                   "points": {player: 0 if went_out else points}})


def _send(phone, went_out: bool, points: str = ""):
    tap(phone, "went_out", "yes" if went_out else "no")
    if not went_out:
        phone.fill("input[name=points]", points)
    phone.locator("[data-report-form] button[type=submit]").click()


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_players_reports_say_who_went_out_or_that_they_disagree(browser, live_server,
                                                                    keeper, language):
    table = services.table_create(name="Club", scorekeepers=[keeper], language=language)
    session = services.session_create(table=table, currency="USD", rate="0.01",
                                      created_by=keeper)
    game = services.game_start(session=session, variant="cap-it", players=PLAYERS,
                               setup={"first_dealer": "Ann"}, started_by=keeper,
                               preset="standard", ante="1.00")
    link = services.report_links_get_or_create(game=game, created_by=keeper)[0]
    services.account_set_language(user=keeper, language=language)  # his screens, as the table
    words = {"en": {"stock": "Every player says he did not go out: the stock ran out.",
                    "conflict": "Ann and Борис each say they went out",
                    "sent": "Sent: Борис's part of round", "round": "Players: Round",
                    "keeper": "changed by the scorekeeper"},
             "de": {"stock": "Jeder Spieler sagt, er sei nicht ausgegangen",
                    "conflict": "Ann und Борис sagen jeder, sie seien ausgegangen",
                    "sent": "Gesendet: Teil von Борис für Runde", "round": "Spieler: Runde",
                    "keeper": "vom Schreiber"},
             }[language]
    contexts = []
    try:
        keeper_ctx = browser.new_context(viewport=PHONE, service_workers="block")
        contexts.append(keeper_ctx)
        scorer = keeper_ctx.new_page()
        login(scorer, live_server.url, "keeper")
        scorer.goto(f"{live_server.url}/games/{game.pk}/")
        phone_ctx = browser.new_context(viewport=PHONE, service_workers="block")
        contexts.append(phone_ctx)
        phone = phone_ctx.new_page()
        phone.goto(f"{live_server.url}/r/{link.token}/")
        expect(phone.locator("#report h2")).to_have_text(f"{words['round']} 1")
        tap(phone, "player", "Борис")

        # round 1: every player says no (Борис from his phone): the stock ran out
        for player, points in (("Ann", 5), ("Cy", 10), ("Di", 40)):
            _say(link, player, 1, points=points)
        _send(phone, False, "25")
        expect(phone.locator(".flash")).to_contain_text(f"{words['sent']} 1")
        nobody = scorer.locator("input[name=went_out][value='-nobody-']")
        expect(nobody).to_be_checked(timeout=4000)
        note = scorer.locator("#report-went-out")
        expect(note).to_contain_text(words["stock"])
        expect(scorer.locator("input[name=pts_1]")).to_have_value("25")
        shot(scorer, f"capit-stock-{language}")
        scorer.locator("#entry button.btn-big[type=submit]").click()
        expect(scorer.locator(".flash").first).to_contain_text(
            {"en": "Round 1 recorded", "de": "Runde 1"}[language])
        first = game_result(game)["hands"][0]
        assert first["went_out"] is None
        assert first["points"] == {"Ann": 5, "Борис": 25, "Cy": 10, "Di": 40}

        # round 2: Ann and Борис both say they went out
        expect(phone.locator("#report h2")).to_have_text(f"{words['round']} 2", timeout=8000)
        _say(link, "Ann", 2, went_out=True)
        _say(link, "Cy", 2, points=15)
        _send(phone, True)
        expect(note).to_contain_text(words["conflict"], timeout=4000)
        expect(note).to_have_attribute("role", "alert")
        expect(scorer.locator("input[name=went_out]:checked")).to_have_count(0)
        states = scorer.locator("#reports .report-state")
        expect(states.nth(0)).to_contain_text("Борис")
        expect(states.nth(1)).to_contain_text("Ann")
        expect(scorer.locator("#reports")).not_to_contain_text(words["keeper"])
        expect(scorer.locator("input[name=pts_0]")).to_have_value("")
        expect(scorer.locator("input[name=pts_1]")).to_have_value("")
        shot(scorer, f"capit-conflict-{language}")
        # Борис takes it back: Ann went out
        _send(phone, False, "30")
        expect(scorer.locator("input[name=went_out][value='Ann']")).to_be_checked(timeout=4000)
        expect(note).to_have_count(0)
        expect(scorer.locator("input[name=pts_1]")).to_have_value("30")
        expect(scorer.locator("#reports")).not_to_contain_text(words["keeper"])
        shot(phone, f"capit-phone-round-2-{language}")
    finally:
        for context in contexts:
            context.close()
