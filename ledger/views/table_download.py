"""The whole table as one file, for its keepers (docs/table-export.md): the Tidy page's
"Download the whole table". The same document as ``manage.py export_table``."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.http import require_GET

from ledger import access, cleaning
from ledger.book.export import table_export
from ledger.selectors.exports import dump_json


@require_GET
def table_download(request: HttpRequest, pk: int) -> HttpResponse:
    table = access.table_for(request.user, pk)  # its keepers only; 404 for anyone else
    response = HttpResponse(dump_json(table_export(table)),
                            content_type="application/json; charset=utf-8")
    # No user text in the name (the table's name may hold anything): the id and the day.
    day = timezone.localdate().isoformat()
    response["Content-Disposition"] = cleaning.content_disposition(f"table-{table.pk}-{day}.json")
    response["Cache-Control"] = "no-store"  # it holds the share links' tokens
    response["X-Content-Type-Options"] = "nosniff"
    return response
