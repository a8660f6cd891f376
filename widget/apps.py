from django.apps import AppConfig


class WidgetConfig(AppConfig):
    name = "widget"
    verbose_name = "Widget"
