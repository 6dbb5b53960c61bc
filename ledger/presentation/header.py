"""The top of a game: its stakes, the rules that decide its scores, and who plays, in words
(the printed sheets print them; the screens may show them too)."""

from __future__ import annotations

from django.utils.translation import gettext, ngettext, pgettext

from .catalog import ROLE_WORDS, SETTING_LABELS, VARIANT_SETTINGS, choice_text
from .club import club_rule_lines, lump_sum_line, match_rule_line
from .money import cover_line, money_words
from .stakes import ante_sentence, own_stake_sentence, stake_sentence
from .words import SHUTOUT_WORDS, names


def stakes_lines(record: dict, result: dict) -> list[str]:
    stakes = record.get("stakes")
    if not stakes:
        return [gettext("No stakes: this game is played for nothing.")]
    currency = stakes.get("currency", "")
    lines = []
    if "ante" in stakes:
        lines.append(ante_sentence(stakes["ante"], currency, each=True))
        if result.get("pot"):
            lines.append(gettext("Pot %(amount)s") % {
                "amount": money_words(result["pot"], currency)})
        if result.get("round_share"):
            lines.append(gettext("Round share %(amount)s") % {
                "amount": money_words(result["round_share"], currency)})
    if "rate" in stakes:
        lines.append(stake_sentence(stakes["rate"], currency, stakes.get("per_points", 1)))
        if cover := cover_line(result, record):
            lines.append(cover)
    for name, stake in (stakes.get("players") or {}).items():
        lines.append(own_stake_sentence(name, stake, currency))
    if lump := lump_sum_line(record, result):  # RULES 3.10: a lump sum, a match's stake
        lines.append(lump)
    return lines


def _yes_no(value) -> str:
    return choice_text(bool(value))


def _points(n) -> str:
    return ngettext("%(n)s point", "%(n)s points", int(n)) % {"n": n}


def _off_or(value, text: str | None = None) -> str:
    """A bonus, or "off" when it is 0."""
    return (text or str(value)) if value else pgettext("setting", "off")


def rule_lines(result: dict) -> list[tuple[str, str]]:
    """The settings that decide this game's scores, each under its one label
    (``SETTING_LABELS``, the forms' too), with the few rules no setting changes."""
    rules = result["rules"]
    facts = result["facts"]
    settings = VARIANT_SETTINGS[result["variant"]]

    def label(setting: str) -> str:
        return str(SETTING_LABELS[setting])

    out: list[tuple[str, str]] = []
    if facts["rounds"]:
        share = rules["capit_round_share"]
        out.append((gettext("Rounds"), gettext("five; lowest wins")))
        out.append((label("capit_ace_value"), _points(rules["capit_ace_value"])))
        out.append((label("capit_round_share"), gettext("%(share)s of the pot") % {
            "share": share} if share.endswith("%") else share))
        out.append((label("capit_round_winner"), gettext("lowest in the round")
                    if rules["capit_round_winner"] == "round" else gettext("lowest cumulative")))
        return out
    match = match_rule_line(result)  # RULES 3.10: no target, no end bonuses
    streets = result.get("streets") is not None  # RULES 3.9: the streets' settlement
    if match:
        out.append(match)
    else:
        out.append((label("target"), _points(rules["target"])))
    if facts["upcard"]:
        out.append((label("knock_limit"), gettext("the up-card's value")))
        out.append((label("oklahoma_ace"),
                    choice_text("gin_only") if rules["oklahoma_ace"] == "gin_only" else "1"))
        out.append((label("spade_double"), _yes_no(rules["spade_double"])))
    else:
        out.append((label("knock_limit"), gettext("0: gin only") if rules["knock_limit"] == 0
                    else str(rules["knock_limit"])))  # RULES 3.10: straight gin
    out.append((label("gin_bonus"), str(rules["gin_bonus"])))
    out.append((label("undercut_bonus"), str(rules["undercut_bonus"])))
    out.append((label("undercut_on_tie"), _yes_no(rules["undercut_on_tie"])))
    out.append((label("big_gin_bonus"), _off_or(rules["big_gin_bonus"])))
    if streets or any(rules.get(name) for name in ("gin_boxes", "undercut_boxes",
                                                      "roodle_boxes")):
        out.append((label("box_bonus"), _off_or(rules["box_bonus"], gettext(
            "%(n)s a box") % {"n": rules["box_bonus"]})))
    elif not match:
        out.append((label("box_bonus"), _off_or(rules["box_bonus"], gettext(
            "%(n)s a hand") % {"n": rules["box_bonus"]})))
    if not streets and not match:
        out.append((label("game_bonus"), _off_or(rules["game_bonus"])))
        out.append((label("shutout_mode"), gettext(str(SHUTOUT_WORDS[rules["shutout_mode"]]))))
    if facts["dealer_rule"]:
        out.append((label("dealer_rule"), choice_text(rules["dealer_rule"])))
    if "hollywood_third_double" in settings:
        out.append((gettext("Third street counts double") if streets
                    else label("hollywood_third_double"),
                    _yes_no(rules["hollywood_third_double"])))
    if "three_hand_money" in settings:
        out.append((label("three_hand_money"), gettext("each pair settles")
                    if rules["three_hand_money"] == "pairwise" else gettext("box v each")))
    out += club_rule_lines(result)
    if facts["sides"]:
        # RULES §3.5: no setting changes it
        out.append((gettext("Lower side"), gettext("prevails")))
        out.append((label("balance_division"), choice_text(rules["balance_division"])))
    return out


def _points(n) -> str:
    return ngettext("%(n)s point", "%(n)s points", n) % {"n": n}


def pairs(items: list) -> list[list]:
    """Items two by two, for the two-column rules panel."""
    return [items[i:i + 2] for i in range(0, len(items), 2)]


def cast_lines(record: dict, result: dict) -> list[tuple[str, str]]:
    """Who plays, the sides and the roles at the start."""
    facts = result["facts"]
    setup = record.get("setup") or {}
    players = result["players"]
    first = result["hands"][0] if result["hands"] else result["next"]
    roles = first.get("roles") or {}
    out: list[tuple[str, str]] = []
    if facts["setup"] == "seats" and not facts["sides"]:  # in the box
        out.append((gettext("Cut order"), ", ".join(players)))
        for name in players:
            out.append((name, str(ROLE_WORDS.get(roles.get(name), ""))))
    elif facts["setup"] == "seats":  # captain play for 3
        out.append((gettext("Captain"), players[0]))
        out.append((gettext("Opponents"), gettext("%(a)s and %(b)s (in cut order)") % {
            "a": players[1], "b": players[2]}))
    elif facts["setup"] == "captain_tables":
        out.append((gettext("Captains"), names(setup.get("captains", []))))
        out.append((gettext("Opponents"), names(setup.get("opponents", []))))
        out.append((gettext("Sits out first"), setup.get("sitter", "")))
    elif facts["setup"] == "sides":
        for side, members in (setup.get("sides") or {}).items():
            out.append((side, names(members)))
    else:
        out.append((gettext("Seats") if facts["rounds"] else gettext("Players"),
                    ", ".join(players)))
    dealer = setup.get("first_dealer") or first.get("dealer")
    if dealer:
        out.append((gettext("First dealer"),
                    dealer if isinstance(dealer, str) else ", ".join(dealer)))
    return out
