"""The history of a table document as the services would have made it, checked before
anything is stored, with the place of every problem: each game scores (the core, on the
record ``game_record`` builds) to its status and its posted money, every batch sums to zero
and a reversal reverses a post of its own game, the live hands are numbered 1..n and a
replacement names an earlier voided hand of its game and number, an evening has at most one
standing settlement whose nets are its money now with no game in progress, every
settlement's nets sum to zero and its payments square them, a payment's paid columns repeat
its latest mark, a voided settlement has no payment left paid."""

from __future__ import annotations

from collections import defaultdict

from ledger import limits
from ledger.exceptions import RecordRefused
from ledger.models import BatchKind, Game, GamePlayer, GameStatus, Player
from ledger.selectors.games import game_record, score
from ledger.selectors.table_rows import amount as _amount
from ledger.selectors.table_rows import moment as _moment

from ..posting import _money_of, _status_for


def check_history(document: dict) -> dict[int, dict]:
    """Refuses the document (``RecordRefused``) when its history is not one the services
    make; returns each game's result by its id in the document."""
    sessions_data = document["sessions"]
    games_data = [(s, g) for s in sessions_data for g in s["games"]]
    where_game = {g["id"]: f"sessions[{s_index}].games[{g_index}]"
                  for s_index, s in enumerate(sessions_data)
                  for g_index, g in enumerate(s["games"])}
    names = {p["id"]: p["name"] for p in document["players"]}
    problems: list[str] = []
    sequences = {(s["id"], g["sequence"]) for s, g in games_data}
    if len(sequences) != len(games_data):
        problems.append("sessions: two games of one evening have the same sequence")
    for s, g in games_data:
        if g["currency"] != s["currency"]:
            problems.append(f"{where_game[g['id']]}.currency: {g['currency']} differs from "
                            f"its evening's {s['currency']}")
        seated = [seat["player"] for seat in g["seats"]]
        if len(set(seated)) != len(seated):
            problems.append(f"{where_game[g['id']]}.seats: a player sits twice")
    _check_hands(games_data, where_game, problems)
    _check_batches(games_data, where_game, problems)
    refuse(problems)
    results = _check_games(games_data, where_game, names, problems)
    refuse(problems)
    _check_settlements(document, names, problems)
    refuse(problems)
    return results


def refuse(problems: list[str]) -> None:
    if problems:
        raise RecordRefused(problems[:20])


def _check_hands(games_data, where_game, problems: list[str]) -> None:
    """Live hands numbered 1..n (at most the hands a game may hold); a replacement names a
    voided hand of its own game and number; a hand is replaced at most once."""
    limit = limits.max_hands_per_game()
    for _, g in games_data:
        where = where_game[g["id"]]
        by_id = {h["id"]: h for h in g["hands"]}
        live = sorted(h["number"] for h in g["hands"] if h["voided_at"] is None)
        if live != list(range(1, len(live) + 1)):
            problems.append(f"{where}.hands: the live hands are numbered {live[:10]}, not "
                            f"1 to {len(live)}")
        if len(live) > limit:
            problems.append(f"{where}.hands: {len(live)} live hands; a game holds at most "
                            f"{limit} here (TABLESTAKES_MAX_HANDS_PER_GAME)")
        replaced: set[int] = set()
        for index, hand in enumerate(g["hands"]):
            target = hand["replaces"]
            if target is None:
                continue
            old = by_id.get(target)
            if old is None or old["number"] != hand["number"] or old["voided_at"] is None \
                    or target >= hand["id"] or target in replaced:
                problems.append(f"{where}.hands[{index}].replaces: hand {target} is not an "
                                "earlier voided hand of this game with the same number")
            replaced.add(target)


def _check_batches(games_data, where_game, problems: list[str]) -> None:
    """Every batch sums to zero; a reversal reverses an earlier post of its own game."""
    for _, g in games_data:
        where = where_game[g["id"]]
        kinds = {b["id"]: b["kind"] for b in g["batches"]}
        numbers = [b["number"] for b in g["batches"]]
        if len(set(numbers)) != len(numbers):
            problems.append(f"{where}.batches: two batches have the same number")
        for index, batch in enumerate(g["batches"]):
            at = f"{where}.batches[{index}]"
            total = sum(p["amount_minor"] for p in batch["postings"])
            if total:
                problems.append(f"{at}: its postings sum to {total}, not 0")
            players = [p["player"] for p in batch["postings"]]
            if len(set(players)) != len(players):
                problems.append(f"{at}: a player has two postings")
            seated = {seat["player"] for seat in g["seats"]}
            if set(players) - seated:
                problems.append(f"{at}: money for a player not seated in the game")
            reverses = batch["reverses"]
            if (batch["kind"] == BatchKind.REVERSAL) != (reverses is not None) or (
                    reverses is not None and kinds.get(reverses) != BatchKind.POST):
                problems.append(f"{at}: a reversal reverses a post batch of its own game, "
                                "and only a reversal does")


