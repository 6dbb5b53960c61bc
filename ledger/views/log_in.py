"""Accounts a club needs: sign-up by mail (a username, a display name and an e-mail
address; the password is chosen from the mailed link), the lock-outs after wrong passwords
(django-axes per username and address; ``LoginLimitsBackend`` per address across
usernames, per username across addresses, and the device cookie that lets a member's own
browser past them), and password reset by mail, its mail sent after the response
(``ledger.outbox``).

The views stay in ``views_accounts``; this module holds what they use.
"""

from __future__ import annotations

import functools

from django import forms
from django.conf import settings
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.tokens import default_token_generator
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.core.mail import EmailMessage
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.decorators import method_decorator
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext_lazy as _

from ledger import limits, outbox
from ledger.cleaning import Refused, clean_name
from ledger.forms.clean_input import CleanInputMixin
from ledger.presentation.refusals import refusal_words


class SignupForm(CleanInputMixin, forms.Form):
    """The first step of sign-up: a username, the name the sheets print and an e-mail
    address (all required: a club needs to know who keeps its score). It checks only the
    form of each: whether the username or the address is taken is never said here, only in
    the mail to that address (``signup_mail``), where the password is chosen."""

    username = auth_forms.UsernameField(
        label=_("Username"), max_length=150, validators=[UnicodeUsernameValidator()],
        help_text=_("For logging in: letters, digits and @ . + - _ only."),
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "none"}))
    display_name = forms.CharField(
        label=_("Your name"), max_length=60,
        help_text=_("As it is printed on the score sheets, e.g. Marta Díaz."),
        widget=forms.TextInput(attrs={"autocomplete": "name"}))
    email = forms.EmailField(
        label=_("E-mail address"), max_length=254,
        help_text=_("A link to choose your password is mailed to it."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}))

    def clean_display_name(self) -> str:
        try:
            return clean_name(self.cleaned_data["display_name"], what=str(_("Your name")),
                              max_length=60)
        except Refused as exc:
            raise forms.ValidationError(refusal_words(exc)) from None

    def clean_email(self) -> str:
        return get_user_model().objects.normalize_email(self.cleaned_data["email"])


# -- sign-up by mail ------------------------------------------------------------------------
#
# The page answers the same whoever asks (a redirect to "check your mail"), and does the
# same work: check the form, count the limits, hand ``signup_mail`` to the outbox. The job
# then mails the address one of three things: a link to finish (choose a password; the
# account is made then, and only by whoever reads that mailbox, so nobody can make an
# account with someone else's address and a password of his own), "this address already
# has an account" with a reset link, or "that username is taken" (a username cannot be both
# chosen freely and kept secret from whoever chooses it; this answer costs a mailbox, a
# sign-up of the limited few per address and the mail's delay).

SIGNUP_SALT = "tablestakes.signup"


def site_of(request: HttpRequest) -> dict:
    """What a mail's links need from the request (the job runs without one)."""
    return {"domain": request.get_host(), "protocol": "https" if request.is_secure() else "http"}


def signup_token(*, username: str, display_name: str, email: str) -> str:
    """The signed, dated sign-up of a finishing link (no password in it: that is chosen
    after the link is followed)."""
    return signing.dumps({"u": username, "n": display_name, "e": email}, salt=SIGNUP_SALT,
                         compress=True)


def signup_from_token(token: str) -> dict | None:
    """The sign-up a link carries (username, display_name, email), or None when the link is
    not one of ours or older than PASSWORD_RESET_TIMEOUT."""
    try:
        data = signing.loads(token, salt=SIGNUP_SALT, max_age=settings.PASSWORD_RESET_TIMEOUT)
    except signing.BadSignature:  # SignatureExpired included
        return None
    if not isinstance(data, dict) or not all(isinstance(data.get(k), str) for k in "une"):
        return None
    return {"username": data["u"], "display_name": data["n"], "email": data["e"]}


def signup_taken(*, username: str, email: str) -> str | None:
    """Why this sign-up can no longer be finished (its address or username has an account
    now), or None."""
    users = get_user_model().objects
    if users.filter(email__iexact=email).exists():
        return "address"
    if users.filter(username__iexact=username).exists():
        return "username"
    return None


