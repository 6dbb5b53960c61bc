"""Accounts speak the visitor's language (issue 22): the log-in, sign-up, password reset and
lock-out pages drawn with ``Accept-Language: <code>`` show none of their English words, and
the mails they cause (sign-up, "that username is taken", "this address has an account",
password reset) are written in the language of the request that asked for them, their links
still working."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from tests.pages import text

from .catalogs import params
from .test_screens_translated import english_left

pytestmark = pytest.mark.django_db

GOOD = {"username": "marta", "display_name": "Marta Díaz", "email": "marta@example.org"}
PASSWORD = "kitchen-table-42"

# English words of each page, as the page shows them (checked on the English page first).
PAGE_WORDS = {
    "login": ["Log in", "Keep the score at your table.", "Forgot your password?",
              "Make an account", "Username", "Password"],
    "signup": ["Make an account", "Your name", "E-mail address",
               "For logging in: letters, digits", "As it is printed on the score sheets",
               "A link to choose your password is mailed to it.", "Mail me a link",
               "Already have one?"],
    "signup_sent": ["Check your mail", "A mail is on its way to the address you gave",
                    "Nothing arrived?", "Back to log-in"],
    "signup_bad_link": ["This link no longer works", "It is too old, or not complete",
                        "Sign up again"],
    "reset_form": ["Forgot your password?", "Give the e-mail address of your account",
                   "Mail me a link", "Back to log-in"],
    "reset_done": ["Check your mail", "If an account uses that address",
                   "Nothing arrived? Check the spam folder"],
    "reset_bad_link": ["This link no longer works", "It was used already",
                       "Ask for a new one"],
    "locked_out": ["Too many tries", "Too many wrong passwords", "wrong passwords in a row",
                   "Try again in 15 minutes.", "Forgot it?", "Get a new password by mail"],
}

# English words of each mail, subject and body.
MAIL_WORDS = {
    "finish": ["Finish your Tablestakes account", "Hello", "we hope you",
               "Choose your password here to finish it", "If it was not you",
               "no account is made"],
    "taken": ["That Tablestakes username is taken", "Hello", "that username is taken",
              "Sign up again with another username", "If it was not you"],
    "existing": ["Your Tablestakes account", "Hello", "perhaps you", "It has one already",
                 "Log in at", "if you forgot the password", "nothing changes"],
    "reset": ["Your Tablestakes password", "Hello", "asked to reset the password",
              "Choose a new one here", "the password stays as it is"],
}

# A sentence each language must show (its own words, not only "no English left").
SIGNUP_TITLE = {"de": "Konto anlegen", "es": "Crear una cuenta", "fr": "Créer un compte",
                "ru": "Создать учётную запись"}
FINISH_SUBJECT = {"de": "Stell dein Tablestakes-Konto fertig",
                  "es": "Completa tu cuenta de Tablestakes",
                  "fr": "Finalisez votre compte Tablestakes",
                  "ru": "Завершите создание учётной записи Tablestakes"}


def draw(client, name: str, code: str) -> str:
    """The visible text of page ``name`` in language ``code``."""
    if name == "locked_out":  # wrong passwords from an address of its own per language
        get_user_model().objects.get_or_create(username="marta")
        address = f"203.0.113.{sum(map(ord, code)) % 250}"
        response = None
        for _ in range(settings.AXES_FAILURE_LIMIT):
            response = client.post(reverse("login"), {"username": "marta", "password": "x"},
                                   HTTP_ACCEPT_LANGUAGE=code, REMOTE_ADDR=address)
        assert response.status_code == 429
        return text(response)
    url = {"login": reverse("login"), "signup": reverse("signup"),
           "signup_sent": reverse("signup_sent"),
           "signup_bad_link": reverse("signup_finish", args=["not-a-token"]),
           "reset_form": reverse("password_reset"), "reset_done": reverse("password_reset_done"),
           "reset_bad_link": reverse("password_reset_confirm", args=["MQ", "set-password"]),
           }[name]
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=code, follow=True)
    assert response.status_code in (200, 400), response.status_code
    return text(response)


@pytest.mark.parametrize("name", sorted(PAGE_WORDS))
def test_the_english_page_shows_its_words(client, name):
    english = draw(client, name, "en")
    assert [w for w in PAGE_WORDS[name] if w not in english] == []


@pytest.mark.parametrize("code", params())
@pytest.mark.parametrize("name", sorted(PAGE_WORDS))
def test_no_english_word_of_the_account_page_is_left(client, name, code):
    english, translated = draw(client, name, "en"), draw(client, name, code)
    left = english_left(english, translated, code, PAGE_WORDS[name])
    assert left == [], f"{name} in {code}: English left: {left}\n{translated}"


@pytest.mark.parametrize("code", params())
def test_the_signup_page_speaks_the_language(client, code):
    page = draw(client, "signup", code)
    assert SIGNUP_TITLE[code] in page
    with translation.override(code):
        assert gettext("Your name") in page and gettext("E-mail address") in page


# -- the mails ---------------------------------------------------------------------------------

def link_in(mail) -> str:
    line = next(line for line in mail.body.splitlines() if line.startswith("http://testserver/"))
    return line.split("testserver", 1)[1].strip()


def mail_of(client, kind: str, code: str, mailoutbox):
    """Cause mail ``kind`` from a page in language ``code``; the mail."""
    users = get_user_model().objects
    if kind == "taken":
        users.create_user("marta", email="someone-else@example.org", password=PASSWORD)
    if kind in ("existing", "reset"):
        users.create_user("marta-old", email=GOOD["email"], password=PASSWORD,
                          first_name="Marta")
    if kind == "reset":
        response = client.post(reverse("password_reset"), {"email": GOOD["email"]},
                               HTTP_ACCEPT_LANGUAGE=code)
    else:
        response = client.post(reverse("signup"), GOOD, HTTP_ACCEPT_LANGUAGE=code)
    assert response.status_code == 302
    (mail,) = mailoutbox
    mailoutbox.clear()
    return mail


@pytest.mark.parametrize("kind", sorted(MAIL_WORDS))
def test_the_english_mail_has_its_words(client, mailoutbox, kind):
    mail = mail_of(client, kind, "en", mailoutbox)
    whole = f"{mail.subject}\n{mail.body}"
    assert [w for w in MAIL_WORDS[kind] if w not in whole] == []


@pytest.mark.parametrize("code", params())
@pytest.mark.parametrize("kind", sorted(MAIL_WORDS))
def test_a_mail_is_written_in_the_language_of_the_request(client, mailoutbox, kind, code):
    mail = mail_of(client, kind, code, mailoutbox)
    whole = f"{mail.subject}\n{mail.body}"
    assert [w for w in MAIL_WORDS[kind] if w in whole] == [], whole
    english_subject = MAIL_WORDS[kind][0]
    with translation.override(code):
        assert mail.subject == gettext(english_subject) != english_subject
    if kind != "reset":  # the names and links stand as they were
        assert "marta" in mail.body
    assert link_in(mail).startswith("/accounts/")
    if kind == "finish":
        assert mail.subject == FINISH_SUBJECT[code] and "Marta Díaz" in mail.body


def test_the_german_signup_mail_is_finished_in_german(client, mailoutbox):
    mail = mail_of(client, "finish", "de", mailoutbox)
    assert mail.body.startswith("Hallo Marta Díaz,")
    assert 'Tablestakes-Konto namens „marta“ auf testserver' in mail.body
    # its link leads to the German page that makes the account
    page = client.get(link_in(mail), HTTP_ACCEPT_LANGUAGE="de", follow=True)
    shown = text(page)
    assert "Wähle dein Passwort" in shown and "Konto anlegen" in shown
    assert "Choose your password" not in shown and "Make the account" not in shown
    done = client.post(page.redirect_chain[-1][0],
                       {"new_password1": PASSWORD, "new_password2": PASSWORD},
                       HTTP_ACCEPT_LANGUAGE="de", follow=True)
    assert "Willkommen, Marta Díaz. Leg unten deine erste Runde an." in text(done)


def test_a_mail_asked_in_english_stays_english(client, mailoutbox):
    mail = mail_of(client, "finish", "en", mailoutbox)
    assert mail.subject == "Finish your Tablestakes account"
    assert mail.body.startswith("Hello Marta Díaz,\n\nsomeone (we hope you) asked for a "
                                'Tablestakes account named "marta" at testserver with this '
                                "address.\n\nChoose your password here")


def test_the_limit_refusal_speaks_german(client, settings, mailoutbox):
    settings.TABLESTAKES_SIGNUPS_PER_ADDRESS = 1
    assert client.post(reverse("signup"), GOOD, HTTP_ACCEPT_LANGUAGE="de").status_code == 302
    again = client.post(reverse("signup"), {**GOOD, "email": "m2@example.org"},
                        HTTP_ACCEPT_LANGUAGE="de")
    assert again.status_code == 429
    shown = text(again)
    assert "Gerade zu viele neue Konten aus deinem Netz" in shown
    assert "Too many new accounts" not in shown
