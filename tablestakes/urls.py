from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.urls import include, path

from ledger.views import accounts as views_accounts
from ledger.views import language as views_language
from ledger.views import log_in as accounts

urlpatterns = [
    path("admin/", admin.site.urls),
    path("sheets/", include("scoresheets.urls")),
    # the footer's language switcher: Django's set_language, the account keeps the choice
    path("i18n/setlang/", views_language.set_language, name="set_language"),
    path("accounts/signup/", views_accounts.signup, name="signup"),
    path("accounts/signup/sent/", views_accounts.signup_sent, name="signup_sent"),
    path("accounts/signup/finish/<str:token>/", views_accounts.signup_finish,
         name="signup_finish"),
    path("accounts/login/", views_accounts.LoginView.as_view(), name="login"),
    path("accounts/password_reset/", accounts.PasswordResetView.as_view(),
         name="password_reset"),
    path("accounts/reset/<uidb64>/<token>/", accounts.PasswordResetConfirmView.as_view(),
         name="password_reset_confirm"),
    # logging out needs no log-in: a phone whose session ran out still taps "Log out" and
    # lands on the home page, not on a log-in page that would send it back to log out
    path("accounts/logout/", login_not_required(auth_views.LogoutView.as_view()),
         name="logout"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("ledger.urls")),
]

# 500s as Django draws them, but a database that cannot be reached answers 503 (Retry-After)
handler500 = "ledger.views.errors.server_error"
