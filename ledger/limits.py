"""The limits that keep one scorekeeper (or one stranger) from exhausting a club's server.

Each limit is a setting (``tablestakes/settings/base.py``, overridable from the
environment) with a default fit for a card table, and each refusal says which limit was
reached and what to do, in words a scorekeeper can read:

- ``TABLESTAKES_MAX_HANDS_PER_GAME``: live hands in one game (draws count too);
- ``TABLESTAKES_MAX_IMPORT_BYTES`` / ``TABLESTAKES_MAX_IMPORT_HANDS``: an imported record,
  refused before it is parsed (its size) or scored (its hands);
- ``TABLESTAKES_SIGNUPS_PER_ADDRESS`` / ``_PER_EMAIL`` in ``TABLESTAKES_SIGNUP_WINDOW``
  seconds, ``TABLESTAKES_RESETS_PER_ADDRESS`` / ``_PER_EMAIL`` in
  ``TABLESTAKES_RESET_WINDOW``: sign-ups and password resets asked from one client address
  and for one e-mail address, counted atomically in the database (``ledger.counters``);
- ``TABLESTAKES_LOGIN_FAILURES_PER_ADDRESS``: wrong passwords from one client address across
  usernames (django-axes counts them per username and address: ``AXES_*``, with the
  client's address from ``client_key`` here: an IPv6 address by its /64);
  ``TABLESTAKES_LOGIN_FAILURES_PER_USERNAME`` in ``TABLESTAKES_LOGIN_USERNAME_WINDOW``:
  wrong passwords for one username from anywhere, after which each attempt waits a growing
  delay (up to ``TABLESTAKES_LOGIN_DELAY_MAX``); a device cookie
  (``TABLESTAKES_DEVICE_COOKIE_DAYS``) lets the account's own browser past both;
- ``TABLESTAKES_MAX_PLAYERS_PER_TABLE``: players of one table (archived ones count);
  ``TABLESTAKES_MAX_RECORD_PLAYERS``: players one imported record lists, counted before any
  name is read; ``TABLESTAKES_MAX_NAMES_PER_REQUEST``: names one form sends at once;
  ``TABLESTAKES_MAX_FIELD_BYTES``: the bytes of any one form field, before it is read
  (``ledger.cleaning.forms``);
- ``TABLESTAKES_PDF_RENDERS`` (in total) and ``TABLESTAKES_PDF_RENDERS_PER_ACCOUNT``: PDF
  renderings at once, slots held in the database (``ledger.services.printing``);
- the PDF limits live with the renderer (``scoresheets/pdf.py``).
"""

from __future__ import annotations

import ipaddress
import logging
import math
import threading
import time
import unicodedata
from typing import Any

from django.conf import settings

from .exceptions import LedgerError

logger = logging.getLogger("ledger.limits")


class LimitReached(LedgerError):
    """A limit of the installation was reached; nothing was stored."""


def max_hands_per_game() -> int:
    return settings.TABLESTAKES_MAX_HANDS_PER_GAME


def check_hand_room(live_hands: int) -> None:
    """Refuse the hand after the last one a game may hold (draws included)."""
    limit = max_hands_per_game()
    if live_hands >= limit:
        raise LimitReached(code="hand_room", hands=live_hands, limit=limit)


def check_import_bytes(size: int, where: str = "the record") -> None:
    limit = settings.TABLESTAKES_MAX_IMPORT_BYTES
    if size > limit:
        raise LimitReached(
            f"{where} is {size:,} bytes; records up to {limit:,} bytes are imported here "
            "(TABLESTAKES_MAX_IMPORT_BYTES). Split it into smaller records."
        )


def check_import_hands(hands: int, where: str = "the record") -> None:
    limit = settings.TABLESTAKES_MAX_IMPORT_HANDS
    if hands > limit:
        raise LimitReached(
            f"{where} has {hands:,} hands; records of up to {limit:,} hands are imported "
            "here (TABLESTAKES_MAX_IMPORT_HANDS). Split it into smaller records."
        )


