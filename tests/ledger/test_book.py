"""The table's book (issue 13): exact numbers over four evenings (book_scenario.py).

E1 settled and paid, E2 settled and unpaid, E3 settled, reopened, given one more game and
settled again (unpaid), E4 open. Every figure below is worked out by hand from the games'
results in tests/data (the .expected.json files give each game's money).
"""

from __future__ import annotations

import io
import json
import uuid

import pytest
from django.core.management import call_command

from ledger import rules as core
from ledger import services
from ledger.book import selectors as book
from ledger.book.stats import standings_from_result
from ledger.exceptions import LedgerError, SessionSettled
from ledger.models import (
    BookSettlement,
    GameStanding,
    MoneyPosting,
    Player,
    SessionSettlement,
    SettlementPayment,
    SettlementVoid,
)
from ledger.presentation.book import player_page_words
from ledger.selectors.evenings import session_settlement, voided_settlements
from ledger.selectors.games import game_queryset_for_records, game_record
from ledger.services.book import BookChanged
from tests.factories import gin_game
from tests.refusing import refuses
from tests.rules.helpers import knock

from .book_scenario import build, renamed

pytestmark = pytest.mark.django_db


@pytest.fixture
def evenings(table, keeper):
    return build(table, keeper)


def lines(table) -> dict[str, book.BookLine]:
    (only,) = book.table_books(table)
    return {line.player.name: line for line in only.lines}


def test_book_money_outstanding_and_owed_exactly(table, evenings):
    (usd,) = book.table_books(table)
    by_name = {line.player.name: line for line in usd.lines}
    # money over the settled evenings E1-E3 (E4 is open and in no total)
    assert {n: line.money for n, line in by_name.items()} == {
        "Ann": 202 + 155, "Bob": -202 - 163 + 207 - 202, "Cy": 8 - 207 + 202}
    assert sum(line.money for line in usd.lines) == 0
    # outstanding: E2 (Bob->Ann 1.55, Bob->Cy 0.08) and E3's new settlement (Cy->Bob 0.05)
    assert {n: line.outstanding for n, line in by_name.items()} == {
        "Ann": 155, "Bob": -155 - 8 + 5, "Cy": 8 - 5}
    assert sum(line.outstanding for line in usd.lines) == 0
    # outstanding equals the unpaid payments of the live settlements, and only those
    unpaid = SettlementPayment.objects.filter(paid_at__isnull=True,
                                              settlement__void__isnull=True)
    assert sorted(usd.outstanding_ids) == sorted(unpaid.values_list("pk", flat=True))
    for name, line in by_name.items():
        owed_to = sum(p.amount_minor for p in unpaid if p.payee.name == name)
        owes = sum(p.amount_minor for p in unpaid if p.payer.name == name)
        assert line.outstanding == owed_to - owes
    # the voided settlement of E3 (Cy -> Bob 2.07) is not owed by anybody
    assert SettlementPayment.objects.filter(settlement__void__isnull=False,
                                            amount_minor=207, paid_at__isnull=True).exists()
    # who owes whom now: the fewest payments, and they clear every outstanding amount
    owed = [(payer.name, payee.name, units) for payer, payee, units in usd.owed]
    assert owed == [("Bob", "Ann", 155), ("Bob", "Cy", 3)]
    after = {n: line.outstanding for n, line in by_name.items()}
    for payer, payee, units in owed:
        after[payer] += units
        after[payee] -= units
    assert set(after.values()) == {0}
    # open evening apart
    assert [e.session_id for e in usd.open_evenings] == [evenings["e4"].pk]
    assert by_name["Ann"].open_money == 202 and by_name["Cy"].open_money == -202
    assert [e.session_id for e in usd.evenings] == [evenings[k].pk for k in ("e3", "e2", "e1")]
    assert [e.unpaid for e in usd.evenings] == [1, 2, 0]


def test_book_statistics_count_the_settled_evenings(table, evenings):
    got = {n: (line.evenings, line.games, line.wins, line.gins, line.undercuts)
           for n, line in lines(table).items()}
    assert got == {"Ann": (2, 2, 2, 2, 1), "Bob": (3, 4, 1, 3, 2), "Cy": (2, 3, 1, 3, 1)}


