"""The limits per address hold under simultaneous requests: the audit's 10 sign-ups at once
from one address made 4-5 accounts against a limit of 3 (a cache read, then a cache write).
``ledger.counters.hit`` counts in one SQL statement; here threads, each with its own
database connection, hit at the same moment: on SQLite and (marker postgres) PostgreSQL.
"""

from __future__ import annotations

import threading

import pytest
from django.core import mail
from django.db import connection
from django.test import Client
from django.urls import reverse

from ledger import counters

pytestmark = pytest.mark.django_db(transaction=True)

THREADS = 10


def at_once(work, n: int = THREADS) -> list:
    """Run ``work(i)`` in ``n`` threads released together; their results, in order."""
    barrier = threading.Barrier(n)
    results: list = [None] * n
    errors: list = []

    def run(i):
        try:
            barrier.wait(timeout=30)
            results[i] = work(i)
        except Exception as exc:  # reported below, in the test's thread
            errors.append(exc)
        finally:
            connection.close()  # each thread's own connection

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    return results


def every_count_once():
    hits_per_thread = 5

    def work(i):
        return [counters.hit("test:at-once", 3600)[0] for _ in range(hits_per_thread)]

    seen = sorted(n for counts in at_once(work) for n in counts)
    # a read-then-write counter gives some counts twice and ends below 50
    assert seen == list(range(1, THREADS * hits_per_thread + 1))
    assert counters.current("test:at-once")[0] == THREADS * hits_per_thread


def ten_signups_at_once(settings):
    settings.TABLESTAKES_SIGNUPS_PER_ADDRESS = 3
    mail.outbox = []

    def work(i):
        return Client().post(reverse("signup"), {
            "username": f"user{i}", "display_name": f"User {i}",
            "email": f"user{i}@example.org"}, REMOTE_ADDR="203.0.113.5").status_code

    statuses = at_once(work)
    assert sorted(statuses) == [302] * 3 + [429] * 7
    assert len(mail.outbox) == 3  # three links mailed, no more


def test_every_hit_gets_its_own_count():
    every_count_once()


def test_ten_simultaneous_signups_from_one_address_get_three_through(settings):
    ten_signups_at_once(settings)


@pytest.mark.postgres
def test_every_hit_gets_its_own_count_on_postgresql():
    assert connection.vendor == "postgresql"
    every_count_once()


@pytest.mark.postgres
def test_ten_simultaneous_signups_on_postgresql_get_three_through(settings):
    assert connection.vendor == "postgresql"
    ten_signups_at_once(settings)


def test_a_window_ends_and_a_new_one_starts_at_one():
    assert counters.hit("test:window", 60, now=1000.0) == (1, 1060.0)
    assert counters.hit("test:window", 60, now=1059.0) == (2, 1060.0)
    assert counters.hit("test:window", 60, now=1060.0) == (1, 1120.0)
    assert counters.current("test:window", now=1100.0) == (1, 1120.0)
    assert counters.current("test:window", now=1120.0)[0] == 0
