from django.apps import AppConfig


class CheckoutConfig(AppConfig):
    name = "checkout"
    verbose_name = "Checkout"

    def ready(self) -> None:
        from checkout import errors, outbox, tools, webhooks  # noqa: F401 (tools, codes)
        from checkout.agentic import tools as agentic_tools  # noqa: F401 (the ACP tools)
        from checkout.services import WorkflowCheckout
        from gifts.hooks import attach_checkout

        attach_checkout(WorkflowCheckout())
        outbox.register_handler(webhooks.OUTBOX_KIND, webhooks.apply_event)
