"""The "Stakes and rules" screen: correcting a stake or a rule of a game (RULES §4), the
confirmation when a finished game's money would change, refusals at the field, access, the
settled session, and the change history on the game page. Numbers are read from the pages.

Money examples: RULES §5 example 5 under standard (case gin-standard-game) is A 318 to
B 116, worth 2.02 at 0.01 a point and 4.04 at 0.02.
"""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from ledger import services
from ledger.forms import VARIANT_SETTINGS, GameSettingsForm
from ledger.models import GameChange, GameStatus
from ledger.presentation.money import amount_text
from ledger.selectors.games import game_posted_money
from tests.pages import field_error, money_cell, tile
from tests.pages import text as page_text

from .conftest import key, start_empty

pytestmark = pytest.mark.django_db


def text(response) -> str:
    """The page's visible text, entities decoded."""
    return html.unescape(page_text(response))


def settings_url(game) -> str:
    return reverse("ledger:game_settings", args=[game.pk])


def game_url(game) -> str:
    return reverse("ledger:game_detail", args=[game.pk])


def current(game) -> dict:
    """The form's values as the page fills them in (what a scorekeeper would send back)."""
    game.refresh_from_db()
    seats = list(game.seats.select_related("player").order_by("seat"))
    form = GameSettingsForm(game=game, seats=seats)
    data = {name: "" if value is None else str(value) for name, value in form.initial.items()}
    data["reason"] = "wrote it down wrongly"
    return data


def input_value(response, name: str) -> str:
    page = response.content.decode()
    match = re.search(rf'<input[^>]*name="{re.escape(name)}"[^>]*>', page)
    assert match, f"no input {name}"
    value = re.search(r'value="([^"]*)"', match.group(0))
    return html.unescape(value.group(1)) if value else ""


def selected(response, name: str) -> str:
    page = response.content.decode()
    match = re.search(rf'<select name="{re.escape(name)}"[^>]*>(.*?)</select>', page, re.S)
    assert match, f"no select {name}"
    option = re.search(r'<option value="([^"]*)"[^>]*selected', match.group(1))
    return option.group(1) if option else ""


def confirm_change(response, player: str) -> str:
    match = re.search(rf'data-player="{re.escape(player)}">(.*?)</span>\s*</span>|'
                      rf'data-player="{re.escape(player)}">(.*?</span>.*?</span>)',
                      response.content.decode(), re.S)
    assert match, f"no money change for {player}"
    inner = match.group(1) or match.group(2)
    return " ".join(re.sub(r"<[^>]+>", " ", html.unescape(inner)).split())


def flash(response) -> str:
    match = re.search(r'<ul class="flash"[^>]*>(.*?)</ul>', response.content.decode(), re.S)
    assert match, "no message"
    return " ".join(re.sub(r"<[^>]+>", " ", html.unescape(match.group(1))).split())


def play(game, keeper, hands):
    for entry in hands:
        services.hand_record(game=game, entry=entry, recorded_by=keeper, idempotency_key=key())


# -- the page ----------------------------------------------------------------------------------

def test_page_shows_stake_own_stakes_and_every_rule_with_its_value(logged_in, session, keeper,
                                                                    case):
    record = case("gin-standard-game")
    record["stakes"]["players"] = {"B": "0.02"}
    game = start_empty(session, keeper, record)
    detail = logged_in.get(game_url(game))
    assert f'href="{settings_url(game)}"' in detail.content.decode()

    page = logged_in.get(settings_url(game))
    assert page.status_code == 200
    shown = text(page)
    assert "Now: $0.01 per point; own stakes: B 0.02" in shown
    assert input_value(page, "rate") == "0.01"
    assert input_value(page, "per_points") == "1"
    assert input_value(page, "stake_0") == ""  # A plays at the game's stake
    assert input_value(page, "stake_1") == "0.02"
    assert "A's own stake" in shown and "B's own stake" in shown
    assert input_value(page, "rule_gin_bonus") == "25"
    assert input_value(page, "rule_target") == "100"
    assert input_value(page, "rule_knock_limit") == "10"
    assert selected(page, "rule_shutout_mode") == "double_total"
    assert selected(page, "rule_undercut_on_tie") == "yes"
    for setting in VARIANT_SETTINGS["gin"]:
        assert f'name="rule_{setting}"' in page.content.decode(), setting
    assert 'name="reason"' in page.content.decode()


