from django.apps import AppConfig


class CheckoutConfig(AppConfig):
    name = "checkout"
    verbose_name = "Checkout"

    def ready(self) -> None:
        from checkout import errors, order_changes, outbox, tools, webhooks  # noqa: F401
        from checkout.agentic import checks, order_events  # noqa: F401 (checks registers)
        from checkout.agentic import tools as agentic_tools  # noqa: F401 (the ACP tools)
        from checkout.services import WorkflowCheckout
        from gifts.hooks import attach_checkout

        attach_checkout(WorkflowCheckout())
        outbox.register_handler(webhooks.OUTBOX_KIND, webhooks.apply_event)
        outbox.register_handler(order_events.OUTBOX_KIND, order_events.deliver_event)
        order_changes.listen(order_events.record_change)
