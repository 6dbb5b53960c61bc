from django.apps import AppConfig
from django.db.models.signals import post_migrate


def create_cache_tables(sender, using="default", verbosity=1, **kwargs):
    """After every ``migrate``: the database cache's table (tablestakes.settings.prod), so a
    club's server has it without a step of its own. Idempotent; nothing for other caches."""
    from django.core.management import call_command

    call_command("createcachetable", database=using, verbosity=max(0, verbosity - 1))


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = "Ledger"

    def ready(self):
        from . import checks  # noqa: F401  (registers the deploy checks)

        post_migrate.connect(create_cache_tables, sender=self,
                             dispatch_uid="ledger.create_cache_tables")