@pytest.mark.parametrize("name", ["box-rotation", "cap-it-pot", "captain-five-money",
                                  "hollywood-columns", "oklahoma-spades"])
def test_page_draws_for_every_variant(logged_in, session, keeper, case, name):
    game = services.game_import(session=session, record=case(name), imported_by=keeper)
    page = logged_in.get(settings_url(game))
    assert page.status_code == 200
    body = page.content.decode()
    for setting in VARIANT_SETTINGS[game.variant]:
        assert f'name="rule_{setting}"' in body, setting
    if game.variant == "cap-it":
        assert input_value(page, "ante") == amount_text(game.ante, game.currency)
        assert 'name="rate"' not in body
    else:
        assert 'name="rate"' in body


# -- stakes ------------------------------------------------------------------------------------

def test_stake_change_mid_game_is_used_for_the_money_later(logged_in, session, keeper, case):
    record = case("gin-standard-game")
    game = start_empty(session, keeper, record)
    play(game, keeper, record["hands"][:4])
    data = current(game) | {"rate": "0.02", "reason": "we said two cents"}
    response = logged_in.post(settings_url(game), data)
    assert response.status_code == 302, text(response)[-600:]
    assert response.url == game_url(game)
    page = logged_in.get(response.url)
    assert "Changed: Stake 0.01 → 0.02." in flash(page)
    game.refresh_from_db()
    assert str(game.rate) == "0.0200"

    play(game, keeper, record["hands"][4:])
    page = logged_in.get(game_url(game))
    assert tile(page, "A") == "318" and tile(page, "B") == "116"
    assert money_cell(page, "A") == "+4.04" and money_cell(page, "B") == "\u22124.04"
    shown = text(page)
    assert "B pays A $4.04" in shown
    assert "Stake and rule changes" in shown
    assert "Stake 0.01 → 0.02 “we said two cents” by keeper" in shown
    assert "after hand 4" in shown


def test_finished_game_stake_change_asks_then_confirm_posts_the_new_money(logged_in, session,
                                                                          keeper, case):
    game = services.game_import(session=session, record=case("gin-standard-game"),
                                imported_by=keeper)
    assert game.status == GameStatus.COMPLETE
    assert money_cell(logged_in.get(game_url(game)), "A") == "+2.02"
    data = current(game) | {"rate": "0.02", "reason": "we said two cents"}

    asked = logged_in.post(settings_url(game), data)
    assert asked.status_code == 200
    shown = text(asked).replace(" ,", ",").replace(" .", ".")  # tags next to punctuation
    assert "This changes the money of a finished game: A +2.02 → +4.04, B −2.02 → −4.04. " \
           "Confirm?" in shown
    assert confirm_change(asked, "A") == "A +2.02 → +4.04"
    assert confirm_change(asked, "B") == "B −2.02 → −4.04"
    assert input_value(asked, "rate") == "0.02"  # what was typed is kept
    assert input_value(asked, "reason") == "we said two cents"
    assert input_value(asked, "confirm") == "1"
    assert "Confirm new money" in shown
    # Nothing is written until it is confirmed.
    assert game_posted_money(game) == {"A": 202, "B": -202}
    assert not GameChange.objects.exists()

    confirmed = data | {"confirm": "1", "confirm_money": input_value(asked, "confirm_money")}
    response = logged_in.post(settings_url(game), confirmed)
    assert response.status_code == 302, text(response)[-600:]
    page = logged_in.get(response.url)
    assert flash(page) == "Changed: Stake 0.01 → 0.02. Money now: A +4.04, B −4.04."
    assert money_cell(page, "A") == "+4.04" and money_cell(page, "B") == "\u22124.04"
    assert "B pays A $4.04" in text(page)
    assert game_posted_money(game) == {"A": 404, "B": -404}
    assert "Stake 0.01 → 0.02 “we said two cents” by keeper" in text(page)
    assert "money changed" in text(page)
    change = GameChange.objects.get()
    assert (change.name, change.old, change.new, change.changed_by) == (
        "rate", "0.01", "0.02", keeper)


