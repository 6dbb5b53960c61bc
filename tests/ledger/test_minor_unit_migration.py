"""Migration 0013: money stored in hundredths of UGX/LYD (and the other 11 currencies whose
ISO exponent is not 2) is rescaled to their ISO minor unit; JPY and the rest untouched."""

from __future__ import annotations

import importlib
import re
from fractions import Fraction

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from ledger import services
from ledger.models import (
    BookSettlement,
    EveningStanding,
    Game,
    GameStanding,
    MoneyPosting,
    Player,
    PostingBatch,
    SessionSettlement,
    SettlementPayment,
)
from ledger.rules import money

migration = importlib.import_module("ledger.migrations.0013_money_in_iso_minor_units")
BEFORE = [("ledger", "0012_postgres_history_triggers")]
AFTER = [("ledger", "0013_money_in_iso_minor_units")]


# -- the pure rescaling ----------------------------------------------------------------------

@st.composite
def zero_sum(draw):
    values = draw(st.lists(st.integers(-10**9, 10**9), min_size=1, max_size=8))
    return [*values, -sum(values)]


@given(zero_sum(), st.sampled_from([(2, 0), (2, 1), (3, 0)]))
def test_a_zero_sum_group_stays_zero_sum_each_within_one_of_exact(values, exponents):
    source, target = exponents
    new = migration.rescale_group(values, source, target)
    assert sum(new) == 0 and len(new) == len(values)
    divisor = 10 ** (source - target)
    for old, rescaled in zip(values, new, strict=True):
        assert abs(Fraction(old, divisor) - rescaled) < 1


@given(st.lists(st.integers(-10**9, 10**9), min_size=1, max_size=8))
def test_any_group_keeps_its_exact_total_rounded(values):
    new = migration.rescale_group(values, 2, 0)
    assert sum(new) == migration.rescale_one(sum(values), 2, 0)
    assert all(abs(Fraction(old, 100) - n) < 1 for old, n in zip(values, new, strict=True))


@given(st.lists(st.integers(-10**9, 10**9), max_size=8))
def test_three_decimals_is_exact_and_its_inverse_too(values):
    up = migration.rescale_group(values, 2, 3)
    assert up == [10 * v for v in values]
    assert migration.rescale_group(up, 3, 2) == values
    hundredths = [100 * v for v in values]
    assert migration.rescale_group(migration.rescale_group(hundredths, 2, 0), 0, 2) == hundredths


def test_the_uneven_batch_and_the_tie_rule():
    assert migration.rescale_group([150050, -100025, -50025], 2, 0) == [1500, -1000, -500]
    # equal remainders: the earlier entry gets the unit
    assert migration.rescale_group([50, 50, -100], 2, 0) == [1, 0, -1]
    assert migration.rescale_one(150, 2, 0) == 2 and migration.rescale_one(-150, 2, 0) == -2


def test_exactly_the_thirteen_currencies_whose_exponent_changed():
    assert migration.ISO_EXPONENT == {
        code: money.MINOR_UNIT_EXPONENT[code] for code in migration.ISO_EXPONENT}
    assert sorted(migration.ISO_EXPONENT) == sorted(
        "BIF DJF GNF IQD KMF LYD PYG RWF UGX VUV XAF XOF XPF".split())


# -- the migration on a database -------------------------------------------------------------

def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


#: What later migrations add that today's code reads or writes (these tests write at 0012
#: with today's services): added to the old schema for the test, and taken away again before
#: the later migrations run (0017: a table's language and clock, an account's language;
#: 0022: a game's lump-sum stake).
LATER_MODELS = ["AccountPreference"]
LATER_FIELDS = [("Table", "language"), ("Table", "time_zone"), ("Game", "lump_sum_stake")]


def later_schema(add: bool) -> None:
    from django.apps import apps

    with connection.schema_editor() as editor:
        for name in LATER_MODELS:
            model = apps.get_model("ledger", name)
            (editor.create_model if add else editor.delete_model)(model)
        for model_name, field_name in LATER_FIELDS:
            model = apps.get_model("ledger", model_name)
            field = model._meta.get_field(field_name)
            (editor.add_field if add else editor.remove_field)(model, field)


@pytest.fixture
def at_0012(transactional_db):
    migrate(BEFORE)
    later_schema(add=True)
    yield
    later_schema(add=False)
    migrate(MigrationLoader(connection).graph.leaf_nodes("ledger"))  # every later one too


@pytest.fixture
def old_exponents(monkeypatch):
    """The app as it was: the core's table without the 13 codes (2 decimals for them)."""
    old = {code: e for code, e in money.MINOR_UNIT_EXPONENT.items()
           if code not in migration.ISO_EXPONENT}
    monkeypatch.setattr(money, "MINOR_UNIT_EXPONENT", old)
    return monkeypatch


