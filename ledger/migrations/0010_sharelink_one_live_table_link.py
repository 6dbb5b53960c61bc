"""One live table-wide share link per table, held by the database.

Before the constraint can be made, a table that already has several live table-wide links
(a double tap on "share this table" made two) keeps its newest, the one the table's page
shows, and the others are revoked: "Link revoked" then really means nothing opens.
"""

from django.db import migrations, models
from django.db.models import Count
from django.utils import timezone


def revoke_duplicates(apps, schema_editor):
    ShareLink = apps.get_model("ledger", "ShareLink")
    live = ShareLink.objects.filter(revoked_at__isnull=True, game__isnull=True)
    doubled = (live.values("table_id").annotate(n=Count("id")).filter(n__gt=1)
               .values_list("table_id", flat=True))
    for table_id in list(doubled):
        links = list(live.filter(table_id=table_id).order_by("-created_at", "-id"))
        ShareLink.objects.filter(pk__in=[link.pk for link in links[1:]]).update(
            revoked_at=timezone.now())


class Migration(migrations.Migration):

    dependencies = [
        ("ledger", "0009_table_paper_by_currency"),
    ]

    operations = [
        migrations.RunPython(revoke_duplicates, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="sharelink",
            constraint=models.UniqueConstraint(
                condition=models.Q(("game__isnull", True), ("revoked_at__isnull", True)),
                fields=("table",), name="sharelink_one_live_table_link"),
        ),
    ]
