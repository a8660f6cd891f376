"""Recovery: finishing or compensating what a dead process left, and asking the provider
what became of an undecided charge. The sweeps recover and reconcile orders with it; the webhooks
ask the provider through it.

Call while holding the order's lease (checkout.saga.lease) and outside any transaction: these
call the provider, and no database lock may be held across that.
"""

from __future__ import annotations

from checkout.models import Order, OrderStatus, Payment, PaymentStatus, SagaStepStatus
from checkout.payments import gateway
from checkout.payments.gateway import ChargeOutcome
from checkout.saga import charge, compensation, step_log
from checkout.saga.outcome import SagaOutcome
from checkout.saga.states import UNDECIDED_PAYMENTS
from tool_runtime.errors import ERROR_CATALOG


def close_interrupted_steps(order: Order, *, correlation_id: str) -> None:
    """Steps left 'started' by a process that died are closed, so the timeline stays truthful."""
    for row in order.saga_steps.filter(status=SagaStepStatus.STARTED):
        step_log.finish_step(
            row,
            order,
            SagaStepStatus.FAILED,
            correlation_id=correlation_id,
            detail="Interrupted: the process stopped during this step; recovery took over.",
        )


def recover_processing(*, order: Order, correlation_id: str) -> SagaOutcome:
    """Finish or compensate a saga that stopped while the order was processing."""
    close_interrupted_steps(order, correlation_id=correlation_id)
    payment = order.payments.filter(attempt=order.saga_attempt).first()
    if payment is None:
        # Died before this attempt's charge was even recorded: nothing can have been charged.
        return compensation.fail_order(
            order_id=order.pk, failure_code="INTERNAL_ERROR", correlation_id=correlation_id
        )
    if payment.status == PaymentStatus.SUCCEEDED:
        return charge.complete(order=order, correlation_id=correlation_id)
    if payment.status in (PaymentStatus.FAILED, PaymentStatus.REFUNDED):
        code = payment.error_code if payment.error_code in ERROR_CATALOG else "INTERNAL_ERROR"
        return compensation.fail_order(
            order_id=order.pk, failure_code=code, correlation_id=correlation_id
        )
    return reconcile_payment(order=order, payment=payment, correlation_id=correlation_id)


def recover_order(order: Order, *, correlation_id: str) -> None:
    """Finish what a dead process left half-way on this order: a saga (processing), a
    cancellation (completed, with a refund made or started), or a closed order still holding
    captured money."""
    if order.status == OrderStatus.PROCESSING:
        recover_processing(order=order, correlation_id=correlation_id)
        return
    close_interrupted_steps(order, correlation_id=correlation_id)
    if order.status == OrderStatus.COMPLETED:
        # The person (or staff) was cancelling; finish it: refund → release → cancel.
        compensation.cancel_completed(
            order_id=order.pk,
            message="Cancelled; the interrupted cancellation was finished by recovery.",
            correlation_id=correlation_id,
        )
    else:
        compensation.refund_payments(order=order, correlation_id=correlation_id)


def provider_answer(payment: Payment) -> ChargeOutcome:
    """What the provider says now about a charge, asked by the key stored before charging (and
    the charge id once known). Provider unreachable → UNKNOWN."""
    return gateway.lookup(
        idempotency_key=payment.provider_idempotency_key,
        charge_id=payment.provider_charge_id,
        since=payment.created_at,
    )


def reconcile_payment(*, order: Order, payment: Payment, correlation_id: str) -> SagaOutcome:
    """Ask the provider what became of an undecided charge, and act on it."""
    return charge.apply_charge_outcome(
        order=order,
        payment=payment,
        outcome=provider_answer(payment),
        step=None,
        correlation_id=correlation_id,
    )


def reconcile_order(order: Order, *, correlation_id: str) -> None:
    """Reconcile every undecided payment of the order, oldest attempt first."""
    undecided = order.payments.filter(status__in=UNDECIDED_PAYMENTS)
    for payment in undecided.order_by("attempt"):
        reconcile_payment(
            order=Order.objects.get(pk=order.pk), payment=payment, correlation_id=correlation_id
        )
