"""The scoring core's refusals in the page's language.

The core (``ledger.rules.problems``) gives each problem as data: a stable ``code``, where it
is (hand, table, round, player, field) and its English words. A screen in English shows the
core's words exactly as the core writes them (``text``, ``hint``, ``line``). In any other
language the words are the sentence of ``SENTENCES`` for the problem's code, translated when
it is shown, named after the player where the problem has one ("Punkte von Ann: …"). The
core's words are never read to find anything: the code, the player and the hand say it all.

A refusal that names no place the core knows (code ``refused``: a service's own refusal,
e.g. an amount) keeps its words, which the service wrote in the request's language.
"""

from __future__ import annotations

import re

from django.utils.translation import get_language, gettext_noop, pgettext

from .cardtext import card_text
from .elision import gettext  # a name filled in with French elision ("Points d’Eve")
from .refusal_sentences import said

#: The words of each code of ``ledger.rules.problems.CODES``, translated where shown.
SENTENCES = {
    # the record's top level
    "record_not_object": gettext_noop("The game record cannot be read."),
    "format_unknown": gettext_noop("The game record is not in a format this app reads."),
    "variant_unknown": gettext_noop("The variant is missing or unknown."),
    "players_invalid": gettext_noop("The players are not a list of names."),
    "player_name_invalid": gettext_noop("A player's name is empty."),
    "player_twice": gettext_noop("The same name is given to two players."),
    "player_count": gettext_noop("This variant is not played by this many players."),
    "preset_unknown": gettext_noop("There is no such set of rules."),
    "rules_not_object": gettext_noop("The rules cannot be read."),
    "setting_unknown": gettext_noop("There is no such rule."),
    "setting_invalid": gettext_noop("This value is not allowed for this rule."),
    "setup_invalid": gettext_noop("A seat at the table is missing or named wrongly."),
    "first_dealer_missing": gettext_noop("Say who deals first."),
    "first_dealer_invalid": gettext_noop("This player cannot deal first."),
    "abandoned_invalid": gettext_noop("Whether the game was abandoned cannot be read."),
    "hands_invalid": gettext_noop("The hands cannot be read."),
    # stakes
    "stakes_invalid": gettext_noop("The stakes cannot be read."),
    "currency_invalid": gettext_noop("The currency is not a three-letter code."),
    "money_invalid": gettext_noop("An amount is not a number, or is below zero."),
    "money_missing": gettext_noop("A stake or the ante is missing."),
    "per_points_invalid": gettext_noop("The points per stake must be a whole number of 1 "
                                       "or more."),
    "stake_player_unknown": gettext_noop("A stake is given for someone who does not play."),
    "ante_not_minor_units": gettext_noop("The ante cannot be paid in this currency's "
                                         "smallest coins."),
    "round_share_invalid": gettext_noop("The pot cannot pay this share of each round."),
    # a hand
    "hand_not_object": gettext_noop("This hand cannot be read."),
    "hand_after_end": gettext_noop("The game was already over before this hand."),
    "abandoned_but_complete": gettext_noop("The game cannot be abandoned: it is over."),
    "flag_invalid": gettext_noop("Draw, gin or big gin cannot be read."),
    "draw_with_knocker": gettext_noop("A draw has nobody who knocked."),
    "knocker_missing": gettext_noop("Say who knocked, or that the hand was a draw."),
    "knocker_not_playing": gettext_noop("Not playing this hand."),
    "upcard_missing": gettext_noop("Give the up-card of this hand."),
    "upcard_unreadable": gettext_noop("The up-card is not a card."),
    "deadwood_missing": gettext_noop("Give the counts or the cards."),
    "deadwood_invalid": gettext_noop("The counts cannot be read."),
    "deadwood_not_a_count": gettext_noop("A count is a whole number, like 25."),
    "deadwood_out_of_range": gettext_noop("More than ten cards can hold, or below zero."),
    "count_missing": gettext_noop("The count is missing."),
    "player_not_playing": gettext_noop("Not playing this hand."),
    "cards_invalid": gettext_noop("The cards cannot be read."),
    "cards_missing": gettext_noop("The cards are missing."),
    "cards_unreadable": gettext_noop("These cards cannot be read: a card is mistyped, in "
                                     "both hands, or the number of cards is wrong."),
    "cards_illegal_knock": gettext_noop("These cards make no knock the rules allow."),
    "cards_counts_disagree": gettext_noop("The cards cannot give this count."),
    "gin_with_deadwood": gettext_noop("A gin leaves no points, but the knocker counted "
                                      "some."),
    "big_gin_not_melded": gettext_noop("A big gin needs all 11 of the knocker's cards "
                                       "melded."),
    "knock_over_limit": gettext_noop("Too many points to knock: above this hand's knock "
                                     "limit."),
    "knock_gin_only": gettext_noop("Only gin may end this hand, and the knocker counted "
                                   "points."),
    "tables_invalid": gettext_noop("Give one hand for each card table."),
    "cut_loser_invalid": gettext_noop("Say who cut the lower card, only when the most "
                                      "points lost are tied."),
    "knock_card_unreadable": gettext_noop("The knock card is not a card."),
    "knock_card_not_here": gettext_noop("A knock card belongs only to a hand of partnership "
                                        "gin or streets."),
    "target_invalid": gettext_noop("The new target must be a whole number of 1 or more, "
                                   "given on its own between two hands."),
    "target_passed": gettext_noop("A side already has this many points in a street that is "
                                  "still open; choose a higher target."),
    # CAP-IT rounds
    "rounds_over": gettext_noop("CAP-IT has five rounds: the game is over."),
    "went_out_missing": gettext_noop("Say who went out."),
    "went_out_unknown": gettext_noop("Who went out is not one of the players."),
    "round_counts_missing": gettext_noop("Give the points or the cards of this round."),
    "round_player_unknown": gettext_noop("Not one of the players."),
    "round_player_missing": gettext_noop("The points are missing."),
    "capit_cards_unreadable": gettext_noop("These cards cannot be read."),
    "capit_points_invalid": gettext_noop("Points are a whole number of 0 or more."),
    "capit_points_impossible": gettext_noop("No cards can make these points."),
    "went_out_holds_cards": gettext_noop("Whoever went out has no points left."),
    "capit_cards_points_disagree": gettext_noop("The cards and the points disagree."),
    # anything the services check before the core
    "refused": gettext_noop("This cannot be saved."),
}

