"""Paying for a draft: claim → charge_card → complete, and recording what the provider said
about a charge (right after charging, or after a lookup by recovery or a webhook).

No database transaction is open while the provider is called: the claim commits first, and
what the provider answered is recorded afterwards in transactions of its own.
"""

from __future__ import annotations

import contextlib
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from checkout import order_changes, receipts
from checkout.models import (
    Order,
    OrderStatus,
    Payment,
    PaymentStatus,
    Reservation,
    ReservationStatus,
    SagaStep,
    SagaStepName,
    SagaStepStatus,
)
from checkout.payments import gateway
from checkout.payments.gateway import ChargeOutcome, ChargeResult
from checkout.payments.provider import Charge, ProviderError
from checkout.saga import compensation, step_log
from checkout.saga.draft import hold_expiry
from checkout.saga.locks import lock_workflow
from checkout.saga.outcome import SagaOutcome
from checkout.saga.states import DECLINE_CODES, IN_FLIGHT
from gifts import workflow as flow
from gifts.models import Step


def provider_key(order: Order) -> str:
    """The order's one provider idempotency key, reused by every run of its saga."""
    return f"order-{order.pk}-charge"


def begin_charge(*, order: Order, correlation_id: str) -> tuple[Payment, SagaStep]:
    """The attempt's Payment (pending, under the order's one provider key) and its started
    charge_card step, committed before the provider is asked for anything."""
    key = provider_key(order)
    with transaction.atomic():
        # Only the caller that moved the order to processing gets here. A rerun takes the
        # order's Payment row back from its retryable failure (do_commit_order made sure nothing
        # was captured under the key).
        reused = order.saga_attempt > 1 and Payment.objects.filter(
            order=order, provider_idempotency_key=key
        ).update(status=PaymentStatus.PENDING, attempt=order.saga_attempt, error_code="")
        if reused:
            payment = Payment.objects.get(order=order, provider_idempotency_key=key)
        else:
            payment = Payment.objects.create(
                order=order,
                provider_idempotency_key=key,
                amount=order.amount,
                currency=order.currency,
                attempt=order.saga_attempt,
                status=PaymentStatus.PENDING,
            )
        row = step_log.record_step(
            order, SagaStepName.CHARGE_CARD, SagaStepStatus.STARTED, correlation_id=correlation_id
        )
    step_log.checkpoint(order.pk, SagaStepName.CHARGE_CARD, SagaStepStatus.STARTED)
    return payment, row


def charge_card(*, order: Order, correlation_id: str) -> SagaOutcome:
    key = provider_key(order)
    payment, row = begin_charge(order=order, correlation_id=correlation_id)

    def record_charge_id(charge_id: str) -> None:
        # Committed before the provider attempts the charge: later lookups ask by this id.
        Payment.objects.filter(pk=payment.pk).update(provider_charge_id=charge_id)

    # Outside any transaction: the provider is an external system and may take seconds.
    try:
        outcome = gateway.charge(
            amount=order.amount,
            currency=order.currency,
            payment_method_id=order.payment_method_id,
            idempotency_key=key,
            order_id=str(order.pk),
            workflow_id=str(order.workflow_id or ""),
            correlation_id=correlation_id,
            attempt=order.saga_attempt,
            charge_id=payment.provider_charge_id,
            on_created=record_charge_id,
        )
    except ProviderError:
        # The provider refused the request itself (4xx): nothing was charged, and sending the
        # same request again cannot help, so this failure is not retryable.
        outcome = ChargeOutcome(ChargeResult.REJECTED, None, None, 1)
    step_log.checkpoint(order.pk, SagaStepName.CHARGE_CARD, "provider_answered")
    return apply_charge_outcome(
        order=order, payment=payment, outcome=outcome, step=row, correlation_id=correlation_id
    )


def failure_code_for(outcome: ChargeOutcome) -> str:
    if outcome.result == ChargeResult.DECLINED:
        return outcome.decline_code if outcome.decline_code in DECLINE_CODES else "CARD_DECLINED"
    if outcome.result == ChargeResult.NOT_CHARGED_TIMEOUT:
        return "PAYMENT_TIMEOUT"
    if outcome.result in (ChargeResult.REJECTED, ChargeResult.ACTION_REQUIRED):
        # ACTION_REQUIRED here: an action with no page to send the person to, not one to retry.
        return "PAYMENT_REJECTED"
    return "PAYMENT_PROVIDER_ERROR"