def record_hand_count(record) -> int:
    """Hands in a game record, or over every game of a session record."""
    if not isinstance(record, dict):
        return 0
    games = record.get("games")
    if isinstance(games, list):
        return sum(record_hand_count(game) for game in games)
    hands = record.get("hands")
    return len(hands) if isinstance(hands, list) else 0


def check_record_hands(record, where: str = "the record") -> None:
    """An imported record's hands, counted before anything is scored: at most
    TABLESTAKES_MAX_IMPORT_HANDS over all its games, and no game above the hands a game
    may hold."""
    check_import_hands(record_hand_count(record), where)
    games = record.get("games") if isinstance(record, dict) else None
    for index, game in enumerate(games if isinstance(games, list) else [record], start=1):
        hands = record_hand_count(game)
        if hands > max_hands_per_game():
            what = f"game {index} of {where}" if isinstance(games, list) else where
            raise LimitReached(
                f"{what} has {hands:,} hands; a game holds at most {max_hands_per_game():,} "
                "here (TABLESTAKES_MAX_HANDS_PER_GAME)."
            )


# -- names and text --------------------------------------------------------------------------

def max_players_per_table() -> int:
    return settings.TABLESTAKES_MAX_PLAYERS_PER_TABLE


def check_table_players(players: int, table_name: Any = "This table") -> None:
    """Refuse a table of more than TABLESTAKES_MAX_PLAYERS_PER_TABLE players (``players``:
    how many it would have; ``table_name``: the table, a ``cleaning.Field`` or text)."""
    limit = max_players_per_table()
    if players > limit:
        raise LimitReached(code="table_players", table=table_name, players=f"{players:,}",
                           limit=f"{limit:,}")


def max_record_players() -> int:
    return settings.TABLESTAKES_MAX_RECORD_PLAYERS


def record_players_problem(names: int, where: str = "players") -> str | None:
    """Why a record's list of ``names`` players is refused before any name is read, or
    None."""
    limit = max_record_players()
    if names > limit:
        return (f"{where}: {names:,} players listed; a record lists at most {limit:,} here "
                "(TABLESTAKES_MAX_RECORD_PLAYERS)")
    return None


def max_names_per_request() -> int:
    return settings.TABLESTAKES_MAX_NAMES_PER_REQUEST


def names_problem(names: int) -> LimitReached | None:
    """Why ``names`` names sent by one form at once are refused (a refusal, as data), or
    None."""
    limit = min(max_names_per_request(), max_players_per_table())
    if names > limit:
        return LimitReached(code="names_at_once", names=f"{names:,}", limit=f"{limit:,}")
    return None


def max_field_bytes() -> int:
    return settings.TABLESTAKES_MAX_FIELD_BYTES


def field_bytes_problem(label: str, raw: str) -> LedgerError | None:
    """Why one form field's raw text is refused for its size (code "field_bytes"), or None
    (measured in UTF-8 bytes, before anything else reads it)."""
    limit = max_field_bytes()
    if len(raw) <= limit // 4:  # no character takes more than 4 bytes
        return None
    size = len(raw.encode("utf-8", "surrogatepass"))
    if size > limit:
        return LedgerError(code="field_bytes", what=label, size=f"{size:,}",
                           limit=f"{limit:,}")
    return None


# -- who is asking ---------------------------------------------------------------------------

def _address(text) -> str | None:
    try:
        return str(ipaddress.ip_address(str(text).strip()))
    except ValueError:
        return None


def address_key(address: str | None) -> str | None:
    """What the limits count an address as: an IPv4 address itself; an IPv6 address by its
    /64, written as the network's first address (one home or phone network is given a whole
    /64, and each device there may pick any address in it); an IPv4-mapped IPv6 address as
    its IPv4 address."""
    if address is None:
        return None
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return None
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False).network_address)
    return str(ip)


def client_key(request) -> str | None:
    """The client as the limits count it: ``address_key`` of ``client_ip`` (also what
    django-axes records, ``AXES_CLIENT_IP_CALLABLE``)."""
    return address_key(client_ip(request))


