"""The table's whole document (``tablestakes.table/1``): its reader is
``ledger.selectors.table_export``, around the row kinds of ``ledger.selectors.table_rows``;
this name is kept for the screens and commands that download or write it."""

from __future__ import annotations

from ledger.selectors.table_export import TABLE_FORMAT, table_export
from ledger.selectors.table_rows import stamp

__all__ = ["TABLE_FORMAT", "stamp", "table_export"]
