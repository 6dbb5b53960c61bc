"""Words: how a game, a hand and a result read, the same on the screen, in the CSV, on paper
and on a share page.

Every function here takes what the core returned (a result, or one hand of it) and says it;
none decides a rule. One joiner for lists of names ("Ann, Bob and Cy"), one sentence per
kind of hand ("Ann knocks 5 v Bob 17"), one word per role.
"""

from __future__ import annotations

from django.utils.translation import get_language, gettext, gettext_noop, ngettext

from .catalog import PRESET_LABELS, PRESET_VARIANTS, ROLE_WORDS, VARIANT_NAMES
from .dates import evening_words

# marked for the catalogs (gettext_noop: the words stay English here; a screen that shows
# one as a choice translates it where it draws it, ledger/forms/hands.py)
RESULT_WORDS = {"knock": gettext_noop("Knock"), "undercut": gettext_noop("Undercut"),
                "gin": gettext_noop("Gin"), "big_gin": gettext_noop("Big gin"),
                "draw": gettext_noop("Draw"), "round": gettext_noop("Round"),
                "tables": gettext_noop("Tables")}
#: A shutout's effect in words (marked here, translated where said: ``gettext(...)``).
SHUTOUT_WORDS = {"double_total": gettext_noop("winner's total doubled"),
                 "game_bonus_double": gettext_noop("game bonus doubled"),
                 "double_hand_points": gettext_noop("hand points doubled"),
                 "none": gettext_noop("none")}
SHUTOUT_SHORT = {"double_total": gettext_noop("yes, total ×2"),
                 "game_bonus_double": gettext_noop("yes, bonus ×2"),
                 "double_hand_points": gettext_noop("yes, points ×2"),
                 "none": gettext_noop("none")}


def hand_title(noun: str, number) -> str:
    """"Hand 4", or "Round 2" in CAP-IT (``noun``: the core's ``hand_noun``)."""
    if noun.lower() == "round":
        return gettext("Round %(n)s") % {"n": number}
    return gettext("Hand %(n)s") % {"n": number}


def hands_count(noun: str, count: int) -> str:
    """"1 hand", "5 hands"; "3 rounds" in CAP-IT."""
    if noun.lower() == "round":
        return ngettext("%(n)s round", "%(n)s rounds", count) % {"n": count}
    return ngettext("%(n)s hand", "%(n)s hands", count) % {"n": count}


