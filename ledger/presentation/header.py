"""The top of a game: its stakes, the rules that decide its scores, and who plays, in words
(the printed sheets print them; the screens may show them too)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from .catalog import ROLE_WORDS, SETTING_LABELS, VARIANT_SETTINGS
from .money import cover_line, format_money
from .stakes import ante_sentence, own_stake_sentence, stake_sentence
from .words import SHUTOUT_WORDS, names

# The catalog's labels and role words, marked for the catalogs here (the core keeps them
# English, without Django) and translated where the paper prints them.
_MARKED_LABELS = (
    gettext_noop("Game to"), gettext_noop("Gin bonus"), gettext_noop("Undercut bonus"),
    gettext_noop("Big gin bonus"), gettext_noop("Box bonus"), gettext_noop("Game bonus"),
    gettext_noop("Shutout"), gettext_noop("Knock limit"), gettext_noop("A tie is an undercut"),
    gettext_noop("Next dealer"), gettext_noop("Ace up-card"),
    gettext_noop("Spade up-card doubles"), gettext_noop("Third column counts double"),
    gettext_noop("Money between three"), gettext_noop("Unequal stakes"),
    gettext_noop("Ace counts"), gettext_noop("Round share"), gettext_noop("Round winner by"),
)
assert set(_MARKED_LABELS) == set(SETTING_LABELS.values())
_MARKED_ROLES = (gettext_noop("in the box"), gettext_noop("captain"), gettext_noop("sits out"),
                 gettext_noop("opponent"), gettext_noop("plays"))
assert set(_MARKED_ROLES) == set(ROLE_WORDS.values())


def _setting_label(key: str) -> str:
    return _(SETTING_LABELS[key])


def _role_word(role) -> str:
    word = ROLE_WORDS.get(role, "")
    return _(word) if word else ""


def stakes_lines(record: dict, result: dict) -> list[str]:
    stakes = record.get("stakes")
    if not stakes:
        return [_("No stakes: this game is played for nothing.")]
    currency = stakes.get("currency", "")
    lines = []
    if "ante" in stakes:
        lines.append(ante_sentence(stakes["ante"], currency, each=True))
        if result.get("pot"):
            lines.append(_("Pot %(amount)s %(currency)s") % {
                "amount": format_money(result["pot"], currency), "currency": currency})
        if result.get("round_share"):
            lines.append(_("Round share %(amount)s %(currency)s") % {
                "amount": format_money(result["round_share"], currency), "currency": currency})
    if "rate" in stakes:
        lines.append(stake_sentence(stakes["rate"], currency, stakes.get("per_points", 1)))
        if cover := cover_line(result, record):
            lines.append(cover)
    for name, stake in (stakes.get("players") or {}).items():
        lines.append(own_stake_sentence(name, stake, currency))
    return lines


def _yes_no(value) -> str:
    return _("yes") if value else _("no")


def rule_lines(result: dict) -> list[tuple[str, str]]:
    """The settings that decide this game's scores, each under its one label
    (``SETTING_LABELS``, the forms' too), with the few rules no setting changes."""
    rules = result["rules"]
    facts = result["facts"]
    settings = VARIANT_SETTINGS[result["variant"]]
    label = _setting_label
    out: list[tuple[str, str]] = []
    if facts["rounds"]:
        share = rules["capit_round_share"]
        out.append((_("Rounds"), _("five; lowest wins")))
        out.append((label("capit_ace_value"), _points(rules["capit_ace_value"])))
        out.append((label("capit_round_share"),
                    _("%(share)s of the pot") % {"share": share} if share.endswith("%")
                    else share))
        out.append((label("capit_round_winner"), _("lowest in the round")
                    if rules["capit_round_winner"] == "round" else _("lowest cumulative")))
        return out
    out.append((label("target"), _points(rules["target"])))
    if facts["upcard"]:
        out.append((label("knock_limit"), _("the up-card's value")))
        out.append((label("oklahoma_ace"),
                    _("gin only") if rules["oklahoma_ace"] == "gin_only" else "1"))
        out.append((label("spade_double"), _yes_no(rules["spade_double"])))
    else:
        out.append((label("knock_limit"), str(rules["knock_limit"])))
    out.append((label("gin_bonus"), str(rules["gin_bonus"])))
    out.append((label("undercut_bonus"), str(rules["undercut_bonus"])))
    out.append((label("undercut_on_tie"), _yes_no(rules["undercut_on_tie"])))
    out.append((label("big_gin_bonus"),
                str(rules["big_gin_bonus"]) if rules["big_gin_bonus"] else _("off")))
    out.append((label("box_bonus"), _("%(n)s a hand") % {"n": rules["box_bonus"]}
                if rules["box_bonus"] else _("off")))
    out.append((label("game_bonus"), str(rules["game_bonus"]) if rules["game_bonus"]
                else _("off")))
    out.append((label("shutout_mode"), SHUTOUT_WORDS[rules["shutout_mode"]]))
    if facts["dealer_rule"]:
        out.append((label("dealer_rule"), _("winner deals")
                    if rules["dealer_rule"] == "winner_deals" else _("alternate")))
    if "hollywood_third_double" in settings:
        out.append((label("hollywood_third_double"),
                    _yes_no(rules["hollywood_third_double"])))
    if "three_hand_money" in settings:
        out.append((label("three_hand_money"), _("each pair settles")
                    if rules["three_hand_money"] == "pairwise" else _("box v each")))
    if facts["sides"]:
        out.append((_("Lower side"), _("prevails")))  # RULES §3.5: no setting changes it
        out.append((label("balance_division"), rules["balance_division"]))
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
        out.append((_("Cut order"), ", ".join(players)))
        for name in players:
            out.append((name, _role_word(roles.get(name))))
    elif facts["setup"] == "seats":  # captain play for 3
        out.append((_("Captain"), players[0]))
        out.append((_("Opponents"), _("%(first)s and %(second)s (in cut order)") % {
            "first": players[1], "second": players[2]}))
    elif facts["setup"] == "captain_tables":
        out.append((_("Captains"), names(setup.get("captains", []))))
        out.append((_("Opponents"), names(setup.get("opponents", []))))
        out.append((_("Sits out first"), setup.get("sitter", "")))
    elif facts["setup"] == "sides":
        for side, members in (setup.get("sides") or {}).items():
            out.append((side, names(members)))
    else:
        out.append((_("Seats") if facts["rounds"] else _("Players"), ", ".join(players)))
    dealer = setup.get("first_dealer") or first.get("dealer")
    if dealer:
        out.append((_("First dealer"), dealer if isinstance(dealer, str) else ", ".join(dealer)))
    return out
