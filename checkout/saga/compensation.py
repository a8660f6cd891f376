"""Compensations, in reverse order of the saga: refund (if charged) → cancel_reservation →
cancel_order. Every one is idempotent and none is ever left half-done:

- refunds go first and each carries its own provider idempotency key, so repeating one (after a
  crash, or by two callers at once) refunds once; if a refund cannot be made, nothing else
  changes and the caller is told;
- releasing the stock and closing the order happen in ONE transaction, with the order row locked
  and its status checked, so they happen together, once, or not at all.

The same code serves the saga's failures, the sweeps, the webhooks, and (through
checkout.saga.cancellation) the person's cancel_order and the staff rollback in the admin.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction
from django.db.models import F
from django.utils import timezone, translation

from checkout import order_changes, selectors
from checkout.errors import RETRYABLE_FAILURES
from checkout.models import (
    Order,
    OrderStatus,
    Payment,
    PaymentStatus,
    Reservation,
    ReservationStatus,
    SagaStepName,
    SagaStepStatus,
)
from checkout.payments import gateway
from checkout.payments.provider import ChargeStatus, ProviderError, ProviderRejected
from checkout.saga import step_log
from checkout.saga.locks import lock_workflow
from checkout.saga.outcome import SagaOutcome
from checkout.saga.states import LIVE_STATUSES, OPEN_STATUSES
from gifts import workflow as flow
from gifts.models import Product, Step, WorkflowContext
from tool_runtime.errors import ERROR_CATALOG

ZERO = Decimal("0.00")


class RefundFailed(Exception):
    """The provider could not refund; nothing after the refund was done. `rejected`: the
    provider refused the request itself (4xx), so asking again cannot help; otherwise it was
    unreachable and a later try may succeed."""

    def __init__(self, code: str, *, rejected: bool) -> None:
        super().__init__(code)
        self.code = code
        self.rejected = rejected


@dataclass(frozen=True)
class Compensation:
    order: Order
    refunded: Decimal  # refunded by this call
    closed: bool  # True when this call moved the order to its final status


def failure_message_for(code: str) -> str:
    """The person-facing sentence for a failure code, from the catalog (stored in English)."""
    spec = ERROR_CATALOG.get(code)
    if spec is None:
        return ""
    with translation.override("en"):
        return str(spec.banner)


def compensate(
    *,
    order_id: object,
    failure_code: str,
    final_status: str,
    correlation_id: str,
    failure_message: str | None = None,
    expected_statuses: tuple[str, ...] = OPEN_STATUSES,
    rollback_workflow: bool = True,
) -> Compensation:
    """Refund what was captured, then release the stock and close the order (once).

    Call outside any transaction (refunds call the provider), except where nothing can have
    been captured: do_prepare_order compensates a sold-out draft inside its own transaction.
    """
    order = Order.objects.get(pk=order_id)
    refunded = refund_payments(order=order, correlation_id=correlation_id)
    closed = release_and_close(
        order_id=order.pk,
        expected_statuses=expected_statuses,
        final_status=final_status,
        failure_code=failure_code,
        failure_message=failure_message_for(failure_code)
        if failure_message is None
        else failure_message,
        rollback_workflow=rollback_workflow,
        correlation_id=correlation_id,
    )
    return Compensation(Order.objects.get(pk=order.pk), refunded, closed)


def fail_order(*, order_id: object, failure_code: str, correlation_id: str) -> SagaOutcome:
    """A saga step failed with `failure_code`: compensate, close the order as failed (once) and
    answer with the order as it ended. Same calling rules as compensate."""
    done = compensate(
        order_id=order_id,
        failure_code=failure_code,
        final_status=OrderStatus.FAILED,
        correlation_id=correlation_id,
    )
    return SagaOutcome(done.order, failure_code)


def cancel_completed(*, order_id: object, message: str, correlation_id: str) -> Compensation:
    """Cancel a completed order: refund what the provider still holds, release the stock, cancel
    (once; `closed` is False if it was no longer completed) and turn its workflow failed. Same
    calling rules as compensate."""
    return compensate(
        order_id=order_id,
        failure_code="",
        failure_message=message,
        final_status=OrderStatus.CANCELLED,
        expected_statuses=(OrderStatus.COMPLETED,),
        correlation_id=correlation_id,
    )


def refund_payments(*, order: Order, correlation_id: str) -> Decimal:
    """Refund every captured, not yet refunded payment of the order; returns what this call
    refunded. Raises RefundFailed.

    What to refund is what the provider still holds, read first: refunds made at the provider
    (its dashboard, or one of ours whose answer was lost) may not be in our books yet, and asking
    for more than it holds is refused every time. Nothing held any more: already done."""
    total = ZERO
    captured = order.payments.filter(status=PaymentStatus.SUCCEEDED).order_by("attempt", "pk")
    for payment in captured:
        if payment.amount - payment.refunded_amount <= 0:
            continue
        row = step_log.record_step(
            order,
            SagaStepName.REFUND,
            SagaStepStatus.STARTED,
            correlation_id=correlation_id,
            attempt=payment.attempt,
        )
        step_log.checkpoint(order.pk, SagaStepName.REFUND, SagaStepStatus.STARTED)
        try:  # outside any transaction: the provider is an external system
            held = still_held(payment=payment)
            refund = (
                gateway.refund(
                    charge_id=payment.provider_charge_id,
                    amount=held,
                    idempotency_key=f"{payment.provider_idempotency_key}-refund",
                )
                if held > 0
                else None
            )
        except ProviderError as exc:
            step_log.finish_step(
                row,
                order,
                SagaStepStatus.FAILED,
                correlation_id=correlation_id,
                error_code="PAYMENT_PROVIDER_ERROR",
                detail=f"The refund could not be made ({exc.code}); nothing else was changed.",
            )
            raise RefundFailed(exc.code, rejected=isinstance(exc, ProviderRejected)) from exc
        with transaction.atomic():
            marked = Payment.objects.filter(pk=payment.pk, status=PaymentStatus.SUCCEEDED).update(
                status=PaymentStatus.REFUNDED,
                refunded_amount=payment.amount,  # all of it is back: ours and the provider's
                provider_refund_id=refund.id if refund else payment.provider_refund_id,
            )
            if not marked:
                # Another caller (a second rollback, the person's cancel_order) refunded it
                # since it was read, under the same refund key: the provider refunded once, and
                # that caller records the success and counts the money.
                step_log.finish_step(
                    row,
                    order,
                    SagaStepStatus.SKIPPED,
                    correlation_id=correlation_id,
                    detail="Already refunded by another cancellation running at the same time.",
                )
                continue
            step_log.finish_step(
                row,
                order,
                SagaStepStatus.SUCCEEDED,
                correlation_id=correlation_id,
                detail=""
                if refund
                else "Already refunded in full at the provider; nothing left to refund.",
            )
            order_changes.changed(
                order_id=order.pk,
                change=order_changes.OrderChange.REFUNDED,
                detail=f"{payment.pk}:{payment.amount}",
            )
        step_log.checkpoint(order.pk, SagaStepName.REFUND, SagaStepStatus.SUCCEEDED)
        total += held
    return total


def still_held(*, payment: Payment) -> Decimal:
    """What the provider still holds of a payment we recorded as captured. Raises
    ProviderError. A charge the provider does not show as captured is answered with what our
    books say is left, so the refund asks for it and the provider's refusal is reported."""
    charge = gateway.retrieve(charge_id=payment.provider_charge_id)
    if charge.status != ChargeStatus.SUCCEEDED:
        return payment.amount - payment.refunded_amount
    return max(charge.net_captured, ZERO)


