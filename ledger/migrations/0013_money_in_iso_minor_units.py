"""Stored money in the ISO 4217 minor unit of 13 currencies that were kept in hundredths.

Until the core's ``MINOR_UNIT_EXPONENT`` was made complete, every currency it did not list
counted 2 decimals. ISO gives 0 decimals to BIF DJF GNF KMF PYG RWF UGX VUV XAF XOF XPF and
3 to IQD LYD, so rows written before hold hundredths where the app now reads whole units
(100x too much) or thousandths (10x too little). This rescales every stored minor-unit
amount in exactly those currencies (each row's own ``currency``):

- 3 decimals: times 10 (exact).
- 0 decimals: divided by 100; exact for whole stakes. Otherwise each zero-sum group keeps
  summing to zero (largest remainder, ties to the earlier entry): the postings of a batch
  (a reversal stays the exact negative of the batch it reverses), a settlement's nets (seat
  order). Payments (settlement and book) are rounded half up each (at least 1: a payment
  is positive). The standings caches follow the rescaled postings (a game's money is its
  postings' sum; an evening's the sum of its finished games), else half up. A posting that
  rounds to nothing is deleted (a posting is never zero).

PostgreSQL's append-only triggers on the rows it rewrites are disabled for the rewrite and
enabled again in the same transaction; only when there is something to rescale (a database
without such rows runs no DDL). The reverse is the inverse rescale (to hundredths again):
exact for 3 decimals and for whatever was divided exactly; a rounded 0-decimal amount
cannot get its hundredths back.
"""

from __future__ import annotations

from collections import defaultdict

from django.db import migrations

#: The codes whose exponent changed, old (2) -> ISO.
OLD_EXPONENT = 2
ISO_EXPONENT = {
    **{code: 0 for code in "BIF DJF GNF KMF PYG RWF UGX VUV XAF XOF XPF".split()},
    **{code: 3 for code in "IQD LYD".split()},
}

#: (table, trigger) pairs refusing the rewrite on PostgreSQL (migrations 0002 and 0012).
TRIGGERS = {
    "postings": [("ledger_moneyposting", "ledger_moneyposting_append_only")],
    "settlements": [("ledger_sessionsettlement", "ledger_sessionsettlement_append_only")],
    "payments": [("ledger_settlementpayment", "ledger_settlementpayment_follows_marks")],
    "books": [("ledger_booksettlement", "ledger_booksettlement_append_only")],
}


def _half_up(numerator: int, denominator: int) -> int:
    """numerator / denominator rounded half away from zero."""
    sign = -1 if numerator < 0 else 1
    whole, rest = divmod(abs(numerator), denominator)
    return sign * (whole + (2 * rest >= denominator))


def rescale_one(value: int, source: int, target: int) -> int:
    """One amount from ``source`` decimals to ``target`` decimals (half away from zero)."""
    if target >= source:
        return value * 10 ** (target - source)
    return _half_up(value, 10 ** (source - target))