def client_ip(request) -> str | None:
    """The client's address: REMOTE_ADDR, or behind TABLESTAKES_PROXY_COUNT trusted proxies
    the address the outermost of them saw (the last entries of X-Forwarded-For are the
    proxies' own; anything before them could be made up by the client). None when there is
    no valid address (a request made in code)."""
    meta = getattr(request, "META", None) or {}
    remote = _address(meta.get("REMOTE_ADDR") or "")
    proxies = settings.TABLESTAKES_PROXY_COUNT or 0  # None: not stated, read as no proxy
    if proxies <= 0:
        if meta.get("HTTP_X_FORWARDED_FOR"):
            _proxy_not_counted(remote)
        return remote
    chain = [part for part in str(meta.get("HTTP_X_FORWARDED_FOR", "")).split(",")
             if part.strip()]
    if len(chain) < proxies:
        return remote
    return _address(chain[-proxies]) or remote


_warned_about_proxy = False


def _proxy_not_counted(remote) -> None:
    """Once per process: a request came through a proxy that TABLESTAKES_PROXY_COUNT=0 says
    is not there, so every client looks like the proxy to the limits."""
    global _warned_about_proxy
    if _warned_about_proxy:
        return
    _warned_about_proxy = True
    logger.warning(
        "A request carries X-Forwarded-For but TABLESTAKES_PROXY_COUNT is 0: if a proxy "
        "stands in front of the app, every client is counted as its address %s for the "
        "log-in lock-out and the sign-up limit. Set TABLESTAKES_PROXY_COUNT=1.", remote)


# -- limits per client address and per e-mail address (atomic counters) ----------------------
#
# Each request that may send a mail or try a password counts in ``ledger.counters``: one SQL
# statement adds one and returns the new count, so simultaneous requests (in any number of
# workers) each see a different count and no more than the limit ever get through. A
# request is counted whatever the address it names, known or not, so a refusal says nothing
# about which addresses have accounts.

def _minutes_left(ends: float) -> int:
    return max(1, math.ceil((ends - time.time()) / 60))


def _email_key(email: str) -> str:
    """A counter's name for an e-mail address: a keyed hash, so the table holds no address."""
    from django.utils.crypto import salted_hmac

    return salted_hmac("tablestakes.limits.email", email.strip().lower()).hexdigest()[:32]


def _count(name: str, limit: int, window: int, refusal: str) -> None:
    """Count one under ``name``; refuse (LimitReached, code ``refusal``, with the minutes
    left) past ``limit`` in ``window`` seconds."""
    from . import counters

    hits, ends = counters.hit(name, window)
    if hits > limit:
        raise LimitReached(code=refusal, minutes=_minutes_left(ends))


def count_signup(request, email: str) -> None:
    """One sign-up asked from this client address for ``email``: at most
    TABLESTAKES_SIGNUPS_PER_ADDRESS from one client address and TABLESTAKES_SIGNUPS_PER_EMAIL
    for one e-mail address in TABLESTAKES_SIGNUP_WINDOW seconds."""
    window = settings.TABLESTAKES_SIGNUP_WINDOW
    _count(f"signup:ip:{client_key(request)}", settings.TABLESTAKES_SIGNUPS_PER_ADDRESS, window,
           "signups_network")
    _count(f"signup:email:{_email_key(email)}", settings.TABLESTAKES_SIGNUPS_PER_EMAIL, window,
           "signups_email")


def count_password_reset(request, email: str) -> None:
    """One password reset asked: at most TABLESTAKES_RESETS_PER_ADDRESS from one client
    address and TABLESTAKES_RESETS_PER_EMAIL for one e-mail address in
    TABLESTAKES_RESET_WINDOW seconds."""
    window = settings.TABLESTAKES_RESET_WINDOW
    _count(f"reset:ip:{client_key(request)}", settings.TABLESTAKES_RESETS_PER_ADDRESS, window,
           "resets_network")
    _count(f"reset:email:{_email_key(email)}", settings.TABLESTAKES_RESETS_PER_EMAIL, window,
           "resets_email")


