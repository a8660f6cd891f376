"""Admin for the outbox: every message sent later, and the dead-letter list with "retry"."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from checkout import outbox
from checkout.models import OutboxMessage, OutboxStatus, ParkedOutboxMessage
from tool_runtime.admin import UuidSearchMixin, ViewOnlyAdmin

OUTBOX_RETRY_PERMISSION = "checkout.retry_outboxmessage"


@admin.register(OutboxMessage)
class OutboxMessageAdmin(UuidSearchMixin, ViewOnlyAdmin):
    """Everything sent later (provider events to apply, e-mails), once each, with what
    delivering it did."""

    list_display = [
        "created_at",
        "kind",
        "key",
        "status",
        "attempts",
        "next_attempt_at",
        "order_id",
        "outcome",
        "last_error",
    ]
    list_filter = ["status", "kind", "created_at"]
    search_fields = ["key", "payload__provider_payment_id"]
    uuid_search_fields = ("order_id",)
    date_hierarchy = "created_at"


@admin.register(ParkedOutboxMessage)
class ParkedOutboxMessageAdmin(OutboxMessageAdmin):
    """The dead-letter list: messages that failed every try, waiting for a person."""

    list_filter = ["kind", "created_at"]
    actions = ["retry_messages"]

    def has_retry_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(OUTBOX_RETRY_PERMISSION)

    @admin.action(description="Retry selected messages now", permissions=["retry"])
    def retry_messages(self, request: HttpRequest, queryset: QuerySet) -> None:
        results = outbox.retry_parked(message_pks=list(queryset.values_list("pk", flat=True)))
        delivered = sum(1 for status in results.values() if status == OutboxStatus.DELIVERED)
        failing = len(results) - delivered
        if delivered:
            self.message_user(request, f"{delivered} message(s) delivered.", messages.SUCCESS)
        if failing:
            self.message_user(
                request,
                f"{failing} message(s) failed again and wait for the next retry (see last error).",
                messages.WARNING,
            )
        if not results:
            self.message_user(request, "None of the selected messages was parked.", messages.INFO)
