"""How a table's sheets are printed, and how many PDFs render at once.

A PDF rendering holds a gunicorn worker for seconds, so renderings take a slot first
(``pdf_render_slot``): at most TABLESTAKES_PDF_RENDERS at once over the whole installation
(default: one less than the workers, so one is always free for the log-in page and hand
entry) and TABLESTAKES_PDF_RENDERS_PER_ACCOUNT (1) per account. The slots are rows of
``RenderSlot`` with unique numbers, so the bound holds across worker processes and app
servers that share the database. A request that finds no free slot is refused at once with
``PrintingBusy`` (the view answers "busy, try again in a moment"); it never waits. A slot is
given back when its rendering ends, however it ends; one left by a killed worker expires
after TABLESTAKES_PDF_SLOT_SECONDS.
"""

from __future__ import annotations

import datetime
import logging
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.db import DatabaseError, IntegrityError, transaction
from django.utils import timezone

from ledger.exceptions import LedgerError
from ledger.models import PaperSize, RenderSlot, Table

from .base import User

log = logging.getLogger(__name__)


@transaction.atomic
def table_set_paper(*, table: Table, paper_size: str) -> Table:
    """The paper the table's sheets print on: ``auto`` (by the evening's currency: Letter
    for USD, CAD and MXN, A4 elsewhere), ``A4`` or ``letter``."""
    if paper_size not in PaperSize.values:
        raise LedgerError(f"Paper: {paper_size!r} is not one of "
                          f"{', '.join(label for _, label in PaperSize.choices)}.")
    table = Table.objects.select_for_update().get(pk=table.pk)
    table.paper_size = paper_size
    table.save(update_fields=["paper_size"])
    return table


# -- renderings at once ----------------------------------------------------------------------

class PrintingBusy(LedgerError):
    """No free rendering slot: ``mine`` when the account's own renderings fill its share,
    otherwise the whole installation's are busy. ``retry_after``: seconds worth waiting."""

    RETRY_AFTER = 5

    def __init__(self, *, mine: bool):
        self.mine = mine
        self.retry_after = self.RETRY_AFTER
        super().__init__(code="printing_mine" if mine else "printing_busy")


@transaction.atomic
def render_slot_acquire(*, user: User) -> RenderSlot:
    """A slot for one PDF rendering by ``user``, or PrintingBusy at once.

    Slots past their ``expires_at`` (a worker killed mid-rendering) are removed first. The
    unique constraints decide between two workers asking at the same moment: the one whose
    insert fails looks again (another free number, or busy)."""
    total = max(1, settings.TABLESTAKES_PDF_RENDERS)
    per_account = max(1, settings.TABLESTAKES_PDF_RENDERS_PER_ACCOUNT)
    now = timezone.now()
    RenderSlot.objects.filter(expires_at__lte=now).delete()
    for _ in range(total + 1):
        held = list(RenderSlot.objects.values_list("number", "user_id", "account_number"))
        mine = {account for _, holder, account in held if holder == user.pk}
        if len(mine) >= per_account:
            raise PrintingBusy(mine=True)
        taken = {number for number, _, _ in held}
        free = [number for number in range(total) if number not in taken]
        if not free:
            raise PrintingBusy(mine=False)
        try:
            with transaction.atomic():
                return RenderSlot.objects.create(
                    number=free[0], user=user,
                    account_number=min(set(range(per_account)) - mine),
                    token=secrets.token_hex(16), started_at=now,
                    expires_at=now + datetime.timedelta(
                        seconds=settings.TABLESTAKES_PDF_SLOT_SECONDS))
        except IntegrityError:
            continue  # taken meanwhile by another worker: look again
    raise PrintingBusy(mine=False)


def render_slot_release(*, slot: RenderSlot) -> None:
    """Give the slot back (only this one: by its token, even if it expired and was handed
    out again meanwhile). A database that cannot be reached leaves it to expire."""
    try:
        with transaction.atomic():
            RenderSlot.objects.filter(token=slot.token).delete()
    except DatabaseError:
        log.exception("could not give back PDF rendering slot %s; it expires at %s",
                      slot.number, slot.expires_at)


@contextmanager
def pdf_render_slot(*, user: User) -> Iterator[RenderSlot]:
    """``with pdf_render_slot(user=...):`` around a PDF rendering: PrintingBusy at once
    when no slot is free; the slot is given back when the block ends, however it ends
    (PdfTooLarge, the rendering's timeout, any error)."""
    slot = render_slot_acquire(user=user)
    try:
        yield slot
    finally:
        render_slot_release(slot=slot)
