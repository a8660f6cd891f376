from django.apps import AppConfig


class ToolRuntimeConfig(AppConfig):
    name = "tool_runtime"
    verbose_name = "Tool calls"

    def ready(self) -> None:
        from tool_runtime import caller_cache, observability

        observability.configure_logging()
        caller_cache.connect_revocation_signals()
