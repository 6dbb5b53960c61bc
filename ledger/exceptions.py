"""Errors the ledger services raise. Every one carries a message fit to show a scorekeeper."""

from __future__ import annotations

from django.utils.functional import lazy

from ledger.rules.problems import Problem, as_problem


class LedgerError(Exception):
    """Base class: the request was refused and nothing was written."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class RecordRefused(LedgerError):
    """The scoring core refused the game record the change would produce.

    ``details`` holds the core's problems as data (``ledger.rules.problems.Problem``: where,
    a code, the words), which a form puts at the field they name; ``problems`` their lines,
    e.g. "hand 3: knocker deadwood 12 is above the knock limit 10". A line given as text is
    a problem that names no place (code "refused").
    """

    def __init__(self, problems: list):
        self.details: list[Problem] = [as_problem(p) for p in problems]
        self.problems = [p.line for p in self.details]
        super().__init__("; ".join(self.problems) or "the record was refused")
        # shown on a screen: the lines in the language of the page that shows them
        self.message = _shown_lines(self.details) if self.details else self.message


def _lines(details: list[Problem]) -> str:
    from ledger.presentation.problems import lines

    return "; ".join(lines(details))


_shown_lines = lazy(_lines, str)


class HandAlreadyRecorded(LedgerError):
    """Another submission already recorded hand ``number`` (``by`` whom, ``at`` what time,
    ``next_number`` the hand the game takes now), or, with ``replaced``, already corrected or
    undid it. The service gives the facts; the words are the presentation layer's
    (``ledger.presentation.notices``), the same the phone's queue says."""

    def __init__(self, number: int, *, next_number: int | None = None, by=None,
                 at=None, replaced: bool = False, hand=None):
        from ledger.presentation.notices import replaced_text, taken_text
        from ledger.presentation.words import person_name

        self.number, self.next_number, self.at = number, next_number, at
        self.by = person_name(by) if by is not None and not isinstance(by, str) else by or ""
        self.replaced, self.hand = replaced, hand
        super().__init__(replaced_text(number) if replaced
                         else taken_text(number, next_number, self.by, at=at))


class IdempotencyKeyReused(LedgerError):
    """An idempotency key was sent again with a different hand or game."""


class GameNotInProgress(LedgerError):
    """The game is complete or abandoned, so it takes no new hands."""


class GameNotEmpty(LedgerError):
    """The game has hands, money or reports: it is history and is never deleted."""


class SessionSettled(LedgerError):
    """The session is settled; its numbers never change."""


class ConfirmationRequired(LedgerError):
    """The change would alter a finished game's money; call again with confirm=True.

    ``old_money`` and ``new_money`` map player names to minor units.
    """

    def __init__(self, message: str, *, old_money: dict[str, int], new_money: dict[str, int]):
        super().__init__(message)
        self.old_money = old_money
        self.new_money = new_money


class LedgerIntegrityError(LedgerError):
    """The stored money disagrees with what the hands score to (should never happen)."""


class ReportStale(LedgerError):
    """A table's report for a hand already saved (or not yet the current one); ``number`` is
    the hand the reporting phone moves on to."""

    def __init__(self, message: str, *, number: int):
        super().__init__(message)
        self.number = number
