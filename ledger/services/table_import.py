"""``table_import`` (a whole table from its document) lives in ``services.table_io``; this
name is kept for the commands and callers that import it from here."""

from __future__ import annotations

from .table_io import TableImported, max_players_per_table, table_import

__all__ = ["TableImported", "max_players_per_table", "table_import"]