# -- log-in: per client address, per username from anywhere, per device ----------------------
#
# Three counts, all checked before the password is hashed (``accounts.LoginLimitsBackend``,
# first of the backends), all in ``ledger.counters``:
#
# - per client address (an IPv6 address by its /64, ``client_key``), across usernames:
#   TABLESTAKES_LOGIN_FAILURES_PER_ADDRESS wrong passwords in the cool-off time lock every
#   log-in from it until the cool-off ends (a success does not clear this count, or a
#   guesser would log in to an account of his own between guesses); django-axes locks one
#   username from one address after AXES_FAILURE_LIMIT;
# - per username, from any address: after TABLESTAKES_LOGIN_FAILURES_PER_USERNAME wrong
#   passwords in TABLESTAKES_LOGIN_USERNAME_WINDOW seconds, each further attempt waits its
#   turn, 1 second after the first of them, then 2, 4, 8... up to
#   TABLESTAKES_LOGIN_DELAY_MAX: a growing delay, never a lock, so a stranger slows an
#   account down but cannot shut its owner out; an attempt before its turn is answered at
#   once, "wait N seconds", unhashed and uncounted; the owner's success clears the count;
# - per device: a log-in that succeeds gives the browser a signed cookie naming the account
#   (OWASP's device cookies). A log-in for that account with that cookie skips the two
#   limits above (and django-axes'): a member whose phone has logged in before gets in
#   from a club's shared Wi-Fi while a stranger there is locked out or the account slowed
#   down. Its own wrong passwords count on the cookie: AXES_FAILURE_LIMIT of them in the
#   cool-off time, and the cookie is worth nothing until the cool-off ends.

DEVICE_COOKIE = "tablestakes_device"
DEVICE_SALT = "tablestakes.limits.device"


def _cool_off() -> int:
    cool_off = settings.AXES_COOLOFF_TIME
    return int(cool_off.total_seconds()) if cool_off else 24 * 3600


def _login_key(request) -> str:
    return f"login-failures:ip:{client_key(request)}"


def username_key(username) -> str:
    """A counter's name for a username as typed (any case): a keyed hash, so the table
    holds no username and a username nobody has is counted like any other."""
    from django.utils.crypto import salted_hmac

    text = unicodedata.normalize("NFKC", str(username or "")).strip().casefold()[:150]
    return salted_hmac("tablestakes.limits.username", text).hexdigest()[:32]


def login_address_lock(request) -> int | None:
    """The minutes left when log-ins from this client address are locked, else None."""
    from . import counters

    hits, ends = counters.current(_login_key(request))
    if hits >= settings.TABLESTAKES_LOGIN_FAILURES_PER_ADDRESS:
        return _minutes_left(ends)
    return None


def login_delay(failures: int) -> int:
    """Seconds the next attempt for a username waits after ``failures`` wrong passwords
    (0 below TABLESTAKES_LOGIN_FAILURES_PER_USERNAME; then 1, 2, 4... up to the cap)."""
    free = settings.TABLESTAKES_LOGIN_FAILURES_PER_USERNAME
    if failures < free:
        return 0
    return min(settings.TABLESTAKES_LOGIN_DELAY_MAX, 2 ** min(failures - free, 30))


def login_username_turn(username) -> int | None:
    """Before the password is hashed: None when this attempt for ``username`` may go on
    (below the limit, or its turn has come: the turn is taken, atomically, and the next
    one set), else the whole seconds until its turn."""
    return login_limits(None, username)[1]


def login_limits(request, username) -> tuple[int | None, int | None]:
    """Before the password is hashed, in one query (and one more to take a turn): the
    minutes left of the client address's lock, or None; then, when the address is not
    locked, the whole seconds until ``username``'s next turn, or None when this attempt
    may go on (below the limit, or its turn has come: the turn is then taken, atomically,
    and the next one set)."""
    from . import counters

    key = username_key(username)
    failures_key, turn_key = f"login-failures:user:{key}", f"login-turn:user:{key}"
    names = [failures_key, turn_key] + ([_login_key(request)] if request is not None else [])
    now = counters.now()
    rows = counters.current_many(names, now=now)
    if request is not None:
        hits, ends = rows.get(_login_key(request), (0, now))
        if hits >= settings.TABLESTAKES_LOGIN_FAILURES_PER_ADDRESS:
            return _minutes_left(ends), None
    delay = login_delay(rows.get(failures_key, (0, now))[0])
    if not delay:
        return None, None
    if turn_key not in rows:
        taken, turn = counters.claim(turn_key, delay, now=now)
        if taken:
            return None, None
    else:
        turn = rows[turn_key][1]
    return None, max(1, math.ceil(turn - now))


