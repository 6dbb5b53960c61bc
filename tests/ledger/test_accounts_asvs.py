"""Accounts at OWASP ASVS level 1 (issue 18, item 6): sign-up and password reset answer the
same, with the same work, whether an address or username has an account; their limits per
client address and per e-mail address; wrong passwords from one address across usernames
lock that address; passwords of at least 12 characters everywhere one is chosen.

The simultaneous requests and the atomic counters are in test_accounts_concurrency.py.
"""

from __future__ import annotations

import re
import time
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger import outbox

pytestmark = pytest.mark.django_db

SIGNUP = {"username": "marta", "display_name": "Marta Díaz", "email": "marta@example.org"}


@pytest.fixture
def deferred(monkeypatch):
    """The jobs the requests hand to the outbox, kept instead of run (run them with
    ``run_all``): what a request does is then only the request's own work."""
    jobs = []
    monkeypatch.setattr(outbox, "defer", lambda job, *a, **kw: jobs.append((job, a, kw)))
    return jobs


def run_all(jobs) -> None:
    while jobs:
        job, args, kwargs = jobs.pop(0)
        job(*args, **kwargs)


def shape(queries) -> list[str]:
    """The SQL a request ran, its values blanked: what code path it took."""
    return [re.sub(r"'[^']*'|\b\d+(\.\d+)?(e[+-]?\d+)?", "?", q["sql"]) for q in queries]


