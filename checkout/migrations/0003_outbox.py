"""One outbox for everything sent later; stored webhook events move into it."""

import django.utils.timezone
from django.db import migrations, models

STATUS_OF_EVENT = {"pending": "pending", "applied": "delivered", "parked": "parked"}


def webhook_events_to_outbox(apps, schema_editor):
    """Stored provider events become outbox messages, with their tries and outcome."""
    WebhookEvent = apps.get_model("checkout", "WebhookEvent")
    OutboxMessage = apps.get_model("checkout", "OutboxMessage")
    OutboxMessage.objects.bulk_create(
        OutboxMessage(
            kind="stripe_event",
            key=f"{event.provider}:{event.event_id}",
            payload={
                "event_id": event.event_id,
                "event_type": event.event_type,
                "provider_payment_id": event.provider_payment_id,
                "provider_created_at": (
                    event.provider_created_at.isoformat() if event.provider_created_at else None
                ),
            },
            order_id=event.order_id,
            status=STATUS_OF_EVENT[event.status],
            attempts=event.attempts,
            next_attempt_at=event.next_attempt_at,
            outcome=event.outcome,
            last_error=event.last_error,
            created_at=event.received_at,
            delivered_at=event.applied_at,
        )
        for event in WebhookEvent.objects.iterator()
    )


def outbox_to_webhook_events(apps, schema_editor):
    WebhookEvent = apps.get_model("checkout", "WebhookEvent")
    OutboxMessage = apps.get_model("checkout", "OutboxMessage")
    status_of_message = {value: key for key, value in STATUS_OF_EVENT.items()}
    for message in OutboxMessage.objects.filter(kind="stripe_event").iterator():
        WebhookEvent.objects.create(
            provider=message.key.split(":", 1)[0],
            event_id=message.payload["event_id"],
            event_type=message.payload["event_type"],
            provider_payment_id=message.payload.get("provider_payment_id", ""),
            order_id=message.order_id,
            status=status_of_message[message.status],
            attempts=message.attempts,
            next_attempt_at=message.next_attempt_at,
            outcome=message.outcome,
            last_error=message.last_error,
            received_at=message.created_at,
            applied_at=message.delivered_at,
        )


class Migration(migrations.Migration):

    dependencies = [
        ('checkout', '0002_order_totals_delivery_gift_options_fulfilment'),
    ]

    operations = [
        migrations.CreateModel(
            name='OutboxMessage',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(db_index=True, max_length=40)),
                ('key', models.CharField(max_length=255, unique=True)),
                ('payload', models.JSONField(blank=True, default=dict)),
                ('order_id', models.UUIDField(blank=True, db_index=True, null=True)),
                ('status', models.CharField(choices=[('pending', 'Pending (not delivered yet, or waiting for a retry)'), ('delivered', 'Delivered (sent or applied)'), ('parked', 'Parked for a person (failed too often)')], default='pending', max_length=10)),
                ('attempts', models.PositiveSmallIntegerField(default=0)),
                ('next_attempt_at', models.DateTimeField(blank=True, null=True)),
                ('outcome', models.CharField(blank=True, help_text='What delivering it did.', max_length=300)),
                ('last_error', models.CharField(blank=True, max_length=300)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, editable=False)),
                ('delivered_at', models.DateTimeField(blank=True, null=True)),
            ],
            options={
                'ordering': ['-created_at', '-id'],
                'permissions': [('retry_outboxmessage', 'Can retry a parked outbox message')],
            },
        ),
        migrations.AddIndex(
            model_name='outboxmessage',
            index=models.Index(fields=['status', 'next_attempt_at'], name='outbox_due'),
        ),
        migrations.CreateModel(
            name='ParkedOutboxMessage',
            fields=[
            ],
            options={
                'verbose_name': 'parked outbox message',
                'proxy': True,
                'indexes': [],
                'constraints': [],
            },
            bases=('checkout.outboxmessage',),
        ),
        migrations.RunPython(webhook_events_to_outbox, outbox_to_webhook_events),
        migrations.DeleteModel(
            name='ParkedWebhookEvent',
        ),
        migrations.DeleteModel(
            name='WebhookEvent',
        ),
    ]
