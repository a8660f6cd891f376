"""Recovery: finishing or compensating what a dead process left, and asking the provider
what became of an undecided charge. Used by the sweeps (and, for the lookup, the webhooks).

The caller holds the order's lease (checkout.saga.lease), never a database lock: these call the
provider.
"""

from __future__ import annotations

from checkout.models import Order, OrderStatus, Payment, PaymentStatus, SagaStepStatus
from checkout.payments import gateway
from checkout.saga import charge, compensation, step_log
from checkout.saga.outcome import SagaOutcome
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
        compensation.compensate(
            order_id=order.pk,
            failure_code="INTERNAL_ERROR",
            final_status=OrderStatus.FAILED,
            correlation_id=correlation_id,
        )
        return SagaOutcome.now(order.pk, "INTERNAL_ERROR")
    if payment.status == PaymentStatus.SUCCEEDED:
        return charge.complete(order=order, correlation_id=correlation_id)
    if payment.status in (PaymentStatus.FAILED, PaymentStatus.REFUNDED):
        code = payment.error_code if payment.error_code in ERROR_CATALOG else "INTERNAL_ERROR"
        compensation.compensate(
            order_id=order.pk,
            failure_code=code,
            final_status=OrderStatus.FAILED,
            correlation_id=correlation_id,
        )
        return SagaOutcome.now(order.pk, code)
    return reconcile_payment(order=order, payment=payment, correlation_id=correlation_id)


def reconcile_payment(*, order: Order, payment: Payment, correlation_id: str) -> SagaOutcome:
    """Ask the provider, by the stored key, what became of an undecided charge, and act on it."""
    outcome = gateway.lookup(
        idempotency_key=payment.provider_idempotency_key,
        charge_id=payment.provider_charge_id,
        since=payment.created_at,
    )
    return charge.apply_charge_outcome(
        order=order, payment=payment, outcome=outcome, step=None, correlation_id=correlation_id
    )
