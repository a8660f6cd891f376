"""Admin for checkout: orders with their lines, holds, payments and saga timeline; staff rollback.

Amounts, statuses and ledger rows are never edited by hand (that would break the money and
stock invariants), so every order model is view-only; the shop's rates and settings are edited
in `store_admin`. The one write staff can make is a
rollback, which runs the same compensation as the cancel_order tool and is audited.
"""

from __future__ import annotations

import re

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import CharField, OuterRef, QuerySet, Subquery
from django.db.models.functions import Cast
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.timezone import localtime

from checkout import (  # noqa: F401 (outbox_admin and store_admin register theirs)
    fulfilment,
    outbox_admin,
    receipts,
    selectors,
    services,
    staff_rollback,
    store_admin,
)
from checkout.admin_forms import RollbackForm, ShipmentForm
from checkout.agentic import admin as agentic_admin  # noqa: F401 (registers its own)
from checkout.models import (
    FulfilmentStatus,
    Order,
    OrderAuditEntry,
    OrderLine,
    Payment,
    Reservation,
    SagaStep,
    SimulatedCharge,
    SimulatedRefund,
)
from checkout.saga import states
from tool_runtime.admin import RecordFieldsMixin, UuidSearchMixin, ViewOnlyAdmin, ViewOnlyInline

ROLLBACK_PERMISSION = "checkout.rollback_order"
SHORT_CODE = re.compile(r"[0-9a-f]{4,8}")
RECEIPTS_PERMISSION = "checkout.resend_receipt"
FULFIL_PERMISSION = "checkout.fulfil_order"


class OrderLineInline(ViewOnlyInline):
    model = OrderLine
    fields = ["sku", "name", "unit_price", "quantity", "product"]
    readonly_fields = fields


class ReservationInline(ViewOnlyInline):
    model = Reservation
    fields = ["product", "quantity", "status", "expires_at", "created_at", "released_at"]
    readonly_fields = fields


class PaymentInline(ViewOnlyInline):
    model = Payment
    fields = [
        "status",
        "amount",
        "refunded_amount",
        "currency",
        "provider_charge_id",
        "provider_refund_id",
        "provider_idempotency_key",
        "error_code",
        "created_at",
    ]
    readonly_fields = fields
    show_change_link = True


class SagaStepInline(ViewOnlyInline):
    model = SagaStep
    verbose_name_plural = "saga timeline"
    fields = ["started_at", "finished_at", "step", "status", "attempt", "error_code", "detail"]
    readonly_fields = fields
    ordering = ["started_at", "id"]


class RollbackAuditInline(ViewOnlyInline):
    model = OrderAuditEntry
    fields = ["created_at", "actor", "outcome", "reason", "detail"]
    readonly_fields = fields


OUTCOME_MESSAGES = {
    states.ROLLED_BACK: (messages.SUCCESS, "rolled back"),
    states.CLOSED: (messages.SUCCESS, "closed for good"),
    states.ALREADY: (messages.INFO, "already rolled back"),
    states.REFUSED: (messages.WARNING, "refused"),
    states.ERROR: (messages.ERROR, "failed"),
}