def test_statistics_are_the_games_results_and_money_is_the_postings(table, evenings):
    """Every stored figure equals what the core's result of its game says, and each
    game's stored money equals what the ledger posted for it."""
    games = game_queryset_for_records().filter(session__table=table)
    checked = 0
    for game in games:
        result = core.score_record(game_record(game))
        expected = standings_from_result(result, ended=game.status != "in_progress")
        stored = {row.player.name: row for row in
                  GameStanding.objects.filter(game=game).select_related("player")}
        assert set(stored) == set(expected)
        for name, figures in expected.items():
            for key, value in figures.items():
                assert getattr(stored[name], key) == value, (game.pk, name, key)
            posted = sum(p.amount_minor for p in
                         MoneyPosting.objects.filter(game=game, player__name=name))
            assert stored[name].money_minor == posted
            checked += 1
    assert checked == 2 + 3 + 2 + 2 + 2


def test_standings_follow_each_hand_and_undo(session, keeper):
    game = gin_game(session, keeper)
    assert set(GameStanding.objects.filter(game=game).values_list("hands_played", flat=True)) \
        == {0}
    services.hand_record(game=game, entry={"knocker": "Ann", "deadwood": {"Ann": 0, "Bob": 30}},
                         recorded_by=keeper, number=1, idempotency_key=uuid.uuid4())
    ann = GameStanding.objects.get(game=game, player__name="Ann")
    assert (ann.hands_played, ann.hands_won, ann.gins, ann.money_minor) == (1, 1, 1, 0)
    services.hand_undo_last(game=game, undone_by=keeper, reason="wrong game")
    ann = GameStanding.objects.get(game=game, player__name="Ann")  # rows are replaced
    assert (ann.hands_played, ann.hands_won, ann.gins) == (0, 0, 0)


def test_reopen_keeps_the_voided_settlement_and_settles_anew(table, keeper, evenings):
    e3 = evenings["e3"]
    voided = SessionSettlement.objects.get(session=e3, void__isnull=False)
    assert voided.void.reason == "forgot the last game"
    assert voided.void.voided_by == keeper and voided.void.voided_at is not None
    assert voided.nets == {"Bob": 207, "Cy": -207}
    live = session_settlement(e3)
    assert live.pk != voided.pk and live.nets == {"Bob": 5, "Cy": -5}
    assert e3.settlement == live and e3.is_settled
    # the void is history: it cannot change or go
    from ledger.models import ImmutableError
    with pytest.raises(ImmutableError):
        SettlementVoid.objects.filter(pk=voided.void.pk).update(reason="x")
    # a settled evening stays frozen until reopened
    with pytest.raises(SessionSettled):
        services.game_import(session=e3, record=renamed("gin-standard-game",
                                                        {"A": "Bob", "B": "Cy"}))


def test_the_evening_page_lists_the_settlement_voided_by_reopening(client, table, keeper,
                                                                   evenings):
    e3 = evenings["e3"]
    [voided] = voided_settlements(e3)
    assert voided.nets == {"Bob": 207, "Cy": -207} and voided.void.voided_by == keeper
    assert voided_settlements(evenings["e1"]) == []
    client.force_login(keeper)
    page = client.get(f"/sessions/{e3.pk}/").content.decode()
    block = page[page.index('id="voided"'):]
    block = block[:block.index("</ul>")]
    assert "forgot the last game" in block
    assert "Bob" in block and "Cy" in block and "2.07" in block


def test_reopen_refused_without_reason_when_open_or_when_paid(table, keeper, evenings):
    with refuses(LedgerError, match="why"):
        services.session_reopen(session=evenings["e2"], reopened_by=keeper, reason="  ")
    with refuses(LedgerError, match="not settled"):
        services.session_reopen(session=evenings["e4"], reopened_by=keeper, reason="x")
    with refuses(LedgerError, match="marked paid"):
        services.session_reopen(session=evenings["e1"], reopened_by=keeper, reason="x")
    assert SettlementVoid.objects.count() == 1  # only the scenario's own


