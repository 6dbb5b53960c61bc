"""Making a scorekeeper's account: /accounts/signup/, and the switch that closes it."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

pytestmark = pytest.mark.django_db

GOOD = {"username": "marta", "password1": "kitchen-table-42", "password2": "kitchen-table-42"}


def test_signup_makes_the_account_logs_in_and_lands_home(client):
    response = client.post(reverse("signup"), GOOD)
    assert response.status_code == 302 and response.url == reverse("ledger:home")
    user = get_user_model().objects.get(username="marta")
    assert user.check_password("kitchen-table-42") and not user.is_staff
    home = client.get(reverse("ledger:home"))
    assert home.status_code == 200 and home.wsgi_request.user == user
    assert "Welcome, marta" in home.content.decode()


@pytest.mark.parametrize(("change", "field", "message"), [
    ({"password2": "kitchen-table-43"}, "password2", "The two password fields didn"),
    ({"password1": "12345678", "password2": "12345678"}, "password2", "too common"),
    ({"password1": "short", "password2": "short"}, "password2", "too short"),
    ({"username": ""}, "username", "This field is required"),
])
def test_bad_signups_name_the_field_and_make_nothing(client, change, field, message):
    response = client.post(reverse("signup"), {**GOOD, **change})
    assert response.status_code == 422
    assert message in " ".join(response.context["form"].errors[field])
    assert f'id="id_{field}_error"' in response.content.decode()
    assert not get_user_model().objects.exists()


def test_a_taken_name_is_refused(client, django_user_model):
    django_user_model.objects.create_user("marta", password="other-pass-99")
    response = client.post(reverse("signup"), GOOD)
    assert response.status_code == 422
    assert "already exists" in " ".join(response.context["form"].errors["username"])
    assert django_user_model.objects.get().check_password("other-pass-99")


def test_login_page_points_to_signup_while_it_is_open(client, settings):
    assert reverse("signup") in client.get(reverse("login")).content.decode()
    settings.TABLESTAKES_SIGNUP = False
    assert reverse("signup") not in client.get(reverse("login")).content.decode()
    assert client.get(reverse("signup")).status_code == 404
    assert client.post(reverse("signup"), GOOD).status_code == 404
    assert not get_user_model().objects.exists()


def test_a_new_account_sees_no_one_elses_tables(client, django_user_model):
    from ledger import services

    owner = django_user_model.objects.create_user("keeper", password="pw-pw-pw-1")
    services.table_create(name="Thursday club", scorekeepers=[owner])
    client.post(reverse("signup"), GOOD)
    assert "Thursday club" not in client.get(reverse("ledger:home")).content.decode()
