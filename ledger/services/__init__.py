"""Services: the only code that writes to the ledger.

Every service is one database transaction, takes keyword-only typed arguments, and either
does everything or nothing (a ``LedgerError`` from ``ledger.exceptions`` says why, in words a
scorekeeper can read). Scores and money come only from the scoring core
(``ledger.rules.score_record``) applied to the game record that ``selectors.games.game_record``
builds from the stored rows: a change is scored first, on the record it would produce, and
written only if the core accepts it.

Writers of a game lock the session row and then the game row (``SELECT ... FOR UPDATE`` on
PostgreSQL), always in that order, so two scorekeepers submitting at once are serialized:
one records the hand, the other gets ``HandAlreadyRecorded``.

Money is posted (``PostingBatch`` + ``MoneyPosting``) only when a game's money changes: when
it ends (complete or abandoned), and again if a correction, undo, stake or rule change alters
it afterwards (the old batch is reversed, a new one posted). Postings are never updated.

Overview (see each docstring):
    table_create, table_set_scorekeepers, player_add, player_get_or_create,
    players_get_or_create, player_rename,
    session_create, session_change
    game_start, game_rematch, game_import, game_change_rules, game_change_stake, game_abandon
    hand_record, hand_correct, hand_undo_last
    session_settle, settlement_payment_mark_paid, session_import
    session_reopen, book_settle, book_settle_undo, table_rename, player_archive  (book.py)
    share_link_get_or_create, share_link_revoke, account_create
    report_links_get_or_create, report_links_revoke, report_submit, report_withdraw
                                                          (the tables' reports: reports.py)
    table_set_paper, pdf_render_slot (PDF renderings at once)   (services/printing.py)
"""

from ledger import rules as core  # noqa: F401  (tests slow the core down through it)

from .accounts import account_create
from .base import MAX_STAKE, UNSET, User
from .book import (
    BookChanged,
    book_settle,
    book_settle_undo,
    player_archive,
    session_reopen,
    table_rename,
)
from .games import (
    game_abandon,
    game_change_rules,
    game_change_settings,
    game_change_stake,
    game_delete,
    game_import,
    game_start,
)
from .hands import HandOutcome, hand_correct, hand_record, hand_undo_last
from .locale import account_set_language, table_set_locale
from .printing import (
    PrintingBusy,
    pdf_render_slot,
    render_slot_acquire,
    render_slot_release,
    table_set_paper,
)
from .rematch import game_rematch
from .reports import (
    confirm_link_get_or_create,
    hand_confirm,
    report_links_get_or_create,
    report_links_revoke,
    report_submit,
    report_withdraw,
)
from .sessions import session_import, session_settle, settlement_payment_mark_paid
from .sharing import share_link_get_or_create, share_link_revoke
from .tables import (
    player_add,
    player_get_or_create,
    player_rename,
    players_get_or_create,
    session_change,
    session_create,
    table_create,
    table_named,
    table_set_scorekeepers,
)
from .targets import target_change

__all__ = [
    "MAX_STAKE", "UNSET", "HandOutcome", "User", "account_create",
    "share_link_get_or_create", "share_link_revoke",
    "game_abandon", "game_change_rules", "game_change_settings", "game_change_stake",
    "game_delete",
    "game_import", "game_start", "game_rematch", "table_set_paper",
    "PrintingBusy", "pdf_render_slot", "render_slot_acquire", "render_slot_release",
    "hand_correct", "hand_record", "hand_undo_last", "target_change",
    "player_add", "player_get_or_create", "player_rename", "players_get_or_create",
    "session_change", "session_create",
    "table_create", "table_named", "table_set_scorekeepers",
    "session_import", "session_settle", "settlement_payment_mark_paid",
    "BookChanged", "book_settle", "book_settle_undo", "player_archive", "session_reopen",
    "table_rename", "table_set_locale", "account_set_language",
    "confirm_link_get_or_create", "hand_confirm",
    "report_links_get_or_create", "report_links_revoke",
    "report_submit", "report_withdraw",
]