def test_squaring_the_book_marks_every_outstanding_payment_paid(table, keeper, evenings):
    (usd,) = book.table_books(table)
    with pytest.raises(BookChanged):
        services.book_settle(table=table, currency="USD", expected=usd.outstanding_ids[:1],
                             settled_by=keeper)
    assert SettlementPayment.objects.filter(pk__in=usd.outstanding_ids,
                                            paid_at__isnull=False).count() == 0
    done = services.book_settle(table=table, currency="USD", expected=usd.outstanding_ids,
                                settled_by=keeper)
    assert sorted(done.cleared) == sorted(usd.outstanding_ids)
    assert done.payments == [
        {"from": Player.objects.get(name="Bob").pk, "to": Player.objects.get(name="Ann").pk,
         "amount_minor": 155},
        {"from": Player.objects.get(name="Bob").pk, "to": Player.objects.get(name="Cy").pk,
         "amount_minor": 3},
    ]
    after = lines(table)
    assert {n: line.outstanding for n, line in after.items()} == {"Ann": 0, "Bob": 0, "Cy": 0}
    assert {n: line.money for n, line in after.items()} == {"Ann": 357, "Bob": -360, "Cy": 3}
    assert book.table_books(table)[0].owed == []
    assert BookSettlement.objects.count() == 1
    with refuses(LedgerError, match="Nothing is outstanding"):
        services.book_settle(table=table, currency="USD", expected=[], settled_by=keeper)


def test_several_currencies_make_one_book_each(table, keeper, evenings):
    eur = services.session_create(table=table, currency="EUR", rate="0.10", created_by=keeper)
    record = renamed("gin-standard-game", {"A": "Cy", "B": "Ann"})
    record["stakes"] = {"rate": "0.10", "per_points": 1, "currency": "EUR"}
    services.game_import(session=eur, record=record, imported_by=keeper)
    services.session_settle(session=eur, settled_by=keeper)
    usd, euro = book.table_books(table)
    assert (usd.currency, euro.currency) == ("USD", "EUR")
    assert {line.player.name: line.money for line in euro.lines} == {"Ann": -2020, "Cy": 2020}
    assert [(a.name, b.name, u) for a, b, u in euro.owed] == [("Ann", "Cy", 2020)]
    assert {line.player.name: line.money for line in usd.lines}["Cy"] == 3  # unchanged
    out = io.StringIO()
    call_command("table_book", str(table.pk), "--json", stdout=out)
    data = json.loads(out.getvalue())
    assert [b["currency"] for b in data] == ["USD", "EUR"]
    assert data[1]["owed"] == [{"from": "Ann", "to": "Cy", "amount": "20.20"}]


def test_table_book_command_json(table, evenings):
    out = io.StringIO()
    call_command("table_book", str(table.pk), "--json", stdout=out)
    data = json.loads(out.getvalue())
    assert data == {
        "table": "Friday", "currency": "USD",
        "players": [
            {"name": "Ann", "evenings": 2, "games": 2, "wins": 2, "gins": 2, "undercuts": 1,
             "money": "3.57", "outstanding": "1.55"},
            {"name": "Bob", "evenings": 3, "games": 4, "wins": 1, "gins": 3, "undercuts": 2,
             "money": "-3.60", "outstanding": "-1.58"},
            {"name": "Cy", "evenings": 2, "games": 3, "wins": 1, "gins": 3, "undercuts": 1,
             "money": "0.03", "outstanding": "0.03"},
        ],
        "owed": [{"from": "Bob", "to": "Ann", "amount": "1.55"},
                 {"from": "Bob", "to": "Cy", "amount": "0.03"}],
    }
    text = io.StringIO()
    call_command("table_book", str(table.pk), stdout=text)
    assert "Bob pays Ann 1.55" in text.getvalue()
    assert "-3.60" in text.getvalue()


def test_table_book_command_unknown_table(db):
    from django.core.management.base import CommandError
    with pytest.raises(CommandError, match="no table 999"):
        call_command("table_book", "999")


