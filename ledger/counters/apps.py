from django.apps import AppConfig


class CountersConfig(AppConfig):
    name = "ledger.counters"
    label = "counters"
    verbose_name = "Limit counters"
    default_auto_field = "django.db.models.BigAutoField"