def beat(session, keeper, winner, loser, rate, currency):
    """An abandoned one-hand gin game: ``winner`` knocks and collects 75 points x rate."""
    return services.game_import(session=session, imported_by=keeper, record={
        "format": "tablestakes.game/1", "variant": "gin", "players": [winner, loser],
        "stakes": {"rate": rate, "per_points": 1, "currency": currency},
        "setup": {"first_dealer": loser}, "abandoned": True,
        "hands": [{"knocker": winner, "deadwood": {winner: 2, loser: 77}}],
    })


def assert_guards_enabled():
    """On PostgreSQL the triggers the migration disabled are on again, and refuse."""
    if connection.vendor != "postgresql":
        return
    names = [trigger for pairs in migration.TRIGGERS.values() for _, trigger in pairs]
    with connection.cursor() as cursor:
        cursor.execute("SELECT tgname, tgenabled FROM pg_trigger WHERE tgname = ANY(%s)",
                       [names])
        assert sorted(cursor.fetchall()) == sorted((name, "O") for name in names)
        with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
            cursor.execute("UPDATE ledger_moneyposting SET amount_minor = amount_minor")


def posted(game) -> dict[str, int]:
    return {p.player.name: p.amount_minor for p in
            MoneyPosting.objects.filter(game=game).select_related("player").order_by("id")}


def standings(game) -> dict[str, int]:
    return {s.player.name: s.money_minor for s in GameStanding.objects.filter(game=game)}


def evening(session) -> dict[str, int]:
    return {s.player.name: s.money_minor for s in EveningStanding.objects.filter(
        session=session)}


def test_stored_hundredths_become_iso_minor_units(at_0012, old_exponents, client,
                                                  django_user_model, capsys):
    keeper = django_user_model.objects.create_user("keeper", password="pw")
    table = services.table_create(name="Kampala", scorekeepers=[keeper])
    ugx = services.session_create(table=table, currency="UGX", rate="20", created_by=keeper)
    lyd = services.session_create(table=table, currency="LYD", created_by=keeper)
    jpy = services.session_create(table=table, currency="JPY", created_by=keeper)
    ugx_game = beat(ugx, keeper, "Ann", "Bob", "20", "UGX")
    lyd_game = beat(lyd, keeper, "Bob", "Ann", "0.25", "LYD")
    jpy_game = beat(jpy, keeper, "Ann", "Bob", "10", "JPY")
    # as the old app stored them: UGX 1,500 as 150000 hundredths, LYD 18.75 as 1875
    assert posted(ugx_game) == {"Ann": 150000, "Bob": -150000}
    assert posted(lyd_game) == {"Bob": 1875, "Ann": -1875}
    assert posted(jpy_game) == {"Ann": 750, "Bob": -750}
    services.session_settle(session=ugx, settled_by=keeper)
    services.session_settle(session=lyd, settled_by=keeper)
    services.session_settle(session=jpy, settled_by=keeper)
    services.book_settle(table=table, currency="UGX", expected=None, settled_by=keeper)
    old_exponents.undo()  # the app as it is now
    capsys.readouterr()

    migrate(AFTER)

    out = capsys.readouterr().out
    assert "UGX (2 -> 0 decimals)" in out and "LYD (2 -> 3 decimals)" in out
    assert "2 postings" in out and "JPY" not in out
    assert posted(ugx_game) == {"Ann": 1500, "Bob": -1500}
    assert posted(lyd_game) == {"Bob": 18750, "Ann": -18750}
    assert posted(jpy_game) == {"Ann": 750, "Bob": -750}
    assert standings(ugx_game) == {"Ann": 1500, "Bob": -1500}
    assert standings(lyd_game) == {"Bob": 18750, "Ann": -18750}
    assert standings(jpy_game) == {"Ann": 750, "Bob": -750}
    assert evening(ugx) == {"Ann": 1500, "Bob": -1500}
    assert evening(lyd) == {"Bob": 18750, "Ann": -18750}
    nets = {s.currency: s.nets for s in SessionSettlement.objects.all()}
    assert nets == {"UGX": {"Ann": 1500, "Bob": -1500}, "LYD": {"Bob": 18750, "Ann": -18750},
                    "JPY": {"Ann": 750, "Bob": -750}}
    payments = {(p.settlement.currency, p.payer.name, p.payee.name, p.amount_minor)
                for p in SettlementPayment.objects.select_related("settlement", "payer",
                                                                  "payee")}
    assert payments == {("UGX", "Bob", "Ann", 1500), ("LYD", "Ann", "Bob", 18750),
                        ("JPY", "Bob", "Ann", 750)}
    (book,) = BookSettlement.objects.all()
    assert [p["amount_minor"] for p in book.payments] == [1500]
    assert_guards_enabled()
    # what the app now shows and agrees with
    assert money.format_minor(posted(ugx_game)["Ann"], "UGX") == "1500"
    assert money.format_minor(posted(lyd_game)["Bob"], "LYD") == "18.750"
    client.force_login(keeper)
    page = client.get(reverse("ledger:session_detail", args=[ugx.pk])).content.decode()
    text = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    # the app writes UGX as whole shillings (grouped as English groups, issue 22)
    assert "Ann +1,500 Bob −1,500" in text and "Bob pays Ann UGX 1,500" in text
    assert "150,000" not in text and "1,500.00" not in text
    page = client.get(reverse("ledger:session_detail", args=[lyd.pk])).content.decode()
    text = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert "Bob +18.750 Ann −18.750" in text and "Ann pays Bob LYD 18.750" in text
    assert "1.875" not in text


