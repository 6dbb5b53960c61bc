"""What the game page and the phone's queue say when a hand is sent, refused, undone,
corrected, or a game is abandoned or played again: every such sentence, once. The views
(``ledger/views/hand_entry.py``, ``undo.py``, ``rematch.py``, ``queue.py``...) pass the
facts (numbers, names, who recorded what) and show the words; they write none of their own.
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from .catalog import ROLE_WORDS

GAME_OVER = gettext_noop("This game is over; it takes no more hands.")  # translated where shown
HAND_REFUSED = "The hand was refused."
KEY_TAKEN = ("This entry's key was already used for another hand (an old copy of the page?). "
             "Save it again: it gets a new one.")
UNDO_OUT_OF_DATE = ("The undo button was out of date; nothing was undone. "
                    "Reload the game and try again.")
ABANDONED = "Game abandoned: it settles on hand points."

#: The roles a "who plays" sentence names after a player ("Ann (in the box)"); the others
#: (a player, one who sits out) go without saying.
_NAMED_ROLES = ("box", "captain", "opponent")


def repeat_text(number: int) -> str:
    """A hand sent again (its key already stored): nothing new."""
    return gettext("Hand %(n)s was already recorded; nothing new was stored.") % {"n": number}


def taken_text(typed: int, next_number: int | None, who: str = "", *, at=None) -> str:
    """Another phone recorded hand ``typed`` first (``who``: by whom, ``at``: when, a
    datetime): the game page, the phone's queue and the service's refusal say this."""
    by = f" by {who}" if who else ""
    when = f" at {timezone.localtime(at):%H:%M}" if at else ""
    then = f" The next hand is {next_number}." if next_number else ""
    return f"Hand {typed} is already recorded{by}{when}: another phone was quicker.{then}"


def replaced_text(number: int) -> str:
    """A correction or an undo of a hand someone already corrected or undid."""
    return f"Hand {number} was already corrected or undone; reload the game."


def wrong_number_text(typed: int, next_number: int) -> str:
    return f"The next hand of this game is {next_number}, not {typed}."


def kept_text(message: str, number: int) -> str:
    """What was typed for a hand another phone recorded first, kept for hand ``number``."""
    return gettext("%(message)s What you typed is kept below as hand %(n)s: check it against "
                   "the table and save it, or clear it.") % {"message": message, "n": number}


def undone_text(noun: str, number: int, said: str, *, reopened: bool) -> str:
    """``noun``: "Hand" or "Round"; ``said``: the hand in the sheet's words."""
    rounds = noun.lower() == "round"
    said = {"n": number, "said": said}
    text = (gettext("Round %(n)s undone (%(said)s); it stays in the history, struck through.")
            if rounds else
            gettext("Hand %(n)s undone (%(said)s); it stays in the history, struck through."))
    text = text % said
    if reopened:
        text += " " + gettext("The game is open again and its money is taken back.")
    return text + " " + (
        gettext("To put it back, save it again: the form below holds it as round %(n)s.")
        if rounds else
        gettext("To put it back, save it again: the form below holds it as hand %(n)s.")) % said


def corrected_text(number: int) -> str:
    return gettext("Hand %(n)s corrected; the old entry is kept, struck through, with the "
                   "reason.") % {"n": number}


def rematch_text(sequence: int, players: list[str], *, settled_evening: str = "",
                 new_evening: str = "") -> str:
    """"Game 3 begins: Ann, Bob again, same rules and stakes." (and, when the evening was
    settled, which evening the new game belongs to)."""
    where = ""
    if settled_evening:
        where = (f" The evening of {settled_evening} is settled, so it is "
                 f"game {sequence} of the evening of {new_evening}.")
    return f"Game {sequence} begins: {', '.join(players)} again, same rules and stakes.{where}"


def with_role(name: str, role: str | None) -> str:
    """"Ann (in the box)", "Bob (captain)", "Cy" (a role that goes without saying)."""
    return f"{name} ({ROLE_WORDS[role]})" if role in _NAMED_ROLES else name


def wrong_players_text(label: str, actual: list[str], roles: dict, picked: list[str]) -> str:
    """Who the scorekeeper picked at a table is not who plays there."""
    who = " and ".join(with_role(name, roles.get(name)) for name in actual)
    where = f"{label}: " if label else ""
    return (f"{where}after the hands before it, this hand is played by {who}, not "
            f"{picked[0]} and {picked[1]}. Tap who knocked again and check the counts.")
