"""The Django project. Importing it (gunicorn's workers, manage.py, the tests) first puts
the fixed cookie unquoting in place on an interpreter that has CVE-2024-7592
(tablestakes/cookies.py)."""

from .cookies import install as _install_cookie_fix

_install_cookie_fix()