def _count_username_failure(username) -> None:
    from . import counters

    key = username_key(username)
    failures, _ = counters.hit(f"login-failures:user:{key}",
                               settings.TABLESTAKES_LOGIN_USERNAME_WINDOW)
    delay = login_delay(failures)
    if delay:
        counters.hold(f"login-turn:user:{key}", counters.now() + delay)


def login_succeeded(sender, request=None, user=None, **kwargs) -> None:
    """``user_logged_in``: the owner got in, so the username's count and turn start over
    (the count per address stays, see above)."""
    from . import counters

    if user is None:
        return
    key = username_key(user.get_username())
    counters.forget(f"login-failures:user:{key}", f"login-turn:user:{key}")


# -- the device cookie --

def device_cookie_value(username) -> str:
    """The signed cookie a browser gets when it logs in to ``username``."""
    import secrets

    from django.core import signing

    return signing.dumps({"u": username_key(username), "d": secrets.token_hex(8)},
                         salt=DEVICE_SALT)


def trusted_device(request, username) -> str | None:
    """This browser's device cookie, when it is ours, not older than
    TABLESTAKES_DEVICE_COOKIE_DAYS, for ``username``, and not spent by AXES_FAILURE_LIMIT
    wrong passwords in the cool-off time: its id, else None (asked once per request)."""
    from django.core import signing

    from . import counters

    if request is None:
        return None
    cache = request.__dict__.setdefault("_tablestakes_devices", {})
    wanted = username_key(username)
    if wanted in cache:
        return cache[wanted]
    device = None
    raw = getattr(request, "COOKIES", {}).get(DEVICE_COOKIE)
    if raw:
        try:
            data = signing.loads(raw, salt=DEVICE_SALT,
                                 max_age=settings.TABLESTAKES_DEVICE_COOKIE_DAYS * 86400)
        except signing.BadSignature:
            data = None
        if isinstance(data, dict) and data.get("u") == wanted and isinstance(data.get("d"), str):
            spent, _ = counters.current(f"login-failures:device:{data['d']}")
            if spent < settings.AXES_FAILURE_LIMIT:
                device = data["d"]
    cache[wanted] = device
    return device


def axes_trusted_device(request, credentials=None) -> bool:
    """django-axes' whitelist: a log-in from a trusted device of its account is never
    locked by username and address (it has its own count)."""
    username = credentials.get("username") if isinstance(credentials, dict) else None
    if username is None and request is not None:
        username = getattr(request, "POST", {}).get("username")
    return trusted_device(request, username) is not None


def count_login_failure(sender, credentials=None, request=None, **kwargs) -> None:
    """``user_login_failed``: one more failure on the device's cookie (from a trusted
    device), else from the client's address and for the username. At the address's limit,
    this request already answers with the lock-out page (django-axes' middleware shows it).
    An attempt refused before its password was read is not counted."""
    from . import counters

    if request is None or getattr(request, "tablestakes_refused", False):
        return
    username = credentials.get("username") if isinstance(credentials, dict) else None
    device = trusted_device(request, username)
    if device:
        counters.hit(f"login-failures:device:{device}", _cool_off())
        return
    hits, ends = counters.hit(_login_key(request), _cool_off())
    _count_username_failure(username)
    if hits >= settings.TABLESTAKES_LOGIN_FAILURES_PER_ADDRESS:
        mark_address_locked(request, _minutes_left(ends), credentials)


