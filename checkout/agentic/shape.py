"""A checkout session as the Agentic Commerce Protocol shows it: the session's current order
read through our pricing's frozen totals, in minor units."""

from __future__ import annotations

from datetime import UTC, datetime, time
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.utils import timezone, translation
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from checkout import pricing
from checkout.agentic.requests import SPEC_VERSION
from checkout.models import CheckoutSession, Order, OrderStatus
from checkout.saga.hosted import AUTHENTICATE
from checkout.saga.states import DECLINE_CODES, IN_FLIGHT

HANDLER_ID = "stripe_spt"
INTERVENTIONS = ("3ds",)


def current_order(session: CheckoutSession) -> Order | None:
    return (
        Order.objects.filter(workflow_id=session.workflow_id)
        .select_related("buyer")
        .order_by("-created_at")
        .first()
    )


def expired(order: Order) -> bool:
    return order.status == OrderStatus.DRAFT and bool(
        order.expires_at and order.expires_at <= timezone.now()
    )


def minor(amount: Decimal, currency: str) -> int:
    return int((amount / pricing.minor_unit(currency)).to_integral_value())


def message(code: str, content: Any, *, param: str | None = None) -> dict[str, Any]:
    """An error message; `content` may be lazy, drawn in the session's language."""
    found = {"type": "error", "code": code, "content_type": "plain", "content": content}
    if param:
        found["param"] = param
    return found


def info(content: Any) -> dict[str, Any]:
    return {"type": "info", "content_type": "plain", "content": content}


def declined_message() -> dict[str, Any]:
    return message(
        "payment_declined",
        _("The payment was declined; nothing was charged. Ask the buyer for another payment."),
        param="$.payment_data",
    )


def failure_message(order: Order) -> dict[str, Any]:
    if order.failure_code in DECLINE_CODES or order.failure_code in ("", "PAYMENT_REJECTED"):
        return declined_message()
    if order.failure_code == "OUT_OF_STOCK":
        return message("out_of_stock", _("The item sold out."), param="$.line_items[0]")
    return message(
        "payment_declined",
        format_lazy(
            _("The payment did not go through ({code}); nothing was charged."),
            code=order.failure_code,
        ),
        param="$.payment_data",
    )


def authenticating(order: Order | None) -> bool:
    """The bank asks for 3-D Secure on the order's PaymentIntent: the agent authenticates."""
    return (
        order is not None
        and order.status == OrderStatus.AWAITING_PAYMENT
        and order.payment_url_reason == AUTHENTICATE
    )


def authentication_metadata(session: CheckoutSession) -> dict[str, Any]:
    return {
        "acquirer_details": dict(settings.ACP_3DS_ACQUIRER_DETAILS),
        "directory_server": session.directory_server,
    }


def _total(kind: str, text: Any, amount: Decimal, currency: str) -> dict[str, Any]:
    return {"type": kind, "display_text": str(text), "amount": minor(amount, currency)}


def _status(session: CheckoutSession, order: Order | None, problems: list) -> str:
    if session.canceled:
        return "canceled"
    if order is None:
        return "not_ready_for_payment"
    if order.status == OrderStatus.COMPLETED:
        return "completed"
    if authenticating(order) and session.directory_server:
        return "authentication_required"
    if order.status in IN_FLIGHT:
        return "complete_in_progress"
    if expired(order) or order.failure_code == "ORDER_EXPIRED":
        return "expired"
    if order.status == OrderStatus.CANCELLED:
        return "canceled"
    if problems or order.status != OrderStatus.DRAFT:
        return "not_ready_for_payment"
    return "ready_for_payment"


def _when(day) -> str:
    return datetime.combine(day, time(12), tzinfo=UTC).isoformat()


