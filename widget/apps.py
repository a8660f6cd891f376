from django.apps import AppConfig


class WidgetConfig(AppConfig):
    name = "widget"
    verbose_name = "Widget"

    def ready(self) -> None:
        from checkout import outbox
        from checkout.receipts import RECEIPT_KIND
        from widget import receipts, signals  # noqa: F401 (connects the receivers)

        # Checkout queues receipts; the widget writes everything a person reads.
        outbox.register_handler(RECEIPT_KIND, receipts.send_receipt_email)
