"""Django template -> PDF bytes with WeasyPrint, offline.

``render_pdf`` is a pure function of its arguments (template, context, paper size): no
request, no database, no network. The stylesheet and the fonts are read from this app's
static folder through a URL fetcher that refuses everything else, so a PDF looks the same
on every host (the host's fonts are never asked for a family we do not ship: the
stylesheet names only the @font-face families below) and rendering cannot reach out.
"""

from __future__ import annotations

import threading
from pathlib import Path

from django.template.loader import render_to_string
from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher

STATIC_DIR = Path(__file__).resolve().parent / "static" / "scoresheets"
PRINT_CSS = STATIC_DIR / "print.css"
PAPER_SIZES = {"A4": "A4", "letter": "letter"}


class LocalOnlyFetcher(URLFetcher):
    """Fetches ``file:`` URLs inside the app's static folder and ``data:`` URLs; refuses
    anything else (http, https, ftp, files elsewhere) and stops the rendering if asked."""

    def __init__(self, root: Path = STATIC_DIR):
        super().__init__(allowed_protocols={"file", "data"}, fail_on_errors=True)
        self.root = root.resolve()

    def fetch(self, url, headers=None):
        if url.startswith("file:"):
            path = Path(url.split("?")[0].removeprefix("file://")).resolve()
            if not path.is_relative_to(self.root):
                raise ValueError(f"refused: {url} is outside {self.root}")
        elif not url.startswith("data:"):
            raise ValueError(f"refused: {url} (score sheets fetch nothing from the network)")
        return super().fetch(url, headers)


_lock = threading.Lock()
_cache: dict[tuple, tuple[FontConfiguration, list[CSS]]] = {}


def _stylesheets(paper_size: str) -> tuple[FontConfiguration, list[CSS]]:
    """The parsed print stylesheet and its fonts, kept per paper size (reparsed when
    print.css changes). Parsing the @font-face rules and loading the fonts is most of the
    fixed cost of a sheet, so it is paid once per process."""
    key = (paper_size, PRINT_CSS.stat().st_mtime_ns)
    cached = _cache.get(key)
    if cached is None:
        font_config = FontConfiguration()
        fetcher = LocalOnlyFetcher()
        sheets = [
            CSS(filename=str(PRINT_CSS), font_config=font_config, url_fetcher=fetcher),
            CSS(string=f"@page {{ size: {PAPER_SIZES[paper_size]}; }}",
                font_config=font_config, url_fetcher=fetcher),
        ]
        cached = _cache[key] = (font_config, sheets)
    return cached


def render_html(template_name: str, context: dict) -> str:
    return render_to_string(template_name, context)


def html_to_pdf(html: str, paper_size: str = "A4") -> bytes:
    """PDF bytes of ``html`` with the print stylesheet at ``paper_size`` (A4 or letter)."""
    if paper_size not in PAPER_SIZES:
        raise ValueError(f"paper size must be one of {sorted(PAPER_SIZES)}, not {paper_size!r}")
    with _lock:  # WeasyPrint's font objects are shared between renders; one at a time
        font_config, sheets = _stylesheets(paper_size)
        document = HTML(string=html, base_url=str(STATIC_DIR) + "/",
                        url_fetcher=LocalOnlyFetcher())
        return document.write_pdf(stylesheets=sheets, font_config=font_config)


def render_pdf(template_name: str, context: dict, paper_size: str = "A4") -> bytes:
    """Render the Django template ``template_name`` with ``context`` to PDF bytes."""
    return html_to_pdf(render_html(template_name, context), paper_size)
