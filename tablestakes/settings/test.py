from .base import *  # noqa: F401,F403

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Account mails run when the response is finished, in the request's thread: the test
# client has them in mail.outbox when it returns (production: a background thread).
TABLESTAKES_OUTBOX = "after_response"
