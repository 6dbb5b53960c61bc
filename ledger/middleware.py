"""Two answers a club's server gives without the rest of the app, and the language and
clock of each request.

- ``HealthCheckMiddleware``: ``/healthz`` for the proxy or a monitor. One ``SELECT 1``: 200
  ``ok``, or 503 with ``Retry-After`` when the database does not answer. No log-in, no
  session, no cookie, no template; answered before the session and the host check (a
  monitor may ask gunicorn itself at 127.0.0.1), and exempt from the https redirect
  (``SECURE_REDIRECT_EXEMPT`` in the production settings).
- ``DatabaseOutageMiddleware``: a view that cannot reach the database (connection refused or
  lost, the server shutting down, a lock or statement timeout) answers 503 Service
  Unavailable with ``Retry-After`` and the app's own page (templates/503.html) instead of a
  500. What fails in another middleware (the session, the log-in) is caught by the project's
  500 handler (``ledger.views.errors.server_error``), which gives the same answer.
- ``AccountLanguageMiddleware``: the account's language choice over the browser's.
- ``TableClockMiddleware``: each request on UTC until a view loads a table.
- ``RememberedRefusalMiddleware``: a refusal this worker just gave (an account's heavy page
  while its slot is taken, its table past the hour's) given again to the same session
  cookie until its Retry-After, before the session and the account are read: no query.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError, connection
from django.http import HttpResponse
from django.template import loader
from django.urls import Resolver404, resolve
from django.utils import timezone, translation
from django.utils.cache import add_never_cache_headers, patch_cache_control

from ledger import limits

logger = logging.getLogger("ledger.outage")

HEALTH_PATH = "/healthz"
#: what "the database cannot be reached just now" looks like through Django's DB-API wrapper
OUTAGE_ERRORS = (OperationalError, InterfaceError)


def retry_after() -> str:
    return str(settings.TABLESTAKES_RETRY_AFTER)


def outage_response() -> HttpResponse:
    """503, Retry-After, and the app's page; needs neither the request nor the database."""
    response = HttpResponse(loader.get_template("503.html").render(), status=503)
    response["Retry-After"] = retry_after()
    add_never_cache_headers(response)
    return response


def is_outage(error: BaseException | None) -> bool:
    return isinstance(error, OUTAGE_ERRORS)


class HealthCheckMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path_info != HEALTH_PATH:
            return self.get_response(request)
        if request.method not in ("GET", "HEAD"):
            response = HttpResponse(status=405)
            response["Allow"] = "GET, HEAD"
            return response
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
                cursor.fetchone()
        except DatabaseError as error:
            logger.warning("healthz: the database does not answer: %s", error)
            response = HttpResponse("database unavailable\n", status=503,
                                    content_type="text/plain; charset=utf-8")
            response["Retry-After"] = retry_after()
        else:
            response = HttpResponse("ok\n", content_type="text/plain; charset=utf-8")
        add_never_cache_headers(response)
        return response


