"""A table's report of its part of a hand in words, for the hand's history ("Who reported
what") on the game page, in the export and on paper, as the sheet writes a table of a
hand: "Ann gin v Bob 12", "Draw", "Ann 12, Bob 30 went out"."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_noop, ngettext, pgettext

from ledger.models import PLAYERS_PART, Hand
from ledger.rules.report import (
    part_reported,
    reported_table,
    round_disputed,
    round_stock_out,
    round_went_out,
)
from ledger.selectors.table_reports import hand_confirmations

from .catalog import BIG_GIN, GIN, KNOCK
from .dates import format_clock, format_moment
from .rows import preview_words
from .words import duel_text, names


def report_words(values: dict, rules: dict | None = None) -> str:
    """The reported values (the record's shape of one table's part, or a CAP-IT player's
    points) in words; a table's part as the sheet writes a table of a hand ("Ann gin v Bob
    30", "Ann knocks 5 v Bob 30", "Draw"), scored by the core with the game's ``rules``."""
    if "knocker" in values or values.get("draw"):
        scored = reported_table(values, rules) if rules is not None else None
        if scored is None:  # not scorable by itself: what the table said, as typed
            kind = BIG_GIN if values.get("big_gin") else GIN if values.get("gin") else KNOCK
            scored = {"result": "draw" if values.get("draw") else kind,
                      "knocker": values.get("knocker"),
                      "deadwood": values.get("deadwood") or {}}
        text = duel_text(scored)
        if not scored["deadwood"] and values.get("cards"):
            text += " " + gettext("(cards)")
        return text
    points = values.get("points") or {}
    listed = ", ".join(f"{name} {value}" for name, value in points.items())
    if values.get("went_out"):
        return gettext("%(counts)s went out") % {"counts": listed}
    return listed


#: The export's and the paper's heading of who reported what with each saved hand
#: (translated where it is shown).
REPORTED_HEADER = gettext_noop("Reported by")
REPORTED_TITLE = gettext_noop("Who reported what")


def report_who(report) -> str:
    """Who sent a report: "table 2", or the CAP-IT player's name."""
    return gettext("table %(n)s") % {"n": report.table} if report.table else report.player


def report_line(report, *, when=None, rules: dict | None = None) -> str:
    """One report kept with a saved hand, for the export and the paper's audit:
    "table 2 at Nov 25, 2026, 11:41 PM: R2 knocks 5 v B2 30", marked " (changed)" when
    it replaced an earlier report of its table, " (replaced)" when a later one replaced
    it, " (withdrawn)" when its table withdrew it. ``when`` writes the moment (default:
    the date and the time, ``dates.format_moment``); ``rules``: the game's settings, by
    which the core scores the table's part (``report_words``)."""
    moment = (when or format_moment)(report.reported_at)
    marks = [word for flag, word in ((report.replaces_id, gettext("changed")),
                                     (report.replaced_at, gettext("replaced")),
                                     (report.withdrawn_at, gettext("withdrawn"))) if flag]
    marked = f" ({', '.join(marks)})" if marks else ""
    return gettext("%(who)s at %(moment)s%(marked)s: %(words)s") % {
        "who": report_who(report), "moment": moment, "marked": marked,
        "words": report_words(report.values, rules)}


def hand_report_lines(history, by_hand: dict[int, list], confirmations: dict | None = None,
                      *, rules: dict | None = None) -> dict[tuple[int, bool], list[str]]:
    """The lines of the reports kept with each saved hand of ``history`` (every Hand,
    voided ones too), by (the hand's number, whether it is voided): a sheet row knows
    both. ``by_hand``: the reports by hand id
    (``ledger.selectors.table_reports.hand_reports``); ``confirmations``: a two-hand game's
    answers by hand id (``ledger.selectors.table_reports.hand_confirmations``), "Bob says
    correct (Nov 25, 2026, 11:41 PM)";
    ``rules``: the game's settings (``report_words``)."""
    confirmations = confirmations or {}
    out: dict[tuple[int, bool], list[str]] = {}
    for hand in history:
        lines = [report_line(r, rules=rules) for r in by_hand.get(hand.pk, [])]
        if hand.pk in confirmations:
            lines.append(confirm_answer(confirmations[hand.pk], when=format_moment))
        if lines:
            out.setdefault((hand.number, hand.voided_at is not None), []).extend(lines)
    return out


