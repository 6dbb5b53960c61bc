"""A scorekeeper makes an account: ``/accounts/signup/`` (off when TABLESTAKES_SIGNUP=0).

Django's own ``UserCreationForm`` and password validators; the new scorekeeper is logged in
and lands on the home page, where the first table is made. An account sees only the tables
it keeps (``ledger.access``), so opening sign-up shows nobody else's games.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import UserCreationForm
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from ledger import services


@sensitive_post_parameters("password1", "password2")
@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if not settings.TABLESTAKES_SIGNUP:
        raise Http404("Accounts are given out by the club")
    if request.user.is_authenticated:
        return redirect("ledger:home")
    form = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = services.account_create(username=form.cleaned_data["username"],
                                       password=form.cleaned_data["password1"])
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.username}. Make your first table below.")
        return redirect("ledger:home")
    return render(request, "registration/signup.html", {"form": form},
                  status=422 if form.errors else 200)


class LoginView(auth_views.LoginView):
    """Django's log-in page, pointing to sign-up while it is open."""

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "signup_open": settings.TABLESTAKES_SIGNUP}
