from django.apps import AppConfig


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = "Ledger"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_login_failed

        from . import limits, outbox  # noqa: F401  (outbox: its request signals)

        # Wrong passwords per client address across usernames (django-axes counts them
        # per username and address).
        user_login_failed.connect(limits.count_login_failure,
                                  dispatch_uid="tablestakes-login-failures-per-address")
