"""Fulfilment, set by staff: unfulfilled → shipped (carrier, tracking number, optional tracking
URL) → delivered. Only a completed (paid) order ships; every change is audited.

Each move is a conditional UPDATE from the state it leaves, so two staff marking the same order
at once move it once, and a cancelled order is never marked shipped.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from checkout.models import FulfilmentStatus, Order, OrderAuditEntry, OrderStatus, StaffAction
from checkout.order_changes import OrderChange, changed
from tool_runtime.observability import get_logger

log = get_logger("giftgenius.checkout.fulfilment")


@dataclass(frozen=True)
class Shipment:
    order_id: uuid.UUID
    carrier: str
    tracking_number: str
    tracking_url: str = ""


@dataclass(frozen=True)
class FulfilmentReport:
    order_id: uuid.UUID
    outcome: str  # done | refused
    detail: str


def mark_shipped(
    *, shipments: Iterable[Shipment], actor: AbstractBaseUser, reason: str = ""
) -> list[FulfilmentReport]:
    """Mark completed, unfulfilled orders shipped with their tracking; others are refused."""
    reports = []
    for shipment in shipments:
        with transaction.atomic():
            moved = Order.objects.filter(
                pk=shipment.order_id,
                status=OrderStatus.COMPLETED,
                fulfilment_status=FulfilmentStatus.UNFULFILLED,
            ).update(
                fulfilment_status=FulfilmentStatus.SHIPPED,
                carrier=shipment.carrier,
                tracking_number=shipment.tracking_number,
                tracking_url=shipment.tracking_url,
                shipped_at=timezone.now(),
            )
            if moved:
                changed(order_id=shipment.order_id, change=OrderChange.SHIPPED)
            detail = (
                f"Shipped with {shipment.carrier}, tracking {shipment.tracking_number}."
                if moved
                else _refusal(shipment.order_id, FulfilmentStatus.UNFULFILLED)
            )
            report = _audited(
                shipment.order_id, actor, StaffAction.MARK_SHIPPED, reason, moved, detail
            )
        if report:
            reports.append(report)
    return reports


def mark_delivered(
    *, order_ids: Iterable[uuid.UUID], actor: AbstractBaseUser, reason: str = ""
) -> list[FulfilmentReport]:
    """Mark shipped orders delivered; others are refused."""
    reports = []
    for order_id in order_ids:
        with transaction.atomic():
            moved = Order.objects.filter(
                pk=order_id,
                status=OrderStatus.COMPLETED,
                fulfilment_status=FulfilmentStatus.SHIPPED,
            ).update(fulfilment_status=FulfilmentStatus.DELIVERED, delivered_at=timezone.now())
            if moved:
                changed(order_id=order_id, change=OrderChange.DELIVERED)
            detail = "Delivered." if moved else _refusal(order_id, FulfilmentStatus.SHIPPED)
            report = _audited(order_id, actor, StaffAction.MARK_DELIVERED, reason, moved, detail)
        if report:
            reports.append(report)
    return reports


def _refusal(order_id: uuid.UUID, expected: str) -> str:
    order = Order.objects.filter(pk=order_id).only("status", "fulfilment_status").first()
    if order is None:
        return "No such order."
    if order.status != OrderStatus.COMPLETED:
        return f"Refused: the order is {order.status}, not completed."
    return f"Refused: the order is {order.fulfilment_status}, not {expected}."


def _audited(
    order_id: uuid.UUID,
    actor: AbstractBaseUser,
    action: str,
    reason: str,
    moved: int,
    detail: str,
) -> FulfilmentReport | None:
    if not Order.objects.filter(pk=order_id).exists():
        return None
    outcome = "done" if moved else "refused"
    OrderAuditEntry.objects.create(
        actor=actor,
        order_id=order_id,
        action=action,
        reason=reason or StaffAction(action).label,
        outcome=outcome,
        detail=detail[:300],
    )
    log.info(
        "order_fulfilment",
        order_id=str(order_id),
        action=action,
        actor=actor.get_username(),
        outcome=outcome,
    )
    return FulfilmentReport(order_id, outcome, detail)
