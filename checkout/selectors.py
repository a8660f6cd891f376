"""Reads of orders: always scoped to the owner, so another principal's order is simply not found."""

from __future__ import annotations

import uuid

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Prefetch

from checkout.models import Order, OrderLine, Payment
from checkout.payments.methods import payment_method
from giftgenius.errors import ERROR_CATALOG, ToolError


def order_for(*, owner: AbstractBaseUser, order_id: uuid.UUID) -> Order:
    order = Order.objects.filter(pk=order_id, owner=owner).first()
    if order is None:
        raise ToolError(
            "NOT_FOUND",
            f"No order {order_id} exists for this user. Use the order_id returned by prepare_order.",
            field="order_id",
        )
    return order


def order_with_history(*, owner: AbstractBaseUser, order_id: uuid.UUID) -> Order:
    order = (
        Order.objects.filter(pk=order_id, owner=owner)
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


def payment_method_ref(method_id: str) -> dict:
    method = payment_method(method_id)
    return {"id": method_id, "label": method.label if method else method_id}


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
        "payment_method": payment_method_ref(order.payment_method_id),
        "created_at": order.created_at,
        "expires_at": order.expires_at if order.status == "draft" else None,
        "failure": failure,
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