def test_confirmation_of_other_money_asks_again_and_writes_nothing(logged_in, session, keeper,
                                                                  case):
    game = services.game_import(session=session, record=case("gin-standard-game"),
                                imported_by=keeper)
    data = current(game) | {"rate": "0.02"}
    asked = logged_in.post(settings_url(game), data)
    token = input_value(asked, "confirm_money")
    # The scorekeeper typed 0.03 before confirming what 0.02 would do.
    again = logged_in.post(settings_url(game), data | {"rate": "0.03", "confirm": "1",
                                                       "confirm_money": token})
    assert again.status_code == 200
    assert confirm_change(again, "A") == "A +2.02 → +6.06"
    assert "differs from what you confirmed" in text(again)
    assert game_posted_money(game) == {"A": 202, "B": -202}
    assert not GameChange.objects.exists()


def test_finished_game_own_stake_and_rule_together_are_confirmed_as_one(logged_in, session,
                                                                       keeper, case):
    game = services.game_import(session=session, record=case("gin-standard-game"),
                                imported_by=keeper)
    # Stake 0.02 and game bonus 0: A 218 to B 116 is 102 points, 2.04 at 0.02.
    data = current(game) | {"rate": "0.02", "rule_game_bonus": "0"}
    asked = logged_in.post(settings_url(game), data)
    assert confirm_change(asked, "A") == "A +2.02 → +2.04"
    response = logged_in.post(settings_url(game), data | {
        "confirm": "1", "confirm_money": input_value(asked, "confirm_money")})
    assert response.status_code == 302, text(response)[-600:]
    page = logged_in.get(response.url)
    assert flash(page) == ("Changed: Stake 0.01 → 0.02; Game bonus 100 → 0. "
                           "Money now: A +2.04, B −2.04.")
    assert tile(page, "A") == "218" and money_cell(page, "A") == "+2.04"
    assert GameChange.objects.count() == 2


# -- rules -------------------------------------------------------------------------------------

def test_rule_change_mid_game_changes_the_totals_shown_by_the_exact_amount(logged_in, session,
                                                                         keeper, case):
    record = case("gin-standard-game")
    game = start_empty(session, keeper, record)
    play(game, keeper, record["hands"][:4])  # hand 2 is B's gin, hand 4 A's
    before = logged_in.get(game_url(game))
    a, b = int(tile(before, "A")), int(tile(before, "B"))
    assert (a, b) == (68, 66)

    data = current(game) | {"rule_gin_bonus": "20", "reason": "classic gin bonus"}
    response = logged_in.post(settings_url(game), data)
    assert response.status_code == 302, text(response)[-600:]
    page = logged_in.get(response.url)
    assert "Changed: Gin bonus 25 → 20." in flash(page)
    assert tile(page, "A") == str(a - 5) and tile(page, "B") == str(b - 5)
    assert "Gin bonus 25 → 20 “classic gin bonus” by keeper" in text(page)
    game.refresh_from_db()
    assert game.rules["gin_bonus"] == 20


def test_flag_setting_changes_and_reads_as_yes_no(logged_in, session, keeper, case):
    record = case("gin-standard-game")
    game = start_empty(session, keeper, record)
    response = logged_in.post(settings_url(game),
                              current(game) | {"rule_undercut_on_tie": "no"})
    assert response.status_code == 302, text(response)[-600:]
    game.refresh_from_db()
    assert game.rules["undercut_on_tie"] is False
    assert "A tie is an undercut yes → no" in text(logged_in.get(game_url(game)))


# -- refusals ----------------------------------------------------------------------------------

def test_core_refusal_comes_back_at_the_field_with_values_kept(logged_in, session, keeper, case):
    game = services.game_import(session=session, record=case("gin-standard-game"),
                                imported_by=keeper)
    data = current(game) | {"rule_target": "0", "rate": "0.02", "reason": "typo"}
    response = logged_in.post(settings_url(game), data)
    assert response.status_code == 422
    assert field_error(response, "rule_target") == "0 is out of range (1 to 100000)"
    assert input_value(response, "rule_target") == "0"
    assert input_value(response, "rate") == "0.02"
    assert input_value(response, "reason") == "typo"
    assert "was 100" in text(response)
    assert not GameChange.objects.exists()  # neither the stake nor the rule
    game.refresh_from_db()
    assert str(game.rate) == "0.0100" and game.rules["target"] == 100


