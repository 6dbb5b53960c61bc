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
(TABLESTAKES_PDF_NICE) a worker renders in its renderer, one child process kept at a lower
CPU priority and killed at a deadline, so that a long sheet yields the processor to the
pages everyone else is waiting for.
"""

from __future__ import annotations

import atexit
import gc
import os
import pickle
import posixpath
import re
import select
import signal
import stat
import threading
import time
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

from django.template.loader import render_to_string
from django.utils.translation import get_language, gettext

from .pdf_styles import mend_computed_styles
from .pdf_tables import mend_collapsed_borders

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


def _mend_html_parser() -> None:
    """Make WeasyPrint's HTML parser (tinyhtml5) keep the patterns it reads text with.
    ``chars_until`` means to compile one regular expression per set of stop characters
    and keep it, but stores it under the wrong key (the compiled pattern, not the
    characters), so it built the pattern's text again at every run of text, tag name and
    attribute: a third of the parsing of a session report (6.5 -> 3.9 ms), a quarter of
    a plain table's (2.6 -> 2.0). Here the pattern is stored where the parser looks for
    it; the parsed tree is the same."""
    try:
        from tinyhtml5 import inputstream
        stream = inputstream.HTMLUnicodeInputStream
        patterns = inputstream.characters_until_regex
        chars_until = stream.chars_until
    except (ImportError, AttributeError):  # another parser or version: nothing to mend
        return
    if getattr(chars_until, "mended", False):
        return

    def mended(self, characters, opposite=False):
        if (characters, opposite) not in patterns:  # as chars_until compiles it
            stops = "".join([f"\\x{ord(character):02x}" for character in characters])
            patterns[characters, opposite] = re.compile(
                f"[{stops if opposite else '^' + stops}]+")
        return chars_until(self, characters, opposite)

    mended.mended = True
    stream.chars_until = mended


@cache
def _fetcher_class() -> type[URLFetcher]:
    from weasyprint.urls import URLFetcher

    _mend_html_parser()  # (every rendering and the bench's plain table fetch through this)
    mend_collapsed_borders()
    mend_computed_styles()

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


def _forget() -> None:
    """Drop the parsed stylesheets and their fonts (the next rendering starts afresh)."""
    _cache.clear()


# let the fonts go before the interpreter's teardown (WeasyPrint's FontConfiguration.__del__
# needs its module, which the teardown may have emptied by then)
atexit.register(_forget)


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


#: the rules of WeasyPrint's user-agent stylesheet that a printed document never needs:
#: each matches every element, so WeasyPrint computed the style of six pseudo-elements
#: (a list marker, footnote and note calls and markers) for every cell of every table,
#: though only a list item has a marker and no document has footnotes or notes
_UA_EVERY_ELEMENT = re.compile(
    r"^::(?:footnote-call|footnote-marker|note-call|note-marker|note-callback) \{[^}\n]*\}\n",
    re.MULTILINE)
_UA_MARKER = "\n::marker {"


@cache
def _document_class() -> type:
    """WeasyPrint's ``HTML`` with its user-agent stylesheet less the rules above (a list
    item's ``::marker`` kept): the same pages, 5% fewer steps in the layout of a one-game
    sheet (issue 42). Where WeasyPrint's stylesheet does not read as expected, its own."""
    from weasyprint import CSS, HTML
    from weasyprint import html as html5
    from weasyprint.css.counters import CounterStyle

    stock = html5.UA
    text, dropped = _UA_EVERY_ELEMENT.subn("", stock)
    if dropped != 5 or stock.count(_UA_MARKER) != 1 \
            or not hasattr(HTML, "_ua_stylesheets"):
        return HTML
    # (its @counter-style rules are WeasyPrint's own, already known to every document:
    # read here into a style of their own, not again into WeasyPrint's)
    sheet = CSS(string=text.replace(_UA_MARKER, "\nli::marker {"),
                counter_style=CounterStyle())

    class Document(HTML):
        def _ua_stylesheets(self, forms=False):
            return [sheet, *super()._ua_stylesheets(forms)[1:]]

    return Document


def html_document(html: str):
    """WeasyPrint's document of ``html``, ready to render with ``_stylesheets``."""
    return _document_class()(string=html, base_url=str(STATIC_DIR) + "/",
                             url_fetcher=_fetcher_class()())


def _render(html: str, paper_size: str, max_pages: int | None) -> bytes:
    font_config, sheets = _stylesheets(paper_size)
    document = html_document(html).render(stylesheets=sheets, font_config=font_config)
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


