"""The saga's first steps: create_order → reserve_items, a draft with its stock held.

Nothing here calls the payment provider, so the workflow row lock is only ever held briefly.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from checkout.models import (
    Order,
    OrderLine,
    OrderStatus,
    Reservation,
    SagaStepName,
    SagaStepStatus,
)
from checkout.saga import compensation, step_log
from checkout.saga.locks import lock_workflow
from checkout.saga.outcome import InProgress, Prepared, SagaOutcome
from checkout.saga.states import IN_FLIGHT
from gifts import workflow as flow
from gifts.models import Product, Step, WorkflowContext


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def hold_expiry() -> datetime:
    """When a stock hold taken (or extended) now lapses."""
    return timezone.now() + timedelta(seconds=settings.RESERVATION_TTL_SECONDS)


def do_prepare_order(
    *,
    workflow: WorkflowContext,
    product: Product,
    payment_method_id: str,
    shipping: dict,
    correlation_id: str,
) -> SagaOutcome | Prepared | InProgress:
    """create_order → reserve_items, replacing the workflow's earlier draft. Returns Prepared,
    a failed SagaOutcome (OUT_OF_STOCK), or InProgress when an order of the workflow is being
    paid for.

    Locks: takes the workflow row lock (select_for_update) itself and holds it for its one
    transaction; call outside any transaction, so the lock ends with the call. A commit claims
    its order under the same lock, so no payment can start between the in-flight check and the
    new draft replacing the old. Nothing here calls the provider, so the lock is held briefly.
    """
    token = secrets.token_urlsafe(32)
    started = timezone.now()
    with transaction.atomic():
        lock_workflow(workflow.pk)
        busy = Order.objects.filter(workflow=workflow, status__in=IN_FLIGHT).first()
        if busy is not None:
            return InProgress(busy)
        for old_id in Order.objects.filter(workflow=workflow, status=OrderStatus.DRAFT).values_list(
            "pk", flat=True
        ):
            compensation.do_release_draft(
                order_id=old_id,
                reason="Replaced by a newer draft order.",
                correlation_id=correlation_id,
            )
        order = Order.objects.create(
            owner_id=workflow.owner_id,
            workflow=workflow,
            status=OrderStatus.DRAFT,
            amount=product.price,
            currency=product.currency,
            payment_method_id=payment_method_id,
            shipping=shipping,
            confirmation_token_digest=token_digest(token),
            correlation_id=correlation_id,
            expires_at=hold_expiry(),
        )
        OrderLine.objects.create(
            order=order,
            product=product,
            sku=product.sku,
            name=product.name,
            unit_price=product.price,
            quantity=1,
        )
        step_log.record_step(
            order,
            SagaStepName.CREATE_ORDER,
            SagaStepStatus.SUCCEEDED,
            correlation_id=correlation_id,
            started_at=started,
        )
        step_log.checkpoint(order.pk, SagaStepName.CREATE_ORDER, SagaStepStatus.SUCCEEDED)
        sold_out = reserve_or_fail(order=order, correlation_id=correlation_id)
    return sold_out or Prepared(Order.objects.get(pk=order.pk), token)


def reserve_items(*, order: Order, correlation_id: str) -> bool:
    """Take stock for every line and point the workflow at the order, in one transaction that
    holds the workflow row lock (inside do_prepare_order's, or on its own for a rerun).

    `stock = stock - q WHERE stock >= q` is a single conditional UPDATE: under concurrency the
    database serialises the row, so stock is never oversold and never negative.
    """
    started = timezone.now()
    expires_at = hold_expiry()
    lines = list(order.lines.all())
    with transaction.atomic():
        workflow = lock_workflow(order.workflow_id)
        try:
            with transaction.atomic():  # a partial take of several lines rolls back as a whole
                for line in lines:
                    taken = Product.objects.filter(
                        pk=line.product_id, active=True, stock__gte=line.quantity
                    ).update(stock=F("stock") - line.quantity)
                    if not taken:
                        raise _NoStock
                    Reservation.objects.create(
                        order=order,
                        product_id=line.product_id,
                        quantity=line.quantity,
                        expires_at=expires_at,
                    )
            held = True
        except _NoStock:
            held = False
        if held:
            Order.objects.filter(pk=order.pk).update(expires_at=expires_at)
            if workflow is not None and flow.can_move(workflow.current_step, Step.CHECKOUT):
                flow.move(workflow, Step.CHECKOUT)
                workflow.save(update_fields=["current_step", "visited_steps", "updated_at"])
        step_log.record_step(
            order,
            SagaStepName.RESERVE_ITEMS,
            SagaStepStatus.SUCCEEDED if held else SagaStepStatus.FAILED,
            correlation_id=correlation_id,
            started_at=started,
            error_code="" if held else "OUT_OF_STOCK",
        )
    step_log.checkpoint(
        order.pk,
        SagaStepName.RESERVE_ITEMS,
        SagaStepStatus.SUCCEEDED if held else SagaStepStatus.FAILED,
    )
    return held


class _NoStock(Exception):
    pass


def reserve_or_fail(*, order: Order, correlation_id: str) -> SagaOutcome | None:
    """Hold the stock; when there is none, compensate and say the order failed OUT_OF_STOCK."""
    if reserve_items(order=order, correlation_id=correlation_id):
        return None
    return compensation.fail_order(
        order_id=order.pk, failure_code="OUT_OF_STOCK", correlation_id=correlation_id
    )
