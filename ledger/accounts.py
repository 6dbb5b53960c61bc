"""Accounts a club needs: sign-up with a display name and an e-mail address (limited per
client address), the page shown when log-in is locked after too many wrong passwords
(django-axes), and whether password reset by mail is offered.

The views stay in ``views_accounts``; this module holds what they use.
"""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import UserCreationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .cleaning import CleanInputMixin, Refused, clean_name


class SignupForm(CleanInputMixin, UserCreationForm):
    """Django's sign-up form plus the name the sheets print and an address for password
    reset (both required: a club needs to know who keeps its score). It only validates:
    ``services.account_create`` makes the account."""

    display_name = forms.CharField(
        label="Your name", max_length=60,
        help_text="As it is printed on the score sheets, e.g. Marta Díaz.",
        widget=forms.TextInput(attrs={"autocomplete": "name"}))
    email = forms.EmailField(
        label="E-mail address", max_length=254,
        help_text="Only for resetting a forgotten password.",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}))

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "display_name", "email")

    def clean_display_name(self) -> str:
        try:
            return clean_name(self.cleaned_data["display_name"], what="Your name", max_length=60)
        except Refused as exc:
            raise forms.ValidationError(exc.message) from None

    def clean_email(self) -> str:
        email = get_user_model().objects.normalize_email(self.cleaned_data["email"])
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(
                "An account already uses this address; log in, or reset its password.")
        return email



def password_reset_offered() -> bool:
    """Whether this site can mail a reset link (TABLESTAKES_PASSWORD_RESET, or by default:
    a mail host is configured, or mail goes elsewhere than SMTP)."""
    chosen = getattr(settings, "TABLESTAKES_PASSWORD_RESET", None)
    if chosen is not None:
        return bool(chosen)
    return bool(settings.EMAIL_HOST) or not settings.EMAIL_BACKEND.endswith(
        "smtp.EmailBackend")


def locked_out(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:
    """django-axes' lock-out: a page that says what happened and when to try again."""
    cool_off = settings.AXES_COOLOFF_TIME
    minutes = max(1, int(cool_off.total_seconds() // 60)) if cool_off else None
    username = ""
    if isinstance(credentials, dict):
        username = str(credentials.get("username") or "")[:150]
    elif request.method == "POST":
        username = str(request.POST.get("username") or "")[:150]
    return render(request, "registration/locked_out.html", {
        "username": username, "failure_limit": settings.AXES_FAILURE_LIMIT,
        "minutes": minutes, "password_reset": password_reset_offered(),
    }, status=429)


class LoginForm(CleanInputMixin, auth_forms.AuthenticationForm):
    """Django's log-in form, its input cleaned; a username longer than any account's is
    refused before anyone is asked (Django sets the length after building the field, so
    it does not check it)."""

    def clean_username(self) -> str:
        username = self.cleaned_data.get("username", "")
        if len(username) > 150:
            raise forms.ValidationError("No account has a name that long.")
        return username


class PasswordResetForm(CleanInputMixin, auth_forms.PasswordResetForm):
    """Django's form (it never says whether an address has an account)."""


class SetPasswordForm(CleanInputMixin, auth_forms.SetPasswordForm):
    pass


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset by mail, where mail can be sent; elsewhere a page that says
    whom to ask (never "a mail is on its way" when none can be)."""

    form_class = PasswordResetForm

    def dispatch(self, request, *args, **kwargs):
        if not password_reset_offered():
            return render(request, "registration/password_reset_off.html", status=404)
        return super().dispatch(request, *args, **kwargs)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    form_class = SetPasswordForm