def rescale_group(values: list[int], source: int, target: int) -> list[int]:
    """Amounts from ``source`` to ``target`` decimals keeping their sum: each is the exact
    quotient rounded down or up (within 1 of it), the total is the exact total rounded half
    away from zero (so a zero-sum group stays zero-sum); the units rounded up go to the
    largest remainders, ties to the earlier entry."""
    if target >= source:
        return [value * 10 ** (target - source) for value in values]
    divisor = 10 ** (source - target)
    floors = [value // divisor for value in values]
    remainders = [value - floor * divisor for value, floor in zip(values, floors, strict=True)]
    extra = _half_up(sum(values), divisor) - sum(floors)
    order = sorted(range(len(values)), key=lambda i: (-remainders[i], i))
    for i in order[:extra]:
        floors[i] += 1
    return floors


class _Rescaler:
    def __init__(self, apps, forward: bool):
        self.apps = apps
        self.forward = forward
        self.counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))

    def exponents(self, currency: str) -> tuple[int, int]:
        iso = ISO_EXPONENT[currency]
        return (OLD_EXPONENT, iso) if self.forward else (iso, OLD_EXPONENT)

    def group(self, values, currency):
        return rescale_group(values, *self.exponents(currency))

    def one(self, value, currency):
        return rescale_one(value, *self.exponents(currency))

    def postings(self) -> dict[int, tuple]:
        """Rescale the postings batch by batch; returns, for the standings,
        {posting id: (game, player, old, new, currency)}."""
        posting_model = self.apps.get_model("ledger", "MoneyPosting")
        batch_model = self.apps.get_model("ledger", "PostingBatch")
        rows = list(posting_model.objects.filter(currency__in=ISO_EXPONENT)
                    .order_by("batch_id", "id")
                    .values_list("id", "batch_id", "game_id", "player_id", "amount_minor",
                                 "currency"))
        by_batch: dict[int, list] = defaultdict(list)
        for row in rows:
            by_batch[row[1]].append(row)
        reverses = dict(batch_model.objects.filter(pk__in=by_batch, reverses__isnull=False)
                        .values_list("pk", "reverses_id"))
        new_by_batch: dict[int, dict[int, int]] = {}  # batch -> player -> new amount
        changes = {}
        # a reversal after the batch it reverses (it mirrors that batch's new amounts)
        for batch_id in sorted(by_batch, key=lambda b: (b in reverses, b)):
            batch_rows = by_batch[batch_id]
            olds = [row[4] for row in batch_rows]
            news = self.group(olds, batch_rows[0][5])
            mirrored = new_by_batch.get(reverses.get(batch_id))
            if mirrored is not None and len(set(row[3] for row in batch_rows)) == len(batch_rows):
                by_player_old = {row[3]: row[4] for row in by_batch[reverses[batch_id]]}
                if {row[3]: -row[4] for row in batch_rows} == by_player_old:
                    news = [-mirrored[row[3]] for row in batch_rows]
            new_by_batch[batch_id] = {row[3]: new for row, new in zip(batch_rows, news,
                                                                      strict=True)}
            for row, new in zip(batch_rows, news, strict=True):
                changes[row[0]] = (row[2], row[3], row[4], new, row[5])
        if sum(new for *_, new, _ in changes.values()) != 0:  # (groups are zero-sum)
            raise RuntimeError("0013: rescaled postings do not sum to zero")
        zero = [pk for pk, (_, _, _, new, _) in changes.items() if new == 0]
        keep = [posting_model(pk=pk, amount_minor=new)
                for pk, (_, _, old, new, _) in changes.items() if new != 0 and new != old]
        posting_model.objects.bulk_update(keep, ["amount_minor"], batch_size=500)
        posting_model.objects.filter(pk__in=zero).delete()
        for *_, currency in changes.values():
            self.counts[currency]["postings"] += 1
        return changes

    def standings(self, postings: dict) -> None:
        """Game standings: the sum of the game's rescaled postings for the player when the
        stored figure was the sum of its old ones, else rounded; evening standings: the sum
        of the rescaled finished games' figures when they added up, else rounded."""
        old_sum: dict[tuple, int] = defaultdict(int)
        new_sum: dict[tuple, int] = defaultdict(int)
        for game, player, old, new, _ in postings.values():
            old_sum[game, player] += old
            new_sum[game, player] += new
        game_model = self.apps.get_model("ledger", "GameStanding")
        evening_model = self.apps.get_model("ledger", "EveningStanding")
        games = list(game_model.objects.filter(currency__in=ISO_EXPONENT))
        old_evening: dict[tuple, int] = defaultdict(int)
        new_evening: dict[tuple, int] = defaultdict(int)
        for row in games:
            key = (row.game_id, row.player_id)
            old = row.money_minor
            row.money_minor = (new_sum[key] if old_sum[key] == old
                               else self.one(old, row.currency))
            if row.status != "in_progress":
                evening = (row.session_id, row.player_id, row.variant, row.currency)
                old_evening[evening] += old
                new_evening[evening] += row.money_minor
            self.counts[row.currency]["game standings"] += 1
        game_model.objects.bulk_update(games, ["money_minor"], batch_size=500)
        evenings = list(evening_model.objects.filter(currency__in=ISO_EXPONENT))
        for row in evenings:
            key = (row.session_id, row.player_id, row.variant, row.currency)
            row.money_minor = (new_evening[key] if old_evening[key] == row.money_minor
                               else self.one(row.money_minor, row.currency))
            self.counts[row.currency]["evening standings"] += 1
        evening_model.objects.bulk_update(evenings, ["money_minor"], batch_size=500)

    def settlements(self) -> None:
        model = self.apps.get_model("ledger", "SessionSettlement")
        rows = list(model.objects.filter(currency__in=ISO_EXPONENT))
        for row in rows:
            names = list(row.nets)
            news = self.group([row.nets[name] for name in names], row.currency)
            row.nets = dict(zip(names, news, strict=True))
            self.counts[row.currency]["settlements"] += 1
        model.objects.bulk_update(rows, ["nets"], batch_size=500)

    def payments(self) -> None:
        model = self.apps.get_model("ledger", "SettlementPayment")
        rows = list(model.objects.filter(settlement__currency__in=ISO_EXPONENT)
                    .select_related("settlement"))
        for row in rows:
            currency = row.settlement.currency
            row.amount_minor = max(1, self.one(row.amount_minor, currency))
            self.counts[currency]["payments"] += 1
        model.objects.bulk_update(rows, ["amount_minor"], batch_size=500)

    def books(self) -> None:
        model = self.apps.get_model("ledger", "BookSettlement")
        rows = list(model.objects.filter(currency__in=ISO_EXPONENT))
        for row in rows:
            row.payments = [
                {**payment, "amount_minor": max(1, self.one(payment["amount_minor"],
                                                            row.currency))}
                for payment in row.payments
            ]
            self.counts[row.currency]["book settlements"] += 1
        model.objects.bulk_update(rows, ["payments"], batch_size=500)


