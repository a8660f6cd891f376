"""Reads of orders: always scoped to the owner, so another principal's order is simply not found."""

from __future__ import annotations

import uuid
from datetime import date
from decimal import Decimal

from babel import Locale
from babel.dates import format_date, format_interval
from babel.numbers import format_currency, format_decimal
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import F, OuterRef, Prefetch, Subquery
from django.utils import translation
from django.utils.translation import gettext as _

from checkout.models import Order, OrderLine, OrderStatus, Payment
from checkout.payments import gateway
from checkout.payments.methods import payment_method_label
from checkout.payments.provider import ProviderError, get_provider
from checkout.pricing import DeliveryOption, round_money
from checkout.store import GiftWrap
from gifts.models import Step, WorkflowContext
from tool_runtime.errors import ERROR_CATALOG, ToolError


def order_for(*, owner: AbstractBaseUser, order_id: uuid.UUID) -> Order:
    order = Order.objects.filter(pk=order_id, owner=owner).first()
    if order is None:
        raise ToolError(
            "NOT_FOUND",
            f"No order {order_id} exists for this user. Use the order_id returned by prepare_order.",
            field="order_id",
        )
    return order


# Steps at which a workflow has an order: checkout, and the two ends a purchase reaches.
STEPS_WITH_ORDER = (Step.CHECKOUT, Step.COMPLETED, Step.FAILED)


def workflow_orders(*, workflow: WorkflowContext):
    """The workflow's current order, as a queryset of at most one row: its newest, while the
    workflow is at checkout or past it. prepare_order replaces a draft by a newer one under the
    workflow's lock, and a checkout that fails or is left takes the workflow back before
    checkout, so the newest order is the one the checkout holds."""
    if workflow.current_step not in STEPS_WITH_ORDER:
        return Order.objects.none()
    return Order.objects.filter(workflow_id=workflow.pk).order_by("-created_at")[:1]


def newest_order_id() -> Subquery:
    """The newest order of the workflow row in the outer query (annotate a workflow with it)."""
    newest = Order.objects.filter(workflow=OuterRef("pk")).order_by("-created_at")
    return Subquery(newest.values("pk")[:1])


def workflow_order_id(*, workflow: WorkflowContext) -> uuid.UUID | None:
    """The workflow's current order's id; read with the workflow when it was annotated with
    `newest_order_id` (checkout.saga.locks.lock_workflow), otherwise read now."""
    if workflow.current_step not in STEPS_WITH_ORDER:
        return None
    if "newest_order_id" in workflow.__dict__:
        return workflow.newest_order_id
    return workflow_orders(workflow=workflow).values_list("pk", flat=True).first()


def order_with_history(*, owner: AbstractBaseUser, order_id: uuid.UUID) -> Order:
    order = (
        Order.objects.filter(pk=order_id, owner=owner)
        .select_related("gift_wrap")
        .prefetch_related(
            Prefetch("lines", queryset=OrderLine.objects.order_by("id")),
            Prefetch("payments", queryset=Payment.objects.order_by("attempt", "id")),
            "saga_steps",
        )
        .first()
    )
    if order is None:
        order_for(owner=owner, order_id=order_id)  # raises NOT_FOUND
    return order


def gift_of(order: Order) -> dict | None:
    line = next(iter(order.lines.all()), None)
    if line is None:
        return None
    return {
        "product_id": line.product_id,
        "sku": line.sku,
        "name": line.name,
        "unit_price": str(line.unit_price),
        "quantity": line.quantity,
    }


def payment_method_ref(order: Order) -> dict:
    """The order's payment method as people and staff see it: the label kept on the order, so
    reading an order does not ask the provider."""
    return {
        "id": order.payment_method_id,
        "label": payment_method_label(
            user=order.owner,
            payment_method_id=order.payment_method_id,
            known=order.payment_method_label,
        ),
    }


# The statuses whose stock waits for the person: a draft to confirm, an order to pay.
HELD_FOR_PERSON = (OrderStatus.DRAFT, OrderStatus.AWAITING_PAYMENT)


