"""What the export commands write: the evening's record with every game's (``export_session``;
a game's is ``games.game_record``, a table's ``ledger.book.export``), and the one JSON text
of any of them."""

from __future__ import annotations

import json
from typing import Any

from ledger.models import Session
from ledger.rules.money import decimal_text, format_minor

from .evenings import session_games, session_players, session_settlement, settlement_nets
from .games import game_record

SESSION_FORMAT = "tablestakes.session/1"


def dump_json(data: Any) -> str:
    """The canonical JSON text of an export: 2-space indent, UTF-8, key order as built."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def session_export(session: Session) -> dict:
    """The session record for ``export_session``: the evening with every game's record."""
    games = session_games(session)
    data: dict[str, Any] = {
        "format": SESSION_FORMAT,
        "table": session.table.name,
        "date": session.date.isoformat(),
        "place": session.place,
        "currency": session.currency,
    }
    if session.rate is not None:
        data["stakes"] = {
            "rate": decimal_text(session.rate, session.currency),
            "per_points": session.per_points,
        }
    if session.notes:
        data["notes"] = session.notes
    data["players"] = [player.name for player in session_players(session, games)]
    data["games"] = [game_record(game) for game in games]
    settlement = session_settlement(session)
    if settlement is not None:
        data["settlement"] = {
            "nets": {name: format_minor(units, settlement.currency)
                     for name, units in settlement_nets(settlement).items()},
            "payments": [
                {
                    "from": payment.payer.name,
                    "to": payment.payee.name,
                    "amount": format_minor(payment.amount_minor, settlement.currency),
                    "paid": payment.is_paid,
                }
                for payment in settlement.payments.all()
            ],
        }
    return data