class RememberedRefusalMiddleware:
    """Answers at once, 429 with the page and the Retry-After left, a request of a kind this
    worker refused the same session cookie a moment ago (``ledger.limits.remember_refusal``).
    The kind is the view's own ``remembered_refusal`` attribute: a kind for every method
    (``ledger.views.heavy``: "heavy"), or a dict of methods and kinds (the home page's POST,
    a new table: "tables"). Before the session middleware: no session, no account, no
    database; the URL is resolved, which reads nothing but the URLconf."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if limits.any_refusal_remembered():
            kind = self._kind(request)
            found = limits.remembered_refusal(request, kind) if kind else None
            if found is not None:
                return self._refusal(*found)
        return self.get_response(request)

    @staticmethod
    def _kind(request) -> str | None:
        if settings.SESSION_COOKIE_NAME not in request.COOKIES:
            return None
        try:
            match = resolve(request.path_info, getattr(request, "urlconf", None))
        except Resolver404:
            return None
        kinds = getattr(match.func, "remembered_refusal", None)
        if isinstance(kinds, dict):
            return kinds.get(request.method)
        return kinds

    @staticmethod
    def _refusal(seconds: int, body: bytes, language: str) -> HttpResponse:
        response = HttpResponse(body, status=429, content_type="text/html; charset=utf-8")
        response["Retry-After"] = str(seconds)
        response["Content-Language"] = language
        response["Cache-Control"] = "private, no-store"
        # what the later middleware would add to a page: this one is answered before them
        response["X-Frame-Options"] = "DENY"
        response["Content-Security-Policy"] = REFUSAL_CSP
        return response


#: The remembered refusal's page: its stylesheet and links, nothing else.
REFUSAL_CSP = ("default-src 'none'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
               "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


class DatabaseOutageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        """Read the session's user here, first of the views' middleware: the log-in
        middleware (``LoginRequiredMiddleware``) asks for it before every view, and what
        fails in its ``process_view`` would pass ``process_exception`` by. A database that
        cannot be reached then answers the outage page here, as for a view."""
        user = getattr(request, "user", None)
        if user is None:
            return None
        try:
            user.is_authenticated  # noqa: B018  (reads the session and the user)
        except OUTAGE_ERRORS as error:
            return self.process_exception(request, error)
        return None

    def process_exception(self, request, exception):
        if not is_outage(exception):
            return None
        logger.error("the database cannot be reached (%s %s): %s", request.method,
                     request.path, exception)
        return outage_response()


# -- the language of the screens and the clock of each request (docs/i18n.md) ----------------

#: The session's copy of the account's language choice, put there at log-in
#: (``ledger.signals``) and when the account changes it (``set_language``), so the screens
#: need no query of their own for it.
ACCOUNT_LANGUAGE = "tablestakes_language"


class AccountLanguageMiddleware:
    """A logged-in account's own language choice comes first; without one, what
    LocaleMiddleware found stays (the language cookie of the footer's switcher, else the
    browser's Accept-Language, else English). After AuthenticationMiddleware."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            language = self._chosen(request)
        except OUTAGE_ERRORS:  # the view meets the outage and answers 503 (above)
            language = None
        if language:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)

    @staticmethod
    def _chosen(request) -> str | None:
        session = getattr(request, "session", None)
        if session is None or settings.SESSION_COOKIE_NAME not in request.COOKIES:
            return None  # no session, no account: no query
        language = session.get(ACCOUNT_LANGUAGE)
        if language in dict(settings.LANGUAGES) and request.user.is_authenticated:
            return language
        return None


class TableClockMiddleware:
    """Every request starts on the site's time zone (UTC) and ends there: a table's zone,
    taken when a view loads the table (``ledger.clock.use_table_clock``), never leaks into
    the next request this thread serves."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


#: The capability pages: whoever holds the link sees the table's games and money without a
#: log-in (the share pages, the report and confirm links), so no cache keeps them either.
CAPABILITY_VIEWS = frozenset({"shared", "shared_game", "shared_live", "shared_game_live",
                              "report_page", "report_withdraw", "report_live",
                              "confirm_page"})
#: The same for everybody, logged in or not: they keep their own Cache-Control.
PUBLIC_VIEWS = frozenset({"manifest", "service_worker", "offline"})


class PrivatePagesMiddleware:
    """``Cache-Control: private, no-store`` on every answer to a logged-in account (its
    pages, the money downloads: CSV, XLSX, PDF, JSON) and on the capability pages: no proxy,
    shared cache or browser cache keeps a copy (a shared computer's back button, a company
    proxy). Static files (WhiteNoise, before this) and the public pages stay cacheable; a
    view's own ``no-cache`` (the live parts' ETag polling) stays beside it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        match = getattr(request, "resolver_match", None)
        name = match.url_name if match is not None and match.namespace == "ledger" else None
        if name in PUBLIC_VIEWS:
            return response
        user = getattr(request, "user", None)
        try:
            private = name in CAPABILITY_VIEWS or (user is not None and user.is_authenticated)
        except DatabaseError:
            # the database is out (the answer is the 503 page): who asks is not known, so
            # nothing may keep the answer either
            private = True
        if private:
            patch_cache_control(response, private=True, no_store=True)
        return response