def test_player_page_figures_and_head_to_head(table, evenings):
    ann = book.player_page(Player.objects.get(name="Ann"))
    # every finished game, open evening included: E1, E2 and E4
    assert (ann["overall"]["games"], ann["overall"]["wins"], ann["overall"]["evenings"]) == \
        (3, 3, 3)
    assert ann["overall"]["win_rate"] == 100
    assert ann["totals"] == [("USD", 559)]  # numbers; the presentation writes them
    assert ann["outstanding"] == [("USD", 155)]
    shown = player_page_words(ann)
    assert shown["totals"] == [("USD", "+5.59", 559)]
    assert shown["outstanding"] == [("USD", "+1.55", 155)]
    assert [(v["variant"], v["games"]) for v in ann["by_variant"]] == [("gin", 2), ("box", 1)]
    head = {h["player__name"]: (h["games"], h["my_wins"], h["their_wins"], h["money"])
            for h in ann["head_to_head"]}
    # money between two players: their two-hand games only (docs/head-to-head.md); the box
    # game of three (E2) is counted as a game against each, its money is not
    assert head == {"Bob": (2, 2, 0, 202), "Cy": (2, 2, 0, 202)}
    assert ann["partners"] == []
    assert [date.day for date, _ in ann["running"]["USD"]] == [8, 15, 29]
    assert [units for _, units in ann["running"]["USD"]] == [202, 357, 559]


def test_head_to_head_sums_agree_with_the_games(table, evenings):
    """Over two-player games, A's money against B is exactly minus B's against A, and each
    player's head-to-head games and wins add up to the games they played together."""
    pages = {p.name: book.player_page(p) for p in Player.objects.filter(table=table)}
    bob_cy = next(h for h in pages["Bob"]["head_to_head"] if h["player__name"] == "Cy")
    cy_bob = next(h for h in pages["Cy"]["head_to_head"] if h["player__name"] == "Bob")
    assert bob_cy["games"] == cy_bob["games"] == 3  # box game of E2 and the two of E3
    assert bob_cy["my_wins"] == cy_bob["their_wins"]
    # the two-player games of Bob and Cy (E3): +2.07 and -2.02 for Bob; the box game of E2
    # (three players) is not money between two of them (docs/head-to-head.md)
    assert bob_cy["money"] == 207 - 202 and cy_bob["money"] == -207 + 202
    assert bob_cy["money_games"] == cy_bob["money_games"] == 2
    shared = GameStanding.objects.filter(player__name="Bob", status__in=["complete",
                                                                          "abandoned"],
                                         game__standings__player__name="Cy")
    assert shared.count() == 3


def test_data_migration_fills_the_same_rows(table, evenings):
    import importlib

    from django.apps import apps

    before = sorted(GameStanding.objects.values_list(
        "game_id", "player_id", "won", "hands_won", "gins", "undercuts_made", "money_minor",
        "final_points", "boxes", "hands_played", "status"))
    GameStanding.objects.all().delete()
    migration = importlib.import_module("ledger.migrations.0007_fill_game_standings")
    migration.fill(apps, None)
    after = sorted(GameStanding.objects.values_list(
        "game_id", "player_id", "won", "hands_won", "gins", "undercuts_made", "money_minor",
        "final_points", "boxes", "hands_played", "status"))
    assert after == before and len(after) == 11


def test_a_voided_settlements_payment_cannot_be_marked_paid(table, keeper, evenings):
    stale = SettlementPayment.objects.get(settlement__void__isnull=False)
    with refuses(LedgerError, match="voided"):
        services.settlement_payment_mark_paid(payment=stale, paid_by=keeper)
    stale.refresh_from_db()
    assert stale.paid_at is None


def test_admin_lists_voids_and_book_settlements(admin_client, table, keeper, evenings):
    from django.urls import reverse

    (usd,) = book.table_books(table)
    services.book_settle(table=table, currency="USD", expected=usd.outstanding_ids,
                         settled_by=keeper)
    for model in ("settlementvoid", "booksettlement"):
        page = admin_client.get(reverse(f"admin:ledger_{model}_changelist"))
        assert page.status_code == 200
        assert admin_client.get(reverse(f"admin:ledger_{model}_add")).status_code == 403
    assert "forgot the last game" in admin_client.get(
        reverse("admin:ledger_settlementvoid_changelist")).content.decode()


