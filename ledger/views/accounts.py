"""A scorekeeper makes an account: ``/accounts/signup/`` (off when TABLESTAKES_SIGNUP=0).

Django's own ``UserCreationForm`` and password validators, plus a display name and an
e-mail address (``ledger.accounts.SignupForm``); at most TABLESTAKES_SIGNUPS_PER_ADDRESS
accounts per client address in TABLESTAKES_SIGNUP_WINDOW (``ledger.limits``). The new
scorekeeper is logged in and lands on the home page, where the first table is made. An
account sees only the tables it keeps (``ledger.access``), so opening sign-up shows nobody
else's games.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from ledger import limits, services
from ledger.accounts import LoginForm, SignupForm, password_reset_offered


@sensitive_post_parameters("password1", "password2")
@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if not settings.TABLESTAKES_SIGNUP:
        raise Http404("Accounts are given out by the club")
    if request.user.is_authenticated:
        return redirect("ledger:home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and not limits.signup_allowed(request):
        form.is_valid()
        form.add_error(None, limits.signup_refusal())
        return render(request, "registration/signup.html", {"form": form}, status=429)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        user = services.account_create(username=data["username"], password=data["password1"],
                                       display_name=data["display_name"], email=data["email"])
        limits.count_signup(request)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome, {user.first_name or user.username}. "
                                  "Make your first table below.")
        return redirect("ledger:home")
    return render(request, "registration/signup.html", {"form": form},
                  status=422 if form.errors else 200)


class LoginView(auth_views.LoginView):
    """Django's log-in page, pointing to sign-up while it is open."""

    authentication_form = LoginForm

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "signup_open": settings.TABLESTAKES_SIGNUP,
                "password_reset": password_reset_offered()}
