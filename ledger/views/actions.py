"""How a view calls a service: the one place where a service's refusal (a ``LedgerError``,
with its ``message`` in the user's words) reaches the user.

Two shapes, one per kind of screen:

``run_service``
    a button (settle, undo, abandon, share...): call the service, say what was done or the
    refusal in a message, and redirect (post/redirect/get)::

        return run_service(request, lambda: services.game_abandon(game=game, ...),
                           success=ABANDONED, redirect_to=game_url)

``refusals_to``
    a form: the refusal lands on the form, which is drawn again; the core's problems
    (``RecordRefused``) at their fields, any other refusal at ``field`` (None: next to
    Save). The success path goes inside the block::

        with refusals_to(form, field="name"):
            player = services.player_get_or_create(table=table, name=...)
            messages.success(request, f"{player.name} joins the table.")
            return redirect(...)
        # refused: fall through and draw the form again
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect

from ledger.exceptions import LedgerError, RecordRefused
from ledger.presentation.refusals import refusal_words

T = TypeVar("T")


def run_service(request: HttpRequest, call: Callable[[], T], *,
                success: str | Callable[[T], str],
                redirect_to: str | Callable[[T], str],
                failure_redirect: str | None = None,
                warn: tuple[type[LedgerError], ...] = ()) -> HttpResponse:
    """``call()`` (a service); then a success message and a redirect, or, when the service
    refuses, its message (a warning for the refusals in ``warn``, an error otherwise) and a
    redirect to ``failure_redirect`` (by default ``redirect_to``). ``success`` and
    ``redirect_to`` may be functions of what the service returned; the redirect targets are
    what ``django.shortcuts.redirect`` takes (a URL or a URL name without arguments)."""
    if failure_redirect is None and callable(redirect_to):
        raise TypeError("run_service: a computed redirect_to needs a failure_redirect")
    try:
        done = call()
    except LedgerError as exc:
        level = messages.WARNING if isinstance(exc, warn) else messages.ERROR
        messages.add_message(request, level, refusal_words(exc))
        return redirect(failure_redirect or redirect_to)
    messages.success(request, success(done) if callable(success) else success)
    return redirect(redirect_to(done) if callable(redirect_to) else redirect_to)


class refusals_to:  # noqa: N801  (used as a context manager, like contextlib's)
    """Within the block, a service's refusal is put on ``form`` and the block is left:
    ``RecordRefused`` as the core's problems at their fields (``form.add_problems``, for
    forms that have it), any other ``LedgerError`` at ``field`` (None: the whole form).
    Other exceptions pass. ``refused`` says whether the block was refused."""

    def __init__(self, form: Any, field: str | None = None) -> None:
        self.form = form
        self.field = field
        self.refused = False

    def __enter__(self) -> refusals_to:
        return self

    def __exit__(self, kind, exc, traceback) -> bool:
        if not isinstance(exc, LedgerError):
            return False
        if isinstance(exc, RecordRefused) and hasattr(self.form, "add_problems"):
            self.form.add_problems(exc.details)
        else:
            self.form.add_error(self.field, refusal_words(exc))
        self.refused = True
        return True