def mark_address_locked(request, minutes: int, credentials=None) -> None:
    request.tablestakes_address_lock = minutes
    request.tablestakes_refused = True
    request.axes_locked_out = True  # django-axes' middleware then answers locked_out()
    request.axes_credentials = credentials


def mark_username_wait(request, seconds: int, credentials=None) -> None:
    request.tablestakes_login_wait = seconds
    request.tablestakes_refused = True
    request.axes_locked_out = True
    request.axes_credentials = credentials


def axes_username(request, credentials=None) -> str:
    """The username django-axes records for a failed log-in: as typed, without the
    characters a database column cannot hold, cut to the 150 characters of a username (a
    100,000-character or NUL-laden guess must not turn a refused log-in into an error)."""
    name = credentials.get("username") if isinstance(credentials, dict) else None
    if name is None and request is not None:
        name = getattr(request, "POST", {}).get("username", "")
    text = "".join(char for char in str(name or "")
                   if unicodedata.category(char) not in ("Cc", "Cs"))
    return text[:150]


# -- reports from the tables' phones (issue 23) ----------------------------------------------

def count_report(request, link_id: int) -> None:
    """One report (or withdrawal) sent through a report link: at most
    TABLESTAKES_REPORTS_PER_LINK per link and TABLESTAKES_REPORTS_PER_ADDRESS from one
    client address in TABLESTAKES_REPORT_WINDOW seconds (a table sends a handful a hand)."""
    window = settings.TABLESTAKES_REPORT_WINDOW
    _count(f"report:link:{link_id}", settings.TABLESTAKES_REPORTS_PER_LINK, window,
           "reports_from_table")
    _count(f"report:ip:{client_key(request)}",
           settings.TABLESTAKES_REPORTS_PER_ADDRESS, window,
           "reports_from_network")


# -- one account's heavy pages and what it makes (issue 38) ----------------------------------
#
# The pages that take a worker for long (a big game's page, the book, the sheets' previews)
# and every download (CSV, XLSX, the whole table's JSON) take one of the account's
# TABLESTAKES_HEAVY_PER_ACCOUNT slots first, rows in ``ledger.counters`` (so the bound holds
# across gunicorn's workers); without a free one the request is answered at once, 429 "your
# other page is still being made" with Retry-After, and never holds a worker. A slot is
# given back when the response is made (when the account was refused another heavy page
# meanwhile, once as long again as the page took has passed: one account asking for heavy
# pages in parallel keeps a worker busy half the time at most); one left by a killed worker
# frees itself after TABLESTAKES_HEAVY_SLOT_SECONDS. New tables and evenings are counted per
# account: TABLESTAKES_TABLES_PER_HOUR and TABLESTAKES_EVENINGS_PER_HOUR.

class Busy(LimitReached):
    """The account's slots for heavy pages are all taken (``retry_after``: seconds)."""

    RETRY_AFTER = 3

    def __init__(self):
        self.retry_after = self.RETRY_AFTER
        super().__init__(code="heavy_busy")


def heavy_slot_take(user):
    """One of the account's slots for a heavy page (give it back with
    ``heavy_slot_give_back``), or Busy at once. Nothing for a request without an account
    (None: the share pages have their own limits)."""
    from . import counters

    if user is None or not getattr(user, "is_authenticated", False):
        return None
    slots = [f"heavy:user:{user.pk}:{n}"
             for n in range(max(1, settings.TABLESTAKES_HEAVY_PER_ACCOUNT))]
    slot = counters.slot_take(slots, settings.TABLESTAKES_HEAVY_SLOT_SECONDS)
    if slot is None:
        raise Busy()
    return slot


def heavy_slot_give_back(slot, took: float = 0.0) -> None:
    """The slot is free again; but when the account asked for another heavy page while
    this one was made (``took`` seconds) and was refused, only once as long again has
    passed: one account's heavy pages asked in parallel keep a worker busy half the time
    at most, and pages asked one after the other are never held up."""
    from django.db import DatabaseError

    from . import counters

    if slot is None:
        return
    try:
        if took <= 0 or not counters.slot_rest_if_asked(slot, time.time() + took):
            counters.slot_give_back(slot)
    except DatabaseError:  # it frees itself after TABLESTAKES_HEAVY_SLOT_SECONDS
        logger.exception("could not give back the heavy page slot %s", slot[0])


