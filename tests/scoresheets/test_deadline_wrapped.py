"""A rendering stopped by its deadline is refused as too long even when the deadline falls
inside WeasyPrint's font fetching, which wraps it in FatalURLFetchingError: that is a
BaseException, not an Exception, and once (CI, 2026-11-27) it went past the handler and the
page got WeasyPrint's "Error fetching ...DejaVuSerif-Bold.ttf" instead of the refusal."""

from __future__ import annotations

import pytest
from weasyprint.urls import FatalURLFetchingError

from scoresheets import pdf
from scoresheets.pdf import PdfTooLarge, html_to_pdf


def test_a_deadline_wrapped_by_the_font_fetch_is_the_deadline(monkeypatch):
    def stopped_in_the_fonts(*args, **kwargs):
        try:
            raise PdfTooLarge("Printing took more than 0.05 seconds and was stopped.")
        except PdfTooLarge as exc:
            raise FatalURLFetchingError('Error fetching "file:///...ttf"') from exc

    monkeypatch.setattr(pdf, "_render", stopped_in_the_fonts)
    with pytest.raises(PdfTooLarge, match="took more than 0.05 seconds"):
        html_to_pdf("<p>x</p>", timeout=0.05)


def test_a_font_fetch_that_fails_for_another_reason_is_not_hidden(monkeypatch):
    def broken(*args, **kwargs):
        raise FatalURLFetchingError("Error fetching something else")

    monkeypatch.setattr(pdf, "_render", broken)
    with pytest.raises(FatalURLFetchingError):
        html_to_pdf("<p>x</p>", timeout=5)
