"""A scorekeeper makes an account, in two steps:

1. ``/accounts/signup/``: a username, a display name and an e-mail address
   (``ledger.views.log_in.SignupForm``). The answer is always the same redirect to "check your
   mail", whether the username or the address is taken or not, and so is the work done
   (the form, the limits, one job handed to the outbox); at most
   TABLESTAKES_SIGNUPS_PER_ADDRESS sign-ups per client address and
   TABLESTAKES_SIGNUPS_PER_EMAIL per e-mail address in TABLESTAKES_SIGNUP_WINDOW
   (``ledger.limits``), counted for every sign-up asked.
2. ``/accounts/signup/finish/<token>/``, the link mailed to a new address: choose the
   password (Django's validators); the account is made, logged in, and lands on the home
   page, where the first table is made.

An account sees only the tables it keeps (``ledger.access``), so opening sign-up shows
nobody else's games. Sign-up is off when TABLESTAKES_SIGNUP=0 or no mail can be sent.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from ledger import limits, outbox, services
from ledger.exceptions import LedgerError
from ledger.presentation.refusals import refusal_words
from ledger.views.log_in import (
    FinishSignupForm,
    LoginForm,
    SignupForm,
    give_device_cookie,
    locked_out,
    login_refused,
    password_reset_offered,
    signup_from_token,
    signup_mail,
    signup_open,
    signup_taken,
    site_of,
)


@login_not_required
@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if not signup_open():
        raise Http404("Accounts are given out by the club")
    if request.user.is_authenticated:
        return redirect("ledger:home")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            limits.count_signup(request, data["email"])
        except limits.LimitReached as exc:
            form.add_error(None, refusal_words(exc))
            return render(request, "registration/signup.html", {"form": form}, status=429)
        outbox.defer(signup_mail, username=data["username"], display_name=data["display_name"],
                     email=data["email"], site=site_of(request),
                     language=translation.get_language())
        return redirect("signup_sent")
    return render(request, "registration/signup.html", {"form": form},
                  status=422 if form.errors else 200)


@login_not_required
@require_http_methods(["GET"])
def signup_sent(request: HttpRequest) -> HttpResponse:
    if not signup_open():
        raise Http404("Accounts are given out by the club")
    return render(request, "registration/signup_sent.html")


FINISH_SET = "set"
FINISH_SESSION_KEY = "_signup_token"


@login_not_required
@sensitive_post_parameters("new_password1", "new_password2")
@require_http_methods(["GET", "POST"])
def signup_finish(request: HttpRequest, token: str) -> HttpResponse:
    """The mailed link: its token is kept in the session and the page redrawn at
    ``.../finish/set/`` (as Django's password reset does), so it stays out of the logs and
    of any Referer header."""
    if not signup_open():
        raise Http404("Accounts are given out by the club")
    if token != FINISH_SET:
        request.session[FINISH_SESSION_KEY] = token
        return redirect("signup_finish", token=FINISH_SET)
    wanted = signup_from_token(request.session.get(FINISH_SESSION_KEY, ""))
    if wanted is None:
        return render(request, "registration/signup_finish.html", {"problem": "link"},
                      status=400)
    taken = signup_taken(username=wanted["username"], email=wanted["email"])
    if taken:
        return render(request, "registration/signup_finish.html",
                      {"problem": taken, "wanted": wanted,
                       "password_reset": password_reset_offered()}, status=409)
    form = FinishSignupForm(wanted, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.account_create(
                username=wanted["username"], password=form.cleaned_data["new_password1"],
                display_name=wanted["display_name"], email=wanted["email"])
        except LedgerError:  # made meanwhile, by this link followed twice at once
            return render(request, "registration/signup_finish.html",
                          {"problem": "username", "wanted": wanted}, status=409)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        request.session.pop(FINISH_SESSION_KEY, None)
        messages.success(request, _("Welcome, %(name)s. Make your first table below.")
                         % {"name": user.first_name or user.username})
        return redirect("ledger:home")
    return render(request, "registration/signup_finish.html", {"form": form, "wanted": wanted},
                  status=422 if form.errors else 200)


class LoginView(auth_views.LoginView):
    """Django's log-in page, pointing to sign-up while it is open."""

    authentication_form = LoginForm

    def post(self, request, *args, **kwargs):
        """A log-in the limits refuse is answered before its form is read: the lock-out
        page ("wait N seconds"), 429, at the cost of one small page, however many come."""
        username = str(request.POST.get("username", ""))[:150]
        if login_refused(request, username):
            request.axes_locked_out = False  # answered here: django-axes draws no second page
            return locked_out(request, credentials={"username": username})
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        """Logged in: the browser gets its device cookie for this account."""
        return give_device_cookie(self.request, super().form_valid(form))

    def get_context_data(self, **kwargs):
        return {**super().get_context_data(**kwargs), "signup_open": signup_open(),
                "password_reset": password_reset_offered()}