def apply_charge_outcome(
    *,
    order: Order,
    payment: Payment,
    outcome: ChargeOutcome,
    step: SagaStep | None,
    correlation_id: str,
) -> SagaOutcome:
    """Record what the provider said about a charge and move the order on.

    Used by the saga right after charging (`step` = its charge_card row) and by recovery,
    reconciliation and the webhooks after a lookup (`step` None: a reconcile step is written
    when it decides). Call outside any transaction: settling may refund at the provider. A
    caller other than the saga holds the order's lease (checkout.saga.lease), so two settlers
    never act on the same answer.
    """
    result, charge = outcome.result, outcome.charge
    charge_id = charge.id if charge else ""
    if result in (ChargeResult.PENDING, ChargeResult.UNKNOWN):
        payment_status = (
            PaymentStatus.PENDING if result == ChargeResult.PENDING else PaymentStatus.UNKNOWN
        )
        detail = (
            "The provider holds the payment as pending."
            if result == ChargeResult.PENDING
            else "The provider could not be reached; the outcome is unknown until reconciliation asks again."
        )
        with transaction.atomic():
            _record_payment(payment, payment_status, charge_id=charge_id)
            moved = Order.objects.filter(pk=order.pk, status=OrderStatus.PROCESSING).update(
                status=OrderStatus.PAYMENT_PENDING
            )
            # The person is charged or about to be: keep their stock while we wait.
            Reservation.objects.filter(order=order, status=ReservationStatus.HELD).update(
                expires_at=hold_expiry()
            )
            if step is not None or moved:  # a lookup that changed nothing writes no step
                _finish_charge_step(
                    step=step,
                    order=order,
                    payment=payment,
                    status=SagaStepStatus.PENDING,
                    correlation_id=correlation_id,
                    detail=detail,
                )
        step_log.checkpoint(order.pk, SagaStepName.CHARGE_CARD, SagaStepStatus.PENDING)
        return SagaOutcome.now(order.pk)

    if result == ChargeResult.ACTION_REQUIRED and charge is not None and charge.action_url:
        return _await_authentication(
            order=order, payment=payment, charge=charge, step=step, correlation_id=correlation_id
        )

    if result == ChargeResult.ACTION_REQUIRED and charge is not None:
        # No page to send the person to: cancel the intent, so nothing can capture through it
        # once the order has failed (a later sweep would find it again otherwise).
        with contextlib.suppress(ProviderError):
            gateway.expire_hosted_checkout(checkout_id=charge.id)

    if result == ChargeResult.SUCCEEDED and charge is not None and charge.refunded_amount > 0:
        return _refunded_before_completion(
            order=order, payment=payment, charge=charge, step=step, correlation_id=correlation_id
        )

    if result == ChargeResult.SUCCEEDED:
        with transaction.atomic():
            _record_payment(payment, PaymentStatus.SUCCEEDED, charge_id=charge_id)
            label = charge.card_label if charge is not None else ""
            if label and label != order.payment_method_label:
                # The card the provider charged: a new card's only once paid on its page (a
                # saved card's was stored when the order was prepared).
                order.payment_method_label = label
                Order.objects.filter(pk=order.pk).update(payment_method_label=label)
            _finish_charge_step(
                step=step,
                order=order,
                payment=payment,
                status=SagaStepStatus.SUCCEEDED,
                correlation_id=correlation_id,
                reconcile_detail="The provider confirmed the charge.",
            )
        step_log.checkpoint(order.pk, SagaStepName.CHARGE_CARD, SagaStepStatus.SUCCEEDED)
        return complete(order=order, correlation_id=correlation_id)

    code = failure_code_for(outcome)
    with transaction.atomic():
        _record_payment(payment, PaymentStatus.FAILED, charge_id=charge_id, error_code=code)
        _finish_charge_step(
            step=step,
            order=order,
            payment=payment,
            status=SagaStepStatus.FAILED,
            correlation_id=correlation_id,
            error_code=code,
            reconcile_detail="The provider says nothing was charged.",
        )
    step_log.checkpoint(order.pk, SagaStepName.CHARGE_CARD, SagaStepStatus.FAILED)
    return compensation.fail_order(
        order_id=order.pk, failure_code=code, correlation_id=correlation_id
    )


