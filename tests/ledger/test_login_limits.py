"""Password guessing (issue 38, item 2): an IPv6 client is counted by its /64; one username
is slowed down across every address (a growing delay, checked before any password is
hashed); a member's own browser (the device cookie) logs in while a stranger at the same
address is locked out or guessing the member's password.

Each count is the rule's own: 20 wrong passwords per address
(TABLESTAKES_LOGIN_FAILURES_PER_ADDRESS), 10 per username from anywhere
(TABLESTAKES_LOGIN_FAILURES_PER_USERNAME), then waits of 1, 2, 4... seconds.
"""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest
from django.contrib.auth.hashers import MD5PasswordHasher
from django.urls import reverse

from ledger import counters, limits

pytestmark = pytest.mark.django_db

RIGHT = "kitchen-table-42"


def log_in(client, username, password, address="203.0.113.5"):
    return client.post(reverse("login"), {"username": username, "password": password},
                       REMOTE_ADDR=address)


def log_out(client) -> None:
    """Log out as a browser does: the session ends, the device cookie stays (the test
    client's logout() forgets every cookie)."""
    device = client.cookies.get(limits.DEVICE_COOKIE)
    client.logout()
    if device is not None:
        client.cookies[limits.DEVICE_COOKIE] = device.value


@pytest.fixture
def hashed(monkeypatch, marta):
    """The passwords hashed from now on (checked against an account, or hashed for a
    username nobody has, as Django does to take the same time): the hasher's encode(),
    which its verify() calls too."""
    calls = []
    encode = MD5PasswordHasher.encode
    monkeypatch.setattr(MD5PasswordHasher, "encode",
                        lambda self, *a: calls.append(a[1:]) or encode(self, *a))
    return calls


@pytest.fixture
def clock(monkeypatch):
    """The limits' clock, moved on by hand: ``clock.now += 2``."""
    state = SimpleNamespace(now=time.time())
    fake = SimpleNamespace(time=lambda: state.now, sleep=time.sleep)
    monkeypatch.setattr(counters, "time", fake)
    monkeypatch.setattr(limits, "time", fake)
    return state


@pytest.fixture
def marta(django_user_model):
    return django_user_model.objects.create_user("marta", password=RIGHT)


# -- an IPv6 client is counted by its /64 -------------------------------------------------------

def test_addresses_of_one_ipv6_64_share_one_count(client, settings):
    limit = settings.TABLESTAKES_LOGIN_FAILURES_PER_ADDRESS
    assert limit == 20
    # 20 wrong passwords, each from another address of 2001:db8:1:2::/64, other usernames
    answers = [log_in(client, f"user{n}", "guess-123", f"2001:db8:1:2::{n:x}").status_code
               for n in range(1, limit + 1)]
    assert answers == [200] * (limit - 1) + [429]
    # any other address of that /64 is locked too
    locked = log_in(client, "user99", "guess-123", "2001:db8:1:2:ffff:ffff:ffff:fffe")
    assert locked.status_code == 429
    assert "Every log-in from your network is paused" in locked.content.decode()
    assert locked["Retry-After"] == "900"
    # the next /64 is another network
    assert log_in(client, "user99", "guess-123", "2001:db8:1:3::1").status_code == 200


def test_the_address_key_of_ipv6_ipv4_and_mapped_addresses():
    assert limits.address_key("2001:db8:1:2:aaaa:bbbb:cccc:dddd") == "2001:db8:1:2::"
    assert limits.address_key("2001:db8:1:2::1") == limits.address_key("2001:db8:1:2::ffff")
    assert limits.address_key("2001:db8:1:3::1") == "2001:db8:1:3::"
    assert limits.address_key("203.0.113.5") == "203.0.113.5"
    assert limits.address_key("::ffff:203.0.113.5") == "203.0.113.5"
    assert limits.address_key("not an address") is None


def test_django_axes_counts_an_ipv6_client_by_its_64_too(client, settings, marta):
    # 5 wrong passwords for marta (django-axes' limit per username and address), each
    # from another address of one /64: the 5th locks marta there
    answers = [log_in(client, "marta", "guess-123", f"2001:db8:9:9::{n}").status_code
               for n in range(1, settings.AXES_FAILURE_LIMIT + 1)]
    assert answers == [200] * (settings.AXES_FAILURE_LIMIT - 1) + [429]
    assert log_in(client, "marta", RIGHT, "2001:db8:9:9::77").status_code == 429


