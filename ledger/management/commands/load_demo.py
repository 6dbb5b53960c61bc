"""manage.py load_demo: the demo scorekeeper (demo/demo) and a realistic evening.

The demo account is a plain scorekeeper: it keeps the demo table's score like any club
member and is neither staff nor superuser (a demo password must never open the admin of a
club's server; make an admin with ``manage.py createsuperuser``). Idempotent: running it
again changes nothing. Used by ``make run``; refused under the production settings.
"""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from ledger import services
from ledger.models import Session

DEMO_FILE = settings.BASE_DIR / "fixtures" / "demo_session.json"


class Command(BaseCommand):
    help = (
        "Create the demo scorekeeper account demo/demo (a plain scorekeeper, no admin) and "
        "import "
        "fixtures/demo_session.json: an evening with a two-hand gin game, a box game, a "
        "5-player captain game, a partnership game and a CAP-IT game. Safe to run twice."
    )

    def add_arguments(self, parser):
        parser.add_argument("--file", default=str(DEMO_FILE), help="session record to load")

    @transaction.atomic
    def handle(self, *args, **options):
        if settings.TABLESTAKES_PRODUCTION:
            raise CommandError(
                "load_demo refuses to run under the production settings: it makes the "
                "account demo with the password demo, which anyone could log in with. "
                "Make accounts with createsuperuser or in the admin."
            )
        with open(options["file"], encoding="utf-8") as handle:
            record = json.load(handle)
        user_model = get_user_model()
        user = user_model.objects.filter(username="demo").first()
        if user is None:
            user = user_model.objects.create_user("demo", "demo@example.com", "demo")
            self.stdout.write("Created the demo account (username demo, password demo).")
        existing = Session.objects.filter(
            table__name=record["table"], date=record["date"], place=record.get("place", "")
        ).first()
        if existing is not None:
            self.stdout.write(f"The demo evening is already there (session {existing.pk}).")
            return
        session = services.session_import(record=record, imported_by=user)
        session.table.scorekeepers.add(user)
        self.stdout.write(
            f"Loaded the demo evening: session {session.pk}, {session.games.count()} games."
        )