def _check_games(games_data, where_game, names: dict[int, str], problems: list[str]
                 ) -> dict[int, dict]:
    """Each game scores (the core, on the record ``game_record`` builds from its
    rows) to its status and its posted money. Returns each game's result by file id."""
    results = {}
    for _, g in games_data:
        where = where_game[g["id"]]
        game = Game(variant=g["variant"], preset=g["preset"], rules=g["rules"],
                    rate=_amount(g["rate"]), per_points=g["per_points"], ante=_amount(g["ante"]),
                    lump_sum_stake=_amount(g.get("lump_sum_stake")),
                    currency=g["currency"], setup=g["setup"], status=g["status"])
        seats = [GamePlayer(seat=index, player=Player(name=names[seat["player"]]),
                            played_as=seat["played_as"], stake=_amount(seat["stake"]))
                 for index, seat in enumerate(g["seats"])]
        live = [h["entry"] for h in sorted(g["hands"], key=lambda h: h["number"])
                if h["voided_at"] is None]
        try:
            result = score(game_record(game, hands=live, seats=seats))
        except Exception as exc:  # noqa: BLE001 - the core's RecordError: its problems
            details = getattr(exc, "details", None) or [str(exc)]
            problems += [f"{where}: {getattr(d, 'line', d)}" for d in list(details)[:5]]
            continue
        status = _status_for(result, g["status"] == GameStatus.ABANDONED)
        if status != g["status"]:
            problems.append(f"{where}.status: its hands make it {status}, not {g['status']}")
            continue
        posted: dict[str, int] = defaultdict(int)
        for batch in g["batches"]:
            for posting in batch["postings"]:
                posted[names[posting["player"]]] += posting["amount_minor"]
        posted = {name: units for name, units in posted.items() if units}
        expected = _money_of(result, status, g["currency"])
        if posted != expected:
            problems.append(f"{where}.batches: the posted money {posted} differs from the "
                            f"score of its hands {expected}")
            continue
        results[g["id"]] = result
    return results


def _check_settlements(document, names: dict[int, str], problems: list[str]) -> None:
    """At most one standing settlement an evening, whose nets are the evening's money now
    with no game in progress; every settlement's nets sum to zero and its payments square
    them; a payment's paid columns repeat its latest mark; a voided settlement has no
    payment left paid."""
    for s_index, s in enumerate(document["sessions"]):
        live = [st for st in s["settlements"] if st["void"] is None]
        if len(live) > 1:
            problems.append(f"sessions[{s_index}].settlements: {len(live)} settlements stand "
                            "(an evening has at most one; a reopened one has its void)")
        order: dict[int, None] = {}  # the evening's players, by first seat in the first game
        money: dict[int, int] = defaultdict(int)
        for g in sorted(s["games"], key=lambda g: g["sequence"]):
            for seat in g["seats"]:
                order.setdefault(seat["player"])
            for batch in g["batches"]:
                for posting in batch["postings"]:
                    money[posting["player"]] += posting["amount_minor"]
        in_progress = any(g["status"] == GameStatus.IN_PROGRESS for g in s["games"])
        for index, st in enumerate(s["settlements"]):
            where = f"sessions[{s_index}].settlements[{index}]"
            if st["currency"] != s["currency"]:
                problems.append(f"{where}.currency: {st['currency']} is not the evening's "
                                f"{s['currency']}")
            nets = st["nets"]
            if sum(nets.values()) != 0:
                problems.append(f"{where}.nets: they sum to {sum(nets.values())}, not 0")
            by_player = _nets_by_player(nets, list(order), names)
            if st["void"] is None:
                now = {pid: money[pid] for pid in order}
                if in_progress:
                    problems.append(f"{where}: its evening has a game in progress")
                elif by_player != now:
                    problems.append(f"{where}.nets: they are not the money of the evening's "
                                    "games")
            orders = [p["order"] for p in st["payments"]]
            if len(set(orders)) != len(orders):
                problems.append(f"{where}.payments: two payments have the same order")
            balance: dict[int, int] = defaultdict(int)
            for p_index, payment in enumerate(st["payments"]):
                at = f"{where}.payments[{p_index}]"
                if payment["payer"] == payment["payee"]:
                    problems.append(f"{at}: a player pays himself")
                balance[payment["payee"]] += payment["amount_minor"]
                balance[payment["payer"]] -= payment["amount_minor"]
                marks = sorted(payment["marks"], key=lambda m: m["id"])
                last = marks[-1] if marks else None
                paid_at = last["marked_at"] if last and last["paid"] else None
                paid_by = last["marked_by"] if last and last["paid"] else None
                if _moment(payment["paid_at"]) != _moment(paid_at) or \
                        payment["paid_by"] != paid_by:
                    problems.append(f"{at}: paid_at and paid_by must repeat its latest paid "
                                    "mark")
                if st["void"] is not None and payment["paid_at"] is not None:
                    problems.append(f"{at}: a payment of a voided settlement is marked paid "
                                    "(an evening is reopened only once its marks are undone)")
            wanted = {pid: units for pid, units in (by_player or {}).items() if units}
            if by_player is None or {pid: units for pid, units in balance.items()
                                     if units} != wanted:
                problems.append(f"{where}.payments: they do not square its nets")


def _nets_by_player(nets: dict[str, int], order: list[int], names: dict[int, str]
                    ) -> dict[int, int] | None:
    """A settlement's nets by player (``settlement_nets``: by the current names,
    or in the evening's seat order after a rename), or None when they name others."""
    current = {names[pid]: pid for pid in order}
    if set(nets) <= set(current):
        return {pid: int(nets.get(names[pid], 0)) for pid in order}
    if len(nets) == len(order):
        return {pid: int(units) for pid, units in zip(order, nets.values(), strict=True)}
    return None
