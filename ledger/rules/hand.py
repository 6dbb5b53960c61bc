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


@dataclass(slots=True)
class HandOutcome:
    result: str  # knock | undercut | gin | big_gin | draw
    winner: str | None
    loser: str | None
    points: int  # the winner's points for the hand (0 for a draw)
    knocker: str | None = None
    opponent: str | None = None


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
    if knocker is not None and deadwood is not None and knocker in deadwood:
        count = deadwood[knocker]
        if gin is True and count > 0:
            problems.append(f"{where}: gin: a gin has no deadwood, but the knocker "
                            f"{knocker} counted {count}")
        if big_gin and count > 0:
            problems.append(f"{where}: big_gin: a big gin melds all 11 cards, but the "
                            f"knocker {knocker} counted {count}")
        if len(problems) > before:
            return None
    return GinHand(False, knocker, deadwood, big_gin, upcard, cards)


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
    counts = hand.deadwood if hand.deadwood is not None else hand.cards
    field = "deadwood" if hand.deadwood is not None else "cards"
    for name in counts:
        if name not in pair:
            problems.append(f"{where}: {field}.{name}: {name} is not playing this hand ({who})")
            ok = False
    for name in pair:
        if name not in counts:
            problems.append(f"{where}: {field}: {name}'s count is missing ({who})")
            ok = False
    return ok


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
    if hand.deadwood is None:  # pragma: no cover - cards are resolved to counts first
        raise ValueError("hand has no counts")
    k = hand.deadwood[knocker]
    o = hand.deadwood[opponent]
    limit, limit_name = knock_limit_for(hand, rules, oklahoma)
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
    if oklahoma and rules["spade_double"] and hand.upcard and hand.upcard.endswith("S"):
        outcome.points *= 2
    return outcome