def page(response) -> str:
    """A response's body without its CSRF token (a new one on every page)."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", response.content.decode())


def answer(client, url, data, **extra):
    with CaptureQueriesContext(connection) as queries:
        response = client.post(url, data, **extra)
    return (response.status_code, response.get("Location"), page(response),
            sorted(response.cookies)), shape(queries.captured_queries)


# -- sign-up: the same answer, the same work, whoever asks ------------------------------------

def world(kind: str, django_user_model) -> None:
    if kind in ("username", "both"):
        django_user_model.objects.create_user("Marta", email="other@example.org",
                                              password="other-pass-99-long")
    if kind in ("address", "both"):
        django_user_model.objects.create_user("ana", email="MARTA@example.org",
                                              password="other-pass-98-long")


@pytest.mark.parametrize("at_limit", [False, True])
def test_signup_answers_the_same_whether_the_name_or_address_is_taken(
        client, settings, deferred, django_user_model, at_limit):
    """The same status, redirect, body, cookies and SQL for a new sign-up, a taken
    username, a taken address and both; also once the address's limit is reached (then
    every one is refused alike, never with "already exists")."""
    from ledger.counters.models import Counter

    settings.TABLESTAKES_SIGNUPS_PER_ADDRESS = 1
    seen = {}
    for kind in ("new", "username", "address", "both"):
        django_user_model.objects.all().delete()
        Counter.objects.all().delete()
        world(kind, django_user_model)
        if at_limit:  # this address's one sign-up, used up
            client.post(reverse("signup"), {**SIGNUP, "email": "first@example.net"},
                        REMOTE_ADDR="203.0.113.5")
            deferred.clear()
        seen[kind] = answer(client, reverse("signup"), SIGNUP, REMOTE_ADDR="203.0.113.5")
    first = seen["new"]
    for kind, got in seen.items():
        assert got == first, kind
    status, location, body, _ = first[0]
    if at_limit:
        assert status == 429 and "Too many new accounts from your network" in body
        assert deferred == []
    else:
        assert (status, location) == (302, reverse("signup_sent"))
        assert len(deferred) == 4
    assert "already" not in body
    # the request itself never looked at the accounts
    assert not any("auth_user" in sql for sql in first[1])


def test_each_kind_of_signup_gets_its_own_mail_after_the_response(client, deferred,
                                                                   django_user_model):
    outcomes = {}
    for kind in ("new", "username", "address"):
        django_user_model.objects.all().delete()
        world(kind, django_user_model)
        client.post(reverse("signup"), SIGNUP, REMOTE_ADDR=f"198.51.100.{len(outcomes) + 1}")
        assert len(deferred) == 1 and mail.outbox == []  # nothing sent in the request
        run_all(deferred)
        (sent,) = mail.outbox
        outcomes[kind] = sent.subject
        assert sent.to == ["marta@example.org"]
        mail.outbox.clear()
    assert outcomes == {"new": "Finish your Tablestakes account",
                        "username": "That Tablestakes username is taken",
                        "address": "Your Tablestakes account"}


# -- password reset: limited, and the same work for known and unknown addresses --------------

def test_reset_answers_the_same_and_does_the_same_work_known_or_not(client, deferred,
                                                                    django_user_model):
    django_user_model.objects.create_user("marta", email="marta@example.org",
                                          password="old-pass-77-long")
    known = answer(client, reverse("password_reset"), {"email": "marta@example.org"},
                   REMOTE_ADDR="203.0.113.5")
    unknown = answer(client, reverse("password_reset"), {"email": "nobody@example.org"},
                     REMOTE_ADDR="203.0.113.6")  # (each the first of its windows)
    assert known == unknown
    assert known[0][:2] == (302, reverse("password_reset_done"))
    assert not any("auth_user" in sql for sql in known[1])  # no look-up in the request
    # the same job for both, run after the response: one mail, to the known address
    assert [job for job, _, _ in deferred] == [deferred[0][0]] * 2
    assert mail.outbox == []
    run_all(deferred)
    assert [m.to for m in mail.outbox] == [["marta@example.org"]]


class SlowBackend:
    """A mail server that takes half a second per mail (the measured known/unknown gap was
    44 ms against 3 ms; a slow server makes any mail sent in the request obvious)."""

    sent: list = []

    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        time.sleep(0.5)
        SlowBackend.sent.extend(messages)
        return len(messages)


@pytest.mark.django_db(transaction=True)
def test_reset_mail_is_sent_by_the_background_thread_after_the_response(client, settings,
                                                                        django_user_model):
    """Production's outbox (a thread): the answer for a known address comes as fast as for
    an unknown one although its mail takes 0.5 s, and the mail arrives afterwards."""
    settings.TABLESTAKES_OUTBOX = "thread"
    settings.EMAIL_BACKEND = f"{__name__}.SlowBackend"
    SlowBackend.sent = []
    django_user_model.objects.create_user("marta", email="marta@example.org",
                                          password="old-pass-77-long")
    client.get(reverse("password_reset"))  # warm up (templates, URL resolvers)
    took = {}
    for email in ("marta@example.org", "nobody@example.org") * 3:
        start = time.perf_counter()
        response = client.post(reverse("password_reset"), {"email": email})
        took.setdefault(email, []).append(time.perf_counter() - start)
        assert response.status_code == 302
    assert SlowBackend.sent == []  # nothing sent yet while the requests were answered
    assert outbox.drain(10)
    assert [m.to for m in SlowBackend.sent] == [["marta@example.org"]] * 3
    known, unknown = min(took["marta@example.org"]), min(took["nobody@example.org"])
    print(f"reset answered in {known * 1000:.1f} ms (known) / {unknown * 1000:.1f} ms (unknown)")
    assert known < 0.25 and unknown < 0.25  # never the 0.5 s of the mail


def test_the_21st_reset_from_one_address_is_refused_in_words(client, mailoutbox,
                                                             django_user_model):
    django_user_model.objects.create_user("marta", email="marta@example.org",
                                          password="old-pass-77-long")
    emails = ["marta@example.org"] + [f"guess{n}@example.org" for n in range(2, 21)]
    for email in emails:
        response = client.post(reverse("password_reset"), {"email": email},
                               REMOTE_ADDR="203.0.113.5")
        assert response.status_code == 302, email
    refused = client.post(reverse("password_reset"), {"email": "marta@example.org"},
                          REMOTE_ADDR="203.0.113.5")
    assert refused.status_code == 429
    assert ("Too many password resets asked from your network just now; try again in 60 "
            "minutes") in refused.content.decode()
    assert len(mailoutbox) == 1  # the 21st sent nothing
    # another address is another count
    assert client.post(reverse("password_reset"), {"email": "marta@example.org"},
                       REMOTE_ADDR="198.51.100.7").status_code == 302
    assert len(mailoutbox) == 2


def test_resets_for_one_email_address_are_limited(client, settings, mailoutbox,
                                                  django_user_model):
    django_user_model.objects.create_user("marta", email="marta@example.org",
                                          password="old-pass-77-long")
    limit = settings.TABLESTAKES_RESETS_PER_EMAIL
    assert limit == 5
    for n in range(limit):
        assert client.post(reverse("password_reset"), {"email": "Marta@Example.org"},
                           REMOTE_ADDR=f"198.51.100.{n + 1}").status_code == 302
    refused = client.post(reverse("password_reset"), {"email": "marta@example.org"},
                          REMOTE_ADDR="192.0.2.1")
    assert refused.status_code == 429
    assert "Too many password resets asked for this e-mail address" in refused.content.decode()
    assert len(mailoutbox) == limit
    # an unknown address is counted alike: the refusal says nothing about accounts
    for n in range(limit):
        client.post(reverse("password_reset"), {"email": "nobody@example.org"},
                    REMOTE_ADDR=f"192.0.2.{n + 10}")
    assert client.post(reverse("password_reset"), {"email": "nobody@example.org"},
                       REMOTE_ADDR="192.0.2.99").status_code == 429


# -- wrong passwords across usernames from one address -----------------------------------------

def log_in(client, username, password, address="203.0.113.5"):
    return client.post(reverse("login"), {"username": username, "password": password},
                       REMOTE_ADDR=address)


def test_guessing_across_30_usernames_from_one_address_is_locked(client, settings,
                                                                 django_user_model):
    django_user_model.objects.create_user("marta", password="kitchen-table-42")
    limit = settings.TABLESTAKES_LOGIN_FAILURES_PER_ADDRESS
    assert limit == 20
    answers = [log_in(client, f"user{n}", "guess-123").status_code for n in range(1, 31)]
    # each username failed once: django-axes (5 per username and address) never locks
    assert answers == [200] * (limit - 1) + [429] * (30 - limit + 1)
    locked = log_in(client, "user99", "guess-123")
    body = locked.content.decode()
    assert locked.status_code == 429 and "Every log-in from your network is paused" in body
    assert "after 20 wrong passwords" in body and "Try again in 15 minutes" in body
    # the right password of a real account is refused from there too, unread
    assert log_in(client, "marta", "kitchen-table-42").status_code == 429
    assert "_auth_user_id" not in client.session
    # from another address the account logs in
    assert log_in(client, "marta", "kitchen-table-42", "198.51.100.7").status_code == 302


def test_a_success_does_not_clear_the_count_per_address(client, settings, django_user_model):
    """Else a guesser would log in to an account of his own between guesses."""
    django_user_model.objects.create_user("mine", password="my-own-password-1")
    limit = settings.TABLESTAKES_LOGIN_FAILURES_PER_ADDRESS
    for n in range(limit - 1):
        assert log_in(client, f"user{n}", "guess-123").status_code == 200
    assert log_in(client, "mine", "my-own-password-1").status_code == 302
    client.logout()
    assert log_in(client, "user-last", "guess-123").status_code == 429


def test_the_lock_ends_with_the_cool_off_time(client, settings, monkeypatch):
    from ledger import counters

    limit = settings.TABLESTAKES_LOGIN_FAILURES_PER_ADDRESS
    for n in range(limit):
        log_in(client, f"user{n}", "guess-123")
    assert log_in(client, "user0", "guess-123").status_code == 429
    later = time.time() + settings.AXES_COOLOFF_TIME.total_seconds() + 1
    monkeypatch.setattr(counters, "time", SimpleNamespace(time=lambda: later))
    assert log_in(client, "user0", "guess-123").status_code == 200


def test_the_admin_log_in_is_locked_alike(client, settings):
    for n in range(settings.TABLESTAKES_LOGIN_FAILURES_PER_ADDRESS):
        log_in(client, f"user{n}", "guess-123")
    response = client.post(reverse("admin:login"), {"username": "root", "password": "x"},
                           REMOTE_ADDR="203.0.113.5")
    assert response.status_code == 429


# -- at least 12 characters ---------------------------------------------------------------------

ELEVEN, TWELVE = "tablestake1", "tablestake12"


def test_the_minimum_length_is_12(settings):
    (validator,) = [v for v in settings.AUTH_PASSWORD_VALIDATORS
                    if v["NAME"].endswith("MinimumLengthValidator")]
    assert validator["OPTIONS"]["min_length"] == 12


def test_changing_a_password_asks_12_characters(logged_in, keeper):
    url = reverse("password_change")
    short = logged_in.post(url, {"old_password": "pw", "new_password1": ELEVEN,
                                 "new_password2": ELEVEN})
    assert short.status_code == 200
    assert "at least 12 characters" in " ".join(short.context["form"].errors["new_password2"])
    keeper.refresh_from_db()
    assert keeper.check_password("pw")
    assert logged_in.post(url, {"old_password": "pw", "new_password1": TWELVE,
                                "new_password2": TWELVE}).status_code == 302
    keeper.refresh_from_db()
    assert keeper.check_password(TWELVE)


def test_a_reset_password_needs_12_characters(client, mailoutbox, django_user_model):
    user = django_user_model.objects.create_user("marta", email="marta@example.org",
                                                 password="old-pass-77-long")
    client.post(reverse("password_reset"), {"email": "marta@example.org"})
    link = next(line for line in mailoutbox[0].body.splitlines() if "/accounts/reset/" in line)
    form = client.get(link.split("testserver", 1)[1], follow=True)
    target = form.redirect_chain[-1][0]
    short = client.post(target, {"new_password1": ELEVEN, "new_password2": ELEVEN})
    assert short.status_code == 200
    assert "at least 12 characters" in " ".join(short.context["form"].errors["new_password2"])
    assert client.post(target, {"new_password1": TWELVE,
                                "new_password2": TWELVE}).status_code == 302
    user.refresh_from_db()
    assert user.check_password(TWELVE)


def test_the_demo_account_keeps_its_short_password():
    """load_demo makes demo/demo without the validators (a development convenience)."""
    call_command("load_demo", stdout=open("/dev/null", "w"))
    assert get_user_model().objects.get(username="demo").check_password("demo")