def session_view(
    session: CheckoutSession, *, messages: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The session as ACP shows it, its texts in the session's language (Accept-Language)."""
    with translation.override(session.locale):
        return _session_view(session, messages=messages)


def _session_view(
    session: CheckoutSession, *, messages: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    order = current_order(session)
    messages = list(messages or [])
    if not (session.fulfillment_details.get("address") or {}):
        messages.append(
            message(
                "missing",
                _("A shipping address is needed before payment."),
                param="$.fulfillment_details.address",
            )
        )
    if order is not None and order.status == OrderStatus.FAILED and not messages:
        messages.append(failure_message(order))
    messages = [{**m, "content": str(m["content"])} for m in messages]
    blocking = [m for m in messages if m["type"] == "error"]
    currency = order.currency if order else session.workflow.selected_product.currency
    view: dict[str, Any] = {
        "id": session.pk,
        "protocol": {"version": SPEC_VERSION},
        "capabilities": capabilities(session),
        "status": _status(session, order, blocking),
        "currency": currency.lower(),
        "locale": session.locale,
        "line_items": _line_items(order) if order else [],
        "fulfillment_options": _options(order) if order else [],
        "selected_fulfillment_options": _selected(order) if order else [],
        "totals": order_totals(order) if order else [],
        "messages": messages,
        "links": links(),
        "created_at": session.created_at.isoformat(),
        "updated_at": session.updated_at.isoformat(),
    }
    if session.fulfillment_details:
        view["fulfillment_details"] = session.fulfillment_details
    if session.buyer is not None:
        buyer = session.buyer
        view["buyer"] = {
            k: v
            for k, v in {
                "first_name": buyer.first_name,
                "last_name": buyer.last_name,
                "email": buyer.email,
                "phone_number": buyer.phone_number,
            }.items()
            if v
        }
    if view["status"] == "authentication_required":
        view["authentication_metadata"] = authentication_metadata(session)
    if order is not None and order.expires_at and order.status == OrderStatus.DRAFT:
        view["expires_at"] = order.expires_at.isoformat()
    if order is not None and order.status == OrderStatus.COMPLETED:
        view["order"] = {
            "type": "order",
            "id": str(order.pk),
            "checkout_session_id": session.pk,
            "permalink_url": permalink(order),
            "status": "confirmed",
        }
    return view


def permalink(order: Order) -> str:
    return f"{settings.PUBLIC_ORIGIN.rstrip('/')}/receipts/{order.receipt_key}/"


def capabilities(session: CheckoutSession | None = None) -> dict[str, Any]:
    """Ours; on a session, the interventions both we and its agent handle (3-D Secure, when
    the bank asks for it: checkout.agentic.authentication)."""
    base = settings.PUBLIC_ORIGIN.rstrip("/")
    return {
        "payment": {
            "handlers": [
                {
                    "id": HANDLER_ID,
                    "name": "dev.acp.tokenized.card",
                    "display_name": "Card",
                    "version": SPEC_VERSION,
                    "spec": "https://docs.stripe.com/agentic-commerce",
                    "requires_delegate_payment": True,
                    "requires_pci_compliance": False,
                    "psp": "stripe",
                    "config_schema": f"{base}/.well-known/acp.json",
                    "instrument_schemas": [f"{base}/.well-known/acp.json"],
                    "config": {"credential_types": ["spt"]},
                }
            ]
        },
        "interventions": {
            "supported": [i for i in INTERVENTIONS if session and i in session.interventions]
        },
    }


def links() -> list[dict[str, str]]:
    return [
        {"type": "terms_of_use", "url": settings.ACP_TERMS_URL},
        {"type": "privacy_policy", "url": settings.ACP_PRIVACY_URL},
    ]


def _line_items(order: Order) -> list[dict[str, Any]]:
    items = []
    for line in order.lines.all():
        unit = minor(line.unit_price, order.currency)
        tax = line.tax_amount if not order.prices_include_tax else Decimal(0)
        items.append(
            {
                "id": f"li_{line.pk}",
                "item": {"id": line.sku, "name": line.name, "unit_amount": unit},
                "quantity": line.quantity,
                "name": line.name,
                "unit_amount": unit,
                "product_id": line.sku,
                "sku": line.sku,
                "totals": [
                    _total("items_base_amount", _("Items"), line.line_total, order.currency),
                    _total("subtotal", _("Subtotal"), line.line_total, order.currency),
                    _total("tax", _("Tax"), line.tax_amount, order.currency),
                    _total("total", _("Total"), line.line_total + tax, order.currency),
                ],
            }
        )
    return items


def order_totals(order: Order) -> list[dict[str, Any]]:
    c = order.currency
    tax = order.tax_name or _("Tax")
    tax_text = format_lazy(_("{tax} (included)"), tax=tax) if order.prices_include_tax else tax
    totals = [
        _total("items_base_amount", _("Items"), order.items_total, c),
        _total("subtotal", _("Subtotal"), order.items_total, c),
        _total("fulfillment", order.shipping_option_name or _("Delivery"), order.shipping_total, c),
    ]
    if order.gift_wrap_total:
        totals.append(
            _total("gift_wrap", order.gift_wrap_name or _("Gift wrap"), order.gift_wrap_total, c)
        )
    totals += [
        _total("tax", tax_text, order.tax_total, c),
        _total("total", _("Total"), order.amount, c),
    ]
    return totals


def _options(order: Order) -> list[dict[str, Any]]:
    country = (order.shipping or {}).get("country") or settings.ACP_DEFAULT_COUNTRY
    options = pricing.delivery_options(country=country, currency=order.currency)
    return [
        {
            "type": "shipping",
            "id": option.code,
            "title": option.name,
            "earliest_delivery_time": _when(option.earliest),
            "latest_delivery_time": _when(option.latest),
            "totals": [_total("fulfillment", option.name, option.price, order.currency)],
        }
        for option in options
    ]


def _selected(order: Order) -> list[dict[str, Any]]:
    if not order.shipping_option:
        return []
    item_ids = [f"li_{pk}" for pk in order.lines.values_list("pk", flat=True)]
    return [{"type": "shipping", "option_id": order.shipping_option, "item_ids": item_ids}]
