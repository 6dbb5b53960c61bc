"""Give the app's runtime role what it needs on PostgreSQL, and nothing more.

Run as the tables' owner (the role that runs ``migrate``), after ``migrate``::

    manage.py grant_runtime_role tablestakes_app

The runtime role (which must exist, must not own the tables and must not be a superuser)
gets SELECT, INSERT, UPDATE and DELETE on every table of the schema, USAGE and SELECT on its
sequences, and the same on whatever the owner creates there later (default privileges, so a
later migration's new table is covered). Anything it held before on those tables is revoked
first, so TRUNCATE, REFERENCES and TRIGGER are not among them. Only an owner may DROP or
ALTER a table (DISABLE TRIGGER, DROP TRIGGER) and only a superuser may set
``session_replication_role``: so the app, connected as this role, cannot switch off the
guards of migrations 0002, 0012 and 0014. ``--sql`` prints the statements instead of
running them. Running it again changes nothing.
"""

from __future__ import annotations

import re

from django.core.management.base import BaseCommand, CommandError
from django.db import connections, transaction

ROLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_$]{0,62}")
#: A table every migrated database has: its owner is the tables' owner.
OWNED_TABLE = "ledger_moneyposting"


def quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def grant_statements(role: str, schema: str, owner: str) -> list[str]:
    """The statements that make ``role`` the runtime role on ``schema`` (owned by
    ``owner``)."""
    r, s, o = quoted(role), quoted(schema), quoted(owner)
    return [
        f"REVOKE ALL ON ALL TABLES IN SCHEMA {s} FROM {r}",
        f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA {s} FROM {r}",
        f"GRANT USAGE ON SCHEMA {s} TO {r}",
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {s} TO {r}",
        f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {s} TO {r}",
        f"ALTER DEFAULT PRIVILEGES FOR ROLE {o} IN SCHEMA {s} "
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {r}",
        f"ALTER DEFAULT PRIVILEGES FOR ROLE {o} IN SCHEMA {s} "
        f"GRANT USAGE, SELECT ON SEQUENCES TO {r}",
    ]


class Command(BaseCommand):
    help = ("Grant the app's runtime PostgreSQL role DML on the tables (not their ownership): "
            "run as the tables' owner after migrate.")

    def add_arguments(self, parser):
        parser.add_argument("role", help="the role the app connects as (it must exist)")
        parser.add_argument("--database", default="default")
        parser.add_argument("--sql", action="store_true",
                            help="print the statements instead of running them")

    def handle(self, *args, role: str, database: str, sql: bool, **options):
        connection = connections[database]
        if connection.vendor != "postgresql":
            raise CommandError("grant_runtime_role is for PostgreSQL; SQLite has no roles.")
        if not ROLE_NAME.fullmatch(role):
            raise CommandError(f"{role!r} is not a plain role name (letters, digits, _ and $, "
                               "at most 63).")
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_schema()")
            (schema,) = cursor.fetchone()
            cursor.execute("SELECT tableowner FROM pg_tables WHERE schemaname = %s "
                           "AND tablename = %s", [schema, OWNED_TABLE])
            row = cursor.fetchone()
            if row is None:
                raise CommandError(f"No {OWNED_TABLE} in schema {schema}: run migrate first.")
            owner = row[0]
            cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = %s", [role])
            found = cursor.fetchone()
        if found is None:
            raise CommandError(
                f"No role {role}. Create it first (as a superuser or a role with CREATEROLE): "
                f"CREATE ROLE {role} LOGIN PASSWORD '...';")
        if found[0]:
            raise CommandError(f"{role} is a superuser: it could drop every guard. Use a plain "
                               "role.")
        if role == owner:
            raise CommandError(f"{role} owns the tables (it ran migrate): the runtime role must "
                               "be another role, or it can drop and disable the triggers.")
        statements = grant_statements(role, schema, owner)
        if sql:
            self.stdout.write(";\n".join(statements) + ";")
            return
        with transaction.atomic(using=database), connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)
        self.stdout.write(f"{role}: SELECT, INSERT, UPDATE, DELETE on the tables of {schema} "
                          f"(owned by {owner}), now and for new ones; no TRUNCATE, no DDL.")