#: The words of a code with the numbers the core gave (``Problem.values``), used when the
#: problem has every one of them: outside English a refusal keeps its numbers ("12 liegt
#: über der Klopfgrenze dieses Spiels von 10").
NUMBERED = {
    "knock_over_limit": gettext_noop("Too many points to knock: %(count)s is above this "
                                     "hand's knock limit of %(limit)s."),
    "knock_gin_only": gettext_noop("Only gin may end this hand, and the knocker counted "
                                   "%(count)s."),
    "gin_with_deadwood": gettext_noop("A gin leaves no points, but the knocker counted "
                                      "%(count)s."),
    "deadwood_out_of_range": gettext_noop("A count of %(count)s is not possible: ten cards "
                                          "hold 0 to %(most)s."),
    "capit_points_impossible": gettext_noop("No cards can make %(points)s points: the cards "
                                            "are worth %(values)s."),
}

#: The words of a code when the core gave one particular number (``Problem.values``' name):
#: a best-of of an even number is a setting refused for its own reason.
NUMBERED_BY_VALUE = {
    ("setting_invalid", "even"): gettext_noop("%(even)s is even: a match is best of an odd "
                                              "number of hands."),
}

# what the field holds, to name it after its player ("Ann's count")
_LABELS = {
    "count": gettext_noop("%(name)s's count"),
    "cards": gettext_noop("%(name)s's cards"),
    "points": gettext_noop("%(name)s's points"),
}


#: A card the core names in its English words ("the up-card 7H", "AH"): the up-card of an
#: Oklahoma hand, which a refusal names.
_CORE_CARD = re.compile(r"(?<=up-card )(?:10|[2-9TJQKA])[SHDC]\b")


