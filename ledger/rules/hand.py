"""One gin hand (RULES §1), used by every gin variant: knock, undercut, gin, big gin, draw.

K is the knocker's deadwood, O the opponent's deadwood after lay-offs.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_DEADWOOD = 98  # the most a 10-card hand can hold unmelded

UPCARD_RANKS = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
                "10": 10, "T": 10, "J": 10, "Q": 10, "K": 10}
SUITS = ("S", "H", "D", "C")


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

    def fields(self) -> dict:
        """What a hand entry of the result says about the play besides the points."""
        if self.knocker is None:
            return {}
        out = {"knocker": self.knocker, "deadwood": self.deadwood}
        if self.layout is not None:
            out["layout"] = self.layout
        return out


DRAW = HandOutcome("draw", None, None, 0)


def parse_upcard(value) -> tuple[str, int, str] | None:
    """'5S' -> ('5S', 5, 'S'); None if it is not a card."""
    if not isinstance(value, str):
        return None
    text = value.strip().upper()
    rank, suit = text[:-1], text[-1:]
    if rank not in UPCARD_RANKS or suit not in SUITS:
        return None
    rank = "10" if rank == "T" else rank
    return rank + suit, UPCARD_RANKS[rank], suit


def read_gin_hand(raw, where: str, problems: list[str], *, oklahoma: bool = False):
    """Check a gin-family hand's fields; returns a ``GinHand`` or None (problems added)."""
    if not isinstance(raw, dict):
        problems.append(f"{where}: must be an object")
        return None
    before = len(problems)
    draw = raw.get("draw", False)
    if not isinstance(draw, bool):
        problems.append(f"{where}: draw: must be true or false, not {draw!r}")
        draw = False
    upcard = None
    if "upcard" in raw and oklahoma:
        parsed = parse_upcard(raw["upcard"])
        if parsed is None:
            problems.append(f"{where}: upcard: {raw['upcard']!r} is not a card like \"5S\" "
                            f"(rank A 2-10 J Q K, suit S H D C)")
        else:
            upcard = parsed[0]
    if draw:
        if raw.get("knocker") is not None:
            problems.append(f"{where}: a drawn hand has no knocker")
        return None if len(problems) > before else GinHand(True, upcard=upcard)
    if oklahoma and "upcard" not in raw:
        problems.append(f"{where}: upcard: missing; every Oklahoma hand but a draw records "
                        f"its up-card")
    knocker = raw.get("knocker")
    if not isinstance(knocker, str):
        problems.append(f"{where}: knocker: missing (or {{\"draw\": true}} for a drawn hand)"
                        if knocker is None else f"{where}: knocker: must be a player's name")
        knocker = None
    cards = raw.get("cards")
    if cards is not None and not isinstance(cards, dict):
        problems.append(f"{where}: cards: must be an object of player names and cards")
        cards = None
    deadwood = raw.get("deadwood")
    if deadwood is None and cards is None:
        problems.append(f"{where}: deadwood: missing (the two players' counts)")
    elif deadwood is not None:
        if not isinstance(deadwood, dict):
            problems.append(f"{where}: deadwood: must be an object of player names and counts")
            deadwood = None
        else:
            for name, count in deadwood.items():
                if isinstance(count, bool) or not isinstance(count, int):
                    problems.append(f"{where}: deadwood.{name}: must be a whole number, "
                                    f"not {count!r}")
                elif count < 0:
                    problems.append(f"{where}: deadwood.{name}: {count} is below 0")
                elif count > MAX_DEADWOOD:
                    problems.append(f"{where}: deadwood.{name}: {count} is above "
                                    f"{MAX_DEADWOOD}, the most a 10-card hand can hold")
    big_gin = raw.get("big_gin", False)
    if not isinstance(big_gin, bool):
        problems.append(f"{where}: big_gin: must be true or false, not {big_gin!r}")
        big_gin = False
    gin = raw.get("gin")
    if gin is not None and not isinstance(gin, bool):
        problems.append(f"{where}: gin: must be true or false, not {gin!r}")
    if len(problems) > before:
        return None
    return GinHand(False, knocker, deadwood, big_gin, upcard, cards, gin)


