from .base import *  # noqa: F401,F403

DEBUG = True

# Mails (password reset) are printed on the console unless a mail server is configured.
EMAIL_BACKEND = os.environ.get("DJANGO_EMAIL_BACKEND",
                               "django.core.mail.backends.console.EmailBackend")