def next_action_of(order: Order) -> dict | None:
    """Where the person finishes paying, while the order awaits payment; None otherwise.

    The bank's check (3-D Secure) is at a URL that carries the intent's client secret, which
    is for the person's browser only: the model is told what is happening, and the widget gets
    the URL from `payment_url_of` in the answer's `_meta`."""
    if order.status != OrderStatus.AWAITING_PAYMENT or not order.payment_url:
        return None
    return {
        "type": "open_url",
        "reason": order.payment_url_reason,
        "url": None if order.payment_url_reason == "authenticate" else order.payment_url,
        "expires_at": order.payment_url_expires_at or order.expires_at,
    }


def payment_url_of(order: Order) -> dict:
    """The `_meta` that carries the page the person pays or authenticates on, for the widget
    (never read by the model); {} when the order does not await payment."""
    if order.status != OrderStatus.AWAITING_PAYMENT or not order.payment_url:
        return {}
    return {"payment_url": order.payment_url}


def order_detail(order: Order) -> dict:
    """Everything get_order shows: status, money, payments and the saga timeline."""
    failure = None
    if order.failure_code:
        spec = ERROR_CATALOG.get(order.failure_code)
        failure = {
            "code": order.failure_code,
            "message": order.failure_message,
            "retryable": bool(spec and spec.retryable and order.confirmation_used_at is None),
        }
    return {
        "order_id": order.pk,
        "workflow_id": order.workflow_id,
        "status": order.status,
        "amount": str(order.amount),
        "currency": order.currency,
        "gift": gift_of(order),
        "shipping": order.shipping,
        "payment_method": payment_method_ref(order),
        "created_at": order.created_at,
        "expires_at": order.expires_at if order.status in HELD_FOR_PERSON else None,
        "next_action": next_action_of(order),
        "failure": failure,
        "fulfilment": {
            "status": order.fulfilment_status,
            "carrier": order.carrier or None,
            "tracking_number": order.tracking_number or None,
            "tracking_url": order.tracking_url or None,
            "shipped_at": order.shipped_at,
            "delivered_at": order.delivered_at,
        },
        "payments": [
            {
                "provider_charge_id": p.provider_charge_id or None,
                "amount": str(p.amount),
                "currency": p.currency,
                "status": p.status,
                "refunded_amount": str(p.refunded_amount),
                "attempt": p.attempt,
                "error_code": p.error_code or None,
            }
            for p in order.payments.all()
        ],
        **order_totals(order),
        "saga": [
            {
                "step": s.step,
                "status": s.status,
                "attempt": s.attempt,
                "error_code": s.error_code or None,
                "started_at": s.started_at,
                "finished_at": s.finished_at,
            }
            for s in order.saga_steps.all()
        ],
    }


def last_shipping(*, workflow_id: uuid.UUID) -> dict | None:
    """The address last entered in this workflow: its newest order's (the current draft's, or
    the one a declined card or Back left behind), or None before any order."""
    shipping = (
        Order.objects.filter(workflow_id=workflow_id, owner=F("workflow__owner"))
        .exclude(shipping={})
        .order_by("-created_at")
        .values_list("shipping", flat=True)
        .first()
    )
    return shipping if isinstance(shipping, dict) else None


def order_with_holds(*, order_id: uuid.UUID) -> Order | None:
    """An order with its lines and stock holds, for a screen that shows a payment's context;
    the caller took the id from an outcome already authorised for its owner."""
    return (
        Order.objects.select_related("owner")
        .prefetch_related("lines", "reservations")
        .filter(pk=order_id)
        .first()
    )


def first_line(*, order_id: uuid.UUID) -> OrderLine | None:
    """An order's first line, with its product."""
    return (
        OrderLine.objects.select_related("product").filter(order_id=order_id).order_by("id").first()
    )


def fulfilment_of(*, order_id: uuid.UUID) -> dict | None:
    """Where an order's gift is: fulfilment status, delivery window and tracking."""
    return (
        Order.objects.filter(pk=order_id)
        .values(
            "fulfilment_status",
            "delivery_earliest",
            "delivery_latest",
            "carrier",
            "tracking_number",
            "tracking_url",
        )
        .first()
    )


