"""What the game page and the phone's queue say when a hand is sent, refused, undone,
corrected, or a game is abandoned or played again: every such sentence, once. The views
(``ledger/views/hand_entry.py``, ``undo.py``, ``rematch.py``, ``queue.py``...) pass the
facts (numbers, names, who recorded what) and show the words; they write none of their own.
Every sentence is in the language in force (the constants are lazy: they are said when
they are shown)."""

from __future__ import annotations

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .catalog import ROLE_WORDS
from .dates import format_clock

GAME_OVER = _("This game is over; it takes no more hands.")
HAND_REFUSED = _("The hand was refused.")
KEY_TAKEN = _("This entry's key was already used for another hand (an old copy of the "
              "page?). Save it again: it gets a new one.")
UNDO_OUT_OF_DATE = _("The undo button was out of date; nothing was undone. "
                     "Reload the game and try again.")
ABANDONED = _("Game abandoned: it settles on hand points.")

#: The roles a "who plays" sentence names after a player ("Ann (in the box)"); the others
#: (a player, one who sits out) go without saying.
_NAMED_ROLES = ("box", "captain", "opponent")


def repeat_text(number: int) -> str:
    """A hand sent again (its key already stored): nothing new."""
    return gettext("Hand %(n)s was already recorded; nothing new was stored.") % {"n": number}


def taken_text(typed: int, next_number: int | None, who: str = "", *, at=None) -> str:
    """Another phone recorded hand ``typed`` first (``who``: by whom, ``at``: when, a
    datetime): the game page, the phone's queue and the service's refusal say this."""
    facts = {"n": typed, "who": who, "time": format_clock(at) if at else ""}
    if who and at:
        text = gettext("Hand %(n)s is already recorded by %(who)s at %(time)s: another "
                       "phone was quicker.")
    elif who:
        text = gettext("Hand %(n)s is already recorded by %(who)s: another phone was "
                       "quicker.")
    elif at:
        text = gettext("Hand %(n)s is already recorded at %(time)s: another phone was "
                       "quicker.")
    else:
        text = gettext("Hand %(n)s is already recorded: another phone was quicker.")
    text %= facts
    if next_number:
        text += " " + gettext("The next hand is %(n)s.") % {"n": next_number}
    return text


def replaced_text(number: int) -> str:
    """A correction or an undo of a hand someone already corrected or undid."""
    return gettext("Hand %(n)s was already corrected or undone; reload the game.") % {
        "n": number}


def wrong_number_text(typed: int, next_number: int) -> str:
    return gettext("The next hand of this game is %(next)s, not %(typed)s.") % {
        "next": next_number, "typed": typed}


def kept_text(message: str, number: int) -> str:
    """What was typed for a hand another phone recorded first, kept for hand ``number``."""
    return message + " " + gettext(
        "What you typed is kept below as hand %(n)s: check it against the table and save "
        "it, or clear it.") % {"n": number}


def undone_text(noun: str, number: int, said: str, *, reopened: bool) -> str:
    """``noun``: "Hand" or "Round" (the core's ``hand_noun``); ``said``: the hand in the
    sheet's words."""
    facts = {"n": number, "said": said}
    rounds = noun == "Round"
    text = (gettext("Round %(n)s undone (%(said)s); it stays in the history, struck through.")
            if rounds else
            gettext("Hand %(n)s undone (%(said)s); it stays in the history, struck through."))
    text %= facts
    if reopened:
        text += " " + gettext("The game is open again and its money is taken back.")
    return text + " " + (
        gettext("To put it back, save it again: the form below holds it as round %(n)s.")
        if rounds else
        gettext("To put it back, save it again: the form below holds it as hand %(n)s.")
    ) % facts


def corrected_text(number: int) -> str:
    return gettext("Hand %(n)s corrected; the old entry is kept, struck through, with the "
                   "reason.") % {"n": number}


def rematch_text(sequence: int, players: list[str], *, settled_evening: str = "",
                 new_evening: str = "") -> str:
    """"Game 3 begins: Ann, Bob again, same rules and stakes." (and, when the evening was
    settled, which evening the new game belongs to)."""
    text = gettext("Game %(n)s begins: %(players)s again, same rules and stakes.") % {
        "n": sequence, "players": ", ".join(players)}
    if settled_evening:
        text += " " + gettext("The evening of %(settled)s is settled, so it is game %(n)s of "
                              "the evening of %(new)s.") % {
            "settled": settled_evening, "n": sequence, "new": new_evening}
    return text


def with_role(name: str, role: str | None) -> str:
    """"Ann (in the box)", "Bob (captain)", "Cy" (a role that goes without saying)."""
    return f"{name} ({ROLE_WORDS[role]})" if role in _NAMED_ROLES else name


def wrong_players_text(label: str, actual: list[str], roles: dict, picked: list[str]) -> str:
    """Who the scorekeeper picked at a table is not who plays there."""
    text = gettext("after the hands before it, this hand is played by %(a)s and %(b)s, not "
                   "%(c)s and %(d)s. Tap who knocked again and check the counts.") % {
        "a": with_role(actual[0], roles.get(actual[0])),
        "b": with_role(actual[1], roles.get(actual[1])),
        "c": picked[0], "d": picked[1]}
    return f"{label}: {text}" if label else text
