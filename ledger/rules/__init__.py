"""Tablestakes scoring core: pure Python, no Django.

Plain data in (a game record, docs/game-record.md), plain data out (the result that
``manage.py score`` prints). Every number the app shows or prints comes from here.

Public API:
    score_record(record: dict) -> dict        the result, JSON-ready (money as strings)
    RecordError                                raised with .problems, one line per problem
    fewest_payments(nets) -> list[Payment]     settlement of minor-unit nets
"""

from .game import score_record
from .money import Payment, fewest_payments, format_minor, minor_exponent, to_minor
from .record import RECORD_FORMAT, RESULT_FORMAT, RecordError

__all__ = [
    "RECORD_FORMAT",
    "RESULT_FORMAT",
    "Payment",
    "RecordError",
    "fewest_payments",
    "format_minor",
    "minor_exponent",
    "score_record",
    "to_minor",
]