def rollback_preview(order: Order) -> str:
    """What rolling the order back would do, for staff to read before they confirm:
    "refund 32.00 USD to Visa •••• 4242, release 1 unit, e-mail the customer: no"."""
    if order.status == OrderStatus.CANCELLED:
        return "Nothing: the order is already cancelled."
    if order.status == OrderStatus.PROCESSING:
        return "Refused while the checkout is running."
    refund = sum(
        (p.amount - p.refunded_amount for p in order.payments.all() if p.status == "succeeded"),
        Decimal("0"),
    )
    units = sum(r.quantity for r in order.reservations.all() if r.status in ("held", "confirmed"))
    parts = []
    if refund:
        card = payment_method_ref(order)["label"]
        parts.append(f"refund {refund:.2f} {order.currency} to {card}")
    else:
        parts.append("no refund (nothing was charged)")
    parts.append(f"release {units} unit{'s' if units != 1 else ''}")
    parts.append("cancel the order")
    # No message goes to the customer on a rollback: staff tell them, if they should know.
    parts.append("e-mail the customer: no")
    return ", ".join(parts)


# --- totals, as prepare_order and get_order show them -----------------------------------------


def _babel_locale() -> str:
    return translation.to_locale(translation.get_language() or "en")


def money_display(amount: Decimal, currency: str) -> str:
    """An amount as the active language writes it (CLDR via Babel): €4.90, 4,90 €."""
    return format_currency(amount, currency, locale=_babel_locale())


def delivery_window(earliest: date, latest: date) -> str:
    """The window as the active language writes it, e.g. 'Mar 12-14'."""
    if earliest == latest:
        return format_date(earliest, "MMMd", locale=_babel_locale())
    return format_interval(earliest, latest, "MMMd", locale=_babel_locale())


def delivery_option_out(option: DeliveryOption, *, selected: str | None = None) -> dict:
    return {
        "code": option.code,
        "name": option.name,
        "price": str(option.price),
        "price_display": money_display(option.price, option.currency),
        "earliest": option.earliest,
        "latest": option.latest,
        "window": delivery_window(option.earliest, option.latest),
        "selected": option.code == selected,
    }


def gift_wrap_options(*, currency: str) -> list[dict]:
    """The active gift wraps priced in `currency`."""
    offered = []
    for wrap in GiftWrap.objects.filter(active=True).prefetch_related("prices"):
        price = next((p.amount for p in wrap.prices.all() if p.currency == currency), None)
        if price is not None:
            price = round_money(price, currency)
            offered.append(
                {
                    "code": wrap.code,
                    "name": wrap.name,
                    "price": str(price),
                    "price_display": money_display(price, currency),
                }
            )
    return offered


def _tax_label(order: Order) -> str:
    rate = format_decimal(order.tax_rate.normalize(), locale=_babel_locale())
    values = {"tax": order.tax_name, "rate": rate}
    if order.prices_include_tax:
        return _("incl. %(tax)s %(rate)s %%") % values
    return _("+ %(tax)s %(rate)s %%") % values


def order_totals(order: Order) -> dict:
    """An order's line items, total lines (machine code, localized label, amount), delivery
    and gift options, in the active language: the OrderTotals schema's fields."""
    currency = order.currency

    def total_line(code: str, label: str, amount: Decimal) -> dict:
        return {
            "code": code,
            "label": str(label),
            "amount": str(amount),
            "display": money_display(amount, currency),
        }

    totals = [total_line("items", _("Items"), order.items_total)]
    if order.shipping_option:
        label = _("Shipping: %(option)s") % {"option": order.shipping_option_name}
        totals.append(total_line("shipping", label, order.shipping_total))
    if order.gift_wrap_name:
        label = _("Gift wrap: %(name)s") % {"name": order.gift_wrap_name}
        totals.append(total_line("gift_wrap", label, order.gift_wrap_total))
    if order.tax_name:
        totals.append(total_line("tax", _tax_label(order), order.tax_total))
    totals.append(total_line("total", _("Total"), order.amount))
    delivery = None
    if order.delivery_earliest and order.delivery_latest:
        delivery = {
            "code": order.shipping_option,
            "name": order.shipping_option_name,
            "price": str(order.shipping_total),
            "price_display": money_display(order.shipping_total, currency),
            "earliest": order.delivery_earliest,
            "latest": order.delivery_latest,
            "window": delivery_window(order.delivery_earliest, order.delivery_latest),
            "selected": True,
        }
    values = {"total": money_display(order.amount, currency)}
    if delivery is not None:
        values |= {"shipping": delivery["price_display"], "window": delivery["window"]}
        summary = _("%(total)s including %(shipping)s shipping, arriving %(window)s") % values
    else:
        summary = _("%(total)s in total") % values
    return {
        "line_items": [
            {
                "product_id": line.product_id,
                "sku": line.sku,
                "name": line.name,
                "quantity": line.quantity,
                "unit_price": str(line.unit_price),
                "line_total": str(line.line_total),
                "tax_rate": str(line.tax_rate),
                "tax": str(line.tax_amount),
            }
            for line in order.lines.all()
        ],
        "totals": totals,
        "prices_include_tax": order.prices_include_tax,
        "delivery": delivery,
        "gift_options": {
            "message": order.gift_message,
            "gift_wrap": order.gift_wrap.code if order.gift_wrap_id else None,
            "gift_wrap_name": order.gift_wrap_name,
            "ship_to_recipient": order.ship_to_recipient,
        },
        "summary": str(summary),
    }