def _present(apps) -> dict[str, bool]:
    def get(name):
        return apps.get_model("ledger", name).objects

    return {
        "postings": get("MoneyPosting").filter(currency__in=ISO_EXPONENT).exists(),
        "settlements": get("SessionSettlement").filter(currency__in=ISO_EXPONENT).exists(),
        "payments": get("SettlementPayment").filter(
            settlement__currency__in=ISO_EXPONENT).exists(),
        "books": get("BookSettlement").filter(currency__in=ISO_EXPONENT).exists(),
        "standings": get("GameStanding").filter(currency__in=ISO_EXPONENT).exists()
        or get("EveningStanding").filter(currency__in=ISO_EXPONENT).exists(),
    }


def _triggers(schema_editor, present: dict[str, bool], action: str) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    for kind, pairs in TRIGGERS.items():
        if present[kind]:
            for table, trigger in pairs:
                schema_editor.execute(f"ALTER TABLE {table} {action} TRIGGER {trigger}",
                                      params=None)


def _rescale(forward: bool):
    def run(apps, schema_editor):
        present = _present(apps)
        if not any(present.values()):
            return  # nothing stored in those currencies: no DDL, no output
        rescaler = _Rescaler(apps, forward)
        _triggers(schema_editor, present, "DISABLE")
        postings = rescaler.postings()
        rescaler.standings(postings)
        rescaler.settlements()
        rescaler.payments()
        rescaler.books()
        _triggers(schema_editor, present, "ENABLE")
        direction = "to ISO minor units" if forward else "back to hundredths"
        for currency in sorted(rescaler.counts):
            source, target = rescaler.exponents(currency)
            counted = ", ".join(f"{n} {what}" for what, n in rescaler.counts[currency].items())
            print(f"  0013: {currency} ({source} -> {target} decimals) "
                  f"rescaled {direction}: {counted}")

    return run


class Migration(migrations.Migration):
    dependencies = [("ledger", "0012_postgres_history_triggers")]

    operations = [migrations.RunPython(_rescale(True), _rescale(False))]
