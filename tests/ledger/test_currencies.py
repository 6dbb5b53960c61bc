"""Every currency the app accepts has its minor unit in the scoring core (one list: ISO
4217's, ``ledger.rules.money.MINOR_UNIT_EXPONENT``), and money in a currency without cents,
or with three decimals, is rounded to its own unit on the screens and in the CSV."""

from __future__ import annotations

import csv
import io
import itertools
import re
import string
import uuid

import pytest
from django.urls import reverse

from ledger import cleaning, services
from ledger.models import MoneyPosting
from ledger.rules.money import CURRENCIES, MINOR_UNIT_EXPONENT, minor_exponent
from tests.factories import gin_game

pytestmark = pytest.mark.django_db


def accepted_codes() -> set[str]:
    """Every three-letter code ``cleaning.clean_currency`` lets through."""
    accepted = set()
    for letters in itertools.product(string.ascii_uppercase, repeat=3):
        code = "".join(letters)
        try:
            accepted.add(cleaning.clean_currency(code))
        except cleaning.Refused:
            pass
    return accepted


def test_every_code_cleaning_accepts_has_an_exponent_in_the_core():
    accepted = accepted_codes()
    assert accepted == CURRENCIES == set(MINOR_UNIT_EXPONENT)
    assert len(accepted) == 160
    assert {"USD", "EUR", "GBP", "JPY", "KWD", "UGX", "XOF"} <= accepted
    assert not {"XXX", "XTS", "XAU", "XDR", "CLF", "UYW", "NAN"} & accepted


def test_the_exponents_are_iso_4217s():
    assert sorted(code for code, e in MINOR_UNIT_EXPONENT.items() if e == 0) == [
        "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "VND",
        "VUV", "XAF", "XOF", "XPF"]
    assert sorted(code for code, e in MINOR_UNIT_EXPONENT.items() if e == 3) == [
        "BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"]
    assert set(MINOR_UNIT_EXPONENT.values()) == {0, 2, 3}
    assert minor_exponent("EUR") == 2 and minor_exponent("UGX") == 0
    assert minor_exponent("LYD") == 3


# Ann knocks with 5 against Bob's 20: 15 points, then the game is abandoned and the evening
# settled. 15 x 0.35 = 5.25 -> 5 without decimals; 15 x 0.0125 = 0.1875 -> 0.188 with three
# (and 0.19 with cents). UGX and LYD were rounded to cents before the core knew them.
@pytest.mark.parametrize(("currency", "rate", "won", "lost", "said"), [
    ("JPY", "0.35", "5", "-5", "¥5"), ("UGX", "0.35", "5", "-5", "UGX 5"),
    ("XOF", "0.35", "5", "-5", "F CFA 5"),
    ("KWD", "0.0125", "0.188", "-0.188", "KWD 0.188"),
    ("LYD", "0.0125", "0.188", "-0.188", "LYD 0.188"),
    ("USD", "0.0125", "0.19", "-0.19", "$0.19"),
])
def test_a_settlement_rounds_to_the_currencys_minor_unit_on_screen_and_in_csv(
        logged_in, table, keeper, currency, rate, won, lost, said):
    session = services.session_create(table=table, currency=currency, rate=rate,
                                      created_by=keeper)
    game = gin_game(session, keeper)
    services.hand_record(game=game, entry={"knocker": "Ann",
                                           "deadwood": {"Ann": 5, "Bob": 20}},
                         recorded_by=keeper, idempotency_key=uuid.uuid4())
    services.game_abandon(game=game, abandoned_by=keeper, reason="closing time")
    settlement = services.session_settle(session=session, settled_by=keeper)

    units = 10 ** MINOR_UNIT_EXPONENT[currency]
    ann = MoneyPosting.objects.get(game=game, player__name="Ann").amount_minor
    assert ann == round(float(won) * units)  # stored in the currency's own minor unit
    payment = settlement.payments.get()
    assert (payment.payer.name, payment.payee.name, payment.amount_minor) == ("Bob", "Ann", ann)

    page = logged_in.get(reverse("ledger:session_detail",
                                 args=[session.pk])).content.decode()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
    # (the symbol as English writes it, with CLDR's no-break spaces, read here as spaces)
    assert re.search(rf"Bob pays Ann {re.escape(said)}\b(?!\.\d)", text), text[:3000]

    game_page = logged_in.get(reverse("ledger:game_detail", args=[game.pk])).content.decode()
    cells = dict(re.findall(r'data-player="(Ann|Bob)">\s*([^<\s]*)\s*<', game_page))
    assert cells == {"Ann": f"+{won}", "Bob": f"\u2212{won}"}, cells  # a true minus sign

    response = logged_in.get(reverse("ledger:game_export", args=[game.pk]))
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    money = {row[1]: tuple(row[2:4]) for row in rows if row and row[0] == "Money"}
    assert money == {"Ann": (won, currency), "Bob": (lost, currency)}, rows
