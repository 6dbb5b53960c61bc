"""Issue 21 item 6: head-to-head means what it says (docs/head-to-head.md): opponents are on
the other side, partners are counted apart, money between two is their two-hand games'."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from ledger import services
from ledger.book import selectors as book
from ledger.models import GameStanding, Player
from ledger.presentation.book import player_page_words
from tests.pages import Page
from tests.scoresheets.playout import play

from .conftest import load_case

pytestmark = pytest.mark.django_db
STAKES = {"rate": "0.01", "per_points": 1, "currency": "USD"}


def partnership(session, keeper, seed: int):
    record = play("partnership", ["Rosa", "Ben", "Cy", "Dee"], stakes=STAKES, rules={},
                  hands=None, seed=seed, big=False)
    record["setup"] = {"sides": {"We": ["Rosa", "Ben"], "They": ["Cy", "Dee"]}}
    return services.game_import(session=session, record=record, imported_by=keeper)


def won(game, name: str) -> bool:
    return GameStanding.objects.get(game=game, player__name=name).won


def test_partners_are_counted_apart_and_not_as_opponents(logged_in, session, keeper):
    games = [partnership(session, keeper, seed) for seed in (1, 2, 3)]
    rosa_won = sum(won(game, "Rosa") for game in games)
    assert all(won(game, "Rosa") == won(game, "Ben") for game in games)  # same side
    page = player_page_words(book.player_page(Player.objects.get(name="Rosa")))
    assert [(w["player__name"], w["games"], w["won"]) for w in page["partners"]] == \
        [("Ben", 3, rosa_won)]
    against = {h["player__name"]: h for h in page["head_to_head"]}
    assert sorted(against) == ["Cy", "Dee"]  # Ben is no opponent
    for name in ("Cy", "Dee"):
        assert (against[name]["games"], against[name]["my_wins"],
                against[name]["their_wins"]) == (3, rosa_won, 3 - rosa_won)
        # four players: no money between two of them (docs/head-to-head.md)
        assert against[name]["money_games"] == 0 and against[name]["money_text"] == ""
    response = logged_in.get(reverse("ledger:player_detail",
                                     args=[Player.objects.get(name="Rosa").pk]))
    html = Page(response)
    assert html.text(html.one("li", data_partner="Ben")) == f"with Ben: {rosa_won} of 3 won"
    german = Page(logged_in.get(reverse("ledger:player_detail",
                                        args=[Player.objects.get(name="Rosa").pk]),
                                HTTP_ACCEPT_LANGUAGE="de"))
    assert german.text(german.one("li", data_partner="Ben")) == \
        f"mit Ben: {rosa_won} von 3 gewonnen"
    assert html.all("tr", data_against="Ben") == []
    cells = [html.text(td) for td in html.one("tr", data_against="Cy").iter("td")]
    assert cells == ["Cy", "3", str(rosa_won), str(3 - rosa_won), "·"]


def test_money_between_two_is_what_one_paid_the_other(session, keeper):
    def gin(names):
        return services.game_import(session=session, record=_renamed("gin-standard-game", names),
                                    imported_by=keeper)

    first = gin({"A": "Rosa", "B": "Ben"})
    second = gin({"A": "Ben", "B": "Rosa"})
    box = services.game_import(session=session, imported_by=keeper, record=_renamed(
        "box-rotation", {"P": "Rosa", "Q": "Ben", "R": "Cy"}))
    paid = {g.pk: GameStanding.objects.get(game=g, player__name="Rosa").money_minor
            for g in (first, second)}
    assert paid[first.pk] == -paid[second.pk] != 0  # the same game, won once each way
    rosa = {h["player__name"]: h for h in book.player_page(
        Player.objects.get(name="Rosa"))["head_to_head"]}
    ben = {h["player__name"]: h for h in book.player_page(
        Player.objects.get(name="Ben"))["head_to_head"]}
    assert rosa["Ben"]["games"] == 3 and rosa["Ben"]["money_games"] == 2
    assert rosa["Ben"]["money"] == 0 == ben["Rosa"]["money"]  # they are square
    box_money = GameStanding.objects.get(game=box, player__name="Rosa").money_minor
    assert box_money != 0  # the box game's money is the three's, not Rosa's from Ben
    assert rosa["Cy"]["money_games"] == 0 and rosa["Cy"]["games"] == 1


def _renamed(case: str, names: dict[str, str]) -> dict:
    text = json.dumps(load_case(case))
    for old, new in names.items():
        text = text.replace(f'"{old}"', f'"{new}"')
    return json.loads(text)


def test_two_player_games_are_summed_by_the_database(session, keeper, monkeypatch):
    """Issue 42: the head-to-head of two-player games comes from the book's sums (one row
    per opponent and currency), not from every game's standings and seats read again (46%
    of the player page at ten years of weekly evenings, growing with each evening). The
    games of three or more are still read one by one (their setup may make partners), and
    the figures are those of reading every game."""
    for i in range(6):
        pair = {"A": "Rosa", "B": "Ben"} if i % 2 else {"A": "Ben", "B": "Rosa"}
        services.game_import(session=session, record=_renamed("gin-standard-game", pair),
                             imported_by=keeper)
    services.game_import(session=session, imported_by=keeper, record=_renamed(
        "box-rotation", {"P": "Rosa", "Q": "Ben", "R": "Cy"}))
    partnership(session, keeper, 1)
    rosa = Player.objects.get(name="Rosa")
    games = list(GameStanding.objects.filter(player=rosa).values_list("game_id", flat=True))
    expected = {}
    for game_id in games:  # every game read by itself, as the page did
        standing = {s.player.name: s for s in GameStanding.objects.filter(game_id=game_id)}
        for name, theirs in standing.items():
            if name == "Rosa" or (len(standing) == 4 and name == "Ben"):
                continue
            line = expected.setdefault(name, [0, 0, 0, 0, 0])
            line[0] += 1
            line[1] += standing["Rosa"].won
            line[2] += theirs.won
            if len(standing) == 2:
                line[3] += standing["Rosa"].money_minor
                line[4] += 1
    read = []
    real_raw = book._raw

    def counting(sql, params):
        rows = real_raw(sql, params)
        read.append(len(rows))
        return rows

    monkeypatch.setattr(book, "_raw", counting)
    against, partners = book.head_to_head(rosa)
    got = {h["player__name"]: [h["games"], h["my_wins"], h["their_wins"], h["money"],
                               h["money_games"]] for h in against}
    assert got == expected and expected["Ben"][0] == 7 and expected["Ben"][4] == 6
    assert [(p["player__name"], p["games"]) for p in partners] == [("Ben", 1)]
    # rows read: the sums (one per opponent) and the box and partnership games' seats and
    # standings (3 + 4 each) and setups; not the six gin games' twelve of each
    assert sum(read) <= 1 + 7 + 7 + 2, read
