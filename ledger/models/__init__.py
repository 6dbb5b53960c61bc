"""The ledger: tables, players, sessions, games, hands and money.

The database stores what was entered (players, stakes, setup, the rule snapshot and each
hand exactly as the scorekeeper typed it); the scoring core (``ledger.rules``) derives every
score from that. Money is the only derived thing stored, as append-only postings in integer
minor units, because a settled evening must never change.

Nothing here writes on its own: ``ledger.services`` is the only writer. Rows that form the
history (hands, posting batches, postings, game changes, settlements, paid marks) refuse
updates of their content and refuse deletion, both per object and through bulk querysets;
a hand's void is set once and never changed. On PostgreSQL triggers hold the same rules
against raw SQL (migrations 0002 and 0012, which say exactly what is refused), and 0014
the settlements' (nets, payments, voids), a settled evening's money and date, and revoked
share links; the app connects as a role that cannot drop them (``grant_runtime_role``).

A package, one module per concern (Django loads the models through this ``__init__``, which
imports every one of them, so ``from ledger.models import Hand`` keeps working):

- ``base``: the append-only history rows (``AppendOnlyModel``) and ``ImmutableError``;
- ``tables``: tables, players and evenings (sessions), paper sizes;
- ``games``: games, seats, hands and the audit of changes;
- ``money``: posting batches and postings, settlements, payments and paid marks;
- ``book``: the table's book (standings caches, voided and book settlements);
- ``sharing``: read-only share links (not part of the record);
- ``reports``: report links and the tables' reports of the current hand (issue 23);
- ``printing``: the slots of PDF renderings in progress (not part of the record);
- ``accounts``: what an account chooses for itself (its language; not part of the record).
"""

from .accounts import AccountPreference
from .base import CURRENCY_HELP, AppendOnlyModel, AppendOnlyQuerySet, ImmutableError
from .book import (
    BookSettlement,
    BookSettlementUndo,
    EveningStanding,
    GameStanding,
    SettlementVoid,
)
from .games import ChangeKind, Game, GameChange, GamePlayer, GameStatus, Hand, Variant
from .money import (
    BatchKind,
    MoneyPosting,
    PaymentMark,
    PostingBatch,
    SessionSettlement,
    SettlementPayment,
)
from .printing import RenderSlot
from .reports import CONFIRM_PART, PLAYERS_PART, HandConfirmation, ReportLink, TableReport
from .sharing import ShareLink, new_token
from .tables import (
    DEFAULT_TIME_ZONE,
    LETTER_CURRENCIES,
    Language,
    PaperSize,
    Player,
    Session,
    Table,
    paper_for_currency,
)

__all__ = [
    "CURRENCY_HELP", "AppendOnlyModel", "AppendOnlyQuerySet", "ImmutableError",
    "PaperSize", "LETTER_CURRENCIES", "paper_for_currency", "Table", "Player", "Session",
    "GameStatus", "Variant", "Game", "GamePlayer", "Hand", "ChangeKind", "GameChange",
    "BatchKind", "PostingBatch", "MoneyPosting", "SessionSettlement", "SettlementPayment",
    "PaymentMark",
    "GameStanding", "EveningStanding", "SettlementVoid", "BookSettlement", "BookSettlementUndo",
    "ShareLink", "new_token", "RenderSlot", "PLAYERS_PART", "ReportLink", "TableReport",
    "CONFIRM_PART", "HandConfirmation",
    "Language", "DEFAULT_TIME_ZONE", "AccountPreference",
]
