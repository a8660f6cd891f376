"""Order events to the agent that placed an order (ACP's order webhooks): `order_create` when
the order is confirmed, `order_update` when it ships, is delivered, refunded or cancelled.

Each event is an outbox message written in the transaction of the change (`record_change`,
listening on checkout.order_changes), one per change and agent endpoint (the message key), so
none is lost when the agent is down and none is written twice for one change. The body is the
order as it stood at the change, kept in the message, so every retry sends the same bytes under
the same `Request-Id` (the event's stable id; the webhook body schema allows no field for it).

Delivery (`deliver_event`, the outbox handler) POSTs it signed with the agent's secret:
`Merchant-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. Anything but a 2xx
raises, so the outbox's one policy retries it and parks it after its tries. An order's events
go in the order they were written: one waits (outbox.Deferred) while an earlier one is not
delivered.
"""

from __future__ import annotations

import hashlib
import hmac
import time
import uuid
from decimal import Decimal
from typing import Any

import httpx
import orjson
from django.conf import settings
from django.utils import timezone

from checkout import outbox
from checkout.agentic import shape
from checkout.models import (
    CheckoutSession,
    FulfilmentStatus,
    Order,
    OrderStatus,
    OutboxMessage,
    OutboxStatus,
)
from checkout.order_changes import OrderChange
from tool_runtime.models import ApiToken, ApiTokenKind

OUTBOX_KIND = "acp_order_event"
ORDER_CREATE = "order_create"
ORDER_UPDATE = "order_update"


class EndpointRefused(Exception):
    """The agent's endpoint answered with something other than a 2xx."""

    def __init__(self, status: int) -> None:
        super().__init__(f"the agent's endpoint answered HTTP {status}")
        self.code = f"HTTP {status}"


def merchant_signature(*, secret: str, timestamp: int, body: bytes) -> str:
    """The Merchant-Signature header's value for `body` sent at `timestamp` (unix seconds)."""
    signed = f"{timestamp}.".encode() + body
    digest = hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


def record_change(order_id: uuid.UUID, change: OrderChange, detail: str) -> None:
    """Write the order's event for each endpoint of the agent that placed it through ACP;
    nothing for an order placed otherwise. Runs inside the change's transaction."""
    session = (
        CheckoutSession.objects.filter(workflow__orders=order_id).select_related("owner").first()
    )
    if session is None:
        return
    endpoints = ApiToken.objects.filter(
        user=session.owner, kind=ApiTokenKind.AGENT, revoked=False
    ).exclude(order_events_url="")
    token_ids = list(endpoints.values_list("pk", flat=True))
    if change != OrderChange.CONFIRMED:
        # An update only follows the order_create the agent was sent (a failed or abandoned
        # payment's refund is not an order the agent ever heard of).
        token_ids = [t for t in token_ids if _created_for(token_id=t, order_id=order_id)]
    if not token_ids:
        return
    order = Order.objects.prefetch_related("lines", "payments").get(pk=order_id)
    event = {
        "type": ORDER_CREATE if change == OrderChange.CONFIRMED else ORDER_UPDATE,
        "data": order_data(order=order, checkout_session_id=session.pk),
    }
    suffix = f":{detail}" if detail else ""
    for token_id in token_ids:
        outbox.enqueue(
            kind=OUTBOX_KIND,
            key=_key(token_id, order_id, change) + suffix,
            payload={
                "event_id": f"evt_{uuid.uuid4().hex}",
                "agent_token_id": token_id,
                "change": str(change),
                "event": event,
            },
            order_id=order_id,
        )


def _key(token_id: int, order_id: uuid.UUID, change: str) -> str:
    return f"{OUTBOX_KIND}:{token_id}:{order_id}:{change}"


def _created_for(*, token_id: int, order_id: uuid.UUID) -> bool:
    return OutboxMessage.objects.filter(
        key=_key(token_id, order_id, OrderChange.CONFIRMED)
    ).exists()


def deliver_event(message: OutboxMessage) -> str:
    """The outbox handler: POST one event to its agent's endpoint, signed; raises to retry."""
    token_and_order = ":".join(message.key.split(":")[:3])  # kind:token:order
    earlier = OutboxMessage.objects.filter(
        kind=OUTBOX_KIND,
        key__startswith=f"{token_and_order}:",
        pk__lt=message.pk,
        status__in=[OutboxStatus.PENDING, OutboxStatus.PARKED],
    ).first()
    if earlier is not None:
        raise outbox.Deferred(f"an earlier event of this order is not delivered ({earlier.pk})")
    token = ApiToken.objects.filter(pk=message.payload["agent_token_id"]).first()
    if token is None or token.revoked or not token.order_events_url:
        return "Not sent: the agent's token is revoked or has no order-events endpoint now."
    body = orjson.dumps(message.payload["event"])
    timestamp = int(time.time())
    response = httpx.post(
        token.order_events_url,
        content=body,
        headers={
            "Content-Type": "application/json",
            "Merchant-Signature": merchant_signature(
                secret=token.order_events_secret, timestamp=timestamp, body=body
            ),
            "Request-Id": message.payload["event_id"],
            "Timestamp": timezone.now().isoformat(),
        },
        timeout=settings.ACP_ORDER_EVENTS_TIMEOUT_SECONDS,
        follow_redirects=False,
    )
    if not response.is_success:
        raise EndpointRefused(response.status_code)
    event_type = message.payload["event"]["type"]
    return f"{event_type} ({message.payload['change']}) accepted: HTTP {response.status_code}"


