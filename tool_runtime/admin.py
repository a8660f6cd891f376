"""Admin for the tool runtime: API tokens (revoked, never shown) and idempotency keys (view
only); and the view-only base classes every app's admin uses.

Rows that record what happened are view-only: a log or a stored answer you can edit is not one.
"""

from __future__ import annotations

import uuid

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse

from tool_runtime import principals
from tool_runtime.models import ApiToken, IdempotencyKey


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


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Only the prefix is ever shown; tokens are issued by `manage.py create_api_token`.

    Revoking is for good: once revoked, the flag is read-only, and no save ever writes it back
    to False (a form opened before the token was revoked elsewhere included)."""

    list_display = ["prefix", "user", "kind", "created_at", "expires_at", "revoked"]
    list_filter = ["kind", "revoked", "created_at"]
    search_fields = ["prefix", "user__username", "user__email"]
    # The signing secret is never shown: it is given once, to the agent, at issue time.
    fields = ["prefix", "user", "kind", "created_at", "expires_at", "revoked"]
    readonly_fields = ["prefix", "user", "kind", "created_at", "expires_at"]
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
            request, "admin/tool_runtime/apitoken/revoke_confirmation.html", context
        )


@admin.register(IdempotencyKey)
class IdempotencyKeyAdmin(ViewOnlyAdmin):
    list_display = [
        "key",
        "tool",
        "principal",
        "status",
        "http_status",
        "correlation_id",
        "created_at",
        "expires_at",
    ]
    list_filter = ["status", "tool", "http_status", "created_at"]
    search_fields = ["key", "correlation_id", "principal"]
    # response_meta is widget-only and can hold a purchase confirmation token: never shown.
    exclude = ["response_meta"]
