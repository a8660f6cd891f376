from django.apps import AppConfig


class GiftGeniusConfig(AppConfig):
    name = "giftgenius"
    verbose_name = "Gift workflow"

    def ready(self) -> None:
        from giftgenius import caller_cache, observability, tools  # noqa: F401 (tools register)

        observability.configure_logging()
        caller_cache.connect_revocation_signals()
