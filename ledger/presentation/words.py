"""Words: how a game, a hand and a result read, the same on the screen, in the CSV, on paper
and on a share page.

Every function here takes what the core returned (a result, or one hand of it) and says it;
none decides a rule. One joiner for lists of names ("Ann, Bob and Cy"), one sentence per
kind of hand ("Ann knocks 5 v Bob 17"), one word per role.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop

from ledger.words import evening_words

from .catalog import PRESET_VARIANTS, ROLE_WORDS, VARIANT_NAMES

# marked for the catalogs (gettext_noop: the words stay English here; a screen that shows
# one as a choice translates it where it draws it, ledger/forms/hands.py)
RESULT_WORDS = {"knock": gettext_noop("Knock"), "undercut": gettext_noop("Undercut"),
                "gin": gettext_noop("Gin"), "big_gin": gettext_noop("Big gin"),
                "draw": gettext_noop("Draw"), "round": "Round", "tables": "Tables"}
SHUTOUT_WORDS = {"double_total": "winner's total doubled",
                 "game_bonus_double": "game bonus doubled",
                 "double_hand_points": "hand points doubled", "none": "none"}
SHUTOUT_SHORT = {"double_total": "yes, total \u00d72", "game_bonus_double": "yes, bonus \u00d72",
                 "double_hand_points": "yes, points \u00d72", "none": "none"}


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
    return ", ".join(items[:-1]) + " and " + items[-1]


def unnamed_sides(result: dict) -> bool:
    """Captain play's sides: the captains and the opponents (the core's facts)."""
    facts = result["facts"]
    return facts["sides"] and not facts["named_sides"]


def key_label(result: dict, key: str) -> str:
    """A column of scores: a player's name, a side's name; captain play's two sides are
    "Captains" and "Opponents" ("Captain" for 3: one captain plays the two)."""
    if unnamed_sides(result) and key in (result.get("sides") or {}):
        if key == "captains" and result["facts"]["tables"] == 1:
            return "Captain"  # one captain per card table
        return key.capitalize()
    return key


def variant_title(variant: str, preset: str | None = None) -> str:
    title = VARIANT_NAMES.get(variant, variant)
    if preset and variant in PRESET_VARIANTS:
        title += f" ({preset})"
    return title


def duel_text(hand: dict) -> str:
    """How one gin-family hand (or one table of a hand) went, from the core's hand:
    "Ann knocks 5 v Bob 17", "Ann knocks 10 v Bob 8: Bob undercuts", "Ann gin v Bob 17",
    "Ann big gin v Bob 17", "Draw"."""
    result = hand.get("result")
    knocker = hand.get("knocker")
    if result == "draw" or knocker is None:
        return "Draw"
    deadwood = hand.get("deadwood") or {}
    opponent = next((name for name in deadwood if name != knocker), None)
    against = f" v {opponent} {deadwood.get(opponent, '')}" if opponent else ""
    if result == "gin":
        return f"{knocker} gin{against}"
    if result == "big_gin":
        return f"{knocker} big gin{against}"
    text = f"{knocker} knocks {deadwood.get(knocker, '')}{against}"
    if result == "undercut":
        text += f": {hand.get('winner')} undercuts"
    return text


def result_word(hand: dict, result: dict) -> str:
    """The hand's kind in a word ("Knock", "Gin"...), "×2" when an Oklahoma spade doubled it."""
    word = RESULT_WORDS.get(hand.get("result"), hand.get("result") or "")
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
        return f"{roles['box']} (box) v {roles.get('captain', '')}"
    if roles.get("captain") and roles.get("opponent"):
        return f"{roles['captain']} (captain) v {roles['opponent']}"
    return ""


def winner_text(result: dict) -> str:
    """Who won the game, or who tied for it ("Ann and Bob")."""
    return names(result.get("winner"))


def win_verb(result: dict, winner) -> str:
    """"Ann wins", "The captains win", "Ann and Bob tie": plural for sides and ties."""
    if isinstance(winner, list):
        return f"{names(winner)} tie"
    if unnamed_sides(result) and winner in (result.get("sides") or {}):
        return f"The {winner} win"
    if winner in (result.get("sides") or {}):
        return f"{winner} win"
    return f"{winner} wins"


def lead_words(result: dict) -> str:
    """Who won or leads a game, in a few words for a list of games: "Ann wins",
    "The captains win", "Rosa leads", "Level" (nobody ahead yet), "A tie: Ann and Bob";
    an abandoned game: "The captains were ahead".
    The leader is the one the core's totals put ahead (Hollywood: its net; CAP-IT: the
    lowest), the winner the core's."""
    winner = result.get("winner")
    if winner and result.get("complete"):
        if isinstance(winner, list):
            return f"A tie: {names(winner)}"
        return win_verb(result, winner)
    if result["facts"]["columns"]:
        values = {key: (result.get("net") or {}).get(key, 0) for key in result["totals"]}
    else:
        values = {key: t.get("final", 0) for key, t in result["totals"].items()}
    if not values or not result["hands"]:
        return "Not begun"
    best = (min if result["facts"]["lower_wins"] else max)(values.values())
    ahead = [key for key, value in values.items() if value == best]
    if len(ahead) != 1:
        return "Level"
    label = key_label(result, ahead[0])
    plural = ahead[0] in (result.get("sides") or {}) and label.endswith("s") or (
        ahead[0] in (result.get("sides") or {}) and not unnamed_sides(result))
    if unnamed_sides(result) and ahead[0] in (result.get("sides") or {}):
        label = f"The {label.lower()}"
    if result.get("abandoned"):  # it stopped there
        return f"{label} {'were' if plural else 'was'} ahead"
    return f"{label} {'lead' if plural else 'leads'}"


def status_line(result: dict) -> str:
    """Where the game stands, in one sentence."""
    winner = result.get("winner")
    if result.get("abandoned"):
        return ("Abandoned before the target: settled on hand points only "
                "(no boxes, game bonus or shutout).")
    if not result.get("complete"):
        return "In progress: no money changes hands until the game ends."
    if winner is None:
        return "The game ends in a tie."
    if isinstance(winner, list):
        return f"Tie for the game: {names(winner)}."
    return f"{win_verb(result, winner)} the game."


def gains_text(hand: dict) -> str:
    """A hand's points for a flash message: "Ann +25", "no score"."""
    won = {key: points for key, points in (hand.get("points") or {}).items() if points}
    return ", ".join(f"{key} +{points}" for key, points in won.items()) or "no score"


#: The roles a matchup marks beside a player's name (in words, with the chip's class).
_CHIPS = {"box": "chip chip-box", "captain": "chip"}


def role_chip(role: str | None) -> dict | None:
    """The chip beside a player in the next hand's matchup: ``{"word", "css"}`` for the
    player in the box and a captain, None for the others."""
    if role not in _CHIPS:
        return None
    return {"word": ROLE_WORDS[role], "css": _CHIPS[role]}


def person_name(user) -> str:
    """Who did something, as the screens and the sheets say it: the account's full name,
    else its login; empty for nobody."""
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def evening_label(session) -> str:
    """An evening as the screens name it: "Wednesday 25 November 2026", and "(2)" after
    the second one of the same day."""
    return evening_words(session.date) + session.number_suffix
