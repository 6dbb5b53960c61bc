"""The words of the phone's queue of hands not sent yet (static/ledger/offline.js and
static/ledger/queue/), said here once and handed to the page as JSON
(``{% queue_words %}``, ledger/templatetags/pwa.py). ``{name}`` marks what the script puts
in (the braces stay as they are in every language): ``{number}`` a hand's number,
``{count}`` how many, ``{summary}`` the hand in words,
``{reason}`` why it was not sent, ``{status}`` the server's HTTP status."""

from __future__ import annotations

import functools

from babel import Locale
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .notices import HAND_REFUSED

QUEUE_WORDS: dict = {
    # a hand's state in the list
    "states": {
        "pending": _("not sent yet"), "sending": _("sending…"),
        "refused": _("refused: fix it above"),
        "stale": _("kept: not sent"), "over": _("kept: not sent"), "login": _("kept: not sent"),
        "waiting": _("waiting"),
    },
    # what to do when sending stopped at the first hand of the list
    "advice": {
        "refused": _("Fix it in the form above and save it again, or discard it."),
        "stale": _("Check it against the table: send it as the next hand, or discard it if it "
                   "is the hand the other phone recorded."),
        "over": _("Discard it, or start a new game and enter it there."),
        "login": _("Reload the page (log in again if asked); nothing is lost."),
    },
    "stopped": _("Sending stopped at hand {number}. {advice}"),
    "after": _(" The hands after it wait, kept on this phone."),
    "sending": _("Sending, in order…"),
    "kept": _("Kept on this phone; sent in order when the connection returns."),
    "count_one": "1 hand",  # what a browser without the plural forms shows (queue_plurals)
    "count_many": _("{count} hands"),
    "hand": _("Hand {number}"),
    "send_as": _("Send it as hand {number}"),
    "score_one": _("Without the hand not sent yet (below)."),
    "score_many": _("Without the {count} hands not sent yet (below)."),
    "discard": _("Discard hand {number} ({summary})? It was never recorded."),
    "saving": _("Saving…"),
    # the answers that leave the hand in the list
    "retry": _("Not sent yet: {reason} Trying again by itself."),
    "login": _("The server asks to log in again (or the page is out of date): the hands are "
               "kept. Reload the page, log in if asked, and they are sent."),
    "not_found": _("This game is not found with the account logged in now: log in as the "
                   "scorekeeper who entered these hands; they are kept."),
    "server_error": _("The server had a problem ({status})."),
    "cut_off": _("The server's answer was cut off."),
    "timeout": _("No answer in time."),
    "no_connection": _("No connection."),
    "refused": HAND_REFUSED,
}


def plural_samples(code: str) -> dict[str, int]:
    """A number of each of the language's plural categories (CLDR's: "one", "few",
    "many", "other"...), as the browser's ``Intl.PluralRules`` names them."""
    return dict(_plural_samples(code))


@functools.lru_cache(maxsize=64)
def _plural_samples(code: str) -> tuple[tuple[str, int], ...]:
    """(found once per language: 200 numbers through CLDR's rules were 3 ms of each game
    page, which asks for them twice)"""
    plural = Locale.parse(translation.to_locale(code)).plural_form
    samples: dict[str, int] = {}
    for n in range(0, 200):
        samples.setdefault(plural(n), n)
    return tuple(samples.items())


def queue_plurals() -> dict:
    """The queue's words that depend on a count, in each plural form of the language in
    force (by CLDR category: the script picks one with ``Intl.PluralRules``,
    static/ledger/queue/words.js ``counted``); ``QUEUE_WORDS``' ``count_one``/``count_many``
    are what a browser without it shows."""
    samples = plural_samples(translation.get_language() or "en")
    return {
        "count": {"=1": ngettext("{count} hand", "{count} hands", 1),
                  **{category: ngettext("{count} hand", "{count} hands", n)
                     for category, n in samples.items()}},
        "score": {category: ngettext("Without the {count} hand not sent yet (below).",
                                     "Without the {count} hands not sent yet (below).", n)
                  for category, n in samples.items()},
    }
