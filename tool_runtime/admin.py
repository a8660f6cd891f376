"""Admin for the tool runtime: API tokens (revoked, never shown) and idempotency keys (view
only); and the view-only base classes every app's admin uses.

Rows that record what happened are view-only: a log or a stored answer you can edit is not one.
"""

from __future__ import annotations

import uuid

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet, URLField
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.cache import add_never_cache_headers

from tool_runtime import principals
from tool_runtime.models import ApiToken, ApiTokenKind, IdempotencyKey


class ViewOnlyAdmin(admin.ModelAdmin):
    """Staff can look, nobody (superusers included) can add, change or delete from the admin."""

    # The page still builds a form: its URL fields take Django 6's default scheme (never used).
    formfield_overrides = {URLField: {"assume_scheme": "https"}}

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


class ApiTokenForm(forms.ModelForm):
    order_events_url = forms.URLField(
        required=False,
        max_length=500,
        assume_scheme="https",
        label="Order events URL",
        help_text="Where this agent takes the order events of the orders it placed (ACP order "
        "webhooks); blank: none are sent.",
    )
    # Write-only, like the signing secret: left blank, the secret it has is kept.
    order_events_secret = forms.CharField(
        required=False,
        max_length=128,
        widget=forms.PasswordInput,
        help_text="The secret order events are signed with (Merchant-Signature), shared with the "
        "agent. Leave blank to keep the current one.",
    )

    class Meta:
        model = ApiToken
        fields = ["revoked", "order_events_url", "order_events_secret"]

    def clean(self) -> dict:
        data = super().clean()
        url = data.get("order_events_url")
        if url and self.instance.kind != ApiTokenKind.AGENT:
            self.add_error("order_events_url", "Only an agent token takes order events.")
        has_secret = data.get("order_events_secret") or self.instance.order_events_secret
        if url and not has_secret:
            self.add_error("order_events_secret", "Order events need a secret to be signed with.")
        return data


class IssueAgentKeyForm(forms.Form):
    user = forms.ModelChoiceField(
        queryset=get_user_model().objects.filter(is_active=True).order_by("username"),
        help_text="The account the agent acts as: its orders are placed in this account's name.",
    )
    signing_secret = forms.CharField(
        required=False,
        max_length=128,
        widget=forms.PasswordInput,
        help_text="Optional. When set, every request must be signed with it (Signature header); "
        "give it to the agent with the key.",
    )


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Only the prefix is ever shown; the raw key once, on the page that issues it (here, an
    agent key; or `manage.py create_api_token`).

    Revoking is for good: once revoked, the flag is read-only, and no save ever writes it back
    to False (a form opened before the token was revoked elsewhere included)."""

    list_display = ["prefix", "user", "kind", "created_at", "expires_at", "revoked"]
    list_filter = ["kind", "revoked", "created_at"]
    search_fields = ["prefix", "user__username", "user__email"]
    # The signing secret is never shown: it is given once, to the agent, at issue time.
    form = ApiTokenForm
    fields = [
        "prefix",
        "user",
        "kind",
        "created_at",
        "expires_at",
        "revoked",
        "order_events_url",
        "order_events_secret",
    ]
    readonly_fields = ["prefix", "user", "kind", "created_at", "expires_at"]
    list_select_related = ["user"]
    actions = ["revoke_tokens"]

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False  # revoke instead, so the call log still names a known token owner

    def add_view(self, request: HttpRequest, form_url: str = "", extra_context=None):
        """Issue an agent key (staff with the add permission): the raw key is on the answer to
        the POST, never stored (only its digest) and never shown again."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = IssueAgentKeyForm(request.POST or None)
        issued = None
        if request.method == "POST" and form.is_valid():
            issued = principals.issue_api_token(
                user=form.cleaned_data["user"],
                kind=ApiTokenKind.AGENT,
                signing_secret=form.cleaned_data["signing_secret"],
            )
        context = {
            **self.admin_site.each_context(request),
            "title": "Issue an agent key",
            "opts": self.model._meta,
            "form": form,
            "issued": issued,
            "issued_to": form.cleaned_data["user"] if issued else None,
        }
        response = TemplateResponse(
            request, "admin/tool_runtime/apitoken/issue_agent_key.html", context
        )
        add_never_cache_headers(response)  # the key must not stay in any cache
        return response

    def get_readonly_fields(self, request: HttpRequest, obj=None):
        if obj is not None and obj.revoked:
            return [*self.readonly_fields, "revoked"]
        return self.readonly_fields

    def save_model(self, request: HttpRequest, obj: ApiToken, form, change: bool) -> None:
        # `revoked` only ever goes one way; the endpoint fields are written on their own.
        if form.cleaned_data.get("revoked"):
            principals.revoke_api_tokens(token_ids=[obj.pk])
        principals.set_order_events_endpoint(
            token_id=obj.pk,
            url=form.cleaned_data.get("order_events_url") or "",
            secret=form.cleaned_data.get("order_events_secret") or None,
        )
        obj.refresh_from_db(fields=["revoked", "order_events_url", "order_events_secret"])

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
