"""Errors the ledger services raise: refusals as data.

A refusal carries a ``code`` and the facts it is about (numbers, names, dates) in
``params``; the words are the presentation's (``ledger.presentation.refusals.refusal_words``),
in the language of the page that shows them. The record never imports the presentation:
the presentation hands its one wording function to ``words_with`` when the app starts
(``ledger.apps``), and ``message`` asks it. A refusal a service still words itself (a
``gettext`` of the record, code ``"refused"``) keeps those words as ``text``.
"""

from __future__ import annotations

from collections.abc import Callable

from ledger.rules.problems import Problem, as_problem

#: the presentation's wording of a refusal (``words_with``); None until the app is ready
_wording: Callable[[LedgerError], str] | None = None


def words_with(wording: Callable[[LedgerError], str]) -> None:
    """The presentation gives the record its one function that words a refusal."""
    global _wording
    _wording = wording


class LedgerError(Exception):
    """Base class: the request was refused and nothing was written.

    ``LedgerError("words")``: a refusal the service words itself (code "refused");
    ``LedgerError(code="game_not_empty", n=3)``: a refusal as data, worded by the
    presentation."""

    code = "refused"
    #: worded each time it is read (in the language of the page that shows it), not once
    worded_when_read = False

    def __init__(self, message: str | None = None, *, code: str | None = None, **params):
        super().__init__(message if message is not None else code or type(self).code)
        self.text = message
        if code is not None:
            self.code = code
        self.params = params
        self._said: str | None = None
        if _wording is not None and not self.worded_when_read:
            # said where it was refused: in the language and time zone in force there (the
            # page's), as a service that words its own refusal says it
            self._said = _wording(self)

    @property
    def message(self) -> str:
        """The refusal in the words of the language in force."""
        if self._said is not None:
            return self._said
        if _wording is not None:
            return _wording(self)
        return self.text if self.text is not None else self.code

    @message.setter
    def message(self, said: str) -> None:
        self._said = said

    def __str__(self) -> str:
        return str(self.message)


class RecordRefused(LedgerError):
    """The scoring core refused the game record the change would produce.

    ``details`` holds the core's problems as data (``ledger.rules.problems.Problem``: where,
    a code, the words), which a form puts at the field they name; ``problems`` their lines,
    e.g. "hand 3: knocker deadwood 12 is above the knock limit 10". A line given as text is
    a problem that names no place (code "refused"). Shown, the lines are in the language of
    the page that shows them (code "record_refused").
    """

    code = "record_refused"
    worded_when_read = True  # the core's problems: in the language of the page that shows them

    def __init__(self, problems: list):
        self.details: list[Problem] = [as_problem(p) for p in problems]
        self.problems = [p.line for p in self.details]
        if self.details:
            super().__init__(code="record_refused", details=self.details)
        else:
            super().__init__("the record was refused", code="refused")


class HandAlreadyRecorded(LedgerError):
    """Another submission already recorded hand ``number`` (``by`` whom, ``at`` what time,
    ``next_number`` the hand the game takes now), or, with ``replaced``, already corrected or
    undid it. The service gives the facts; the words are the presentation layer's
    (``ledger.presentation.notices``), the same the phone's queue says."""

    def __init__(self, number: int, *, next_number: int | None = None, by=None,
                 at=None, replaced: bool = False, hand=None):
        self.number, self.next_number, self.at = number, next_number, at
        if by is not None and not isinstance(by, str):  # an account: its full name or login
            by = by.get_full_name() or by.get_username()
        self.by = by or ""
        self.replaced, self.hand = replaced, hand
        super().__init__(code="hand_replaced" if replaced else "hand_taken", number=number,
                         next_number=next_number, by=self.by, at=at)


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

    def __init__(self, message: str | None = None, *, number: int, code: str | None = None,
                 **params):
        super().__init__(message, code=code, **params)
        self.number = number
