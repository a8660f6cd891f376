from django.apps import AppConfig


class GiftGeniusConfig(AppConfig):
    name = "giftgenius"
    verbose_name = "Gift workflow"

    def ready(self) -> None:
        from giftgenius import observability, tools  # noqa: F401 (tools register themselves)

        observability.configure_logging()
