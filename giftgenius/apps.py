from django.apps import AppConfig


class GiftGeniusConfig(AppConfig):
    """The project: transports (REST, MCP, OAuth sign-in), operations and management commands."""

    name = "giftgenius"
    verbose_name = "Operations"

    def ready(self) -> None:
        from giftgenius import access_log

        access_log.install()
