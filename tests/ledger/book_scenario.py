"""A table with four evenings for the book tests (numbers worked out in test_book.py).

E1 (settled, paid):   gin-standard, Ann v Bob          Ann +2.02  Bob -2.02
E2 (settled, unpaid): box-rotation, Ann/Bob/Cy (P/Q/R) Ann +1.55  Bob -1.63  Cy +0.08
E3 (settled, reopened, one more game, settled again, unpaid):
                      gin-classic, Bob v Cy            Bob +2.07  Cy -2.07
                      gin-standard, Cy v Bob (later)   Cy +2.02   Bob -2.02
E4 (open):            gin-standard, Ann v Cy           Ann +2.02  Cy -2.02
"""

from __future__ import annotations

import copy
import datetime
import json
from pathlib import Path

from ledger import services

DATA = Path(__file__).resolve().parents[1] / "data"


def renamed(case: str, names: dict[str, str]) -> dict:
    """The case record with its players renamed (players, setup, hands)."""
    record = copy.deepcopy(json.loads((DATA / f"{case}.json").read_text()))
    record["players"] = [names[n] for n in record["players"]]
    setup = record.get("setup") or {}
    if "first_dealer" in setup:
        setup["first_dealer"] = names[setup["first_dealer"]]
    for hand in record["hands"]:
        if "knocker" in hand:
            hand["knocker"] = names[hand["knocker"]]
        if "deadwood" in hand:
            hand["deadwood"] = {names[k]: v for k, v in hand["deadwood"].items()}
    return record


def build(table, keeper) -> dict:
    """Build the four evenings; returns the sessions by name."""
    def evening(day: int):
        return services.session_create(table=table, date=datetime.date(2026, 1, day),
                                       currency="USD", rate="0.01", created_by=keeper)

    def play(session, case, names):
        return services.game_import(session=session, record=renamed(case, names),
                                    imported_by=keeper)

    e1, e2, e3, e4 = evening(8), evening(15), evening(22), evening(29)
    play(e1, "gin-standard-game", {"A": "Ann", "B": "Bob"})
    settled = services.session_settle(session=e1, settled_by=keeper)
    for payment in settled.payments.all():
        services.settlement_payment_mark_paid(payment=payment, paid_by=keeper)
    play(e2, "box-rotation", {"P": "Ann", "Q": "Bob", "R": "Cy"})
    services.session_settle(session=e2, settled_by=keeper)
    play(e3, "gin-classic-game", {"A": "Bob", "B": "Cy"})
    services.session_settle(session=e3, settled_by=keeper)
    services.session_reopen(session=e3, reopened_by=keeper, reason="forgot the last game")
    play(e3, "gin-standard-game", {"A": "Cy", "B": "Bob"})
    services.session_settle(session=e3, settled_by=keeper)
    play(e4, "gin-standard-game", {"A": "Ann", "B": "Cy"})
    return {"e1": e1, "e2": e2, "e3": e3, "e4": e4}