def _mail(template: str, to: str, context: dict) -> None:
    """Mail ``to`` the ``template``'s subject and body, in the language in force (the
    job runs in the language of the request that asked for it: ``in_language``)."""
    subject = "".join(render_to_string(f"registration/{template}_subject.txt",
                                       context).splitlines())
    body = render_to_string(f"registration/{template}_email.txt", context)
    EmailMessage(subject, body, to=[to]).send()


def in_language(job):
    """An outbox job run in ``language`` (a keyword argument: the language of the request
    that asked for it, ``translation.get_language()``), as its mail is written in it."""

    @functools.wraps(job)
    def run(*args, language: str | None = None, **kwargs):
        with translation.override(language or settings.LANGUAGE_CODE):
            return job(*args, **kwargs)

    return run


@in_language
def signup_mail(*, username: str, display_name: str, email: str, site: dict) -> None:
    """The outbox's job for one sign-up: mail ``email`` what became of it."""
    context = {**site, "username": username, "display_name": display_name, "email": email,
               "signup_path": reverse("signup"), "login_path": reverse("login")}
    users = get_user_model().objects
    existing = users.filter(email__iexact=email).order_by("pk").first()
    if existing is not None:
        context["user"] = existing
        if existing.is_active and existing.has_usable_password():
            context["reset_path"] = reverse("password_reset_confirm", kwargs={
                "uidb64": urlsafe_base64_encode(force_bytes(existing.pk)),
                "token": default_token_generator.make_token(existing)})
        _mail("signup_existing", email, context)
    elif users.filter(username__iexact=username).exists():
        _mail("signup_taken", email, context)
    else:
        context["finish_path"] = reverse("signup_finish", kwargs={"token": signup_token(
            username=username, display_name=display_name, email=email)})
        _mail("signup_finish", email, context)


class FinishSignupForm(CleanInputMixin, auth_forms.SetPasswordForm):
    """The second step: the password (Django's validators, at least 12 characters, not like
    the username, name or address), for an account not made yet."""

    def __init__(self, signup: dict, *args, **kwargs):
        user = get_user_model()(username=signup["username"], email=signup["email"],
                                first_name=signup["display_name"])
        super().__init__(user, *args, **kwargs)

    def save(self, commit=True):  # the account is made by services.account_create
        raise NotImplementedError


def mail_can_be_sent() -> bool:
    """A mail host is configured, or mail goes elsewhere than SMTP (the console, memory)."""
    return bool(settings.EMAIL_HOST) or not settings.EMAIL_BACKEND.endswith(
        "smtp.EmailBackend")


def password_reset_offered() -> bool:
    """Whether this site can mail a reset link (TABLESTAKES_PASSWORD_RESET, or by default:
    whether mail can be sent)."""
    chosen = getattr(settings, "TABLESTAKES_PASSWORD_RESET", None)
    if chosen is not None:
        return bool(chosen)
    return mail_can_be_sent()


def signup_open() -> bool:
    """Sign-up is open (TABLESTAKES_SIGNUP) and its mails can be sent: without mail a club
    hands out accounts itself (the admin)."""
    return bool(settings.TABLESTAKES_SIGNUP) and mail_can_be_sent()


