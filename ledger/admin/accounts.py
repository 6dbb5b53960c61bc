"""Django's accounts admin, scoped: staff who are not superusers see only themselves and the
people who keep a table with them."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin

from .scoping import fellow_keepers

User = get_user_model()
if admin.site.is_registered(User):
    admin.site.unregister(User)


@admin.register(User)
class ScopedUserAdmin(UserAdmin):
    """Django's accounts admin; staff who are not superusers see only themselves and the
    people who keep a table with them."""

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(pk__in=fellow_keepers(request.user).values("pk"))
