"""Issue 41: the phone writes money as the server does. static/ledger/queue/scoring.js
``moneyText`` applies the locale's pattern parts the page hands over
(ledger/presentation/phone.py ``money_format``); here Node runs it over amounts of every
shape, in the five languages and several currencies, and each must be exactly what
``format_money`` writes (the ``signed`` filter of a game's money lines, the ``money``
filter of its payments). Skipped only where Node is missing and CI is not set."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from django.utils import translation

from ledger.presentation.money import format_money
from ledger.presentation.phone import money_format

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ["en", "de", "es", "fr", "ru"]
CURRENCIES = ["USD", "EUR", "RUB", "JPY", "KWD", "CHF", ""]
AMOUNTS = ["0", "0.00", "2.02", "-2.02", "+2.02", "0.5", "-0.01", "12", "-12", "1234.5",
           "-1234.50", "12345.678", "-1234567.89", "1000000", "999.999", "-0", "7.1"]

SCRIPT = """
import { moneyText } from "./static/ledger/queue/scoring.js";
const cases = JSON.parse(process.argv[1]);
process.stdout.write(JSON.stringify(cases.map(([amount, fmt, options]) =>
  moneyText(amount, fmt, options))));
"""


def node_or_skip() -> str:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("node is not installed")
        pytest.skip("node is not installed")
    return node


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_phone_writes_money_as_the_server_does(language):
    node = node_or_skip()
    cases, expected = [], []
    with translation.override(language):
        for currency in CURRENCIES:
            fmt = money_format(currency)
            assert fmt is not None
            for amount in AMOUNTS:
                # a game's money line: signed, no symbol
                cases.append([amount, fmt, {"sign": True}])
                expected.append(format_money(amount, "", sign=True))
                # a payment: the currency's symbol and decimals (no currency: plain)
                cases.append([amount, fmt, {"currency": bool(currency)}])
                expected.append(format_money(amount, currency, show_currency=bool(currency)))
    out = subprocess.run([node, "--input-type=module", "-e", SCRIPT, json.dumps(cases)],
                         cwd=ROOT, capture_output=True, text=True, timeout=60, check=True)
    shown = json.loads(out.stdout)
    assert len(shown) == len(expected)
    wrong = [(case[0], case[2], got, want)
             for case, got, want in zip(cases, shown, expected, strict=True) if got != want]
    assert not wrong, wrong[:10]
    assert len(shown) == len(CURRENCIES) * len(AMOUNTS) * 2