@admin.register(Order)
class OrderAdmin(RecordFieldsMixin, UuidSearchMixin, ViewOnlyAdmin):
    # Fits 1280 px: the short code opens the order; the full id is on its page.
    list_display = ["short_code", "customer", "product", "recipient", "state", "total"]
    list_display_links = ["short_code"]
    list_filter = ["status", "fulfilment_status", "failure_code", "currency", "created_at"]
    search_fields = [
        "correlation_id",
        "owner__username",
        "owner__email",
        "owner__first_name",
        "owner__last_name",
        "payments__provider_idempotency_key",
        "payments__provider_charge_id",
        # The correlation id of any call that moved the order (a failed commit's included).
        "saga_steps__correlation_id",
    ]
    uuid_search_fields = ("id", "workflow_id")
    list_select_related = ["owner"]
    date_hierarchy = "created_at"
    exclude = ["confirmation_token_digest", "receipt_key"]
    inlines = [
        OrderLineInline,
        ReservationInline,
        PaymentInline,
        SagaStepInline,
        RollbackAuditInline,
    ]
    actions = [
        "mark_shipped",
        "mark_delivered",
        "rollback_orders",
        "resend_receipts",
        "revoke_receipt_links",
    ]

    def has_fulfil_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(FULFIL_PERMISSION)

    @admin.action(description="Mark shipped (with tracking)", permissions=["fulfil"])
    def mark_shipped(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse:
        orders = list(queryset)
        form = ShipmentForm(initial={"orders": [o.pk for o in orders]}, orders=orders)
        return self._shipment_page(request, form)

    def ship_view(self, request: HttpRequest) -> HttpResponse:
        if not self.has_fulfil_permission(request) or request.method != "POST":
            raise PermissionDenied
        orders = self._orders_in(request.POST.getlist("orders"))
        form = ShipmentForm(request.POST, orders=orders)
        if not form.is_valid():
            return self._shipment_page(request, form)
        reports = fulfilment.mark_shipped(shipments=form.shipments(), actor=request.user)
        self._report(request, reports)
        return HttpResponseRedirect(reverse("admin:checkout_order_changelist"))

    def _shipment_page(self, request: HttpRequest, form: ShipmentForm) -> HttpResponse:
        context = {
            **self.admin_site.each_context(request),
            "title": "Mark orders shipped",
            "opts": self.model._meta,
            "form": form,
            "action_url": reverse("admin:checkout_order_ship"),
        }
        return TemplateResponse(request, "admin/checkout/order/mark_shipped.html", context)

    @admin.action(description="Mark delivered", permissions=["fulfil"])
    def mark_delivered(self, request: HttpRequest, queryset: QuerySet) -> None:
        reports = fulfilment.mark_delivered(
            order_ids=list(queryset.values_list("pk", flat=True)), actor=request.user
        )
        self._report(request, reports)

    def has_rollback_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(ROLLBACK_PERMISSION)

    def has_receipts_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(RECEIPTS_PERMISSION)

    @admin.action(description="Resend the receipt e-mail (one more copy)", permissions=["receipts"])
    def resend_receipts(self, request: HttpRequest, queryset: QuerySet) -> None:
        reports = receipts.resend_receipts(
            order_ids=list(queryset.values_list("pk", flat=True)),
            actor=request.user,
            reason="Resent from the admin.",
        )
        self._report(request, reports)

    @admin.action(
        description="Revoke the receipt link (a new one replaces it)", permissions=["receipts"]
    )
    def revoke_receipt_links(self, request: HttpRequest, queryset: QuerySet) -> None:
        reports = receipts.revoke_receipt_links(
            order_ids=list(queryset.values_list("pk", flat=True)),
            actor=request.user,
            reason="Revoked from the admin.",
        )
        self._report(request, reports)

    def _report(self, request: HttpRequest, reports: list) -> None:
        for report in reports:
            level = messages.SUCCESS if report.outcome == "done" else messages.WARNING
            self.message_user(request, f"Order {report.order_id}: {report.detail}", level)

    def get_urls(self):
        rollback = self.admin_site.admin_view(self.rollback_view)
        ship = self.admin_site.admin_view(self.ship_view)
        return [
            path("rollback/", rollback, name="checkout_order_rollback"),
            path("ship/", ship, name="checkout_order_ship"),
            *super().get_urls(),
        ]

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        first_line = OrderLine.objects.filter(order=OuterRef("pk")).order_by("id")
        return (
            super()
            .get_queryset(request)
            .annotate(
                product_name=Subquery(first_line.values("name")[:1]),
                # The short code is the id's first block: text, so it can be searched by prefix.
                id_text=Cast("id", output_field=CharField()),
            )
        )

    def get_search_results(self, request: HttpRequest, queryset: QuerySet, search_term: str):
        results, duplicates = super().get_search_results(request, queryset, search_term)
        code = search_term.strip().lower()
        if SHORT_CODE.fullmatch(code):
            results = results | queryset.filter(id_text__startswith=code)
        return results, duplicates

    @admin.display(description="order", ordering="created_at")
    def short_code(self, order: Order) -> str:
        placed = date_format(localtime(order.created_at), "SHORT_DATETIME_FORMAT")
        return format_html("{}<br><small>{}</small>", str(order.pk).split("-")[0].upper(), placed)

    @admin.display(description="status", ordering="status")
    def state(self, order: Order) -> str:
        return format_html(
            "{}<br><small>{}</small>",
            order.get_status_display().split(" (")[0],
            order.get_fulfilment_status_display(),
        )

    @admin.display(description="customer", ordering="owner__username")
    def customer(self, order: Order) -> str:
        owner = order.owner
        name = owner.get_full_name() or owner.get_username()
        return format_html("{}<br><small>{}</small>", name, owner.email) if owner.email else name

    @admin.display(description="product", ordering="product_name")
    def product(self, order: Order) -> str:
        return order.product_name or ""

    @admin.display(description="recipient")
    def recipient(self, order: Order) -> str:
        return str(order.shipping.get("name", "")) if isinstance(order.shipping, dict) else ""

    @admin.display(description="total", ordering="amount")
    def total(self, order: Order) -> str:
        return f"{order.amount} {order.currency}"

    def change_view(self, request: HttpRequest, object_id, form_url="", extra_context=None):
        order = self.get_object(request, object_id)
        extra_context = {
            **(extra_context or {}),
            "can_rollback": self.has_rollback_permission(request),
            "order_view": selectors.staff_order_view(order) if order else None,
        }
        return super().change_view(request, object_id, form_url, extra_context)

    @admin.action(
        description="Roll back selected orders (refund, release, cancel)", permissions=["rollback"]
    )
    def rollback_orders(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse:
        # Ask for a reason first; the confirmation form posts to rollback_view.
        form = RollbackForm(initial={"orders": list(queryset.values_list("pk", flat=True))})
        return self._confirmation(request, form, list(queryset))

    def rollback_view(self, request: HttpRequest) -> HttpResponse:
        if not self.has_rollback_permission(request):
            raise PermissionDenied
        if request.method == "POST":
            form = RollbackForm(request.POST)
            unconfirmed = form.is_valid() and not form.cleaned_data["confirm_shipped"]
            if unconfirmed and any(_shipped(order) for order in form.cleaned_data["orders"]):
                form.add_error(
                    "confirm_shipped",
                    "Some of these gifts were already shipped: confirm that you know.",
                )
            if form.is_valid():
                orders = list(form.cleaned_data["orders"])
                reports = staff_rollback.roll_back_orders(
                    order_ids=[order.pk for order in orders],
                    reason=form.cleaned_data["reason"],
                    actor=request.user,
                    shipped_confirmed=form.cleaned_data["confirm_shipped"],
                )
                for report in reports:
                    level, verb = OUTCOME_MESSAGES.get(
                        report.outcome, (messages.WARNING, report.outcome)
                    )
                    detail = f": {report.detail}" if report.detail else ""
                    self.message_user(request, f"Order {report.order_id} {verb}{detail}", level)
                if len(orders) == 1:
                    return HttpResponseRedirect(
                        reverse("admin:checkout_order_change", args=[orders[0].pk])
                    )
                return HttpResponseRedirect(reverse("admin:checkout_order_changelist"))
            orders = self._orders_in(form.data.getlist("orders"))
        else:
            ids = request.GET.getlist("ids")
            orders = self._orders_in(ids)
            form = RollbackForm(initial={"orders": [order.pk for order in orders]})
            if not orders:
                self.message_user(
                    request, "No orders were selected to roll back.", messages.WARNING
                )
                return HttpResponseRedirect(reverse("admin:checkout_order_changelist"))
        return self._confirmation(request, form, orders)

    def _orders_in(self, ids: list[str]) -> list[Order]:
        field = Order._meta.pk
        valid = []
        for raw in ids:
            try:
                valid.append(field.to_python(raw))
            except ValidationError:
                continue  # a malformed id is simply not an order
        return list(
            Order.objects.filter(pk__in=valid)
            .select_related("owner")
            .prefetch_related("payments", "reservations")
        )

    def _confirmation(
        self, request: HttpRequest, form: RollbackForm, orders: list[Order]
    ) -> HttpResponse:
        context = {
            **self.admin_site.each_context(request),
            "title": "Roll back orders",
            "opts": self.model._meta,
            "form": form,
            "orders": [(order, selectors.rollback_preview(order)) for order in orders],
            "shipped": [order for order in orders if _shipped(order)],
            "action_url": reverse("admin:checkout_order_rollback"),
        }
        return TemplateResponse(request, "admin/checkout/order/rollback_confirmation.html", context)


def _shipped(order: Order) -> bool:
    return order.fulfilment_status != FulfilmentStatus.UNFULFILLED


@admin.register(OrderLine)
class OrderLineAdmin(ViewOnlyAdmin):
    list_display = ["order", "sku", "name", "unit_price", "quantity"]
    search_fields = ["sku", "name"]
    list_select_related = ["order"]


@admin.register(Reservation)
class ReservationAdmin(UuidSearchMixin, ViewOnlyAdmin):
    list_display = ["id", "order", "product", "quantity", "status", "expires_at", "released_at"]
    list_filter = ["status", "expires_at", "created_at"]
    search_fields = ["product__sku"]
    uuid_search_fields = ("order_id",)
    list_select_related = ["order", "product"]


@admin.register(Payment)
class PaymentAdmin(RecordFieldsMixin, UuidSearchMixin, ViewOnlyAdmin):
    list_display = [
        "id",
        "order",
        "status",
        "amount",
        "refunded_amount",
        "currency",
        "provider_charge_id",
        "error_code",
        "created_at",
    ]
    list_filter = ["status", "error_code", "currency", "created_at"]
    search_fields = ["provider_idempotency_key", "provider_charge_id", "provider_refund_id"]
    uuid_search_fields = ("order_id",)
    list_select_related = ["order"]


@admin.register(SagaStep)
class SagaStepAdmin(UuidSearchMixin, ViewOnlyAdmin):
    list_display = [
        "order",
        "step",
        "status",
        "attempt",
        "error_code",
        "correlation_id",
        "started_at",
        "finished_at",
    ]
    list_filter = ["step", "status", "error_code", "started_at"]
    search_fields = ["detail", "error_code", "correlation_id"]
    uuid_search_fields = ("order_id",)
    list_select_related = ["order"]


@admin.register(OrderAuditEntry)
class OrderAuditEntryAdmin(RecordFieldsMixin, UuidSearchMixin, ViewOnlyAdmin):
    """Append-only: entries are written by the rollback service, never through the admin."""

    record_fields = ("id", "created_at")

    list_display = ["created_at", "actor", "order_link", "outcome", "reason", "detail"]
    list_filter = ["outcome", "created_at"]
    search_fields = ["actor__username", "reason", "detail"]
    uuid_search_fields = ("order_id",)
    list_select_related = ["actor", "order"]
    actions = None

    @admin.display(description="order", ordering="order")
    def order_link(self, entry: OrderAuditEntry) -> str:
        url = reverse("admin:checkout_order_change", args=[entry.order_id])
        return format_html('<a href="{}">{}</a>', url, entry.order_id)


@admin.register(SimulatedCharge)
class SimulatedChargeAdmin(ViewOnlyAdmin):
    """The payment simulator's own books (the "provider side" of the money invariant)."""

    list_display = [
        "charge_id",
        "order_id",
        "status",
        "amount",
        "refunded_amount",
        "currency",
        "created_at",
    ]
    list_filter = ["status", "failure_code", "created_at"]
    search_fields = ["charge_id", "order_id", "idempotency_key"]


@admin.register(SimulatedRefund)
class SimulatedRefundAdmin(ViewOnlyAdmin):
    list_display = ["refund_id", "charge", "amount", "created_at"]
    search_fields = ["refund_id", "charge__charge_id", "idempotency_key"]
    list_filter = ["created_at"]
