from django.db import models


class Counter(models.Model):
    """One limit's count in its current window (written only by ``ledger.counters.hit``)."""

    name = models.CharField(max_length=200, primary_key=True)
    hits = models.PositiveIntegerField(default=0)
    ends = models.FloatField(help_text="Unix time the current window ends")

    class Meta:
        db_table = "tablestakes_counter"

    def __str__(self) -> str:
        return f"{self.name}: {self.hits}"
