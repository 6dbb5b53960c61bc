"""Session settlement: nets over every game and the fewest payments."""

from __future__ import annotations

import pytest

from ledger import services
from ledger.exceptions import LedgerError
from ledger.models import SettlementPayment
from ledger.selectors.evenings import session_nets
from ledger.selectors.exports import session_export
from tests.factories import gin_game
from tests.refusing import refuses

pytestmark = pytest.mark.django_db


def beat(session, keeper, winner, loser, points):
    """An abandoned one-hand gin game at 0.10 a point: ``winner`` collects points x 0.10."""
    services.game_import(session=session, imported_by=keeper, record={
        "format": "tablestakes.game/1", "variant": "gin",
        "players": [winner, loser],
        "stakes": {"rate": "0.10", "per_points": 1, "currency": "USD"},
        "setup": {"first_dealer": loser}, "abandoned": True,
        "hands": [{"knocker": winner, "deadwood": {winner: 2, loser: 2 + points}}],
    })


def greedy_payment_count(nets: dict[str, int]) -> int:
    """Largest debtor pays largest creditor, the plan people work out at the table."""
    debts = {n: -v for n, v in nets.items() if v < 0}
    credits = {n: v for n, v in nets.items() if v > 0}
    count = 0
    while debts:
        payer = max(debts, key=debts.get)
        payee = max(credits, key=credits.get)
        amount = min(debts[payer], credits[payee])
        debts[payer] -= amount
        credits[payee] -= amount
        debts = {n: v for n, v in debts.items() if v}
        credits = {n: v for n, v in credits.items() if v}
        count += 1
    return count


def test_six_players_settle_with_the_optimum_not_the_greedy_plan(session, keeper):
    beat(session, keeper, "Ann", "Cid", 60)
    beat(session, keeper, "Ann", "Dot", 40)
    beat(session, keeper, "Bea", "Eli", 30)
    beat(session, keeper, "Bea", "Fay", 20)
    nets = session_nets(session)
    assert nets == {"Ann": 1000, "Cid": -600, "Dot": -400, "Bea": 500, "Eli": -300,
                    "Fay": -200}
    assert greedy_payment_count(nets) == 5

    settlement = services.session_settle(session=session, settled_by=keeper)
    payments = [(p.payer.name, p.payee.name, p.amount_minor)
                for p in settlement.payments.select_related("payer", "payee")]
    assert len(payments) == 4
    assert sorted(payments) == [("Cid", "Ann", 600), ("Dot", "Ann", 400),
                                ("Eli", "Bea", 300), ("Fay", "Bea", 200)]


def test_settlement_refused_while_a_game_is_in_progress(session, keeper):
    gin_game(session, keeper)
    with refuses(LedgerError, match="Finish or abandon game 1"):
        services.session_settle(session=session, settled_by=keeper)


def test_payments_can_be_marked_paid_without_changing_numbers(session, keeper):
    beat(session, keeper, "Ann", "Bob", 15)
    settlement = services.session_settle(session=session, settled_by=keeper)
    payment = settlement.payments.get()
    paid = services.settlement_payment_mark_paid(payment=payment, paid_by=keeper)
    assert paid.is_paid and paid.paid_by == keeper and paid.amount_minor == 150
    unpaid = services.settlement_payment_mark_paid(payment=payment, paid_by=keeper, paid=False)
    assert not unpaid.is_paid
    assert SettlementPayment.objects.get().amount_minor == 150
    exported = session_export(session)["settlement"]
    assert exported == {"nets": {"Ann": "1.50", "Bob": "-1.50"},
                        "payments": [{"from": "Bob", "to": "Ann", "amount": "1.50",
                                      "paid": False}]}
