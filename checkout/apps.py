from django.apps import AppConfig


class CheckoutConfig(AppConfig):
    name = "checkout"
    verbose_name = "Checkout"

    def ready(self) -> None:
        from checkout import errors, tools  # noqa: F401 (declare the codes, register the tools)
        from checkout.services import WorkflowCheckout
        from gifts.hooks import attach_checkout

        attach_checkout(WorkflowCheckout())