def confirm_question(hand: dict, result: dict) -> str:
    """A saved hand put to the other player of a two-hand game: "Ann knocks 5 v Bob 30:
    Ann +25, correct?". ``hand`` is the last of ``result["hands"]``."""
    words = preview_words(hand, result)
    return gettext("%(hand)s: %(gains)s, correct?") % {"hand": words["text"],
                                                        "gains": words["gains"]}


def confirm_answer(answer, *, when=None) -> str:
    """The other player's answer, as the scorekeeper sees it beside the hand: "Bob says
    correct (11:41 PM)", "Bob says not correct (11:41 PM)" (``when`` writes the moment;
    default ``dates.format_clock``)."""
    who = answer.player or gettext("The other player")
    said = {"who": who, "when": (when or format_clock)(answer.answered_at)}
    if answer.correct:
        return gettext("%(who)s says correct (%(when)s)") % said
    return gettext("%(who)s says not correct (%(when)s)") % said


def confirm_answers(game) -> list[dict]:
    """The other player's answers beside the saved (live) hands of a two-hand ``game``,
    newest hand first: ``{"number", "words", "correct"}`` (the game page's card and the
    scorekeeper's poll)."""
    answers = hand_confirmations(game)
    if not answers:
        return []
    numbers = dict(Hand.objects.filter(pk__in=list(answers), voided_at__isnull=True)
                   .values_list("pk", "number"))
    said = [{"number": numbers[pk], "words": confirm_answer(a), "correct": a.correct}
            for pk, a in answers.items() if pk in numbers]
    return sorted(said, key=lambda item: -item["number"])


#: the core's readers of a next hand's parts and of a CAP-IT round's end, for the screens
__all__ = ["part_reported", "round_disputed", "round_stock_out", "round_went_out"]


def round_end_words(end: dict) -> str:
    """What the players' reports say of how a CAP-IT round ended
    (``selectors.table_reports.round_end_of``), for the scorekeeper before he saves: "Ann and
    Bob each say they went out: ...", or that every player said no (the stock ran out)."""
    disputed = round_disputed(end)
    if disputed:
        return gettext("%(names)s each say they went out; only one can have. Ask the "
                       "table, then tap who went out.") % {"names": names(disputed)}
    if round_stock_out(end):
        return gettext("Every player says he did not go out: the stock ran out.")
    return ""


def conflict_words(player: str, at: str, disputed: list[str]) -> str:
    """One player's state when others too say they went out: "Ann says at 21:40 that he went
    out, as does Bob" (``at``: the time of his report)."""
    others = [name for name in disputed if name != player]
    return ngettext("%(who)s says at %(at)s that he went out, as does %(others)s",
                    "%(who)s says at %(at)s that he went out, as do %(others)s",
                    len(others)) % {"who": player, "at": at, "others": names(others)}


def part_labels(parts: dict) -> list[tuple[str, dict]]:
    """(label, whose) of each part of the next hand a game's phones report (the core's
    ``report_parts``): "Table 1", {"table": 1} for each card table of a table game, or a
    player's name, {"player": name} for each player of a CAP-IT round; [] for a game of
    one table. The game page's card and the reports' poll say the same."""
    if parts["kind"] == "tables":
        return [(table_words(i), {"table": i}) for i in range(1, len(parts["tables"]) + 1)]
    return [(name, {"player": name}) for name in parts.get("players", [])]


def table_words(number: int) -> str:
    """A card table of a table game by its number: "Table 2"."""
    return pgettext("card table", "Table %(n)s") % {"n": number}


def link_words(part: int) -> str:
    """Whose report link a ``ReportLink.part`` is: "Table 2", or "Players" (CAP-IT's one
    link, where each player picks his name)."""
    return gettext("Players") if part == PLAYERS_PART else table_words(part)
