"""Tablestakes scoring core: pure Python, no Django.

Plain data in (a game record, docs/game-record.md), plain data out (the result that
``manage.py score`` prints). Every number the app shows or prints comes from here.

Public API:
    score_record(record: dict) -> dict        the result, JSON-ready (money as strings)
    RecordError                                raised with .problems, one line per problem,
                                               and .details, the problems as data
                                               (problems.Problem: where, code, words)
    Problem, CODES                             a problem as data; every code it may have
    knock_limit(rules, oklahoma=, upcard=)     a hand's knock limit (limits.KnockLimit)
    fewest_payments(nets) -> list[Payment]     settlement of minor-unit nets
    game_facts(variant, players) -> GameFacts  what a game is (tables, stake kind, seats,
                                               lower wins, the noun for a hand, the shape
                                               of its sheet...)

Every variant is declared once, in ``variants.py`` (``REGISTRY``); the other modules derive
their tables from it.
"""

from .facts import MAX_TABLES, GameFacts, Seat, game_facts, hand_stats
from .game import score_record
from .limits import KnockLimit, knock_limit
from .money import Payment, fewest_payments, format_minor, minor_exponent, to_minor
from .problems import CODES, Problem
from .record import RECORD_FORMAT, RESULT_FORMAT, RecordError

__all__ = [
    "MAX_TABLES",
    "GameFacts",
    "Seat",
    "game_facts",
    "hand_stats",
    "CODES",
    "KnockLimit",
    "Problem",
    "knock_limit",
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