#: documents a renderer lays out before it is replaced by a fresh one, so that what
#: WeasyPrint and Pango keep between documents stays bounded
RENDERS_PER_RENDERER = 200


def _send(fd: int, message: object) -> None:
    data = pickle.dumps(message)
    data = len(data).to_bytes(8, "big") + data
    while data:
        data = data[os.write(fd, data):]


def _receive(fd: int, deadline: float | None) -> object:
    """The next message on ``fd``; None at its end; TimeoutError past ``deadline``."""
    def read(size: int) -> bytes | None:
        chunks = []
        while size:
            if deadline is not None:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([fd], [], [], left)[0]:
                    raise TimeoutError
            chunk = os.read(fd, min(size, 1 << 20))
            if not chunk:
                return None
            chunks.append(chunk)
            size -= len(chunk)
        return b"".join(chunks)

    header = read(8)
    body = None if header is None else read(int.from_bytes(header, "big"))
    return None if body is None else pickle.loads(body)


def _close_sockets(keep: set[int]) -> None:
    """Close the sockets a renderer inherited (the database connections, the server's
    listening socket): it uses none, and a connection held open by it would outlive the
    worker's own closing of it (PostgreSQL would count it as in use)."""
    try:
        fds = [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:  # not Linux: nothing known to close
        return
    for fd in fds:
        if fd > 2 and fd not in keep:
            try:
                if stat.S_ISSOCK(os.fstat(fd).st_mode):
                    os.close(fd)
            except OSError:
                pass


def _serve(requests: int, answers: int, nice: int) -> None:
    """The renderer's loop: a document asked for, its outcome sent back; until the worker
    closes its end."""
    from django.utils import translation

    os.nice(nice)
    _close_sockets({requests, answers})
    # What the worker had made before the fork (Django, the templates, WeasyPrint, the
    # fonts: 130,000 objects) is left out of the garbage collector's rounds: each full
    # round walked all of it (and wrote to pages the renderer otherwise shares with the
    # worker), though none of it becomes garbage here. A one-game sheet: 10 ms of its
    # layout were collections, 3 ms now.
    gc.freeze()
    for number in (signal.SIGALRM, signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(number, signal.SIG_DFL)  # not the worker's handlers
    while True:
        request = _receive(requests, None)
        if request is None:  # the worker is gone or let it go
            return
        html, paper_size, max_pages, language, timeout = request
        if timeout:  # a backstop: the default action of SIGALRM ends the process
            signal.alarm(int(timeout) + 5)
        gc.disable()  # (see below)
        try:
            with translation.override(language):
                outcome = ("pdf", _render(html, paper_size, max_pages))
        except PdfTooLarge as exc:
            outcome = ("too large", exc.message)
        except BaseException as exc:  # noqa: BLE001 - reported to the worker
            outcome = ("error", f"{type(exc).__name__}: {exc}")
        signal.alarm(0)
        _send(answers, (*outcome, time.process_time()))
        _collect()


def _collect() -> None:
    """The renderer's garbage collection, once per document, after its answer is sent (the
    worker sends the PDF on meanwhile): the document's cycles are freed, and what outlives
    it (the parsed stylesheet, the fonts, WeasyPrint's caches) is frozen with what the
    worker made, so that the next collection walks only the next document's objects. With
    the collector running during the layout, its rounds walked those survivors again and
    again: 5-10 ms of a one-game sheet (a full round 3-6 ms every tenth document, 240
    young rounds), 2-3 ms now; a 300-hand sheet 220 -> 55 ms. The garbage of one document
    is bounded by its limits (pages, hands, time), as its memory was; what is frozen and
    later dropped stays until the renderer is replaced (``RENDERS_PER_RENDERER``)."""
    gc.enable()
    gc.collect()
    gc.freeze()


class _RendererGone(RuntimeError):
    """The renderer ended without answering (killed, or out of memory)."""


class _Renderer:
    """A child process of this worker at a lower CPU priority that lays out the worker's
    documents one after another (see ``_in_child``)."""

    def __init__(self, nice: int):
        requests_in, self.requests = os.pipe()
        self.answers, answers_out = os.pipe()
        pid = os.fork()
        if pid == 0:  # the renderer: serve, then leave without any clean-up
            try:
                os.close(self.requests)
                os.close(self.answers)
                _serve(requests_in, answers_out, nice)
            finally:
                os._exit(0)
        os.close(requests_in)
        os.close(answers_out)
        self.pid, self.owner, self.nice, self.render = pid, os.getpid(), nice, _render
        self.renders = 0
        #: the renderer's processor time (seconds) when it sent its last answer
        self.cpu = 0.0

    def serves(self, nice: int) -> bool:
        """Still running, this process's own, at this priority and with this module's
        ``_render`` (the one it was made with)."""
        if self.owner != os.getpid() or self.nice != nice or self.render is not _render:
            return False
        try:
            return os.waitpid(self.pid, os.WNOHANG) == (0, 0)
        except ChildProcessError:
            return False

    def ask(self, request: tuple, timeout: float | None, *,
            deadline: float | None = None) -> tuple[str, object]:
        """The renderer's answer to ``request``; PdfTooLarge ("took more than ``timeout``
        seconds") past ``deadline`` (``time.monotonic()``; ``timeout`` from now if not
        given)."""
        if deadline is None and timeout:
            deadline = time.monotonic() + timeout
        try:
            _send(self.requests, request)
            answer = _receive(self.answers, deadline)
        except TimeoutError:
            raise PdfTooLarge(_took_too_long(timeout)) from None
        except BrokenPipeError:
            answer = None
        if answer is None:
            raise _RendererGone("the PDF rendering process ended without an answer")
        *answer, self.cpu = answer
        return tuple(answer)

    def stop(self) -> None:
        """Closed and, when this process made it, killed and reaped."""
        for fd in (self.requests, self.answers):
            try:
                os.close(fd)
            except OSError:
                pass
        if self.owner != os.getpid():
            return  # another process's renderer, inherited through a fork: not ours to end
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass


_renderer: _Renderer | None = None


def _stop_renderer() -> None:
    """End this worker's renderer, if any (the next document starts a fresh one)."""
    global _renderer
    if _renderer is not None:
        _renderer.stop()
        _renderer = None


atexit.register(_stop_renderer)


def _in_child(html: str, paper_size: str, max_pages: int | None, timeout: float | None,
              nice: int) -> bytes:
    """``_render`` in this worker's renderer, a child process at ``nice`` (lower CPU
    priority), so that a PDF rendering yields the processor to the log-in page and hand
    entry in the other workers; the worker waits for it without using the processor. The
    renderer is killed at the document's deadline (a hard stop, even inside the C libraries)
    and replaced by a fresh one for the next document; it ends when the worker does.

    One renderer serves the worker's documents one after another (a fresh one after
    ``RENDERS_PER_RENDERER``), keeping the parsed stylesheet, the loaded fonts, shaped glyphs
    and hyphenation patterns from one to the next. A child forked for each document lost
    them every time and paid for copying the worker's memory as it wrote to it (issue 42:
    a one-game sheet took 40 ms more processor time in a fresh child than in a warm
    process, 185 against 145 ms; +182% over the plain table in the bench)."""
    global _renderer
    with _lock:
        deadline = time.monotonic() + timeout if timeout else None
        while True:
            if _renderer is not None and not _renderer.serves(nice):
                _stop_renderer()
            if _renderer is None:
                _renderer = _Renderer(nice)
            renderer = _renderer
            try:
                kind, value = renderer.ask(
                    (html, paper_size, max_pages, get_language(), timeout), timeout,
                    deadline=deadline)
            except _RendererGone:
                _stop_renderer()
                # A renderer that had served documents and is found gone at the next one
                # most likely ended in between (killed, or the kernel's out-of-memory
                # killer): a fresh one is asked once more. One that ends on its first
                # document is not asked again: that document may be what ends it.
                if renderer.renders:
                    continue
                raise
            except BaseException:
                _stop_renderer()  # past its deadline: the next document gets a fresh one
                raise
            break
        renderer.renders += 1
        if renderer.renders >= RENDERS_PER_RENDERER:
            _stop_renderer()
    if kind == "too large":
        raise PdfTooLarge(value)
    if kind == "error":
        raise RuntimeError(f"the PDF rendering failed: {value}")
    return value


def html_to_pdf(html: str, paper_size: str = "A4", *, max_pages: int | None = None,
                timeout: float | None = None, nice: int | None = None) -> bytes:
    """PDF bytes of ``html`` with the print stylesheet at ``paper_size`` (A4 or letter);
    PdfTooLarge beyond ``max_pages`` pages or ``timeout`` seconds. With ``nice`` (1-19) the
    rendering runs in this process's renderer, a child process at that lower CPU priority
    (see ``_in_child``), when this process can fork."""
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
