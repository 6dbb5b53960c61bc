from django.apps import AppConfig


class ScoresheetsConfig(AppConfig):
    name = "scoresheets"
    verbose_name = "Score sheets"
