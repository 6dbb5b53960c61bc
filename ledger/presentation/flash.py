"""What the game page says after a hand is saved or undone, and what it says of the game
while it runs (Hollywood's open games, the winner): from the core's result, in the words of
``words.py`` (issue 11).

    outcome_text    what a saved hand's flash says: ``recorded_text``, or that it was
                    already recorded (a repeat: nothing new stored)
    recorded_text   "Hand 4 recorded: the captains +12. Vic lost and sits out; Sal comes in
                    for the opponents." / "... Game 1 is over: Ann wins. Still open: games
                    2 and 3." / "... Game over: the captains win."
    hand_said       one recorded hand in the sheet's words ("Ann gin v Bob 35")
    open_games_text Hollywood: "Still open: games 2 and 3 (game 1 over)."
    winner_sentence "Sal wins.", "The captains win.", "A tie: Ann & Bob."
"""

from __future__ import annotations

from django.utils.translation import gettext, ngettext

from .notices import repeat_text
from .rows import hand_row
from .words import hand_title, names, unnamed_sides, win_verb, win_verb_lower


def _and(items: list) -> str:
    return names([str(item) for item in items])


def side_word(result: dict, key: str) -> str:
    """A score's key as a sentence names it: "the captains", "We", "Ann"."""
    if unnamed_sides(result) and key in (result.get("sides") or {}):
        if key == "captains" and result["facts"]["tables"] == 1:
            return gettext("the captain")  # captain play for 3: one captain per card table
        if key == "captains":
            return gettext("the captains")
        if key == "opponents":
            return gettext("the opponents")
        return f"the {key}"
    return key


def recorded_text(result: dict, number: int) -> str:
    """The flash after hand (or round) ``number`` is recorded."""
    hand = result["hands"][number - 1]
    won = {key: points for key, points in (hand.get("points") or {}).items() if points}
    gains = ", ".join(f"{side_word(result, key)} +{points}" for key, points in won.items())
    said = gains or (gettext("Draw") if hand.get("result") == "draw" else gettext("no score"))
    text = gettext("%(hand)s recorded: %(said)s.") % {
        "hand": hand_title(result["facts"]["hand_noun"], hand["number"]), "said": said}
    text += "".join(f" {line}" for line in seat_changes(result, hand))
    text += "".join(f" {line}" for line in columns_closed(result, hand))
    if result.get("complete"):
        winner = result.get("winner")
        text += " " + (gettext("Game over: %(who_wins)s.") % {
            "who_wins": win_verb_lower(result, winner)} if winner
            else gettext("Game over: a tie."))
    return text


def outcome_text(outcome) -> str:
    """The flash after ``services.hand_record``'s outcome: the hand in words, or, for a
    hand whose key was already stored, that nothing new was."""
    if not outcome.created:
        return repeat_text(outcome.hand.number)
    return recorded_text(outcome.result, outcome.hand.number)


def seat_changes(result: dict, hand: dict) -> list[str]:
    """Who sits out and who comes in after ``hand`` (captain play: a loser sits out, the
    one who sat out comes in; with 5 or 7 the core's ``substitution`` says at which table),
    or who is in the box next (three-handed): the core's roles of this hand against those
    of the next."""
    facts = result["facts"]
    if result.get("complete") or not facts["roles_vary"] or facts["named_sides"]:
        return []
    number = hand["number"]
    after = (result["hands"][number]["roles"] if number < len(result["hands"])
             else (result.get("next") or {}).get("roles")) or {}
    before = hand.get("roles") or {}
    if facts["hand_roles"] and "box" in after.values():
        box = next((n for n, r in after.items() if r == "box"), None)
        captain = next((n for n, r in after.items() if r == "captain"), None)
        out = [n for n, r in after.items() if r == "sits_out"]
        if after == before or box is None or captain is None:
            return []
        said = {"box": box, "captain": captain, "out": _and(out)}
        if out:
            return [gettext("Next: %(box)s in the box v %(captain)s; %(out)s sits out.") % said]
        return [gettext("Next: %(box)s in the box v %(captain)s.") % said]
    substitution = hand.get("substitution") or {}
    lines = []
    for name, role in after.items():
        was = before.get(name)
        if role == "sits_out" and was not in (None, "sits_out"):
            side = {"opponent": "opponents", "captain": "captains"}.get(was)
            lost = side is not None and hand.get("winner") not in (None, side)
            lines.append((gettext("%(name)s lost and sits out") if lost
                          else gettext("%(name)s sits out")) % {"name": name})
    for name, role in after.items():
        if before.get(name) == "sits_out" and role != "sits_out":
            said = {"name": name, "table": substitution.get("table")}
            here = substitution.get("in") == name and substitution.get("table")
            if role == "opponent":
                lines.append((gettext("%(name)s comes in for the opponents at table %(table)s")
                              if here else gettext("%(name)s comes in for the opponents"))
                             % said)
            elif role == "captain":
                lines.append((gettext("%(name)s comes in for the captains at table %(table)s")
                              if here else gettext("%(name)s comes in for the captains"))
                             % said)
            else:
                where = f" at table {said['table']}" if here else ""
                lines.append(f"{name} comes in for {role}{where}")
    return ["; ".join(lines) + "."] if lines else []


def columns_closed(result: dict, hand: dict) -> list[str]:
    """Hollywood: a game (column) that ``hand`` ended, and the ones still open."""
    columns = result.get("columns") or []
    closed = [c for c in columns if c.get("ended_at") == hand["number"]]
    if not closed:
        return []
    lines = []
    for column in closed:
        winner = column.get("winner")
        said = {"n": column["number"]}
        if winner:
            said["who_wins"] = win_verb_lower(result, winner)
            lines.append(gettext("Game %(n)s is over: %(who_wins)s.") % said)
        else:
            lines.append(gettext("Game %(n)s is over.") % said)
    still = [c["number"] for c in columns if not c.get("complete")]
    if still and not result.get("complete"):
        lines.append(_still_open(still) + ".")
    return lines


def still_open_words(count: int) -> str:
    """"Still open: games %(games)s", for ``count`` games (the phone fills it in too:
    presentation/phone.py)."""
    return ngettext("Still open: game %(games)s", "Still open: games %(games)s", count)


def games_over_words(count: int) -> str:
    """"(games %(games)s over)", for ``count`` games."""
    return ngettext("(game %(games)s over)", "(games %(games)s over)", count)


def _still_open(still: list) -> str:
    return still_open_words(len(still)) % {"games": _and(still)}


def open_games_text(result: dict) -> str:
    """Hollywood: which of the three games (columns) are still open, and which are over."""
    columns = result.get("columns") or []
    still = [c["number"] for c in columns if not c.get("complete")]
    over = [c["number"] for c in columns if c.get("complete")]
    if not still:
        return ""
    text = _still_open(still)
    if over:
        text += " " + games_over_words(len(over)) % {"games": _and(over)}
    return text + "."


def winner_sentence(result: dict) -> str:
    winner = result.get("winner")
    if not winner:
        return ""
    if isinstance(winner, list):
        return gettext("A tie: %(names)s.") % {"names": " & ".join(winner)}
    return win_verb(result, winner) + "."


def hand_said(result: dict, number: int, entry: dict | None = None) -> str:
    """Hand ``number`` of ``result`` as the sheet says it ("Ann gin v Bob 35")."""
    return hand_row(result["hands"][number - 1], result, entry).text