def knock_limit_for(hand: GinHand, rules: dict, oklahoma: bool) -> tuple[int, str]:
    """The hand's knock limit and how to name it in a message."""
    if not oklahoma or hand.upcard is None:
        return rules["knock_limit"], "the knock limit"
    value = UPCARD_RANKS[hand.upcard[:-1]]
    if value == 1:
        if rules["oklahoma_ace"] == "gin_only":
            return 0, f"the up-card {hand.upcard} (an Ace: gin only)"
        return 1, f"the up-card {hand.upcard}"
    return value, f"the up-card {hand.upcard}"


def check_players(hand: GinHand, pair: tuple[str, str], where: str, problems: list[str],
                  describe: str | None = None) -> bool:
    """The hand must be played by exactly ``pair``; ``describe`` says who is playing."""
    who = describe or f"{pair[0]} v {pair[1]}"
    ok = True
    if hand.knocker not in pair:
        problems.append(f"{where}: knocker: {hand.knocker} is not playing this hand ({who})")
        ok = False
    for field, given in (("deadwood", hand.deadwood), ("cards", hand.cards)):
        if given is None:
            continue
        for name in given:
            if name not in pair:
                problems.append(f"{where}: {field}.{name}: {name} is not playing this hand "
                                f"({who})")
                ok = False
        for name in pair:
            if name not in given:
                what = "count" if field == "deadwood" else "cards"
                problems.append(f"{where}: {field}: {name}'s {what} missing ({who})"
                                if what == "cards" else
                                f"{where}: {field}: {name}'s count is missing ({who})")
                ok = False
    return ok


def counts_from_cards(hand: GinHand, knocker: str, opponent: str, limit: int,
                      ace_gin_only: bool, where: str, problems: list[str]) -> dict | None:
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
            problems.append(f"{where}: cards.{name}: {error}")
    if len(parsed) < 2:
        return None
    try:
        outcome = score_cards(parsed[knocker], parsed[opponent], knock_limit=limit,
                              ace_gin_only=ace_gin_only)
    except CardError as error:
        problems.append(f"{where}: cards: {error}")
        return None
    if not outcome.legal:
        problems.append(f"{where}: cards.{knocker}: {outcome.reason}")
        return None
    if hand.big_gin and not outcome.big_gin:
        problems.append(f"{where}: big_gin: a big gin needs the knocker's 11 cards, all "
                        f"melded")
        return None
    if hand.deadwood is not None:
        k, o = hand.deadwood[knocker], hand.deadwood[opponent]
        reason = counts_possible(parsed[knocker], parsed[opponent], k, o,
                                 knock_limit=limit, ace_gin_only=ace_gin_only)
        if reason is not None:
            problems.append(f"{where}: deadwood: {reason}")
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


def score_gin_hand(hand: GinHand, pair: tuple[str, str], where: str, problems: list[str],
                   rules: dict, *, oklahoma: bool = False,
                   describe: str | None = None) -> HandOutcome | None:
    """Score one hand between the two players of ``pair`` (RULES §1 and §3.2)."""
    if hand.draw:
        return DRAW
    if not check_players(hand, pair, where, problems, describe):
        return None
    knocker = hand.knocker
    opponent = pair[1] if knocker == pair[0] else pair[0]
    limit, limit_name = knock_limit_for(hand, rules, oklahoma)
    layout = None
    if hand.cards is not None:
        ace_gin_only = limit == 0 and limit_name.endswith("(an Ace: gin only)")
        layout = counts_from_cards(hand, knocker, opponent, limit, ace_gin_only, where,
                                   problems)
        if layout is None:
            return None
    k = hand.deadwood[knocker]
    o = hand.deadwood[opponent]
    if k > 0 and (hand.gin or hand.big_gin):
        field = "big_gin" if hand.big_gin else "gin"
        what = "a big gin melds all 11 cards" if hand.big_gin else "a gin has no deadwood"
        problems.append(f"{where}: {field}: {what}, but the knocker {knocker} counted {k}")
        return None
    if k > limit:
        if limit == 0:
            problems.append(f"{where}: knocker deadwood {k}: only gin may end this hand "
                            f"under {limit_name}")
        else:
            problems.append(f"{where}: knocker deadwood {k} is above {limit_name} {limit}"
                            if limit_name == "the knock limit" else
                            f"{where}: knocker deadwood {k} is above {limit_name}, "
                            f"knock limit {limit}")
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
    if oklahoma and rules["spade_double"] and hand.upcard and hand.upcard.endswith("S"):
        outcome.points *= 2
    return outcome