def locked_out(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:
    """django-axes' lock-out (and the limits' own, ``LoginLimitsBackend``): a page that says
    what happened and when to try again, 429 with Retry-After."""
    cool_off = settings.AXES_COOLOFF_TIME
    minutes = max(1, int(cool_off.total_seconds() // 60)) if cool_off else None
    username = ""
    if isinstance(credentials, dict):
        username = str(credentials.get("username") or "")[:150]
    elif request.method == "POST":
        username = str(request.POST.get("username") or "")[:150]
    address_lock = getattr(request, "tablestakes_address_lock", None)
    wait = getattr(request, "tablestakes_login_wait", None)
    if address_lock:
        minutes = address_lock
    response = render(request, "registration/locked_out.html", {
        "username": username, "failure_limit": settings.AXES_FAILURE_LIMIT,
        "address_lock": bool(address_lock),
        "address_limit": settings.TABLESTAKES_LOGIN_FAILURES_PER_ADDRESS,
        "wait": wait, "username_limit": settings.TABLESTAKES_LOGIN_FAILURES_PER_USERNAME,
        "minutes": minutes, "password_reset": password_reset_offered(),
    }, status=429)
    if wait:
        response["Retry-After"] = str(wait)
    elif minutes:
        response["Retry-After"] = str(minutes * 60)
    response["Cache-Control"] = "no-store"
    return response


class LoginLimitsBackend:
    """First of the authentication backends, before any password is hashed
    (``ledger.limits`` says the rules): a log-in from its account's trusted device (the
    device cookie) goes on to the password; otherwise, while its client address has had
    TABLESTAKES_LOGIN_FAILURES_PER_ADDRESS wrong passwords in the cool-off time, it is
    refused with the lock-out page, and while its username's next turn has not come
    (TABLESTAKES_LOGIN_FAILURES_PER_USERNAME wrong passwords from anywhere, then a growing
    delay) it is answered at once "wait N seconds". A refused attempt is not counted."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is not None and login_refused(request, username):
            raise PermissionDenied("a limit of the log-in refuses this attempt")
        return None
    # No get_user(): a session never names this backend (and the test client's force_login
    # takes the first backend that has one).


def login_refused(request: HttpRequest, username) -> bool:
    """Whether the limits refuse this log-in before its password is read (the request is
    marked for the lock-out page: ``limits.mark_address_locked``, ``mark_username_wait``).
    Asked once per request: by the log-in page before its form, so that a refusal costs
    no more than the page, and by ``LoginLimitsBackend`` for every other log-in (the
    admin's); the second asking answers as the first, without taking a second turn."""
    asked = request.__dict__.setdefault("_tablestakes_login_refused", {})
    key = limits.username_key(username)  # the form may clean the name the page read raw
    if key in asked:
        return asked[key]
    refused = False
    if not limits.trusted_device(request, username):
        credentials = {"username": username}
        minutes, seconds = limits.login_limits(request, username)
        if minutes is not None:
            limits.mark_address_locked(request, minutes, credentials)
            refused = True
        elif seconds is not None:
            limits.mark_username_wait(request, seconds, credentials)
            refused = True
    asked[key] = refused
    return refused


def give_device_cookie(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """After a log-in that succeeded: the browser's device cookie for that account
    (``limits.trusted_device``), signed, HttpOnly, secure where the session's is."""
    response.set_cookie(
        limits.DEVICE_COOKIE, limits.device_cookie_value(request.user.get_username()),
        max_age=settings.TABLESTAKES_DEVICE_COOKIE_DAYS * 86400, httponly=True,
        secure=settings.SESSION_COOKIE_SECURE, samesite="Lax")
    return response


class LoginForm(CleanInputMixin, auth_forms.AuthenticationForm):
    """Django's log-in form, its input cleaned; a username longer than any account's is
    refused before anyone is asked (Django sets the length after building the field, so
    it does not check it)."""

    def clean_username(self) -> str:
        username = self.cleaned_data.get("username", "")
        if len(username) > 150:
            raise forms.ValidationError(_("No account has a name that long."))
        return username


class PasswordResetForm(CleanInputMixin, auth_forms.PasswordResetForm):
    """Django's form (it never says whether an address has an account)."""


@in_language
def password_reset_mail(*, email: str, site: dict) -> None:
    """The outbox's job for one reset: Django's own mail to each active account of
    ``email`` (none when it has none)."""
    form = PasswordResetForm({"email": email})
    if form.is_valid():
        form.save(domain_override=site["domain"], use_https=site["protocol"] == "https",
                  subject_template_name="registration/password_reset_subject.txt",
                  email_template_name="registration/password_reset_email.html")


class SetPasswordForm(CleanInputMixin, auth_forms.SetPasswordForm):
    pass


# its own dispatch hides Django's, which says the page needs no log-in
@method_decorator(login_not_required, name="dispatch")
class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset by mail, where mail can be sent; elsewhere a page that says
    whom to ask (never "a mail is on its way" when none can be)."""

    form_class = PasswordResetForm

    def dispatch(self, request, *args, **kwargs):
        if not password_reset_offered():
            return render(request, "registration/password_reset_off.html", status=404)
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form):
        """The same for every address, known or not: count the limits (per client address
        and per e-mail address), hand the mail to the outbox, answer "check your mail".
        Looking the address up and sending happen after the response."""
        email = form.cleaned_data["email"]
        try:
            limits.count_password_reset(self.request, email)
        except limits.LimitReached as exc:
            form.add_error(None, refusal_words(exc))
            return self.render_to_response(self.get_context_data(form=form), status=429)
        outbox.defer(password_reset_mail, email=email, site=site_of(self.request),
                     language=translation.get_language())
        return HttpResponseRedirect(self.get_success_url())


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    form_class = SetPasswordForm
