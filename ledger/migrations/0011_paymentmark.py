"""Paid marks become their own append-only rows; a payment already marked paid gets its
mark (at the time and by the account its columns say)."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def copy_paid_marks(apps, schema_editor):
    SettlementPayment = apps.get_model("ledger", "SettlementPayment")
    PaymentMark = apps.get_model("ledger", "PaymentMark")
    PaymentMark.objects.bulk_create(
        PaymentMark(payment=payment, paid=True, marked_at=payment.paid_at,
                    marked_by_id=payment.paid_by_id)
        for payment in SettlementPayment.objects.filter(paid_at__isnull=False).order_by("pk")
    )


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0010_sharelink_one_live_table_link'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='PaymentMark',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('paid', models.BooleanField(help_text='True: marked paid; False: the mark was undone')),
                ('marked_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('marked_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('payment', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='marks', to='ledger.settlementpayment')),
            ],
            options={
                'ordering': ['payment', 'marked_at', 'id'],
            },
        ),
        migrations.RunPython(copy_paid_marks, migrations.RunPython.noop),
    ]
