"""The club formats in words, where the sheets (paper, CSV, the share page) need them:
a deal's knock card, its doubling, its boxes and the streets it entered (RULES §3.7, §3.9);
the rules a streets game, a club-box game or a best-of match is played by; where a best-of
match stands (§3.10). Every number is the core's result; nothing is worked out here but
the words."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext

from .cardtext import card_text
from .money import Score, money_words
from .words import key_label

#: The club settings' labels on the printed rules panel.
CLUB_LABELS = {
    "street_bonus": gettext_lazy("Street bonus"),
    "clean_sweep_mode": gettext_lazy("Clean sweep"),
    "all_streets_sweep": gettext_lazy("All streets"),
    "club_boxes": gettext_lazy("Extra boxes"),
    "knock_card": gettext_lazy("Spade knock card"),
    "straight_format": gettext_lazy("Match"),
    "money_mode": gettext_lazy("Money"),
}


def _numbers(values) -> str:
    return ", ".join(str(v) for v in values)


def deal_line(hand: dict, result: dict) -> str:
    """A deal's own facts in one line: "knock card 7♠ (doubled) · WE 9 boxes · streets 1, 2
    · street 1 ends"; empty for a deal with none of them."""
    parts = []
    if hand.get("knock_card"):
        card = card_text(hand["knock_card"])
        parts.append(gettext("knock card %(card)s, doubled") % {"card": card}
                     if hand.get("doubled") else
                     gettext("knock card %(card)s") % {"card": card})
    boxes = hand.get("boxes") or {}
    for key, n in boxes.items():
        if n:
            parts.append(ngettext("%(side)s %(n)s box", "%(side)s %(n)s boxes", n) % {
                "side": key_label(result, key), "n": n})
    streets = hand.get("streets") or []
    if streets:
        parts.append(ngettext("street %(streets)s", "streets %(streets)s", len(streets)) % {
            "streets": _numbers(streets)})
    ended = hand.get("ended") or []
    if ended:
        parts.append(ngettext("street %(streets)s ends", "streets %(streets)s end",
                              len(ended)) % {"streets": _numbers(ended)})
    return " \u00b7 ".join(parts)


def club_rule_lines(result: dict) -> list[tuple[str, str]]:
    """The club settings a game is played by, for the rules panel: the streets' settlement,
    the extra boxes and the knock card's doubling where they apply."""
    rules = result["rules"]
    out: list[tuple[str, str]] = []
    if result.get("streets") is not None:
        bonus = rules.get("street_bonus", "target")
        out.append((str(CLUB_LABELS["street_bonus"]),
                    gettext("= target") if bonus == "target" else str(bonus)))
        mode = rules.get("clean_sweep_mode", "bonus")
        sweep_bonus = rules.get("clean_sweep_bonus", "street_bonus")
        out.append((str(CLUB_LABELS["clean_sweep_mode"]), {
            "bonus": gettext("+ street bonus")
            if sweep_bonus == "street_bonus" else f"+{sweep_bonus}",
            "double": gettext("street total ×2"),
            "none": pgettext("setting", "none")}[mode]))
        if rules.get("all_streets_sweep", "double") == "double":
            condition = (gettext("all won: G ×2")
                         if rules.get("sweep_condition", "won_all") == "won_all" else
                         gettext("all clean: G ×2"))
        else:
            condition = pgettext("setting", "none")
        out.append((str(CLUB_LABELS["all_streets_sweep"]), condition))
    extra = [rules.get(name, 0) for name in ("gin_boxes", "undercut_boxes", "roodle_boxes")]
    if any(extra):
        boxes = gettext("gin %(gin)s, undercut %(undercut)s, roodle %(roodle)s") % dict(
            zip(("gin", "undercut", "roodle"), extra, strict=True))
        if rules.get("spade_double") and rules.get("double_extra_boxes", True) \
                and result["facts"].get("knock_card"):
            boxes = gettext("%(boxes)s; doubled in a doubled deal") % {"boxes": boxes}
        out.append((str(CLUB_LABELS["club_boxes"]), boxes))
    if result["facts"].get("knock_card"):
        out.append((str(CLUB_LABELS["knock_card"]), gettext("doubles the deal")
                    if rules.get("spade_double") else pgettext("setting", "no")))
    return out


def match_rule_line(result: dict) -> tuple[str, str] | None:
    """A best-of match's format for the rules panel: "best of 7: first to 4 hands"."""
    match = result.get("match")
    if not match:
        return None
    return (str(CLUB_LABELS["straight_format"]),
            ngettext("best of %(n)s: first to %(needed)s hand",
                     "best of %(n)s: first to %(needed)s hands", match["needed"]) % {
                "n": match["best_of"], "needed": match["needed"]})


def lump_sum_line(record: dict, result: dict) -> str:
    """What a lump-sum game or a best-of match pays, for the stakes panel; empty for a game
    paid by the point."""
    stakes = record.get("stakes") or {}
    rules = result["rules"]
    if "lump_sum_stake" not in stakes:
        return ""
    amount = money_words(stakes["lump_sum_stake"], stakes.get("currency", ""))
    if result.get("match"):
        return gettext("%(amount)s to the winner of the match") % {"amount": amount}
    if rules.get("money_mode") == "lump_sum":
        return gettext("%(amount)s to the winner of the game, twice on a shutout") % {
            "amount": amount}
    return ""


def _score(won: int, lost: int) -> str:
    """"4‑3": a non-breaking hyphen, so that a line never breaks inside the score."""
    return f"{won}\u2011{lost}"


def match_status(result: dict) -> str:
    """Where a best-of match stands, in one sentence: "B wins the match 4-3.", "A leads
    3-2, first to 4."; empty for a game that is not a match."""
    match = result.get("match")
    if not match:
        return ""
    won = match["hands_won"]
    winner = match.get("winner")
    if winner:
        other = max((n for key, n in won.items() if key != winner), default=0)
        return gettext("%(name)s wins the match %(score)s.") % {
            "name": winner, "score": _score(won[winner], other)}
    ranked = sorted(won.items(), key=lambda item: -item[1])
    if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return gettext("Level at %(n)s, first to %(needed)s.") % {
            "n": ranked[0][1] if ranked else 0, "needed": match["needed"]}
    (leader, high), (_other, low) = ranked[0], ranked[1]
    return gettext("%(name)s leads %(score)s, first to %(needed)s.") % {
        "name": leader, "score": _score(high, low), "needed": match["needed"]}


def match_lines(result: dict) -> list[tuple[str, list[str], str]]:
    """A best-of match's end-of-game lines for paper (label, one value a player, kind):
    the hands won, and the hands' points, which are shown but not counted."""
    match = result.get("match")
    if not match:
        return []
    keys = list(result["totals"])
    running = (result["hands"][-1].get("running") or {}) if result["hands"] else {}
    return [(gettext("Points (not counted)"), [str(running.get(key, 0)) for key in keys],
             "num"),
            (gettext("Hands won"), [str(match["hands_won"].get(key, 0)) for key in keys],
             "num")]


def match_scores(result: dict) -> list[Score]:
    """A best-of match's standing for the lists of games: each player's hands won; empty
    for a game that is not a match."""
    match = result.get("match")
    if not match:
        return []
    winner = match.get("winner")
    won = match["hands_won"]
    best = max(won.values(), default=0)
    return [Score(key=key, label=key_label(result, key), value=won.get(key, 0),
                  detail=ngettext("hand won", "hands won", won.get(key, 0)),
                  leader=key == winner if winner else won.get(key, 0) == best > 0)
            for key in result["totals"]]
