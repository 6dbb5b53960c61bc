"""Errors the ledger services raise: refusals as data.

A refusal carries a ``code`` and the facts it is about (numbers, names, dates) in
``params``; the words are the presentation's (``ledger.presentation.refusals.refusal_words``),
said where a screen shows the refusal, in the language of that page. The record imports
nothing of the presentation: a refusal has no words of its own. A refusal given as text
(``LedgerError("words")``, code ``"refused"``: the scoring core's own English line, a
database's message) keeps that text.
"""

from __future__ import annotations

from ledger.rules.problems import Problem, as_problem


class LedgerError(Exception):
    """Base class: the request was refused and nothing was written.

    ``LedgerError(code="game_not_empty", n=3)``: a refusal as data, worded by the
    presentation; ``LedgerError("words")``: a refusal that brings its own text (code
    "refused")."""

    code = "refused"

    def __init__(self, message: str | None = None, *, code: str | None = None, **params):
        super().__init__(message if message is not None else code or type(self).code)
        self.text = message
        if code is not None:
            self.code = code
        self.params = params

    def __str__(self) -> str:
        """For logs and tracebacks only (a screen says it through ``refusal_words``): the
        text given, or the code and its facts."""
        if self.text is not None:
            return self.text
        facts = ", ".join(f"{key}={value!r}" for key, value in self.params.items())
        return f"{self.code} ({facts})" if facts else self.code


def refusal_problem(refusal: LedgerError, *, code: str = "refused", where: str = "",
                    without: str = "", field: str | None = None,
                    player: str | None = None) -> Problem:
    """A refusal (of the cleaning: a name, a currency, a date) as one problem of a record,
    still as data: the presentation words ``refusal`` where the problem is shown, less
    ``without`` at its start (the place the line already opens with, ``where``) and its
    final period. The line's own text (``Problem.line``: a log) is the refusal's text, or
    its code and facts."""
    return Problem(code, str(refusal).removeprefix(without).rstrip("."), field=field,
                   player=player, opening=where, values={"refusal": refusal, "without": without})


class RecordRefused(LedgerError):
    """The scoring core refused the game record the change would produce.

    ``details`` holds the core's problems as data (``ledger.rules.problems.Problem``: where,
    a code, the words), which a form puts at the field they name; ``problems`` their lines,
    e.g. "hand 3: knocker deadwood 12 is above the knock limit 10". A line given as text is
    a problem that names no place (code "refused"). Shown, the lines are in the language of
    the page that shows them (code "record_refused").
    """

    code = "record_refused"

    def __init__(self, problems: list):
        self.details: list[Problem] = [as_problem(p) for p in problems]
        self.problems = [p.line for p in self.details]
        if self.details:
            super().__init__(code="record_refused", details=self.details)
        else:
            super().__init__("the record was refused", code="refused")

    def __str__(self) -> str:
        return "; ".join(self.problems) if self.details else super().__str__()


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
