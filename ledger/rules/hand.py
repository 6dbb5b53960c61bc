"""One gin hand (RULES §1), used by every gin variant: knock, undercut, gin, big gin, draw.

K is the knocker's deadwood, O the opponent's deadwood after lay-offs.
"""

from __future__ import annotations

from dataclasses import dataclass

from .limits import KnockLimit, knock_limit, parse_upcard
from .problems import At

MAX_DEADWOOD = 98  # the most a 10-card hand can hold unmelded

__all__ = ["DRAW", "MAX_DEADWOOD", "GinHand", "HandOutcome", "check_players",
           "counts_from_cards", "read_gin_hand", "score_gin_hand"]


@dataclass(slots=True)
class GinHand:
    """A hand as the scorekeeper entered it (checked for shape, not yet against the game)."""

    draw: bool
    knocker: str | None = None
    deadwood: dict | None = None
    big_gin: bool = False
    upcard: str | None = None  # normalised, e.g. "10S"
    cards: dict | None = None
    gin: bool | None = None  # an optional "gin": true written on the hand


@dataclass(slots=True)
class HandOutcome:
    result: str  # knock | undercut | gin | big_gin | draw
    winner: str | None
    loser: str | None
    points: int  # the winner's points for the hand (0 for a draw)
    knocker: str | None = None
    opponent: str | None = None
    deadwood: dict | None = None  # the counts scored: K and O after lay-offs
    layout: dict | None = None  # melds, deadwood cards and lay-offs when cards were given
    doubled: bool = False  # Oklahoma: a spade up-card doubled the points

    def fields(self) -> dict:
        """What a hand entry of the result says about the play besides the points."""
        if self.knocker is None:
            return {}
        out = {"knocker": self.knocker, "deadwood": self.deadwood, "doubled": self.doubled}
        if self.layout is not None:
            out["layout"] = self.layout
        return out


DRAW = HandOutcome("draw", None, None, 0)


def read_gin_hand(raw, where: At, problems: list, *, oklahoma: bool = False):
    """Check a gin-family hand's fields; returns a ``GinHand`` or None (problems added)."""
    if not isinstance(raw, dict):
        problems.append(where.problem("hand_not_object", "must be an object"))
        return None
    before = len(problems)
    if raw.get("knock_card") is not None:
        problems.append(where.problem(
            "knock_card_not_here", "a knock card belongs to a deal of partnership or streets, "
            "for all its tables (an Oklahoma hand records its upcard)",
            path="knock_card", field="knock_card"))
    draw = raw.get("draw", False)
    if not isinstance(draw, bool):
        problems.append(where.problem("flag_invalid", f"must be true or false, not {draw!r}",
                                      path="draw", field="draw"))
        draw = False
    upcard = None
    if "upcard" in raw and oklahoma:
        parsed = parse_upcard(raw["upcard"])
        if parsed is None:
            problems.append(where.problem(
                "upcard_unreadable", f"{raw['upcard']!r} is not a card like \"5S\" "
                f"(rank A 2-10 J Q K, suit S H D C)", path="upcard", field="upcard"))
        else:
            upcard = parsed[0]
    if draw:
        if raw.get("knocker") is not None:
            problems.append(where.problem("draw_with_knocker", "a drawn hand has no knocker",
                                          field="knocker"))
        return None if len(problems) > before else GinHand(True, upcard=upcard)
    if oklahoma and "upcard" not in raw:
        problems.append(where.problem(
            "upcard_missing", "missing; every Oklahoma hand but a draw records its up-card",
            path="upcard", field="upcard"))
    knocker = raw.get("knocker")
    if not isinstance(knocker, str):
        problems.append(where.problem(
            "knocker_missing",
            "missing (or {\"draw\": true} for a drawn hand)" if knocker is None
            else "must be a player's name", path="knocker", field="knocker"))
        knocker = None
    cards = raw.get("cards")
    if cards is not None and not isinstance(cards, dict):
        problems.append(where.problem("cards_invalid",
                                      "must be an object of player names and cards",
                                      path="cards", field="cards"))
        cards = None
    deadwood = raw.get("deadwood")
    if deadwood is None and cards is None:
        problems.append(where.problem("deadwood_missing", "missing (the two players' counts)",
                                      path="deadwood", field="deadwood"))
    elif deadwood is not None:
        if not isinstance(deadwood, dict):
            problems.append(where.problem("deadwood_invalid",
                                          "must be an object of player names and counts",
                                          path="deadwood", field="deadwood"))
            deadwood = None
        else:
            for name, count in deadwood.items():
                values = {"count": count, "most": MAX_DEADWOOD}
                if isinstance(count, bool) or not isinstance(count, int):
                    code, text = "deadwood_not_a_count", f"must be a whole number, not {count!r}"
                    values = {}
                elif count < 0:
                    code, text = "deadwood_out_of_range", f"{count} is below 0"
                elif count > MAX_DEADWOOD:
                    code, text = ("deadwood_out_of_range", f"{count} is above {MAX_DEADWOOD}, "
                                  f"the most a 10-card hand can hold")
                else:
                    continue
                problems.append(where.problem(code, text, path=f"deadwood.{name}",
                                              field="deadwood", player=name, values=values))
    big_gin = raw.get("big_gin", False)
    if not isinstance(big_gin, bool):
        problems.append(where.problem("flag_invalid", f"must be true or false, not {big_gin!r}",
                                      path="big_gin", field="big_gin"))
        big_gin = False
    gin = raw.get("gin")
    if gin is not None and not isinstance(gin, bool):
        problems.append(where.problem("flag_invalid", f"must be true or false, not {gin!r}",
                                      path="gin", field="gin"))
    if len(problems) > before:
        return None
    return GinHand(False, knocker, deadwood, big_gin, upcard, cards, gin)


