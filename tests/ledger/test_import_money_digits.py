"""Issue 38: a record's money is written with the ASCII digits. ``import_game`` read a
stake of ``"٠.٠٥"`` (Arabic-Indic digits) or ``"０.０５"`` (fullwidth) as 0.05, because
``Decimal()`` reads every Unicode digit, while every form refuses them; it now refuses them
through the same check (``ledger.cleaning.is_plain_decimal``) and stores nothing."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from ledger.models import Game
from ledger.rules.record import parse_money

from .book_scenario import renamed
from .test_imports_refuse import refused, run

pytestmark = pytest.mark.django_db


def record(**stakes) -> str:
    game = renamed("gin-standard-game", {"A": "Ann", "B": "Bob"})
    game["stakes"] = {"currency": "USD", "per_points": 1, **stakes}
    return json.dumps(game, ensure_ascii=False)


@pytest.mark.parametrize(("stakes", "field"), [
    ({"rate": "\u0660.\u0660\u0665"}, "stakes.rate"),            # ٠.٠٥
    ({"rate": "\uff10.\uff10\uff15"}, "stakes.rate"),            # ０.０５
    ({"rate": "0.05", "players": {"Ann": "\u0662"}}, "stakes.players.Ann"),  # ٢
    ({"rate": "0.05", "ante": "\u06f1"}, "stakes.ante"),         # ۱ (Persian)
    ({"rate": "1_0"}, "stakes.rate"),
    ({"rate": "1e-2"}, "stakes.rate"),
])
def test_import_game_refuses_money_not_in_ascii_digits(tmp_path, stakes, field):
    message = refused("import_game", tmp_path, record(**stakes))
    assert field in message
    assert ('write money with the digits 0-9 and a point, such as "0.05"' in message
            or 'is not a decimal amount like "0.01"' in message), message


@pytest.mark.parametrize("text", ["\u0660.\u0660\u0665", "\uff10.\uff10\uff15", "\u0662", "1_0"])
def test_the_core_reads_record_money_in_ascii_digits_only(text):
    """The scoring core's own reader (manage.py score reads records through it alone)."""
    problems = []
    assert parse_money(text, "stakes.rate", problems) is None
    assert "is not a decimal amount" in problems[0].text
    assert parse_money("0.05", "stakes.rate", []) == Decimal("0.05")


def test_import_game_reads_ascii_money(tmp_path):
    pk = int(run("import_game", tmp_path, record(rate="0.05", ante=" 0.10 ",
                                                 players={"Ann": "2"})))
    game = Game.objects.get(pk=pk)
    assert str(game.rate) == "0.0500" and str(game.ante) == "0.1000"