def cards_shown(text: str) -> str:
    """The core's English words with its card codes written as every page writes a card
    ("the up-card 7H" -> "the up-card 7♥", "AH" -> "A♥")."""
    return _CORE_CARD.sub(lambda match: card_text(match.group(0)), text) if text else text


def in_english() -> bool:
    """Whether the page speaks the core's own language."""
    language = get_language()
    return not language or language.split("-")[0] == "en"


def _refusal(problem) -> str | None:
    """The words of a refusal the record carries as a problem (``refusal_problem``: a name, a
    currency, a date the cleaning refused), less the place the line opens with and the
    final period; None for any other problem."""
    values = getattr(problem, "values", None) or {}
    refusal = values.get("refusal")
    if refusal is None:
        return None
    return said(refusal).removeprefix(values.get("without") or "").rstrip(".")


def words(problem) -> str:
    """The problem's words alone, without its player or place."""
    own = _refusal(problem)
    if own is not None:
        return own
    if in_english() or (problem.code == "refused" and problem.text):
        return cards_shown(problem.text)
    values = getattr(problem, "values", None) or {}
    numbered = next((words for (code, name), words in NUMBERED_BY_VALUE.items()
                     if code == problem.code and name in values), None) \
        or NUMBERED.get(problem.code)
    if numbered:
        try:
            return gettext(numbered) % values
        except (KeyError, TypeError, ValueError):  # a number the core did not give
            pass
    return gettext(SENTENCES[problem.code])


def _named(problem, what: str | None) -> str:
    sentence = words(problem)
    if not problem.player:
        return sentence
    name = gettext(_LABELS[what]) % {"name": problem.player} if what in _LABELS \
        else problem.player
    return gettext("%(where)s: %(problem)s") % {"where": name, "problem": sentence}


def at_field(problem, what: str | None = None) -> str:
    """The words put at the field the problem names. ``what`` is what the field holds
    ("count", "cards", "points"): the words then open with it ("Ann's count: …"), in English
    unless the core gave its own words for the field (``hint``)."""
    own = _refusal(problem)
    if own is not None:
        return own
    if in_english() or problem.code == "refused":
        if problem.hint:
            return cards_shown(problem.hint)
        if what and problem.player:
            return cards_shown(f"{problem.player}'s {what}: {problem.text}")
        return cards_shown(problem.text)
    return _named(problem, what)


def _place(problem) -> str:
    if problem.hand is None:
        return ""
    place = gettext("Hand %(n)s") % {"n": problem.hand}
    if problem.round is not None:
        place = gettext("%(hand)s (round %(n)s)") % {"hand": place, "n": problem.round}
    if problem.table is not None:
        place = pgettext("card table", "%(hand)s, table %(n)s") % {"hand": place,
                                                                   "n": problem.table}
    return place


def line(problem) -> str:
    """The whole refusal, with where it is: for words put above a form, or in a list."""
    own = _refusal(problem)
    if own is not None:
        return f"{problem.opening}: {own}" if problem.opening else own
    if in_english() or (problem.code == "refused" and not problem.hand):
        return cards_shown(problem.line)
    sentence = _named(problem, None)
    place = _place(problem)
    return gettext("%(where)s: %(problem)s") % {"where": place, "problem": sentence} \
        if place else sentence


def plain_line(problem) -> str:
    """The line as a command prints it: the core's own English line exactly, or, where the
    record carries a refusal (``refusal_problem``), its words in the language in force."""
    own = _refusal(problem)
    if own is None:
        return problem.line if hasattr(problem, "line") else str(problem)
    return f"{problem.opening}: {own}" if problem.opening else own


def lines(problems) -> list[str]:
    return [line(problem) for problem in problems]


_HOLDS = {"deadwood": "count", "cards": "cards", "points": "points"}


def field_words(problem, field: str | None, english: str) -> str:
    """What a form puts for ``problem`` at ``field`` (None: above the form): ``english``,
    the words the form made from the core's, on an English page; else the translated
    sentence, named after the player and what the field holds, or with the hand's place
    above the form."""
    if in_english():
        return cards_shown(english)
    if field is None:
        return line(problem)
    return at_field(problem, _HOLDS.get(problem.field or ""))
