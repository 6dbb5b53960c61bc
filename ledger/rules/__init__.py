"""Tablestakes scoring core: pure Python, no Django.

Plain data in (a game record as described in docs/game-record.md), plain data out
(the result dict that ``manage.py score`` prints).

Public API:
    score_record(record: dict) -> dict      the result (JSON-ready: ints, bools, str money)
    RecordError                               raised with .problems, one line per problem
    fewest_payments(nets) -> list[Payment]    session/game settlement in minor units
"""