def address_lines(shipping: dict, *, locale: str = "en_US") -> list[str]:
    """A postal address as lines, the country by its name in `locale` (a CLDR locale)."""
    city = " ".join(part for part in (shipping.get("postal_code"), shipping.get("city")) if part)
    country = shipping.get("country", "")
    try:
        country_name = Locale.parse(locale).territories.get(country, country)
    except (ValueError, TypeError):
        country_name = country
    lines = [shipping.get("name"), shipping.get("line1"), shipping.get("line2"), city]
    lines += [shipping.get("state"), country_name]
    return [str(line) for line in lines if line]


def staff_order_view(order: Order) -> dict:
    """What the staff's order page shows on top, as a shop's order page reads: the customer,
    items, delivery, address, gift options, totals and fulfilment, with the saga beside."""
    owner = order.owner
    with translation.override("en"):
        money = order_totals(order)
    customer = owner.get_full_name() or owner.get_username()
    if order.buyer is not None:  # a guest an agent bought for: the owner is the agent's account
        name = f"{order.buyer.first_name} {order.buyer.last_name}".strip() or order.buyer.email
        customer = f"{name} (guest buyer, placed by {owner.get_username()})"
    return {
        "customer": customer,
        "email": order.receipt_email,
        "items": money["line_items"],
        "currency": order.currency,
        "totals": money["totals"],
        "delivery": money["delivery"],
        "delivery_option": order.shipping_option_name,
        "address": address_lines(order.shipping),
        "gift_message": order.gift_message,
        "gift_wrap": order.gift_wrap_name,
        "ship_to_recipient": order.ship_to_recipient,
        "payment_method": payment_method_ref(order)["label"],
        "fulfilment": order.get_fulfilment_status_display(),
        "carrier": order.carrier,
        "tracking_number": order.tracking_number,
        "tracking_url": order.tracking_url,
        "timeline": list(order.saga_steps.all()),
        "at_provider": payment_at_provider(order),
    }


def payment_at_provider(order: Order) -> list[dict]:
    """The order's payment page and payment as the provider holds them now (asked live), with
    a link to each in the provider's dashboard where it has one."""
    provider = get_provider()
    link = getattr(provider, "dashboard_url", None)
    items: list[dict] = []
    charge_ids = [p.provider_charge_id for p in order.payments.all() if p.provider_charge_id]
    try:
        if order.payment_session_id:
            page = gateway.retrieve_hosted_checkout(checkout_id=order.payment_session_id)
            state = f"{page.status}, {'paid' if page.paid else 'not paid'}"
            items.append({"what": "Payment page", "id": page.id, "state": state})
            if page.charge is not None and page.charge.id not in charge_ids:
                charge_ids.append(page.charge.id)
        for charge_id in charge_ids:
            charge = gateway.retrieve(charge_id=charge_id)
            state = f"{charge.status}, {charge.amount} {charge.currency}"
            if charge.refunded_amount:
                state += f", {charge.refunded_amount} refunded"
            items.append({"what": "Payment", "id": charge.id, "state": state})
    except ProviderError as exc:
        items.append({"what": "Provider", "id": "—", "state": f"could not be asked ({exc.code})"})
    for item in items:
        item["link"] = link(object_id=item["id"]) if link and item["id"] != "—" else ""
    return items