def check_players(hand: GinHand, pair: tuple[str, str], where: At, problems: list,
                  describe: str | None = None) -> bool:
    """The hand must be played by exactly ``pair``; ``describe`` says who is playing."""
    who = describe or f"{pair[0]} v {pair[1]}"
    ok = True
    if hand.knocker not in pair:
        problems.append(where.problem(
            "knocker_not_playing", f"{hand.knocker} is not playing this hand ({who})",
            path="knocker", field="knocker", player=hand.knocker))
        ok = False
    for field, given in (("deadwood", hand.deadwood), ("cards", hand.cards)):
        if given is None:
            continue
        for name in given:
            if name not in pair:
                problems.append(where.problem(
                    "player_not_playing", f"{name} is not playing this hand ({who})",
                    path=f"{field}.{name}", field=field, player=name))
                ok = False
        for name in pair:
            if name not in given:
                if field == "cards":
                    problems.append(where.problem(
                        "cards_missing", f"{name}'s cards missing ({who})", path="cards",
                        field="cards", player=name, hint=f"{name}'s cards are missing ({who})"))
                else:
                    problems.append(where.problem(
                        "count_missing", f"{name}'s count is missing ({who})",
                        path="deadwood", field="deadwood", player=name,
                        hint=f"{name}'s count is missing ({who})"))
                ok = False
    return ok


def counts_from_cards(hand: GinHand, knocker: str, opponent: str, limit: KnockLimit,
                      where: At, problems: list) -> dict | None:
    """Work out (or check) the hand's counts from the cards (issue: count the cards).

    Without counts, K and O are those of the best play: the knocker's best legal layout
    against the opponent's best melds and lay-offs. Counts given beside the cards stand as
    the table played them, unless no layout and lay-offs of those cards could give them.
    Returns the layout to show, or None with a problem added.
    """
    from .cards import CardError, counts_possible, parse_cards, score_cards

    parsed = {}
    for name in (knocker, opponent):
        try:
            parsed[name] = parse_cards(hand.cards[name])
        except (CardError, TypeError, AttributeError) as error:
            problems.append(where.problem("cards_unreadable", str(error), path=f"cards.{name}",
                                          field="cards", player=name))
    if len(parsed) < 2:
        return None
    cap, gin_only = limit.limit, limit.gin_only
    try:
        outcome = score_cards(parsed[knocker], parsed[opponent], knock_limit=cap,
                              ace_gin_only=gin_only)
    except CardError as error:
        # whose cards: a wrong number of cards is that hand's; a card in both is the
        # opponent's (the second hand typed)
        text = str(error)
        whose = opponent
        if len(parsed[knocker]) not in (10, 11):
            whose = knocker
            text = f"{knocker}'s cards: " + text.replace("the knocker", knocker, 1)
        elif len(parsed[opponent]) != 10:
            text = f"{opponent}'s cards: " + text.replace("the opponent", opponent, 1)
        elif text.endswith("is in both hands"):
            text = f"{text}: {knocker}'s and {opponent}'s"
        problems.append(where.problem("cards_unreadable", str(error), path="cards",
                                      field="cards", player=whose, hint=text))
        return None
    if not outcome.legal:
        problems.append(where.problem("cards_illegal_knock", outcome.reason,
                                      path=f"cards.{knocker}", field="cards", player=knocker))
        return None
    if hand.big_gin and not outcome.big_gin:
        problems.append(where.problem("big_gin_not_melded",
                                      "a big gin needs the knocker's 11 cards, all melded",
                                      path="big_gin", field="cards", player=knocker))
        return None
    if hand.deadwood is not None:
        k, o = hand.deadwood[knocker], hand.deadwood[opponent]
        reason = counts_possible(parsed[knocker], parsed[opponent], k, o,
                                 knock_limit=cap, ace_gin_only=gin_only)
        if reason is not None:
            # the count the cards cannot give: the knocker's, or the opponent's when only
            # his is wrong; with no legal knock at all, the knocker's cards
            if reason.startswith("opponent deadwood"):
                field, whose = "deadwood", opponent
            elif reason.startswith("knocker deadwood"):
                field, whose = "deadwood", knocker
            else:
                field, whose = "cards", knocker
            problems.append(where.problem("cards_counts_disagree", reason, path="deadwood",
                                          field=field, player=whose))
            return None
    else:
        hand.deadwood = {knocker: outcome.knocker_deadwood,
                         opponent: outcome.opponent_deadwood}
        hand.big_gin = hand.big_gin or outcome.big_gin

    def show(cards):
        return " ".join(str(card) for card in cards)

    return {
        "knocker_melds": [show(meld) for meld in outcome.knocker_melds],
        "knocker_deadwood_cards": show(outcome.knocker_deadwood_cards),
        "opponent_melds": [show(meld) for meld in outcome.opponent_melds],
        "layoffs": [[str(card), index] for card, index in outcome.layoffs],
        "opponent_deadwood_cards": show(outcome.opponent_deadwood_cards),
        "best_counts": {knocker: outcome.knocker_deadwood,
                        opponent: outcome.opponent_deadwood},
    }


