"""Admin for operations: the tool-call log, with links to the workflow and the orders a call
moved, and the operations dashboard (mounted under the log's admin URLs, so the admin's staff
check wraps it)."""

from __future__ import annotations

from functools import partial

from django.contrib import admin
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.http import urlencode

from giftgenius.operations import dashboard
from tool_runtime.admin import UuidSearchMixin, ViewOnlyAdmin
from tool_runtime.models import ToolCallLog


@admin.register(ToolCallLog)
class ToolCallLogAdmin(UuidSearchMixin, ViewOnlyAdmin):
    list_display = [
        "created_at",
        "tool",
        "status",
        "error_code",
        "error_type",
        "retryable",
        "upstream_retries",
        "replayed",
        "duration_ms",
        "principal",
        "correlation_id",
        "workflow_link",
        "orders_link",
        "transport",
    ]
    list_filter = [
        "status",
        "tool",
        "error_type",
        "error_code",
        "retryable",
        "replayed",
        "transport",
        "created_at",
    ]
    search_fields = ["correlation_id", "principal", "idempotency_key", "error_code"]
    uuid_search_fields = ("workflow_id",)
    date_hierarchy = "created_at"
    list_per_page = 100

    @admin.display(description="workflow", ordering="workflow_id")
    def workflow_link(self, call: ToolCallLog) -> str:
        if call.workflow_id is None:
            return "-"
        url = reverse("admin:gifts_workflowcontext_change", args=[call.workflow_id])
        return format_html('<a href="{}">{}</a>', url, call.workflow_id)

    @admin.display(description="orders")
    def orders_link(self, call: ToolCallLog) -> str:
        # The orders this call touched: found by its correlation id (on the order, or on the
        # saga steps the call wrote); a link, not a query per row.
        if not call.correlation_id:
            return "-"
        url = reverse("admin:checkout_order_changelist")
        return format_html('<a href="{}?{}">orders</a>', url, urlencode({"q": call.correlation_id}))

    def get_urls(self):
        view = self.admin_site.admin_view(
            partial(dashboard.dashboard_view, admin_site=self.admin_site)
        )
        return [path("dashboard/", view, name="ops_dashboard"), *super().get_urls()]
