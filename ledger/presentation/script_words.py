"""The words the pages' scripts show (static/ledger/*.js), said here once in the language in
force and handed to every page as JSON (``{% script_words %}`` in base.html: a
``<script type="application/json" id="script-words">``); the scripts carry no words of
their own but an English fallback. ``%(name)s`` marks what a script puts in. The offline
queue's words are ledger/presentation/queue.py's."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext, ngettext, pgettext

from .queue import plural_samples


def script_words() -> dict:
    """The scripts' words, by script: ``shell`` (static/ledger/shell.js: the logout
    question, the banners without a connection, the copy buttons), ``cards``
    (static/ledger/cards.js), ``live`` (static/ledger/live.js), ``report``
    (static/ledger/report.js and report_keeper.js), ``offline``
    (static/ledger/queue/scoring.js: the totals the phone scored with no connection, its
    refusal of a hand). A sentence that depends on a count is given in each plural form
    of the language (by CLDR category, for ``Intl.PluralRules``)."""
    samples = plural_samples(translation.get_language() or "en")
    return {
        "lang": translation.get_language() or "en",
        "shell": {
            "logout": {category: ngettext(
                "%(count)s hand is not sent yet. It stays on this phone and is sent when you "
                "log in again and open the game. Log out anyway?",
                "%(count)s hands are not sent yet. They stay on this phone and are sent when "
                "you log in again and open the game. Log out anyway?", n)
                for category, n in samples.items()},
            "offline_game": gettext(
                "No connection. Hands you save are kept on this phone and sent, in order, "
                "when it returns. Corrections, undo, settings and settling up need the "
                "connection."),
            "offline_page": gettext(
                "No connection. What you see is as this phone last loaded it; changes need "
                "the connection."),
            "offline_settling": gettext("Settling up needs it too."),
            "needs_network": gettext("Needs the connection"),
            "copy": gettext("Copy"),
            "copied": gettext("Copied"),
        },
        "cards": {
            "count": gettext(" · count %(count)s"),
            "no_preview": gettext("No preview just now; the counts are worked out when the "
                                  "hand is saved."),
        },
        "live": {
            "revoked": gettext("This link no longer works: the scorekeeper revoked it."),
        },
        "offline": {
            "unsaved": gettext("Scored on this phone with the hands not sent yet: not yet "
                               "saved."),
            "refused": gettext("The rules refuse this hand (checked on this phone), so it "
                               "was not kept. Fix it and save again."),
        },
        "report": {
            "queued": gettext("No connection: this report waits on this phone and is sent "
                              "when the connection returns."),
            "hand": gettext("Hand %(number)s"),
            "waiting": pgettext("report", "waiting"),
            "keeper": gettext("changed by the scorekeeper"),
        },
    }
