"""Sign-up by mail in the browser: the form, "check your mail", the mailed link, the
password (12 characters at least), the home page, logged in."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from playwright.sync_api import expect

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_scorekeeper_signs_up_from_the_mailed_link(page, live_server):
    mail.outbox = []
    page.goto(live_server.url + "/accounts/login/")
    page.click("text=Make an account")
    page.fill("input[name=username]", "marta")
    page.fill("input[name=display_name]", "Marta Díaz")
    page.fill("input[name=email]", "marta@example.org")
    page.click("button:has-text('Mail me a link')")
    expect(page.get_by_role("heading", name="Check your mail")).to_be_visible()
    assert not get_user_model().objects.filter(username="marta").exists()

    (sent,) = mail.outbox
    link = re.search(r"http://\S+/accounts/signup/finish/\S+", sent.body).group(0)
    page.goto(link)
    expect(page.get_by_role("heading", name="Choose your password")).to_be_visible()
    assert "/finish/set/" in page.url  # the token left the address bar
    page.fill("input[name=new_password1]", "kitchen-tab")
    page.fill("input[name=new_password2]", "kitchen-tab")
    page.click("button:has-text('Make the account')")
    expect(page.locator("#id_new_password2_error")).to_contain_text("at least 12 characters")
    page.fill("input[name=new_password1]", "kitchen-table-42")
    page.fill("input[name=new_password2]", "kitchen-table-42")
    page.click("button:has-text('Make the account')")
    expect(page.locator("text=Welcome, Marta Díaz")).to_be_visible()
    assert get_user_model().objects.get(username="marta").check_password("kitchen-table-42")