def release_and_close(
    *,
    order_id: object,
    expected_statuses: tuple[str, ...],
    final_status: str,
    failure_code: str,
    failure_message: str,
    rollback_workflow: bool,
    correlation_id: str,
) -> bool:
    """cancel_reservation + cancel_order in one transaction; False if the order was not in
    one of `expected_statuses` (someone else moved it first, or it is already closed).

    Locks, in checkout's order: the workflow row (only with `rollback_workflow`), then the order
    row (select_for_update, its status checked under it), then the stock rows. Inside a
    caller's transaction this runs in a savepoint and the locks last until the caller commits.
    """
    started = timezone.now()
    workflow_id = Order.objects.filter(pk=order_id).values_list("workflow_id", flat=True).first()
    with transaction.atomic():
        # Lock order everywhere in checkout: workflow, then order, then stock.
        workflow = lock_workflow(workflow_id, with_order=True) if rollback_workflow else None
        order = Order.objects.select_for_update().get(pk=order_id)
        if order.status not in expected_statuses:
            return False
        released_as = (
            ReservationStatus.EXPIRED
            if failure_code == "ORDER_EXPIRED"
            else ReservationStatus.RELEASED
        )
        holds = list(
            order.reservations.filter(
                status__in=[ReservationStatus.HELD, ReservationStatus.CONFIRMED]
            )
        )
        for hold in holds:
            if Reservation.objects.filter(pk=hold.pk, status=hold.status).update(
                status=released_as, released_at=timezone.now()
            ):
                Product.objects.filter(pk=hold.product_id).update(stock=F("stock") + hold.quantity)
        if holds:
            step_log.record_step(
                order,
                SagaStepName.CANCEL_RESERVATION,
                SagaStepStatus.SUCCEEDED,
                correlation_id=correlation_id,
                started_at=started,
                detail=f"{sum(h.quantity for h in holds)} unit(s) back in stock.",
            )
        previous = order.status
        order.status = final_status
        order.failure_code = failure_code
        order.failure_message = failure_message[:300]
        fields = ["status", "failure_code", "failure_message", "updated_at"]
        # The confirmation token dies with any end the person cannot retry from.
        if order.confirmation_used_at is None and (
            final_status == OrderStatus.CANCELLED or failure_code not in RETRYABLE_FAILURES
        ):
            order.confirmation_used_at = timezone.now()
            fields.append("confirmation_used_at")
        order.save(update_fields=fields)
        step_log.record_step(
            order,
            SagaStepName.CANCEL_ORDER,
            SagaStepStatus.SUCCEEDED,
            correlation_id=correlation_id,
            started_at=started,
            error_code=failure_code,
            detail=failure_message,
        )
        if workflow is not None:
            _roll_back_workflow(workflow, order, previous)
        if previous == OrderStatus.COMPLETED:
            order_changes.changed(order_id=order.pk, change=order_changes.OrderChange.CANCELLED)
    step_log.checkpoint(order.pk, SagaStepName.CANCEL_ORDER, SagaStepStatus.SUCCEEDED)
    return True


