"""The words of the phone's queue of hands not sent yet (static/ledger/offline.js and
static/ledger/queue/), said here once and handed to the page as JSON
(``{% queue_words %}``, ledger/templatetags/pwa.py). ``{name}`` marks what the script puts
in: ``{number}`` a hand's number, ``{count}`` how many, ``{summary}`` the hand in words,
``{reason}`` why it was not sent, ``{status}`` the server's HTTP status."""

from __future__ import annotations

from .notices import HAND_REFUSED

QUEUE_WORDS: dict = {
    # a hand's state in the list
    "states": {
        "pending": "not sent yet", "sending": "sending…", "refused": "refused: fix it above",
        "stale": "kept: not sent", "over": "kept: not sent", "login": "kept: not sent",
        "waiting": "waiting",
    },
    # what to do when sending stopped at the first hand of the list
    "advice": {
        "refused": "Fix it in the form above and save it again, or discard it.",
        "stale": "Check it against the table: send it as the next hand, or discard it if it "
                 "is the hand the other phone recorded.",
        "over": "Discard it, or start a new game and enter it there.",
        "login": "Reload the page (log in again if asked); nothing is lost.",
    },
    "stopped": "Sending stopped at hand {number}. {advice}",
    "after": " The hands after it wait, kept on this phone.",
    "sending": "Sending, in order…",
    "kept": "Kept on this phone; sent in order when the connection returns.",
    "count_one": "1 hand",
    "count_many": "{count} hands",
    "hand": "Hand {number}",
    "send_as": "Send it as hand {number}",
    "score_one": "Without the hand not sent yet (below).",
    "score_many": "Without the {count} hands not sent yet (below).",
    "discard": "Discard hand {number} ({summary})? It was never recorded.",
    "saving": "Saving…",
    # the answers that leave the hand in the list
    "retry": "Not sent yet: {reason} Trying again by itself.",
    "login": "The server asks to log in again (or the page is out of date): the hands are "
             "kept. Reload the page, log in if asked, and they are sent.",
    "not_found": "This game is not found with the account logged in now: log in as the "
                 "scorekeeper who entered these hands; they are kept.",
    "server_error": "The server had a problem ({status}).",
    "cut_off": "The server's answer was cut off.",
    "timeout": "No answer in time.",
    "no_connection": "No connection.",
    "refused": HAND_REFUSED,
}