def _await_authentication(
    *, order: Order, payment: Payment, charge: Charge, step: SagaStep | None, correlation_id: str
) -> SagaOutcome:
    """The bank asks the person to authenticate (3-D Secure): the order awaits payment at the
    intent's redirect, its stock held as for a payment page (checkout.saga.hosted settles it
    from what the provider says afterwards; nothing is charged a second time)."""
    until = timezone.now() + timedelta(seconds=settings.HOSTED_CHECKOUT_HOLD_SECONDS)
    with transaction.atomic():
        _record_payment(payment, PaymentStatus.PENDING, charge_id=charge.id)
        # Pending too: a confirm whose answer was lost is found asking for 3-D Secure only
        # when the sweep reconciles it, and the person must still be sent to the bank.
        waiting = (OrderStatus.PROCESSING, OrderStatus.PAYMENT_PENDING)
        moved = Order.objects.filter(pk=order.pk, status__in=waiting).update(
            status=OrderStatus.AWAITING_PAYMENT,
            payment_session_id=charge.id,
            payment_url=charge.action_url,
            payment_url_reason="authenticate",
            payment_url_expires_at=until,
            expires_at=until,
        )
        if moved:
            Reservation.objects.filter(order=order, status=ReservationStatus.HELD).update(
                expires_at=until
            )
        if step is not None or moved:
            _finish_charge_step(
                step=step,
                order=order,
                payment=payment,
                status=SagaStepStatus.PENDING,
                correlation_id=correlation_id,
                detail="The bank asks the person to authenticate the payment (3-D Secure).",
            )
    step_log.checkpoint(order.pk, SagaStepName.CHARGE_CARD, SagaStepStatus.PENDING)
    return SagaOutcome.now(order.pk)


def _finish_charge_step(
    *,
    step: SagaStep | None,
    order: Order,
    payment: Payment,
    status: str,
    correlation_id: str,
    detail: str = "",
    error_code: str = "",
    reconcile_detail: str | None = None,
) -> None:
    """Record what the provider said: the charge step the saga started is finished, or, for a
    lookup (recovery, reconciliation, a webhook: `step` None), a reconcile step is written."""
    if step is not None:
        step_log.finish_step(
            step, order, status, correlation_id=correlation_id, error_code=error_code, detail=detail
        )
    else:
        step_log.record_step(
            order,
            SagaStepName.RECONCILE,
            status,
            correlation_id=correlation_id,
            attempt=payment.attempt,
            error_code=error_code,
            detail=reconcile_detail if reconcile_detail is not None else detail,
        )


REFUNDED_AT_PROVIDER = (
    "The payment was refunded at the payment provider before the order was completed; "
    "the order was cancelled."
)


def _refunded_before_completion(
    *, order: Order, payment: Payment, charge: Charge, step: SagaStep | None, correlation_id: str
) -> SagaOutcome:
    """The provider captured, but (part of) the money went back before we settled the order,
    e.g. a refund in the provider's dashboard while the order was payment_pending. The order
    must not complete (goods would ship for money we no longer hold): record the refund, then
    compensate as for any failure: refund what the provider still holds, release the stock,
    close the order. An order closed meanwhile is left closed (only the money is settled)."""
    refunded = min(charge.refunded_amount, payment.amount)
    in_full = refunded >= payment.amount
    detail = f"Captured, then {refunded} {payment.currency} refunded at the provider."
    with transaction.atomic():
        Payment.objects.filter(
            pk=payment.pk, status__in=_REPLACEABLE[PaymentStatus.SUCCEEDED]
        ).update(
            status=PaymentStatus.REFUNDED if in_full else PaymentStatus.SUCCEEDED,
            refunded_amount=refunded,
            provider_charge_id=charge.id,
            error_code="",
        )
        _finish_charge_step(
            step=step,
            order=order,
            payment=payment,
            status=SagaStepStatus.SUCCEEDED,
            correlation_id=correlation_id,
            detail=detail,
        )
    compensation.compensate(
        order_id=order.pk,
        failure_code="",
        failure_message=REFUNDED_AT_PROVIDER,
        final_status=OrderStatus.CANCELLED,
        expected_statuses=IN_FLIGHT,
        correlation_id=correlation_id,
    )
    return SagaOutcome.now(order.pk)


