"""Django's accounts admin, scoped and unable to escalate.

Staff who are not superusers:

- see only themselves and the people who keep a table with them;
- cannot grant superuser, staff status, groups or permissions, to anyone (themselves
  included): those fields are read-only for them, so a crafted POST that carries them is
  ignored (Django leaves read-only fields out of the form it saves);
- cannot change anyone else's password (the password view answers 403) or e-mail address,
  nor their username, name or whether the account is active; cannot change a superuser's
  account at all, nor delete any account;
- cannot add or change groups (a staff member in a group could otherwise give the group,
  and so himself, every permission).
"""

from __future__ import annotations

import functools

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group
from django.core.exceptions import PermissionDenied

from ledger.views.log_in import give_device_cookie

from .scoping import fellow_keepers

User = get_user_model()
if admin.site.is_registered(User):
    admin.site.unregister(User)
if admin.site.is_registered(Group):
    admin.site.unregister(Group)

#: What only a superuser may set, on any account.
PRIVILEGES = ("is_superuser", "is_staff", "groups", "user_permissions")
#: What a staff member may change on his own account only.
OWN_ONLY = ("username", "email", "is_active")
#: Never typed in the form.
DATES = ("last_login", "date_joined")


def _is_self(request, obj) -> bool:
    return obj is not None and obj.pk == request.user.pk


@admin.register(User)
class ScopedUserAdmin(UserAdmin):
    """Django's accounts admin; staff who are not superusers see only themselves and the
    people who keep a table with them, and cannot raise anybody's privileges."""

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(pk__in=fellow_keepers(request.user).values("pk"))

    def get_readonly_fields(self, request, obj=None):
        fields = tuple(super().get_readonly_fields(request, obj))
        if request.user.is_superuser or obj is None:  # the add form has no privileges
            return fields
        fields += PRIVILEGES + DATES
        if not _is_self(request, obj):
            fields += OWN_ONLY + ("first_name", "last_name")
        return fields

    def has_change_permission(self, request, obj=None):
        if obj is not None and obj.is_superuser and not request.user.is_superuser:
            return False  # a superuser's account is changed by superusers only
        return super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        if not request.user.is_superuser:
            return False  # deleting an account is a superuser's decision
        return super().has_delete_permission(request, obj)

    def user_change_password(self, request, id, form_url=""):
        if not request.user.is_superuser and str(id) != str(request.user.pk):
            raise PermissionDenied("Only a superuser may set another account's password.")
        return super().user_change_password(request, id, form_url)


@admin.register(Group)
class SuperuserGroupAdmin(GroupAdmin):
    """Groups carry permissions: only superusers add, change or delete them."""

    def has_add_permission(self, request):
        return request.user.is_superuser

    def has_change_permission(self, request, obj=None):
        return request.user.is_superuser

    def has_delete_permission(self, request, obj=None):
        return request.user.is_superuser


def _log_in_with_a_device_cookie(admin_log_in):
    """The admin's log-in form, which checks through the same limits as the app's (the
    authentication backends), gives the browser its device cookie too when it logs in:
    without it a club's staff were kept out with everyone else while their shared address was
    locked."""

    @functools.wraps(admin_log_in)  # its marks too: no log-in needed, never cached
    def log_in(request, extra_context=None):
        response = admin_log_in(request, extra_context)
        if (request.method == "POST" and response.status_code == 302
                and request.user.is_authenticated):
            give_device_cookie(request, response)
        return response

    return log_in


admin.site.login = _log_in_with_a_device_cookie(admin.site.login)