# -- one username across addresses: a growing delay, checked before hashing ----------------------

def rotating(n: int) -> str:
    """The n-th address of a guesser who rotates through six /48s (a new /64 each time)."""
    return f"2001:db8:{n % 6:x}:{n:x}::{n:x}"


def test_one_username_from_rotating_addresses_is_slowed_down(client, settings, clock, hashed,
                                                             marta):
    free = settings.TABLESTAKES_LOGIN_FAILURES_PER_USERNAME
    assert free == 10
    for n in range(free):
        assert log_in(client, "marta", f"guess-{n}", rotating(n)).status_code == 200
    assert len(hashed) == free
    # the 11th at once, from yet another network: "wait 1 second", the password unread
    refused = log_in(client, "marta", "guess-10", rotating(10))
    body = refused.content.decode()
    assert refused.status_code == 429 and refused["Retry-After"] == "1"
    assert "Wait 1 second and try again." in body
    assert "after 10 wrong passwords for it, from anywhere" in body
    assert len(hashed) == free
    # ... and so is the right password before its turn: no log-in, no hashing
    assert log_in(client, "marta", RIGHT, rotating(11)).status_code == 429
    assert "_auth_user_id" not in client.session and len(hashed) == free
    # its turn comes after 1 s; a wrong guess then makes the next wait 2 s, then 4, 8
    for wait in (1, 2, 4, 8):
        clock.now += wait
        assert log_in(client, "marta", "guess-again", rotating(20 + wait)).status_code == 200
        refused = log_in(client, "marta", "guess-again", rotating(40 + wait))
        assert refused.status_code == 429 and refused["Retry-After"] == str(wait * 2)
    assert len(hashed) == free + 4
    # the owner, on the turn: in, and the count starts over
    clock.now += 16
    assert log_in(client, "marta", RIGHT, rotating(60)).status_code == 302
    log_out(client)
    assert log_in(client, "marta", "typo", rotating(61)).status_code == 200


def test_seventy_guesses_in_thirty_seconds_hash_fourteen(client, settings, clock, hashed,
                                                          marta):
    """The audit's attack: 70 guesses at one account from six /48s in 30 s (one every
    0.43 s). 10 are hashed at once, then one after 1, 2, 4, 8 s: 14 in all, no lock-out of
    the owner (the delay is never longer than TABLESTAKES_LOGIN_DELAY_MAX)."""
    answers = []
    for n in range(70):
        answers.append(log_in(client, "marta", f"guess-{n}", rotating(n)).status_code)
        clock.now += 30 / 70
    assert answers.count(200) == 14 and answers.count(429) == 56
    assert len(hashed) == 14
    assert limits.login_delay(10 + 30) == settings.TABLESTAKES_LOGIN_DELAY_MAX == 900


def test_a_name_the_form_cleans_into_the_username_waits_too(client, settings, hashed, marta):
    """The page asks the limits for the name as sent, the backend for the name as the form
    cleaned it (NFKC, no spaces around it): both are asked."""
    for n in range(settings.TABLESTAKES_LOGIN_FAILURES_PER_USERNAME):
        log_in(client, "marta", f"guess-{n}", rotating(n))
    before = len(hashed)
    for variant in ("ｍａｒｔａ", " marta ", "MARTA"):
        refused = log_in(client, variant, RIGHT, rotating(30))
        assert refused.status_code == 429, variant
        assert "_auth_user_id" not in client.session
    assert len(hashed) == before


def test_the_delay_counts_any_username_alike(client, settings, clock, hashed):
    """A username nobody has is slowed down the same: the answer never says which exist."""
    for n in range(settings.TABLESTAKES_LOGIN_FAILURES_PER_USERNAME):
        log_in(client, "nobody", "guess", rotating(n))
    refused = log_in(client, "Nobody", "guess", rotating(99))  # any case: the same name
    assert refused.status_code == 429 and "Wait 1 second" in refused.content.decode()


