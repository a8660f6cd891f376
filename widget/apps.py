from django.apps import AppConfig


class WidgetConfig(AppConfig):
    name = "widget"
    verbose_name = "Widget"

    def ready(self) -> None:
        from widget import signals  # noqa: F401 (connects the receivers)