# Which recorded states an answer may replace. The provider saying it captured (or holds) the
# money is a fact and overrides our "not charged" inference (recovery may have decided that
# while a slow charge was still in flight); "unknown" and "not charged" never override a fact.
_REPLACEABLE = {
    PaymentStatus.SUCCEEDED: [PaymentStatus.PENDING, PaymentStatus.UNKNOWN, PaymentStatus.FAILED],
    PaymentStatus.PENDING: [PaymentStatus.PENDING, PaymentStatus.UNKNOWN, PaymentStatus.FAILED],
    PaymentStatus.UNKNOWN: [PaymentStatus.PENDING, PaymentStatus.UNKNOWN],
    PaymentStatus.FAILED: [PaymentStatus.PENDING, PaymentStatus.UNKNOWN],
}


def _record_payment(payment: Payment, status: str, *, charge_id: str, error_code: str = "") -> None:
    fields: dict = {"status": status, "error_code": error_code}
    if charge_id:
        fields["provider_charge_id"] = charge_id
    Payment.objects.filter(pk=payment.pk, status__in=_REPLACEABLE[status]).update(**fields)


def complete(*, order: Order, correlation_id: str) -> SagaOutcome:
    """Payment captured: confirm the stock, complete the order and the workflow (one transaction
    holding the workflow row lock; call outside any transaction).

    If the order was compensated meanwhile (a recovery sweep decided it had died), the charge
    that just came in is refunded, after that transaction: money is never kept for an order that
    is not completed.
    """
    started = timezone.now()
    with transaction.atomic():
        workflow = lock_workflow(order.workflow_id)
        receipt_key = receipts.new_receipt_key()
        done = Order.objects.filter(pk=order.pk, status__in=IN_FLIGHT).update(
            status=OrderStatus.COMPLETED,
            confirmation_used_at=timezone.now(),
            failure_code="",
            failure_message="",
            receipt_key=receipt_key,
        )
        if done:
            Reservation.objects.filter(order=order, status=ReservationStatus.HELD).update(
                status=ReservationStatus.CONFIRMED
            )
            order.receipt_key = receipt_key
            receipts.do_enqueue_confirmation(order=order)
            order_changes.changed(order_id=order.pk, change=order_changes.OrderChange.CONFIRMED)
            if workflow is not None and flow.can_move(workflow.current_step, Step.COMPLETED):
                flow.move(workflow, Step.COMPLETED)
                workflow.save(update_fields=["current_step", "visited_steps", "updated_at"])
        step_log.record_step(
            order,
            SagaStepName.COMPLETE,
            SagaStepStatus.SUCCEEDED if done else SagaStepStatus.FAILED,
            correlation_id=correlation_id,
            started_at=started,
            detail=""
            if done
            else "The order had already been closed; a capture it does not need is refunded.",
        )
    step_log.checkpoint(
        order.pk, SagaStepName.COMPLETE, SagaStepStatus.SUCCEEDED if done else SagaStepStatus.FAILED
    )
    if done:
        order.status = OrderStatus.COMPLETED
        return SagaOutcome(order)
    current = Order.objects.get(pk=order.pk)
    if current.status == OrderStatus.COMPLETED:
        # Completed meanwhile (a sweep or another process got there first) with this very
        # capture: the order has one provider key, so there is no second one to give back.
        return SagaOutcome(current)
    compensation.compensate(
        order_id=order.pk,
        failure_code=current.failure_code,
        final_status=current.status,
        correlation_id=correlation_id,
        expected_statuses=(),  # already closed: refund the late capture, close nothing
    )
    return SagaOutcome.now(order.pk)