def order_data(*, order: Order, checkout_session_id: str) -> dict[str, Any]:
    """The full Order object (the checkout specification's Order schema) as it stands."""
    currency = order.currency
    cancelled = order.status == OrderStatus.CANCELLED
    sent = order.fulfilment_status in (FulfilmentStatus.SHIPPED, FulfilmentStatus.DELIVERED)
    lines = list(order.lines.all())
    line_items = []
    for line in lines:
        line_items.append(
            {
                "id": f"li_{line.pk}",
                "title": line.name,
                "product_id": line.sku,
                "quantity": {
                    "ordered": line.quantity,
                    "current": 0 if cancelled else line.quantity,
                    "fulfilled": line.quantity if sent else 0,
                },
                "unit_price": shape.minor(line.unit_price, currency),
                "subtotal": shape.minor(line.line_total, currency),
                "status": "removed" if cancelled else ("fulfilled" if sent else "processing"),
            }
        )
    refunds = [p for p in order.payments.all() if p.refunded_amount > 0]
    refunded = sum((p.refunded_amount for p in refunds), start=Decimal(0))
    totals = shape.order_totals(order)
    if refunded:
        totals.append(
            {
                "type": "amount_refunded",
                "display_text": "Refunded",
                "amount": shape.minor(refunded, currency),
            }
        )
    adjustments = [
        {
            "id": f"adj_{payment.pk}",
            "type": "refund",
            "occurred_at": payment.updated_at.isoformat(),
            "status": "completed",
            "amount": shape.minor(payment.refunded_amount, currency),
            "currency": currency.lower(),
        }
        for payment in refunds
    ]
    if cancelled:
        adjustments.append(
            {
                "id": f"adj_cancel_{order.pk.hex[:12]}",
                "type": "cancellation",
                "occurred_at": order.updated_at.isoformat(),
                "status": "completed",
                "description": order.failure_message or "Cancelled",
            }
        )
    return {
        "type": "order",
        "id": str(order.pk),
        "checkout_session_id": checkout_session_id,
        "permalink_url": shape.permalink(order),
        "status": _status(order),
        "confirmation": {"receipt_url": shape.permalink(order)},
        "line_items": line_items,
        "fulfillments": [_fulfillment(order, lines, cancelled)],
        "adjustments": adjustments,
        "totals": totals,
    }


def _status(order: Order) -> str:
    if order.status == OrderStatus.CANCELLED:
        return "canceled"
    if order.fulfilment_status == FulfilmentStatus.DELIVERED:
        return "completed"  # the specification's word for "everything arrived"
    if order.fulfilment_status == FulfilmentStatus.SHIPPED:
        return "shipped"
    return "confirmed"


def _fulfillment(order: Order, lines: list, cancelled: bool) -> dict[str, Any]:
    status = {
        FulfilmentStatus.UNFULFILLED: "pending",
        FulfilmentStatus.SHIPPED: "shipped",
        FulfilmentStatus.DELIVERED: "delivered",
    }[FulfilmentStatus(order.fulfilment_status)]
    fulfillment: dict[str, Any] = {
        "id": f"ful_{order.pk.hex[:12]}",
        "type": "shipping",
        "status": "canceled" if cancelled and status == "pending" else status,
        "line_items": [{"id": f"li_{line.pk}", "quantity": line.quantity} for line in lines],
    }
    if order.shipping_option_name:
        fulfillment["description"] = order.shipping_option_name
    for field in ("carrier", "tracking_number", "tracking_url"):
        if getattr(order, field):
            fulfillment[field] = getattr(order, field)
    events = []
    if order.shipped_at:
        events.append(
            {"id": "shipped", "type": "shipped", "occurred_at": order.shipped_at.isoformat()}
        )
    if order.delivered_at:
        events.append(
            {"id": "delivered", "type": "delivered", "occurred_at": order.delivered_at.isoformat()}
        )
    if events:
        fulfillment["events"] = events
    return fulfillment
