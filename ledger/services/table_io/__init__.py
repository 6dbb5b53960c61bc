"""Storing a whole table from its document (``tablestakes.table/1``, docs/table-export.md).

One transaction, all or nothing. The document's shape is checked first
(``ledger.cleaning.table_record``), then the history as the services would have made it
(``checks``), before anything is stored, with the place of every problem. Then the rows go
in kind by kind as ``selectors.table_rows.ROW_KINDS`` declares them (``store``): the
players and evenings, the history in the order it was written, the standings (a cache,
computed from the games' results as the services do), then the book settlements, share
links and report links with who reported what through them.

An account of the document that the server has too (the same username) is used only when
mapped (``accounts``, or ``same_accounts``): a username alone does not say it is the same
person. An account the server does not have is created without a password (it cannot log
in until an administrator sets one or a password reset is made).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction

from ledger import cleaning, limits
from ledger.cleaning.table_record import check_table_document
from ledger.exceptions import LedgerError
from ledger.models import EveningStanding, Game, GameStanding, Table
from ledger.selectors import table_rows
from ledger.selectors.table_rows import FIRST, HISTORY, LAST, moment

from ..base import User, _user
from ..standings import standing_rows, store_evenings
from ..tables import table_named
from .checks import check_history, refuse
from .store import CHUNK, Reader, store


def max_players_per_table() -> int:
    """Players one imported table may hold: TABLESTAKES_MAX_PLAYERS_PER_TABLE, the limit of
    every table's players (200 when the setting is not there)."""
    return int(getattr(settings, "TABLESTAKES_MAX_PLAYERS_PER_TABLE", 200))


@dataclass
class TableImported:
    """What ``table_import`` did: the new table and what it had to make up."""

    table: Table
    accounts_created: list[str] = field(default_factory=list)
    keys_renewed: int = 0  # hands whose idempotency key this server already had
    tokens_renewed: int = 0  # share links whose token this server already had
    rows: dict[str, int] = field(default_factory=dict)


@transaction.atomic
def table_import(*, document: Any, imported_by: User | None = None, name: str | None = None,
                 keepers: list | None = None, accounts: dict | None = None,
                 same_accounts: bool = False) -> TableImported:
    """Store the table of ``document`` (as ``export_table`` writes it) as a new table.

    ``name`` imports it under another name; ``keepers`` are accounts added to the
    document's scorekeepers (both change what a new export says, nothing else).
    ``accounts`` maps usernames of the document to accounts of this server: an account
    the document names that this server has too (the same username) must be mapped, to
    itself or to another account, or nothing is stored (a username alone does not say
    it is the same person); ``same_accounts`` says each of them is the account of that
    username (moving a server's tables one by one); the others are made without a
    password."""
    check_table_document(document, kinds=table_rows.ROW_KINDS,
                         max_players=max_players_per_table(),
                         max_hands=limits.max_hands_per_game())
    results = check_history(document)

    outcome = TableImported(table=None)  # type: ignore[arg-type]
    users = _accounts(document["accounts"], outcome, accounts or {}, same_accounts)
    head = document["table"]
    table_name = cleaning.clean_text(name if name is not None else head["name"],
                                     what=cleaning.Field("table_name"), max_length=100,
                                     required=True)
    keeper_rows = [users[username] for username in head["scorekeepers"]]
    keeper_rows += [k for k in keepers or [] if _user(k) and k not in keeper_rows]
    for keeper in keeper_rows or [None]:
        if table_named(name=table_name, scorekeeper=keeper) is not None:
            who = keeper.get_username() if keeper else "A table nobody keeps"
            raise LedgerError(f"{who} already keeps a table called {table_name!r}: import it "
                              "under another name (--name).")
    table = Table.objects.create(name=table_name, paper_size=head["paper_size"],
                                 created_at=moment(head["created_at"]))
    table.scorekeepers.set(keeper_rows)
    outcome.table = table
    reader = Reader(document, table, users, outcome)
    store(reader, FIRST)
    store(reader, HISTORY)

    # the standings (a cache), from the results the games were checked with
    games = {game.pk: game for game in Game.objects.filter(session__table=table)
             .select_related("session").prefetch_related("seats__player")}
    rows = []
    for file_id, result in results.items():
        game = games[reader.ids["game"][file_id]]
        seats = {seat.player.name: seat.player for seat in game.seats.all()}
        rows += standing_rows(GameStanding, game=game, session=game.session, result=result,
                              status=game.status, players=seats)
    GameStanding.objects.bulk_create(rows, batch_size=CHUNK)
    store_evenings(GameStanding, EveningStanding, list(reader.ids["session"].values()))

    problems: list[str] = []
    store(reader, LAST, problems)
    refuse(problems)
    outcome.rows = {kind.name: len(reader.ids[kind.name]) for kind in table_rows.ROW_KINDS
                    if kind.counted}
    return outcome


def _accounts(accounts: list[dict], outcome: TableImported, mapping: dict,
              same_accounts: bool) -> dict[str, Any]:
    """Each account of the document: the account it is mapped to, or a new one; refused
    (nothing stored) when the server has an account of that username that is not mapped."""
    model = get_user_model()
    names = [account["username"] for account in accounts]
    strangers = sorted(set(mapping) - set(names))
    if strangers:
        raise LedgerError(f"{strangers[0]!r} is not an account of the document (its accounts: "
                          f"{', '.join(names) or 'none'}).")
    found = {user.get_username(): user for user in model.objects.filter(username__in=names)}
    taken = [username for username in names if username in found and username not in mapping]
    if taken and not same_accounts:
        which = (f"an account called {taken[0]}" if len(taken) == 1 else
                 f"accounts called {', '.join(taken[:-1])} and {taken[-1]}")
        raise LedgerError(
            f"This server already has {which}: a username alone does not say it is the "
            "same person. Say whose history goes to which account (--keeper "
            f"{taken[0]}={taken[0]}: to that account; --keeper {taken[0]}=OTHER: to another "
            "one; --same-accounts: each to the account of its name).")
    found = {username: found[username] for username in taken} | {
        username: _user(user) for username, user in mapping.items()}
    for account in accounts:
        if account["username"] not in found:
            user = model.objects.create_user(  # no password: cannot log in until one is set
                username=account["username"], password=None,
                first_name=account["first_name"], last_name=account["last_name"])
            found[account["username"]] = user
            outcome.accounts_created.append(account["username"])
    return found
