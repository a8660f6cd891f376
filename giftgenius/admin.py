"""Admin for the gift workflow side: catalog, workflows, API tokens, the tool-call log, and the
operations dashboard (mounted under the tool-call log's admin URLs).

Rows that record what happened (workflows, call logs) are view-only: steps change only through
giftgenius.workflow, and a log you can edit is not a log.
"""

from __future__ import annotations

import uuid
from functools import partial

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.http import urlencode

from giftgenius import metrics_views, principals, services
from giftgenius.models import ApiToken, Product, ToolCallLog, WorkflowContext


class ViewOnlyAdmin(admin.ModelAdmin):
    """Staff can look, nobody (superusers included) can add, change or delete from the admin."""

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


class RecordFieldsMixin:
    """Shows a row's id first and its created/updated times last on its detail page (fields
    the model does not let anyone edit, so Django leaves them off the form unless named)."""

    record_fields: tuple[str, ...] = ("id", "created_at", "updated_at")

    def get_readonly_fields(self, request: HttpRequest, obj=None):
        named = list(super().get_readonly_fields(request, obj))
        return [*named, *(f for f in self.record_fields if f not in named)]

    def get_fields(self, request: HttpRequest, obj=None):
        fields = [f for f in super().get_fields(request, obj) if f not in self.record_fields]
        first = [f for f in self.record_fields if f == "id"]
        return [*first, *fields, *(f for f in self.record_fields if f != "id")]


class ViewOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


class UuidSearchMixin:
    """Lets the search box find rows by a pasted UUID (UUID columns cannot use `icontains`)."""

    uuid_search_fields: tuple[str, ...] = ()

    def get_search_results(self, request: HttpRequest, queryset: QuerySet, search_term: str):
        results, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        try:
            as_uuid = uuid.UUID(search_term.strip())
        except ValueError:
            return results, may_have_duplicates
        by_uuid = Q()
        for field_name in self.uuid_search_fields:
            by_uuid |= Q(**{field_name: as_uuid})
        if self.uuid_search_fields:
            results = results | queryset.filter(by_uuid)
        return results, may_have_duplicates


class ProductChangeForm(forms.ModelForm):
    """The change form: `stock` is read-only (holds move it all the time); staff add or remove
    units instead, applied to the stock as it is at save time."""

    stock_change = forms.IntegerField(
        required=False,
        label="Add or remove stock",
        help_text=(
            "Units to add (e.g. 5) or remove (e.g. -2). Applied to the stock as it is when you "
            "save, so holds taken or released meanwhile are kept; removing more units than are "
            "available (not held by a reservation) is refused."
        ),
    )

    class Meta:
        model = Product
        fields = [
            f.name
            for f in Product._meta.concrete_fields
            if f.editable and not f.primary_key and f.name != "stock"
        ]

    def clean_stock_change(self) -> int:
        change = self.cleaned_data.get("stock_change") or 0
        available = Product.objects.values_list("stock", flat=True).get(pk=self.instance.pk)
        if available + change < 0:  # advisory; services.adjust_stock decides atomically
            raise forms.ValidationError(
                f"Only {available} unit(s) are available to remove; the rest are held by "
                "reservations."
            )
        return change