def score_gin_hand(hand: GinHand, pair: tuple[str, str], where: At, problems: list,
                   rules: dict, *, oklahoma: bool = False,
                   describe: str | None = None,
                   knock_card: str | None = None) -> HandOutcome | None:
    """Score one hand between the two players of ``pair`` (RULES §1 and §3.2); at a table
    of a deal with a ``knock_card`` (RULES §3.7) the card sets the knock limit and a spade
    doubles the hand as an Oklahoma up-card does."""
    if hand.draw:
        return DRAW
    if not check_players(hand, pair, where, problems, describe):
        return None
    knocker = hand.knocker
    opponent = pair[1] if knocker == pair[0] else pair[0]
    limit = knock_limit(rules, oklahoma=oklahoma, upcard=hand.upcard, knock_card=knock_card)
    layout = None
    if hand.cards is not None:
        layout = counts_from_cards(hand, knocker, opponent, limit, where, problems)
        if layout is None:
            return None
    k = hand.deadwood[knocker]
    o = hand.deadwood[opponent]
    with_cards = hand.cards is not None
    if k > 0 and (hand.gin or hand.big_gin):
        field = "big_gin" if hand.big_gin else "gin"
        what = "a big gin melds all 11 cards" if hand.big_gin else "a gin has no deadwood"
        problems.append(where.problem(
            "gin_with_deadwood", f"{what}, but the knocker {knocker} counted {k}", path=field,
            field="cards" if with_cards else "deadwood", player=knocker,
            hint=None if with_cards else f"{what}, but the knocker {knocker} counted {k}",
            values={"count": k}))
        return None
    if k > limit.limit:
        at = {"field": "deadwood", "player": knocker,
              "values": {"count": k, "limit": limit.limit}}
        if limit.limit == 0 and limit.name == "the knock limit":
            # straight gin (RULES §3.10, §6): the words the canon gives
            problems.append(where.problem(
                "knock_gin_only", "only gin ends a hand (straight gin has no knock)",
                path=f"knocker deadwood {k} is above the knock limit 0",
                hint=f"only gin ends a hand (straight gin has no knock); {knocker} "
                     f"counted {k}", **at))
        elif limit.limit == 0:
            problems.append(where.problem(
                "knock_gin_only", f"only gin may end this hand under {limit.name}",
                path=f"knocker deadwood {k}",
                hint=f"only gin may end this hand under {limit.name}; {knocker} counted {k}",
                **at))
        elif limit.name == "the knock limit":
            problems.append(where.problem(
                "knock_over_limit", f"knocker deadwood {k} is above {limit.name} {limit.limit}",
                hint=f"a knock must be {limit.limit} or less; {knocker} counted {k}", **at))
        else:
            problems.append(where.problem(
                "knock_over_limit",
                f"knocker deadwood {k} is above {limit.name}, knock limit {limit.limit}",
                hint=f"a knock must be {limit.limit} or less ({limit.name}); {knocker} "
                     f"counted {k}", **at))
        return None
    if k == 0:
        if hand.big_gin and rules["big_gin_bonus"] > 0:
            outcome = HandOutcome("big_gin", knocker, opponent, o + rules["big_gin_bonus"])
        else:
            outcome = HandOutcome("gin", knocker, opponent, o + rules["gin_bonus"])
    elif k < o:
        outcome = HandOutcome("knock", knocker, opponent, o - k)
    elif k == o and not rules["undercut_on_tie"]:
        outcome = HandOutcome("knock", knocker, opponent, 0)
    else:
        outcome = HandOutcome("undercut", opponent, knocker, k - o + rules["undercut_bonus"])
    outcome.knocker, outcome.opponent = knocker, opponent
    outcome.deadwood = {knocker: k, opponent: o}
    outcome.layout = layout
    card = knock_card or (hand.upcard if oklahoma else None)
    if card and rules["spade_double"] and card.endswith("S"):
        outcome.points *= 2
        outcome.doubled = True
    return outcome
