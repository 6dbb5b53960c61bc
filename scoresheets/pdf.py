"""Django template -> PDF bytes with WeasyPrint, offline.

``render_pdf`` is a pure function of its arguments (template, context, paper size): no
request, no database, no network. The stylesheet and the fonts are read from this app's
static folder through a URL fetcher that refuses everything else, so a PDF looks the same
on every host (the host's fonts are never asked for a family we do not ship: the
stylesheet names only the @font-face families below) and rendering cannot reach out.

A rendering is bounded: ``max_pages`` refuses a document whose layout runs longer (checked
before the PDF is written) and ``timeout`` stops it after that many seconds (a SIGALRM
timer, so only in the main thread: gunicorn's sync workers; elsewhere the callers' limits on
rows and pages bound the work). Both raise ``PdfTooLarge``. The callers (``documents``)
also refuse a document with too many hand rows before rendering anything. With ``nice``
(TABLESTAKES_PDF_NICE) a worker renders in a child process at a lower CPU priority, killed
at the deadline, so that a long sheet yields the processor to the pages everyone else is
waiting for.
"""

from __future__ import annotations

import atexit
import os
import pickle
import posixpath
import re
import select
import signal
import threading
import time
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from django.template.loader import render_to_string
from django.utils.translation import get_language, gettext

if TYPE_CHECKING:
    from weasyprint import CSS
    from weasyprint.text.fonts import FontConfiguration
    from weasyprint.urls import URLFetcher

# WeasyPrint is imported on the first rendering, not when the app starts: loading it (pango
# and its fonts through cffi) is more than half of the start-up of every process that never
# prints (each gunicorn worker, every manage.py command, every test process).

STATIC_DIR = Path(__file__).resolve().parent / "static" / "scoresheets"
PRINT_CSS = STATIC_DIR / "print.css"
PAPER_SIZES = {"A4": "A4", "letter": "letter"}


