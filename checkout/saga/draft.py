"""The saga's first steps: create_order → reserve_items, a draft with its stock held.

Nothing here calls the payment provider, so the workflow row lock is only ever held briefly.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
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
    ReservationStatus,
    SagaStepName,
    SagaStepStatus,
)
from checkout.pricing import PricedLine, Quote
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


@dataclass(frozen=True)
class GiftOptions:
    message: str = ""
    ship_to_recipient: bool = False


def priced_fields(quote: Quote, gift: GiftOptions) -> dict:
    """The order's columns a quote and the gift options fill: what the draft freezes."""
    return {
        "amount": quote.total,
        "currency": quote.currency,
        "prices_include_tax": quote.prices_include_tax,
        "items_total": quote.items_total,
        "shipping_total": quote.shipping_total,
        "gift_wrap_total": quote.gift_wrap_total,
        "tax_total": quote.tax_total,
        "shipping_tax": quote.shipping_tax,
        "gift_wrap_tax": quote.gift_wrap_tax,
        "tax_name": quote.tax_name,
        "tax_rate": quote.tax_rate,
        "shipping_rate_id": quote.delivery.rate_id,
        "shipping_option": quote.delivery.code,
        "shipping_option_name": quote.delivery.name,
        "delivery_earliest": quote.delivery.earliest,
        "delivery_latest": quote.delivery.latest,
        "gift_wrap": quote.wrap.wrap if quote.wrap else None,
        "gift_wrap_name": quote.wrap.wrap.name if quote.wrap else "",
        "gift_message": gift.message,
        "ship_to_recipient": gift.ship_to_recipient,
    }


def do_prepare_order(
    *,
    workflow: WorkflowContext,
    quote: Quote,
    payment_method_id: str,
    shipping: dict,
    gift: GiftOptions,
    correlation_id: str,
    payment_method_label: str = "",
) -> SagaOutcome | Prepared | InProgress:
    """create_order → reserve_items, or re-price the workflow's draft in place. Returns
    Prepared, a failed SagaOutcome (OUT_OF_STOCK), or InProgress when an order of the workflow
    is being (or was) paid for.

    A draft still holding the same items is re-priced and keeps its stock hold (and its
    expiry); any other draft is released and replaced. Either way the draft gets a new
    confirmation token: a confirmation given for the old prices cannot claim the new ones
    (checkout.saga.commit.claim_for_payment compares the token's digest).

    Locks: takes the workflow row lock (select_for_update) itself and holds it for its one
    transaction; call outside any transaction, so the lock ends with the call. A commit claims
    its order under the same lock, so no payment can start between the in-flight check and the
    draft being re-priced or replaced. Nothing here calls the provider, so the lock is brief.
    """
    token = secrets.token_urlsafe(32)
    started = timezone.now()
    line = quote.lines[0]
    with transaction.atomic():
        lock_workflow(workflow.pk)
        # A completed order counts too: the step gate read the workflow before this lock, and
        # a commit may have completed it since.
        busy = Order.objects.filter(
            workflow=workflow, status__in=(*IN_FLIGHT, OrderStatus.COMPLETED)
        ).first()
        if busy is not None:
            return InProgress(busy)
        kept = None
        for old in Order.objects.filter(workflow=workflow, status=OrderStatus.DRAFT):
            if kept is None and _holds_exactly(old, line.product.pk, line.quantity, started):
                kept = old
                continue
            compensation.do_release_draft(
                order_id=old.pk,
                reason="Replaced by a newer draft order.",
                correlation_id=correlation_id,
            )
        fields = {
            **priced_fields(quote, gift),
            "payment_method_id": payment_method_id,
            "payment_method_label": payment_method_label,
            "shipping": shipping,
            "confirmation_token_digest": token_digest(token),
        }
        if kept is not None:
            Order.objects.filter(pk=kept.pk).update(**fields, updated_at=started)
            kept.lines.update(**_line_fields(line))
            step_log.record_step(
                kept,
                SagaStepName.CREATE_ORDER,
                SagaStepStatus.SUCCEEDED,
                correlation_id=correlation_id,
                started_at=started,
                detail=f"Re-priced: {quote.delivery.code}, total {quote.total} {quote.currency}.",
            )
            return Prepared(Order.objects.get(pk=kept.pk), token)
        order = Order.objects.create(
            owner_id=workflow.owner_id,
            workflow=workflow,
            status=OrderStatus.DRAFT,
            correlation_id=correlation_id,
            expires_at=hold_expiry(),
            **fields,
        )
        OrderLine.objects.create(
            order=order,
            product=line.product,
            sku=line.product.sku,
            name=line.product.name,
            **_line_fields(line),
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


def _line_fields(line: PricedLine) -> dict:
    return {
        "unit_price": line.unit_price,
        "quantity": line.quantity,
        "line_total": line.line_total,
        "tax_rate": line.tax_rate,
        "tax_amount": line.tax_amount,
    }


def _holds_exactly(order: Order, product_id: int, quantity: int, now: datetime) -> bool:
    """Whether a draft's live stock hold is exactly `quantity` of one product."""
    if order.expires_at is None or order.expires_at <= now:
        return False
    held = list(
        Reservation.objects.filter(order=order, status=ReservationStatus.HELD).values_list(
            "product_id", "quantity"
        )
    )
    lines = list(order.lines.values_list("product_id", "quantity"))
    return held == [(product_id, quantity)] and lines == held


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
