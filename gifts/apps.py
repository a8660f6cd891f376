from django.apps import AppConfig


class GiftsConfig(AppConfig):
    name = "gifts"
    verbose_name = "Gift workflow"

    def ready(self) -> None:
        from gifts import errors, tools  # noqa: F401 (declare the codes, register the tools)
        from gifts.selectors import GiftWorkflowStore
        from tool_runtime.workflows import register_workflow_store

        register_workflow_store(GiftWorkflowStore())