def _roll_back_workflow(workflow: WorkflowContext, order: Order, previous: str) -> None:
    """Logical rollback: a failed checkout returns to gift_selected so a new prepare_order can
    start; a cancelled purchase turns a completed workflow into failed."""
    if previous == OrderStatus.COMPLETED:
        if workflow.current_step == Step.COMPLETED:
            flow.move(workflow, Step.FAILED)
            workflow.save(update_fields=["current_step", "visited_steps", "updated_at"])
        return
    draft_id = selectors.workflow_order_id(workflow=workflow)
    other_live_draft = (
        draft_id not in (None, order.pk)
        and Order.objects.filter(pk=draft_id, status__in=LIVE_STATUSES).exists()
    )
    if other_live_draft:
        return  # a newer order owns the checkout now
    if workflow.current_step == Step.CHECKOUT:
        flow.move(workflow, Step.GIFT_SELECTED)
        workflow.save(update_fields=["current_step", "visited_steps", "updated_at"])


# --- drafts -------------------------------------------------------------------------------------


def do_release_draft(
    *,
    order_id: object,
    reason: str,
    correlation_id: str = "",
    failure_code: str = "",
    rollback_workflow: bool = False,
) -> bool:
    """Cancel a draft and give its stock back; does nothing (False) if it is not a draft.

    Locks: takes the order row lock itself (release_and_close), and the workflow row lock first
    with `rollback_workflow`. Without it, a caller that must keep the draft from being claimed
    meanwhile calls this while holding the workflow row lock (select_for_update): replacing a
    draft (do_prepare_order) and leaving checkout (navigate_back) do. Never calls the provider:
    a draft has no payment.
    """
    return release_and_close(
        order_id=order_id,
        expected_statuses=(OrderStatus.DRAFT,),
        final_status=OrderStatus.CANCELLED,
        failure_code=failure_code,
        failure_message=reason,
        rollback_workflow=rollback_workflow,
        correlation_id=correlation_id,
    )


def expire_draft(*, order_id: object, correlation_id: str) -> bool:
    """A draft whose hold lapsed: cancelled as expired, stock back, workflow back to gift_selected."""
    return do_release_draft(
        order_id=order_id,
        reason="Expired: the purchase was not confirmed while the stock was held.",
        correlation_id=correlation_id,
        failure_code="ORDER_EXPIRED",
        rollback_workflow=True,
    )