def _count_made(name: str, user, limit: int, refusal) -> None:
    from . import counters

    hits, ends = counters.hit(f"{name}:user:{user.pk}", 3600)
    if hits > limit:
        refused = LimitReached(code=refusal, limit=limit, minutes=_minutes_left(ends))
        refused.retry_after = max(1, math.ceil(ends - time.time()))
        raise refused


def count_new_table(user) -> None:
    """One more table made by ``user``: at most TABLESTAKES_TABLES_PER_HOUR an hour."""
    _count_made("tables", user, settings.TABLESTAKES_TABLES_PER_HOUR, "tables_per_hour")


def count_new_evening(user) -> None:
    """One more evening begun by ``user``: at most TABLESTAKES_EVENINGS_PER_HOUR an hour."""
    _count_made("evenings", user, settings.TABLESTAKES_EVENINGS_PER_HOUR, "evenings_per_hour")


# -- refusals this worker remembers (issue 38, item 5) ---------------------------------------
#
# A refusal above costs a worker the session, the account, a counter read and a page: about
# 50 ms each, and one account's six connections asking again as fast as they are answered
# kept every worker busy refusing them. So the worker that refused remembers it, in its own
# memory: the account's session cookie (hashed: the memory holds no cookie), what kind of
# request was refused, until when (the Retry-After it gave) and the page it answered. Until
# then ``RememberedRefusalMiddleware`` (before the session and the log-in are read) answers
# that cookie's requests of that kind with the same page, 429 with Retry-After, without a
# database query. Only the holder of the cookie is refused (it is the account's log-in), and
# only what it was told to ask again later: a heavy page while its slot is taken, a new
# table past the hour's. Each worker remembers what it refused itself; at most
# REMEMBERED_REFUSALS entries, the oldest forgotten first.

REMEMBERED_REFUSALS = 2000
REMEMBER_AT_MOST = 60  # seconds: a refusal is checked afresh at least once a minute
#: (cookie hash, kind) -> (remembered until, retry at: both time.monotonic(), page, language)
_remembered: dict[tuple[str, str], tuple[float, float, bytes, str]] = {}
_remembered_lock = threading.Lock()


def _cookie_key(request) -> str | None:
    import hashlib

    raw = getattr(request, "COOKIES", {}).get(settings.SESSION_COOKIE_NAME)
    if not raw:
        return None
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def remember_refusal(request, kind: str, seconds: float, body: bytes, language: str) -> None:
    """This worker answers the request's session cookie's requests of ``kind`` with
    ``body`` (429, in ``language``, Retry-After the rest of ``seconds``) for the next
    ``seconds``, REMEMBER_AT_MOST at most."""
    key = _cookie_key(request)
    if key is None or seconds <= 0:
        return
    now = time.monotonic()
    with _remembered_lock:
        _remembered.pop((key, kind), None)
        _remembered[(key, kind)] = (now + min(seconds, REMEMBER_AT_MOST), now + seconds,
                                    body, language)
        while len(_remembered) > REMEMBERED_REFUSALS:
            del _remembered[next(iter(_remembered))]


def remembered_refusal(request, kind: str) -> tuple[int, bytes, str] | None:
    """(whole seconds until the refusal's Retry-After, the page, its language) while this
    worker remembers refusing the request's session cookie a request of ``kind``, else
    None."""
    if not _remembered:
        return None
    key = _cookie_key(request)
    if key is None:
        return None
    with _remembered_lock:
        found = _remembered.get((key, kind))
        if found is None:
            return None
        now = time.monotonic()
        if found[0] <= now:
            del _remembered[(key, kind)]
            return None
    return max(1, math.ceil(found[1] - now)), found[2], found[3]


def any_refusal_remembered() -> bool:
    return bool(_remembered)


def forget_refusals() -> None:
    """Forget every refusal this worker remembers (the tests, between requests)."""
    with _remembered_lock:
        _remembered.clear()
