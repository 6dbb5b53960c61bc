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

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in, user_login_failed

        from . import checks, languages, limits, outbox  # noqa: F401  (checks, outbox)

        post_migrate.connect(create_cache_tables, sender=self,
                             dispatch_uid="ledger.create_cache_tables")
        # Wrong passwords per client address across usernames (django-axes counts them
        # per username and address).
        user_login_failed.connect(limits.count_login_failure,
                                  dispatch_uid="tablestakes-login-failures-per-address")
        # A success starts the username's count over (the device cookie: the log-in view).
        user_logged_in.connect(limits.login_succeeded,
                               dispatch_uid="tablestakes-login-succeeded")
        # The account's language choice, into the session at log-in (ledger.languages).
        user_logged_in.connect(languages.remember_account_language,
                               dispatch_uid="tablestakes-account-language")