def test_an_uneven_zero_decimal_batch_still_sums_to_zero(at_0012, django_user_model, capsys):
    keeper = django_user_model.objects.create_user("keeper", password="pw")
    table = services.table_create(name="Kampala", scorekeepers=[keeper])
    session = services.session_create(table=table, currency="UGX", created_by=keeper)
    game = Game.objects.create(session=session, sequence=1, variant="gin", currency="UGX")
    ann, bob, cy = (Player.objects.create(table=table, name=n) for n in ("Ann", "Bob", "Cy"))
    def post(number, amounts, reverses=None):
        with transaction.atomic():  # PostgreSQL checks the batch's sum at commit
            batch = PostingBatch.objects.create(
                game=game, number=number, kind="reversal" if reverses else "post",
                reverses=reverses, memo="stored in hundredths")
            MoneyPosting.objects.bulk_create(
                MoneyPosting(batch=batch, game=game, player=player, amount_minor=amount,
                             currency="UGX")
                for player, amount in zip((ann, bob, cy), amounts, strict=True))
        return batch

    batch = post(1, (150050, -100050, -50000))  # two halves: Ann, the earlier, rounds up
    reversal = post(2, (-150050, 100050, 50000), reverses=batch)
    latest = post(3, (150050, -100025, -50025))
    settlement = SessionSettlement.objects.create(
        session=session, currency="UGX", nets={"Ann": 150050, "Bob": -100025, "Cy": -50025})
    for order, (payer, amount) in enumerate(((bob, 100025), (cy, 50025)), start=1):
        SettlementPayment.objects.create(settlement=settlement, order=order, payer=payer,
                                         payee=ann, amount_minor=amount)

    migrate(AFTER)

    assert ("UGX (2 -> 0 decimals) rescaled to ISO minor units: 9 postings, "
            "1 settlements, 2 payments") in capsys.readouterr().out
    def amounts(batch):
        return [p.amount_minor for p in MoneyPosting.objects.filter(batch=batch).order_by("id")]

    assert amounts(latest) == [1500, -1000, -500]
    assert amounts(batch) == [1501, -1001, -500]
    # the reversal stays the exact negative of the batch it reverses (rescaled on its own
    # its tie would go to Ann the other way: -1500, 1000, 500)
    assert amounts(reversal) == [-1501, 1001, 500]
    settlement.refresh_from_db()
    assert settlement.nets == {"Ann": 1500, "Bob": -1000, "Cy": -500}
    assert [p.amount_minor for p in settlement.payments.order_by("order")] == [1000, 500]


def test_a_database_without_such_money_runs_no_ddl(at_0012, django_user_model, capsys):
    keeper = django_user_model.objects.create_user("keeper", password="pw")
    table = services.table_create(name="Tokyo", scorekeepers=[keeper])
    jpy = services.session_create(table=table, currency="JPY", created_by=keeper)
    game = beat(jpy, keeper, "Ann", "Bob", "10", "JPY")
    capsys.readouterr()
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        migrate(AFTER)
    statements = [q["sql"].upper() for q in queries.captured_queries]
    assert not [s for s in statements if "ALTER TABLE" in s or "TRIGGER" in s]
    assert not [s for s in statements if s.startswith("UPDATE") and "MONEY" in s]
    assert capsys.readouterr().out == ""
    assert posted(game) == {"Ann": 750, "Bob": -750}


def test_the_reverse_restores_hundredths(at_0012, old_exponents, django_user_model):
    keeper = django_user_model.objects.create_user("keeper", password="pw")
    table = services.table_create(name="Tripoli", scorekeepers=[keeper])
    lyd = services.session_create(table=table, currency="LYD", created_by=keeper)
    ugx = services.session_create(table=table, currency="UGX", created_by=keeper)
    lyd_game = beat(lyd, keeper, "Bob", "Ann", "0.25", "LYD")
    ugx_game = beat(ugx, keeper, "Bob", "Ann", "20", "UGX")
    services.session_settle(session=lyd, settled_by=keeper)
    old_exponents.undo()
    migrate(AFTER)
    assert posted(lyd_game) == {"Bob": 18750, "Ann": -18750}
    migrate(BEFORE)
    assert posted(lyd_game) == {"Bob": 1875, "Ann": -1875}
    assert posted(ugx_game) == {"Bob": 150000, "Ann": -150000}
    assert SessionSettlement.objects.get().nets == {"Bob": 1875, "Ann": -1875}
    assert SettlementPayment.objects.get().amount_minor == 1875
