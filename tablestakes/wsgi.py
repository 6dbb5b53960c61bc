"""WSGI entry point (gunicorn tablestakes.wsgi:application): production settings unless
DJANGO_SETTINGS_MODULE says otherwise (manage.py stays on the development settings)."""
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tablestakes.settings.prod")
application = get_wsgi_application()