def names(value) -> str:
    """A name, or several joined the one way every page does: "Ann", "Ann and Bob",
    "Ann, Bob and Cy". None reads as nothing."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    items = [str(item) for item in value]
    if len(items) <= 1:
        return "".join(items)
    return gettext("%(names)s and %(last)s") % {"names": ", ".join(items[:-1]),
                                                 "last": items[-1]}


def unnamed_sides(result: dict) -> bool:
    """Captain play's sides: the captains and the opponents (the core's facts)."""
    facts = result["facts"]
    return facts["sides"] and not facts["named_sides"]


def key_label(result: dict, key: str) -> str:
    """A column of scores: a player's name, a side's name; captain play's two sides are
    "Captains" and "Opponents" ("Captain" for 3: one captain plays the two)."""
    if unnamed_sides(result) and key in (result.get("sides") or {}):
        if key == "captains" and result["facts"]["tables"] == 1:
            return gettext("Captain")  # one captain per card table
        if key == "captains":
            return gettext("Captains")
        if key == "opponents":
            return gettext("Opponents")
        return key.capitalize()
    return key


def variant_title(variant: str, preset: str | None = None) -> str:
    """"Gin (standard)": the variant's name and, for the presets' variants, the preset's, as
    English sheets have always written it (the record's own word) and as the setup screen
    names it in other languages ("Gin (Standard)", "Джин (стандарт)")."""
    title = VARIANT_NAMES.get(variant, variant)
    if preset and variant in PRESET_VARIANTS:
        english = (get_language() or "en").split("-")[0] == "en"
        named = preset if english or preset not in PRESET_LABELS else PRESET_LABELS[preset]
        title += f" ({named})"
    return title


def duel_text(hand: dict) -> str:
    """How one gin-family hand (or one table of a hand) went, from the core's hand:
    "Ann knocks 5 v Bob 17", "Ann knocks 10 v Bob 8: Bob undercuts", "Ann gin v Bob 17",
    "Ann big gin v Bob 17", "Draw"."""
    result = hand.get("result")
    knocker = hand.get("knocker")
    if result == "target":  # streets: a target change between two deals (RULES 3.9)
        return gettext("Target changed to %(n)s") % {"n": hand.get("target")}
    if result == "draw" or knocker is None:
        return gettext("Draw")
    deadwood = hand.get("deadwood") or {}
    opponent = next((name for name in deadwood if name != knocker), None)
    said = {"knocker": knocker, "count": deadwood.get(knocker, ""), "opponent": opponent,
            "other": deadwood.get(opponent, ""), "winner": hand.get("winner")}
    if result == "gin":
        if opponent:
            return gettext("%(knocker)s gin v %(opponent)s %(other)s") % said
        return gettext("%(knocker)s gin") % said
    if result == "big_gin":
        if opponent:
            return gettext("%(knocker)s big gin v %(opponent)s %(other)s") % said
        return gettext("%(knocker)s big gin") % said
    if result == "undercut":
        if opponent:
            return gettext("%(knocker)s knocks %(count)s v %(opponent)s %(other)s: "
                           "%(winner)s undercuts") % said
        return gettext("%(knocker)s knocks %(count)s: %(winner)s undercuts") % said
    if opponent:
        return gettext("%(knocker)s knocks %(count)s v %(opponent)s %(other)s") % said
    return gettext("%(knocker)s knocks %(count)s") % said


def result_word(hand: dict, result: dict) -> str:
    """The hand's kind in a word ("Knock", "Gin"...), "×2" when an Oklahoma spade doubled it."""
    kind = hand.get("result")
    word = gettext(RESULT_WORDS[kind]) if kind in RESULT_WORDS else (kind or "")
    return word + " \u00d72" if hand.get("doubled") else word


def hand_text(hand: dict, result: dict) -> str:
    """A gin-family hand in the one sentence every page prints: ``duel_text`` and, for an
    Oklahoma hand a spade doubled, "×2"."""
    text = duel_text(hand)
    return text + " \u00d72" if hand.get("doubled") else text


def matchup_text(roles: dict[str, str]) -> str:
    """Who plays whom in a hand of three at one table, from the hand's roles (role: names):
    "Ann (box) v Bob" in the box, "Cy (captain) v Ann" in captain play for 3; "" else."""
    if roles.get("box"):
        return gettext("%(box)s (box) v %(captain)s") % {
            "box": roles["box"], "captain": roles.get("captain", "")}
    if roles.get("captain") and roles.get("opponent"):
        return gettext("%(captain)s (captain) v %(opponent)s") % {
            "captain": roles["captain"], "opponent": roles["opponent"]}
    return ""


def winner_text(result: dict) -> str:
    """Who won the game, or who tied for it ("Ann and Bob")."""
    return names(result.get("winner"))


def _unnamed_side(result: dict, key) -> bool:
    return unnamed_sides(result) and key in (result.get("sides") or {})


def win_verb(result: dict, winner) -> str:
    """"Ann wins", "The captains win", "Ann and Bob tie": plural for sides and ties."""
    if isinstance(winner, list):
        return gettext("%(names)s tie") % {"names": names(winner)}
    if _unnamed_side(result, winner):
        if winner == "captains":
            return gettext("The captains win")
        if winner == "opponents":
            return gettext("The opponents win")
        return gettext("The %(side)s win") % {"side": winner}
    if winner in (result.get("sides") or {}):
        return gettext("%(side)s win") % {"side": winner}
    return gettext("%(name)s wins") % {"name": winner}


def win_verb_lower(result: dict, winner) -> str:
    """``win_verb`` inside a sentence: "the captains win" (after "Game over:")."""
    if _unnamed_side(result, winner) and winner in ("captains", "opponents"):
        if winner == "captains":
            return gettext("the captains win")
        return gettext("the opponents win")
    return win_verb(result, winner)


def lead_words(result: dict) -> str:
    """Who won or leads a game, in a few words for a list of games: "Ann wins",
    "The captains win", "Rosa leads", "Level" (nobody ahead yet), "A tie: Ann and Bob";
    an abandoned game: "The captains were ahead".
    The leader is the one the core's totals put ahead (Hollywood: its net; CAP-IT: the
    lowest), the winner the core's."""
    winner = result.get("winner")
    if winner and result.get("complete"):
        if isinstance(winner, list):
            return gettext("A tie: %(names)s") % {"names": names(winner)}
        return win_verb(result, winner)
    if result["facts"]["columns"]:
        values = {key: (result.get("net") or {}).get(key, 0) for key in result["totals"]}
    elif result.get("match"):  # RULES 3.10: a match is led by hands won
        values = {key: result["match"]["hands_won"].get(key, 0) for key in result["totals"]}
    elif result.get("game_points"):  # RULES 3.9: streets, by the game points G
        values = {key: result["game_points"].get(key, 0) for key in result["totals"]}
    else:
        values = {key: t.get("final", 0) for key, t in result["totals"].items()}
    if not values or not result["hands"]:
        return gettext("Not begun")
    best = (min if result["facts"]["lower_wins"] else max)(values.values())
    ahead = [key for key, value in values.items() if value == best]
    if len(ahead) != 1:
        return gettext("Level")
    key = ahead[0]
    abandoned = result.get("abandoned")  # it stopped there
    if _unnamed_side(result, key):
        if key == "captains" and result["facts"]["tables"] == 1:
            return gettext("The captain was ahead") if abandoned else gettext("The captain leads")
        if key == "captains":
            return (gettext("The captains were ahead") if abandoned
                    else gettext("The captains lead"))
        if key == "opponents":
            return (gettext("The opponents were ahead") if abandoned
                    else gettext("The opponents lead"))
    label = key_label(result, key)
    if key in (result.get("sides") or {}):
        return (gettext("%(side)s were ahead") if abandoned
                else gettext("%(side)s lead")) % {"side": label}
    return (gettext("%(name)s was ahead") if abandoned
            else gettext("%(name)s leads")) % {"name": label}


def status_line(result: dict) -> str:
    """Where the game stands, in one sentence."""
    winner = result.get("winner")
    if result.get("abandoned"):
        return gettext("Abandoned before the target: settled on hand points only "
                       "(no boxes, game bonus or shutout).")
    if not result.get("complete"):
        return gettext("In progress: no money changes hands until the game ends.")
    if winner is None:
        return gettext("The game ends in a tie.")
    if isinstance(winner, list):
        return gettext("Tie for the game: %(names)s.") % {"names": names(winner)}
    return gettext("%(who_wins)s the game.") % {"who_wins": win_verb(result, winner)}


def gains_text(hand: dict) -> str:
    """A hand's points for a flash message: "Ann +25", "no score"."""
    won = {key: points for key, points in (hand.get("points") or {}).items() if points}
    return ", ".join(f"{key} +{points}" for key, points in won.items()) or gettext("no score")


#: The roles a matchup marks beside a player's name (in words, with the chip's class).
_CHIPS = {"box": "chip chip-box", "captain": "chip"}


def role_chip(role: str | None) -> dict | None:
    """The chip beside a player in the next hand's matchup: ``{"word", "css"}`` for the
    player in the box and a captain, None for the others."""
    if role not in _CHIPS:
        return None
    return {"word": gettext(_CHIP_WORDS.get(role, ROLE_WORDS[role])), "css": _CHIPS[role]}


#: the chips' words, marked (the core's ``ROLE_WORDS``, translated where shown)
_CHIP_WORDS = {"box": gettext_noop("in the box"), "captain": gettext_noop("captain")}


def person_name(user) -> str:
    """Who did something, as the screens and the sheets say it: the account's full name,
    else its login; empty for nobody."""
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def evening_label(session, *, standing_alone: bool = False) -> str:
    """An evening as the screens name it: "Wednesday, November 25, 2026", and "(2)" after
    the second one of the same day; a title (``standing_alone``) begins with a capital
    ("Среда, 25 ноября 2026 г.")."""
    return evening_words(session.date, standing_alone=standing_alone) + session.number_suffix
