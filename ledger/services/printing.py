"""How a table's sheets are printed."""

from __future__ import annotations

from django.db import transaction

from ledger.exceptions import LedgerError
from ledger.models import PaperSize, Table


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