# -- the device cookie: a member's own browser gets in -----------------------------------------

def test_a_member_s_own_phone_logs_in_while_a_stranger_is_locked_out(client, settings,
                                                                      django_user_model,
                                                                      marta, hashed):
    club = "198.51.100.20"  # the club's shared Wi-Fi
    django_user_model.objects.create_user("ana", password="ana-own-password-9")
    phone = client.__class__()  # marta's phone: logged in once before
    assert log_in(phone, "marta", RIGHT, club).status_code == 302
    cookie = phone.cookies[limits.DEVICE_COOKIE]
    assert cookie["httponly"] and cookie["max-age"] == 365 * 86400
    log_out(phone)
    # a stranger on the same Wi-Fi: 20 wrong passwords for marta and others
    stranger = client
    for n in range(settings.TABLESTAKES_LOGIN_FAILURES_PER_ADDRESS):
        log_in(stranger, "marta" if n % 2 else f"user{n}", "guess-123", club)
    assert log_in(stranger, "marta", RIGHT, club).status_code == 429
    # ... and from rotating addresses, past marta's 10 free tries
    for n in range(settings.TABLESTAKES_LOGIN_FAILURES_PER_USERNAME):
        log_in(stranger, "marta", "guess-456", rotating(n))
    assert log_in(stranger, "marta", "guess-456", rotating(50)).status_code == 429
    # marta's phone, on the same Wi-Fi: its password is checked, and it gets in
    before = len(hashed)
    assert log_in(phone, "marta", RIGHT, club).status_code == 302
    assert "_auth_user_id" in phone.session and len(hashed) == before + 1
    # ana, on a phone that never logged in, waits out the address lock like the stranger
    assert log_in(client.__class__(), "ana", "ana-own-password-9", club).status_code == 429


def test_a_device_cookie_counts_for_its_own_account_only(client, marta, django_user_model,
                                                          settings):
    django_user_model.objects.create_user("ana", password="ana-own-password-9")
    assert log_in(client, "marta", RIGHT).status_code == 302
    log_out(client)
    for n in range(settings.TABLESTAKES_LOGIN_FAILURES_PER_ADDRESS):
        log_in(client.__class__(), f"user{n}", "guess-123")
    # marta's cookie does not let ana's log-in past the address lock
    assert log_in(client, "ana", "ana-own-password-9").status_code == 429
    # nor does a forged one, nor one of another site (another key)
    client.cookies[limits.DEVICE_COOKIE] = "marta"
    assert log_in(client, "marta", RIGHT).status_code == 429


def test_a_device_cookie_is_spent_by_five_wrong_passwords(client, marta, settings):
    assert log_in(client, "marta", RIGHT).status_code == 302
    log_out(client)
    for n in range(settings.TABLESTAKES_LOGIN_FAILURES_PER_ADDRESS):
        log_in(client.__class__(), f"user{n}", "guess-123")
    # the trusted phone's own wrong passwords: 5 (AXES_FAILURE_LIMIT), then it is one more
    # browser at a locked address
    for _ in range(settings.AXES_FAILURE_LIMIT):
        assert log_in(client, "marta", "typo").status_code == 200
    assert log_in(client, "marta", RIGHT).status_code == 429



def test_the_admin_s_log_in_gives_a_device_cookie_too(client, marta, settings):
    """The admin's own log-in form gave no device cookie: a club's staff were locked out
    with everyone at the shared address. Now its browser gets past the address's lock."""
    marta.is_staff = marta.is_superuser = True
    marta.save()
    answer = client.post(reverse("admin:login") + "?next=/admin/",
                         {"username": "marta", "password": RIGHT, "next": "/admin/"},
                         REMOTE_ADDR="203.0.113.5")
    assert answer.status_code == 302 and answer["Location"] == "/admin/"
    assert client.cookies[limits.DEVICE_COOKIE].value
    log_out(client)
    for n in range(settings.TABLESTAKES_LOGIN_FAILURES_PER_ADDRESS):
        log_in(client.__class__(), f"user{n}", "guess-123")
    assert log_in(client, "marta", RIGHT).status_code == 302  # past the address's lock