class PdfTooLarge(Exception):
    """The document is too large to print here (rows, pages or time); ``message`` says
    which limit and what to do instead."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def local_path(url: str) -> Path:
    """The file a ``file:`` URL names: percent-decoded (``%2e%2e`` is ``..``), then
    normalised and resolved, so that the check that follows sees the real place."""
    parts = urlsplit(url)
    if parts.netloc not in ("", "localhost"):
        raise ValueError(f"refused: {url} names another host")
    path = unquote(parts.path, errors="strict")
    if "\x00" in path:
        raise ValueError(f"refused: {url} holds a NUL")
    return Path(posixpath.normpath(path)).resolve()


@cache
def _fetcher_class() -> type[URLFetcher]:
    from weasyprint.urls import URLFetcher

    class LocalOnlyFetcher(URLFetcher):
        """Fetches ``file:`` URLs inside the app's static folder and ``data:`` URLs; refuses
        anything else (http, https, ftp, files elsewhere) and stops the rendering if asked."""

        def __init__(self, root: Path = STATIC_DIR):
            super().__init__(allowed_protocols={"file", "data"}, fail_on_errors=True)
            self.root = root.resolve()

        def fetch(self, url, headers=None):
            if url.startswith("file:"):
                path = local_path(url)
                if not path.is_relative_to(self.root):
                    raise ValueError(f"refused: {url} is outside {self.root}")
                url = path.as_uri()  # fetch the very file that was checked
            elif not url.startswith("data:"):
                raise ValueError(f"refused: {url} (score sheets fetch nothing from the network)")
            return super().fetch(url, headers)

    return LocalOnlyFetcher


def __getattr__(name: str):
    """``LocalOnlyFetcher``, made when first asked for (it subclasses WeasyPrint's fetcher)."""
    if name == "LocalOnlyFetcher":
        return _fetcher_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_lock = threading.Lock()
_cache: dict[tuple, tuple[FontConfiguration, list[CSS]]] = {}


def _took_too_long(seconds: float) -> str:
    return gettext("Printing took more than %(seconds)s seconds and was stopped.") % {
        "seconds": f"{seconds:g}"}


def _css_text(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def page_counter_css() -> str:
    """The page number in the bottom right corner, in the language in force: "Page 2 of 3",
    "Seite 2 von 3" (the words from the catalog, the numbers CSS's counters)."""
    words = gettext("Page %(page)s of %(pages)s")
    parts = []
    for piece in re.split(r"(%\((?:page|pages)\)s)", words):
        if piece == "%(page)s":
            parts.append("counter(page)")
        elif piece == "%(pages)s":
            parts.append("counter(pages)")
        elif piece:
            parts.append(_css_text(piece))
    return "@page { @bottom-right { content: " + " ".join(parts) + "; } }"


def _key(paper_size: str) -> tuple:
    return (paper_size, get_language(), PRINT_CSS.stat().st_mtime_ns)


def _stylesheets(paper_size: str) -> tuple[FontConfiguration, list[CSS]]:
    """The parsed print stylesheet and its fonts, kept per paper size and language (reparsed
    when print.css changes). Parsing the @font-face rules and loading the fonts is most of
    the fixed cost of a sheet, so it is paid once per process."""
    key = _key(paper_size)
    cached = _cache.get(key)
    if cached is None:
        from weasyprint import CSS
        from weasyprint.text.fonts import FontConfiguration

        font_config = FontConfiguration()
        fetcher = _fetcher_class()()
        sheets = [
            CSS(filename=str(PRINT_CSS), font_config=font_config, url_fetcher=fetcher),
            CSS(string=f"@page {{ size: {PAPER_SIZES[paper_size]}; }}",
                font_config=font_config, url_fetcher=fetcher),
            CSS(string=page_counter_css(), font_config=font_config, url_fetcher=fetcher),
        ]
        cached = _cache[key] = (font_config, sheets)
    return cached


#: A few lines in every face of the print fonts (the sheets' masthead, table and notes), in
#: the scripts the catalogs print, with a word too long for its cell (so that the language's
#: hyphenation patterns are loaded): what a child process would otherwise load afresh for
#: every document (see ``_warmed``).
WARM_UP = """<!DOCTYPE html><html lang="{lang}"><body>
<div class="masthead"><h1>Score sheet Лист счёта</h1><p class="when">Thursday 27 Nov 2026</p></div>
<p class="status">Ann wins by 125 points. Ана выигрывает, € $ £ ₽ − 1 234,50</p>
<table class="hands" style="width: 30mm"><thead><tr><th>Hand</th><th>Gesamtpunkte</th></tr></thead>
<tbody><tr><td>Unterschriftenfeld Согласовано <b>Featherstonehaugh</b></td>
<td><i>äöüß éèç ñ</i></td></tr></tbody></table></body></html>"""
#: the keys of ``_cache`` whose fonts have laid out ``WARM_UP`` (emptied with it)
_warm: set[tuple] = set()
#: the keys of ``_cache`` with which this process has laid out a real document itself
#: (emptied with it): see ``_in_child``
_real: set[tuple] = set()


def _forget() -> None:
    """Drop the parsed stylesheets and their fonts (the next rendering starts afresh)."""
    _cache.clear()
    _warm.clear()
    _real.clear()


# let the fonts go before the interpreter's teardown (WeasyPrint's FontConfiguration.__del__
# needs its module, which the teardown may have emptied by then)
atexit.register(_forget)


def _warmed(paper_size: str) -> None:
    """The stylesheet parsed and ``WARM_UP`` laid out with it in this process (once per key of
    ``_cache``), so that the child processes of ``_in_child`` inherit Pango's loaded fonts,
    shaped glyphs, the hyphenation patterns and the PDF writer along with the parsed
    stylesheet: a one-page sheet took 0.79 s in a child of a process that had only parsed
    the stylesheet, 0.44 s after this warm-up (0.36 s after a whole sheet)."""
    key = _key(paper_size)
    font_config, sheets = _stylesheets(paper_size)
    if key in _warm:
        return
    from weasyprint import HTML

    HTML(string=WARM_UP.format(lang=get_language() or "en"), base_url=str(STATIC_DIR) + "/",
         url_fetcher=_fetcher_class()()).render(stylesheets=sheets, font_config=font_config
                                                ).write_pdf()
    _warm.add(key)


def render_html(template_name: str, context: dict) -> str:
    return render_to_string(template_name, context)


@contextmanager
def _deadline(seconds: float | None):
    """Raise PdfTooLarge in the block after ``seconds`` (main thread only, see above)."""
    if not seconds or threading.current_thread() is not threading.main_thread() \
            or not hasattr(signal, "setitimer"):
        yield
        return

    def expired(signum, frame):
        raise PdfTooLarge(_took_too_long(seconds))

    previous = signal.signal(signal.SIGALRM, expired)
    # the alarm rings again every tenth of a second (at most) until the block is left: an
    # exception raised while a destructor runs (a temporary file's __del__, during WeasyPrint's
    # layout) is printed and dropped by Python, and a single alarm that landed there let the
    # rendering run on past its time (seen in CI under load)
    signal.setitimer(signal.ITIMER_REAL, seconds, min(seconds, 0.1))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _render(html: str, paper_size: str, max_pages: int | None) -> bytes:
    from weasyprint import HTML

    font_config, sheets = _stylesheets(paper_size)
    document = HTML(string=html, base_url=str(STATIC_DIR) + "/",
                    url_fetcher=_fetcher_class()()).render(
        stylesheets=sheets, font_config=font_config)
    if max_pages and len(document.pages) > max_pages:
        raise PdfTooLarge(gettext("The document runs to %(pages)s pages; at most %(most)s are "
                                  "printed here.") % {"pages": len(document.pages),
                                                      "most": max_pages})
    return document.write_pdf()


def _can_fork() -> bool:
    """A child process is made only from a single-threaded main thread (gunicorn's sync
    workers, the management commands): forking a process with other threads could copy a
    lock one of them holds."""
    return (hasattr(os, "fork") and threading.current_thread() is threading.main_thread()
            and threading.active_count() == 1)


def _in_child(html: str, paper_size: str, max_pages: int | None, timeout: float | None,
              nice: int) -> bytes:
    """``_render`` in a child process at ``nice`` (lower CPU priority), so that a PDF
    rendering yields the processor to the log-in page and hand entry in the other workers;
    the worker waits for it without using the processor. The child is killed at its
    deadline (a hard stop, even inside the C libraries) and never outlives the worker's
    wait.

    The first document of each paper size is rendered in the worker itself, under the same
    deadline (the worker is single-threaded here, so the alarm of ``_deadline`` stops it)
    and in the caller's render slot, at the worker's own priority; the next ones in
    children, which inherit what it laid out. A parent that had laid out only ``WARM_UP``
    left every child to load the rest of a real sheet's fonts, glyphs and layout again
    (issue 42: a one-game sheet +182% over the plain table; +100-112% once the parent had
    laid out a real one)."""
    if _key(paper_size) not in _real:
        with _lock:
            try:
                with _deadline(timeout):
                    pdf = _render(html, paper_size, max_pages)
            except PdfTooLarge:
                _forget()  # stopped halfway: start the next rendering afresh
                raise
            _real.add(_key(paper_size))
            return pdf
    with _lock:
        _warmed(paper_size)  # parsed and warmed once here, inherited by every child
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: render, send the outcome, leave without any clean-up
        try:
            os.close(reader)
            os.nice(nice)
            if timeout:  # a backstop: the default action of SIGALRM ends the process
                signal.signal(signal.SIGALRM, signal.SIG_DFL)
                signal.alarm(int(timeout) + 5)
            try:
                outcome = ("pdf", _render(html, paper_size, max_pages))
            except PdfTooLarge as exc:
                outcome = ("too large", exc.message)
            except BaseException as exc:  # noqa: BLE001 - reported to the parent
                outcome = ("error", f"{type(exc).__name__}: {exc}")
            with os.fdopen(writer, "wb") as out:
                out.write(pickle.dumps(outcome))
        finally:
            os._exit(0)
    os.close(writer)
    deadline = time.monotonic() + timeout if timeout else None
    chunks = []
    try:
        with os.fdopen(reader, "rb", buffering=0) as pipe:
            while True:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0 or not select.select([pipe], [], [], left)[0]:
                    raise PdfTooLarge(_took_too_long(timeout))
                chunk = pipe.read(1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
    finally:
        try:
            os.kill(pid, signal.SIGKILL)  # (already gone when it answered)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
    if not chunks:
        raise RuntimeError("the PDF rendering process ended without an answer")
    kind, value = pickle.loads(b"".join(chunks))
    if kind == "too large":
        raise PdfTooLarge(value)
    if kind == "error":
        raise RuntimeError(f"the PDF rendering failed: {value}")
    return value


def html_to_pdf(html: str, paper_size: str = "A4", *, max_pages: int | None = None,
                timeout: float | None = None, nice: int | None = None) -> bytes:
    """PDF bytes of ``html`` with the print stylesheet at ``paper_size`` (A4 or letter);
    PdfTooLarge beyond ``max_pages`` pages or ``timeout`` seconds. With ``nice`` (1-19) the
    rendering runs in a child process at that lower CPU priority (see ``_in_child``), when
    this process can fork."""
    if paper_size not in PAPER_SIZES:
        raise ValueError(f"paper size must be one of {sorted(PAPER_SIZES)}, not {paper_size!r}")
    if nice and _can_fork():
        return _in_child(html, paper_size, max_pages, timeout, nice)
    with _lock:  # WeasyPrint's font objects are shared between renders; one at a time
        try:
            with _deadline(timeout):
                return _render(html, paper_size, max_pages)
        except PdfTooLarge:
            _forget()  # stopped halfway: start the next rendering afresh
            raise
        except BaseException as exc:
            # The deadline's PdfTooLarge may land inside WeasyPrint's font or URL fetching,
            # which wraps it (FatalURLFetchingError, a BaseException: ``except Exception``
            # let it through when the alarm fell on the fonts' fetch): it is still the
            # deadline.
            stopped = _deadline_in(exc)
            if stopped is None:
                raise
            _forget()
            raise stopped from None


def _deadline_in(exc: BaseException) -> PdfTooLarge | None:
    """The PdfTooLarge that ``exc`` wraps (as its cause or context), if any."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, PdfTooLarge):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


def render_pdf(template_name: str, context: dict, paper_size: str = "A4", *,
               max_pages: int | None = None, timeout: float | None = None,
               nice: int | None = None) -> bytes:
    """Render the Django template ``template_name`` with ``context`` to PDF bytes."""
    return html_to_pdf(render_html(template_name, context), paper_size, max_pages=max_pages,
                       timeout=timeout, nice=nice)
