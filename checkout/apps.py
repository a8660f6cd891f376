from django.apps import AppConfig


class CheckoutConfig(AppConfig):
    name = "checkout"
    verbose_name = "Checkout"

    def ready(self) -> None:
        # Registers the commerce tools in the shared tool registry.
        from checkout import tools  # noqa: F401
