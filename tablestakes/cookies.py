"""CVE-2024-7592: quadratic time in unquoting a cookie value, and the upstream fix.

Django reads every request's ``Cookie`` header with ``http.cookies._unquote`` (in
``django.http.cookie.parse_cookie``), and gunicorn joins repeated ``Cookie`` headers into one
value with commas. In CPython before 3.11.10 (3.12.6) ``_unquote`` searches the rest of the
value again after each backslash escape: one anonymous request of 16 headers of 8 KB of
``\\"`` held a gunicorn worker for its whole 30 s timeout (8 headers: 7.8 s of CPU). A fixed
interpreter takes 0.01 s. Distributions patch their own builds without moving the version
(Debian 12's python3.11 says 3.11.2 and is fixed), so the version number tells nothing: this
module judges the code and its behaviour.

``install()`` (run when the ``tablestakes`` package is imported, so in gunicorn's workers, in
``manage.py`` and in the tests alike) puts the fixed function in place when the interpreter's
own is the old one; ``is_quadratic()`` times the function in effect on a crafted value, and
``manage.py check --deploy`` refuses (ledger.E001) while it is still slow.

Pure standard library: ``python3 tablestakes/cookies.py`` (scripts/bootstrap, the README)
says whether an interpreter is affected, without Django.
"""

from __future__ import annotations

import http.cookies
import re
import time

# -- the upstream fix ------------------------------------------------------------------------
# A backport of CPython commit 44e458357fca05ca0ae2658d62c8c595b048b5ef (gh-123067, "Fix
# quadratic complexity in parsing "-quoted cookie values with backslashes", the fix of
# CVE-2024-7592, released in 3.11.10, 3.12.6 and 3.13.0): Lib/http/cookies.py's
# ``_unquote_sub``, ``_unquote_replace`` and ``_unquote``, unchanged.
# Copyright (c) 2001-2024 Python Software Foundation; used under the PSF License Agreement
# (Python Software Foundation License Version 2).

_unquote_sub = re.compile(r'\\(?:([0-3][0-7][0-7])|(.))').sub


def _unquote_replace(m):
    if m[1]:
        return chr(int(m[1], 8))
    else:
        return m[2]


def _unquote(str):  # noqa: A002 - upstream's name, kept as it is
    # If there aren't any doublequotes,
    # then there can't be any special characters.  See RFC 2109.
    if str is None or len(str) < 2:
        return str
    if str[0] != '"' or str[-1] != '"':
        return str

    # We have to assume that we must decode this string.
    # Down to work.

    # Remove the "s
    str = str[1:-1]

    # Check for special sequences.  Examples:
    #    \012 --> \n
    #    \"   --> "
    #
    return _unquote_sub(_unquote_replace, str)


# -- which one is in effect --------------------------------------------------------------------

#: The interpreter's own function, as it was before ``install()``.
ORIGINAL = http.cookies._unquote

#: A cookie value of 12,000 ``\\"`` escapes (24 KB, three gunicorn header lines' worth): the
#: old code takes 0.6 s over it on this project's machines, the fixed one 2 ms.
PROBE = '"' + '\\"' * 12_000 + '"'

#: Slower than this over PROBE is the quadratic code: 50 times the fixed code's time, a
#: sixth of the old code's.
SLOW_SECONDS = 0.1


def is_old_code(function) -> bool:
    """Is ``function`` CPython's unquote before the fix? It searches with ``_OctalPatt`` and
    ``_QuotePatt`` from each escape on (the fix removed both)."""
    names = getattr(getattr(function, "__code__", None), "co_names", ())
    return "_OctalPatt" in names or "_QuotePatt" in names


def is_quadratic(function=None) -> bool:
    """Behaviour, not version: does ``function`` (default: the ``http.cookies._unquote`` in
    effect, which Django calls) take longer than SLOW_SECONDS over PROBE, twice running (a
    busy machine may stall one run)? A fixed one answers in milliseconds; the old one takes
    tenths of a second here and minutes over a 128 KB header."""
    function = function or http.cookies._unquote
    for _attempt in range(2):
        started = time.perf_counter()
        function(PROBE)
        if time.perf_counter() - started < SLOW_SECONDS:
            return False
    return True


def install() -> bool:
    """Put the fixed ``_unquote`` in ``http.cookies`` when the interpreter's own is the old
    code (Django and ``SimpleCookie`` look it up there at each call). True when it did."""
    if http.cookies._unquote is _unquote or not is_old_code(http.cookies._unquote):
        return False
    http.cookies._unquote = _unquote
    return True


def interpreter_affected() -> bool:
    """Is this interpreter's own cookie unquoting (before ``install()``) the quadratic one?"""
    return is_old_code(ORIGINAL) or is_quadratic(ORIGINAL)


if __name__ == "__main__":  # python3 tablestakes/cookies.py: what scripts/bootstrap asks
    import sys

    affected = interpreter_affected()
    print(f"{sys.executable} (Python {sys.version.split()[0]}): "
          + ("has CVE-2024-7592's quadratic cookie parsing" if affected
             else "parses cookies in linear time (CVE-2024-7592 fixed)"))
    sys.exit(1 if affected else 0)
