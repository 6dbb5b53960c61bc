"""Staff who are not superusers cannot raise anybody's privileges in the admin, their own
included, nor take over a fellow keeper's account (password, e-mail): the fields are not
offered and a crafted POST that carries them changes nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, Permission
from django.urls import reverse

from ledger import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(django_user_model):
    """A staff member allowed to view, add and change accounts (and groups), not a
    superuser; he keeps a table with 'partner_pat'."""
    user = django_user_model.objects.create_user(
        "clubstaff", password="pw", email="staff@example.org", is_staff=True)
    user.user_permissions.set(Permission.objects.filter(codename__in=[
        "view_user", "change_user", "add_user", "delete_user",
        "view_group", "change_group", "add_group"]))
    partner = django_user_model.objects.create_user("partner_pat", password="pw",
                                                    email="pat@example.org")
    boss = django_user_model.objects.create_superuser("boss", password="pw",
                                                      email="boss@example.org")
    services.table_create(name="Ours", scorekeepers=[user, partner, boss])
    group = Group.objects.create(name="helpers")
    user.groups.add(group)
    return {"user": user, "partner": partner, "boss": boss, "group": group}


def change_url(user) -> str:
    return reverse("admin:auth_user_change", args=[user.pk])


def crafted(user, **extra) -> dict:
    """Every field of the stock UserAdmin change form, as a browser would post it."""
    data = {
        "username": user.username, "first_name": "", "last_name": "", "email": user.email,
        "is_active": "on", "is_staff": "on", "is_superuser": "on",
        "groups": [str(g.pk) for g in Group.objects.all()],
        "user_permissions": [str(p.pk) for p in Permission.objects.all()],
        "last_login_0": "", "last_login_1": "", "date_joined_0": "2025-01-01",
        "date_joined_1": "10:00:00", "_save": "Save",
    }
    data.update(extra)
    return data


def test_the_change_form_offers_no_privilege_fields_to_staff(client, staff):
    client.force_login(staff["user"])
    for target in (staff["user"], staff["partner"]):
        page = client.get(change_url(target)).content.decode()
        for field in ("is_superuser", "is_staff", "groups", "user_permissions"):
            assert f'name="{field}"' not in page, (target.username, field)
    own = client.get(change_url(staff["user"])).content.decode()
    assert 'name="email"' in own  # his own address he may change
    other = client.get(change_url(staff["partner"])).content.decode()
    assert 'name="email"' not in other and 'name="username"' not in other


def test_a_crafted_post_cannot_make_staff_a_superuser(client, staff):
    me = staff["user"]
    client.force_login(me)
    response = client.post(change_url(me), crafted(me, email="new@example.org"))
    assert response.status_code == 302  # saved: only what he may change
    me.refresh_from_db()
    assert me.email == "new@example.org"
    assert (me.is_superuser, me.is_staff) == (False, True)
    assert list(me.groups.all()) == [staff["group"]]
    assert me.user_permissions.count() == 7
    assert not type(me).objects.get(pk=me.pk).has_perm("ledger.view_table")


def test_a_crafted_post_cannot_raise_or_take_over_another_account(client, staff):
    pat = staff["partner"]
    client.force_login(staff["user"])
    response = client.post(change_url(pat), crafted(pat, email="mine@evil.example",
                                                     username="pat2"))
    assert response.status_code == 302
    pat.refresh_from_db()
    assert (pat.username, pat.email) == ("partner_pat", "pat@example.org")
    assert (pat.is_superuser, pat.is_staff) == (False, False)
    assert pat.groups.count() == 0 and pat.user_permissions.count() == 0


def test_staff_cannot_set_another_accounts_password(client, staff):
    pat = staff["partner"]
    client.force_login(staff["user"])
    url = reverse("admin:auth_user_password_change", args=[pat.pk])
    assert client.get(url).status_code == 403
    response = client.post(url, {"password1": "a-new-secret-9071", "password2":
                                 "a-new-secret-9071", "usable_password": "true"})
    assert response.status_code == 403
    pat.refresh_from_db()
    assert pat.check_password("pw")


def test_staff_may_set_their_own_password(client, staff):
    me = staff["user"]
    client.force_login(me)
    url = reverse("admin:auth_user_password_change", args=[me.pk])
    assert client.get(url).status_code == 200
    response = client.post(url, {"password1": "a-new-secret-9071",
                                 "password2": "a-new-secret-9071", "usable_password": "true"})
    assert response.status_code == 302
    me.refresh_from_db()
    assert me.check_password("a-new-secret-9071")


def test_a_superusers_account_is_read_only_to_staff(client, staff):
    boss = staff["boss"]
    client.force_login(staff["user"])
    client.post(change_url(boss), crafted(boss, email="x@evil.example", is_active=""))
    boss.refresh_from_db()
    assert boss.email == "boss@example.org" and boss.is_active
    url = reverse("admin:auth_user_password_change", args=[boss.pk])
    assert client.post(url, {"password1": "a-new-secret-9071",
                             "password2": "a-new-secret-9071"}).status_code == 403
    boss.refresh_from_db()
    assert boss.check_password("pw")


def test_staff_cannot_delete_accounts(client, staff):
    pat = staff["partner"]
    client.force_login(staff["user"])
    url = reverse("admin:auth_user_delete", args=[pat.pk])
    assert client.post(url, {"post": "yes"}).status_code == 403
    assert type(pat).objects.filter(pk=pat.pk).exists()


def test_staff_cannot_give_their_group_permissions(client, staff):
    group = staff["group"]
    client.force_login(staff["user"])
    url = reverse("admin:auth_group_change", args=[group.pk])
    client.post(url, {"name": "helpers", "permissions": [
        str(p.pk) for p in Permission.objects.all()]})
    assert group.permissions.count() == 0
    add = client.post(reverse("admin:auth_group_add"), {"name": "root", "permissions": [
        str(p.pk) for p in Permission.objects.all()]})
    assert add.status_code == 403 and not Group.objects.filter(name="root").exists()


def test_a_superuser_still_grants_everything(client, staff):
    pat = staff["partner"]
    client.force_login(staff["boss"])
    response = client.post(change_url(pat), crafted(pat, email="pat@new.example"))
    assert response.status_code == 302
    pat.refresh_from_db()
    assert pat.is_superuser and pat.email == "pat@new.example"
    assert pat.groups.count() == 1
    url = reverse("admin:auth_user_password_change", args=[pat.pk])
    assert client.post(url, {"password1": "a-new-secret-9071", "password2":
                             "a-new-secret-9071", "usable_password": "true"}
                       ).status_code == 302
