"""The person's language and the receipt link's key on an order; the rollback audit becomes the
audit of every staff action on an order."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("checkout", "0003_outbox"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="order",
            name="locale",
            field=models.CharField(default="en", max_length=10),
        ),
        migrations.AddField(
            model_name="order",
            name="receipt_key",
            field=models.CharField(blank=True, db_index=True, max_length=64),
        ),
        migrations.RenameModel(old_name="RollbackAuditEntry", new_name="OrderAuditEntry"),
        migrations.AddField(
            model_name="orderauditentry",
            name="action",
            field=models.CharField(
                choices=[
                    ("rollback", "Roll back"),
                    ("resend_receipt", "Resend the receipt"),
                    ("revoke_receipt_link", "Revoke the receipt link"),
                    ("mark_shipped", "Mark shipped"),
                    ("mark_delivered", "Mark delivered"),
                ],
                default="rollback",
                max_length=24,
            ),
        ),
        migrations.AlterModelOptions(
            name="orderauditentry",
            options={
                "ordering": ["-created_at"],
                "permissions": [
                    ("fulfil_order", "Can mark orders shipped or delivered"),
                    ("resend_receipt", "Can resend receipts and revoke receipt links"),
                ],
                "verbose_name_plural": "order audit entries",
            },
        ),
    ]