def test_rule_the_recorded_hands_break_is_refused_at_that_rule(logged_in, session, keeper, case):
    record = case("gin-standard-game")
    game = start_empty(session, keeper, record)
    play(game, keeper, record["hands"][:3])  # A knocked with 5 and with 8
    response = logged_in.post(settings_url(game), current(game) | {"rule_knock_limit": "6"})
    assert response.status_code == 422
    error = field_error(response, "rule_knock_limit")
    assert "hand 3" in error and "8" in error, error
    assert input_value(response, "rule_knock_limit") == "6"
    game.refresh_from_db()
    assert game.rules["knock_limit"] == 10


def test_form_refusals_keep_input(logged_in, session, keeper, case):
    game = start_empty(session, keeper, case("gin-standard-game"))
    response = logged_in.post(settings_url(game), current(game) | {
        "rate": "two cents", "stake_1": "-1", "reason": ""})
    assert response.status_code == 422
    assert field_error(response, "rate") == \
        "Stake: write an amount with the digits 0-9, like 0.05."
    # issue 21: the app's own words, naming the field (was Django's "Ensure this value is
    # greater than or equal to 0.0001." and "This field is required.")
    assert field_error(response, "stake_1") == ("B's own stake: an amount above 0, like 0.05; "
                                                "leave it empty to play for no money.")
    assert field_error(response, "reason") == ("Why? Say why the rules or stakes change, in a "
                                               "few words: it is kept in the game's history.")
    assert input_value(response, "rate") == "two cents"
    assert input_value(response, "stake_1") == "-1"

    unchanged = logged_in.post(settings_url(game), current(game))
    assert unchanged.status_code == 422
    assert "Nothing to change: every value is as it was." in text(unchanged)
    assert not GameChange.objects.exists()


def test_removing_the_rate_while_one_player_has_his_own_is_refused_at_the_rate(logged_in,
                                                                             session, keeper,
                                                                             case):
    game = start_empty(session, keeper, case("gin-standard-game"))
    response = logged_in.post(settings_url(game),
                              current(game) | {"rate": "", "stake_1": "0.02"})
    assert response.status_code == 422
    assert "missing" in field_error(response, "rate")
    assert input_value(response, "stake_1") == "0.02"


# -- access and the settled session ------------------------------------------------------------

def test_stranger_gets_404_on_get_and_post(client, other_keeper, session, keeper, case):
    game = services.game_import(session=session, record=case("gin-standard-game"),
                                imported_by=keeper)
    data = current(game) | {"rate": "0.02", "confirm": "1"}
    client.force_login(other_keeper)
    assert client.get(settings_url(game)).status_code == 404
    assert client.post(settings_url(game), data).status_code == 404
    assert game_posted_money(game) == {"A": 202, "B": -202}
    assert not GameChange.objects.exists()
    client.logout()
    assert client.get(settings_url(game)).status_code == 302  # to the login page


def test_settled_session_refuses(logged_in, session, keeper, case):
    """Before any form: the game page, with the evening's words; nothing changed."""
    game = services.game_import(session=session, record=case("gin-standard-game"),
                                imported_by=keeper)
    services.session_settle(session=session, settled_by=keeper)
    page = logged_in.get(settings_url(game), follow=True)
    assert page.redirect_chain[-1][0] == reverse("ledger:game_detail", args=[game.pk])
    assert ("is settled; its games can no longer change. A mistake found now? Reopen the "
            "evening first.") in text(page)
    data = current(game) | {"rate": "0.02", "confirm": "1"}
    response = logged_in.post(settings_url(game), data)
    assert response.status_code == 302
    assert game_posted_money(game) == {"A": 202, "B": -202}
    assert not GameChange.objects.exists()


# -- CAP-IT ------------------------------------------------------------------------------------

def test_cap_it_ante_change_asks_with_the_new_money(logged_in, session, keeper, case):
    game = services.game_import(session=session, record=case("cap-it-pot"), imported_by=keeper)
    before = game_posted_money(game)
    ante = amount_text(game.ante, game.currency)
    data = current(game) | {"ante": ante}
    assert logged_in.post(settings_url(game), data).status_code == 422  # nothing changed
    doubled = str(game.ante * 2)
    asked = logged_in.post(settings_url(game), data | {"ante": doubled})
    assert asked.status_code == 200, text(asked)[-600:]
    assert "This changes the money of a finished game:" in text(asked)
    response = logged_in.post(settings_url(game), data | {
        "ante": doubled, "confirm": "1", "confirm_money": input_value(asked, "confirm_money")})
    assert response.status_code == 302, text(response)[-600:]
    after = game_posted_money(game)
    assert after != before and sum(after.values()) == 0