@admin.register(Product)
class ProductAdmin(admin.ModelAdmin):
    list_display = ["sku", "name", "category", "price", "currency", "stock", "active"]
    list_filter = ["active", "category", "currency"]
    search_fields = ["sku", "name"]
    list_per_page = 50

    def get_readonly_fields(self, request: HttpRequest, obj=None):
        # A new product has no holds yet: its first stock is typed in. After that, never.
        return ["stock"] if obj is not None else []

    def get_fields(self, request: HttpRequest, obj=None):
        fields = super().get_fields(request, obj)
        if obj is None:
            return fields
        fields = [name for name in fields if name != "stock"]
        at = fields.index("stock_change") if "stock_change" in fields else len(fields)
        return [*fields[:at], "stock", *fields[at:]]

    def get_form(self, request: HttpRequest, obj=None, change=False, **kwargs):
        if obj is not None:
            kwargs["form"] = ProductChangeForm
        return super().get_form(request, obj, change=change, **kwargs)

    def save_model(self, request: HttpRequest, obj: Product, form, change: bool) -> None:
        if not change:
            super().save_model(request, obj, form, change)
            return
        # Every column but stock: the instance's stock was read before this save and may be stale.
        obj.save(
            update_fields=[
                f.name
                for f in Product._meta.concrete_fields
                if not f.primary_key and f.name != "stock"
            ]
        )
        change_by = form.cleaned_data.get("stock_change") or 0
        if change_by:
            try:
                obj.stock = services.adjust_stock(product_id=obj.pk, change=change_by)
            except services.StockAdjustmentRefused as refused:
                self.message_user(
                    request,
                    f"Stock not changed: only {refused.available} unit(s) are available to "
                    "remove; the rest are held by reservations.",
                    messages.ERROR,
                )
            else:
                self.message_user(
                    request, f"Stock changed by {change_by:+d}; now {obj.stock}.", messages.SUCCESS
                )

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        # Order lines point at products; discontinue (active = False) instead of deleting.
        return False


@admin.register(WorkflowContext)
class WorkflowContextAdmin(UuidSearchMixin, ViewOnlyAdmin):
    list_display = ["id", "owner", "current_step", "created_at", "updated_at"]
    list_filter = ["current_step", "created_at"]
    search_fields = ["owner__username", "owner__email"]
    uuid_search_fields = ("id", "draft_order_id")
    list_select_related = ["owner"]
    date_hierarchy = "created_at"


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Only the prefix is ever shown; tokens are issued by `manage.py create_api_token`.

    Revoking is for good: once revoked, the flag is read-only, and no save ever writes it back
    to False (a form opened before the token was revoked elsewhere included)."""

    list_display = ["prefix", "user", "created_at", "expires_at", "revoked"]
    list_filter = ["revoked", "created_at"]
    search_fields = ["prefix", "user__username", "user__email"]
    fields = ["prefix", "user", "created_at", "expires_at", "revoked"]
    readonly_fields = ["prefix", "user", "created_at", "expires_at"]
    list_select_related = ["user"]
    actions = ["revoke_tokens"]

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False  # the raw token is shown once, at issue time, which the admin cannot do

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False  # revoke instead, so the call log still names a known token owner

    def get_readonly_fields(self, request: HttpRequest, obj=None):
        if obj is not None and obj.revoked:
            return [*self.readonly_fields, "revoked"]
        return self.readonly_fields

    def save_model(self, request: HttpRequest, obj: ApiToken, form, change: bool) -> None:
        # `revoked` is the one editable field, and it only ever goes one way.
        if form.cleaned_data.get("revoked"):
            principals.revoke_api_tokens(token_ids=[obj.pk])
        obj.refresh_from_db(fields=["revoked"])

    @admin.action(description="Revoke selected tokens", permissions=["change"])
    def revoke_tokens(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse | None:
        # Like Django's delete action: a confirmation page first, which posts back here.
        if request.POST.get("post") == "yes":
            count = principals.revoke_api_tokens(
                token_ids=list(queryset.values_list("pk", flat=True))
            )
            self.message_user(request, f"Revoked {count} token(s).", messages.SUCCESS)
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": "Revoke API tokens",
            "opts": self.model._meta,
            "tokens": list(queryset.select_related("user").order_by("pk")),
            "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
            "action_name": "revoke_tokens",
        }
        return TemplateResponse(
            request, "admin/giftgenius/apitoken/revoke_confirmation.html", context
        )


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
        url = reverse("admin:giftgenius_workflowcontext_change", args=[call.workflow_id])
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
        # The operations dashboard lives here so it is wrapped by the admin's staff check.
        dashboard = self.admin_site.admin_view(
            partial(metrics_views.dashboard_view, admin_site=self.admin_site)
        )
        return [path("dashboard/", dashboard, name="ops_dashboard"), *super().get_urls()]