def test_evening_sums_add_up_the_finished_games(table, keeper, evenings):
    """The standings' per-evening sums are the finished games' figures added up, and follow
    a game started later (an in-progress game counts nowhere until it ends)."""
    from django.db.models import Count, Q, Sum

    from ledger.models import EveningStanding
    from ledger.services.standings import EVENING_SUMS

    def sums():
        return sorted(EveningStanding.objects.values_list(
            "session_id", "player_id", "variant", "games", "wins", "shutouts", *EVENING_SUMS))

    def from_games():
        return sorted(
            GameStanding.objects.exclude(status="in_progress")
            .values("session_id", "player_id", "variant")
            .annotate(g=Count("id"), w=Count("id", filter=Q(won=True)),
                      s=Count("id", filter=Q(shutout=True)),
                      **{f"x{n}": Sum(n) for n in EVENING_SUMS})
            .order_by().values_list("session_id", "player_id", "variant", "g", "w", "s",
                                    *[f"x{n}" for n in EVENING_SUMS]))

    assert sums() == from_games() and len(sums()) == 9  # E1 2, E2 3, E3 2, E4 2
    open_game = services.game_start(session=evenings["e4"], variant="gin",
                                    players=["Bob", "Cy"], started_by=keeper,
                                    setup={"first_dealer": "Bob"})
    assert sums() == from_games() and len(sums()) == 9
    # a hand of a game that goes on changes no evening's sums (they are not rebuilt)
    services.hand_record(game=open_game, entry=knock("Bob", 2, "Cy", 30),
                         recorded_by=keeper, idempotency_key=uuid.uuid4())
    assert sums() == from_games() and len(sums()) == 9
    services.game_abandon(game=open_game, abandoned_by=keeper, reason="late")
    assert sums() == from_games() and len(sums()) == 10  # Bob's first game of E4
    # a hand that ends a game adds it to the evening's sums
    def anns_games():
        return sum(row[3] for row in sums()
                   if row[:3] == (evenings["e4"].pk, Player.objects.get(name="Ann").pk, "gin"))

    before = anns_games()
    ended = services.game_start(session=evenings["e4"], variant="gin", players=["Ann", "Cy"],
                                started_by=keeper, setup={"first_dealer": "Ann"},
                                rules={"target": 25})
    services.hand_record(game=ended, entry=knock("Ann", 1, "Cy", 40), recorded_by=keeper,
                         idempotency_key=uuid.uuid4())
    ended.refresh_from_db()
    assert ended.status == "complete"
    assert sums() == from_games() and anns_games() == before + 1


def test_data_migration_fills_the_evening_sums(table, evenings):
    import importlib

    from django.apps import apps

    from ledger.models import EveningStanding

    before = sorted(EveningStanding.objects.values_list("session_id", "player_id", "variant",
                                                        "games", "wins", "money_minor"))
    EveningStanding.objects.all().delete()
    importlib.import_module("ledger.migrations.0008_evening_standings").fill(apps, None)
    after = sorted(EveningStanding.objects.values_list("session_id", "player_id", "variant",
                                                       "games", "wins", "money_minor"))
    assert after == before and len(after) == 9


def test_a_renamed_player_keeps_his_book(table, keeper, evenings):
    """Renaming (issue 10's player_rename) changes no number: the book follows players by
    row, and the stored figures are rebuilt from results in the current names."""
    before = book.book_json(book.table_books(table))
    services.player_rename(player=Player.objects.get(name="Bob"), name="Robert")
    after = book.book_json(book.table_books(table))
    swap = json.loads(json.dumps(before).replace('"Bob"', '"Robert"'))
    swap[0]["players"].sort(key=lambda line: line["name"])
    assert after == swap
    # E2 reopened, its box game's stake doubled: the figures are rebuilt from the result
    # in the current names (Robert played as Bob)
    services.session_reopen(session=evenings["e2"], reopened_by=keeper, reason="stake")
    game = evenings["e2"].games.get()
    services.game_change_stake(game=game, changed_by=keeper, rate="0.02", confirm=True)
    robert = GameStanding.objects.get(game=game, player__name="Robert")
    assert (robert.money_minor, robert.hands_played) == (-326, 3)
    assert {line.player.name: line.open_money for line in book.table_books(table)[0].lines} \
        == {"Ann": 310 + 202, "Cy": 16 - 202, "Robert": -326}
