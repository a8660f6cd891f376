"""The checkout saga: create_order → reserve_items → charge_card → complete.

Every step is persisted in SagaStep and the order's status moves after every step, so a process
that dies half-way leaves a record the recovery sweep finishes or compensates (checkout.sweeps).

Rules kept throughout:
- no database transaction is open while the payment provider is called;
- the provider idempotency key of a charge is stored on the Payment row BEFORE the call, so
  recovery can always ask the provider what became of it;
- an order has ONE provider key and one Payment row, whatever the number of saga runs: a rerun
  after a retryable failure asks the provider under the same key, so it answers with the one
  charge it holds for the order (or makes it now) and can never capture a second time;
- state changes are compare-and-swap updates (`filter(status=...).update(...)`), so a saga, a
  sweep and a cancellation racing on one order can never both win;
- a charge outcome is recorded as the provider states it, never guessed: unknown → payment_pending;
- the workflow row is the lock that serialises a person's actions on one checkout: prepare_order
  (replacing the draft), a step back (releasing it) and a commit's claim (starting to pay it) each
  take it first, so an order can only start being paid while it is the workflow's draft, and the
  draft is never replaced or released while an order of the workflow is being paid.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, F, OuterRef
from django.utils import timezone

from checkout import compensation, selectors
from checkout.errors import RETRYABLE_FAILURES
from checkout.models import (
    Order,
    OrderLine,
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
from gifts import workflow as flow
from gifts.models import Product, Step, WorkflowContext
from tool_runtime.errors import ERROR_CATALOG
from tool_runtime.observability import get_logger

LOGGER = "giftgenius.checkout.saga"  # under the configured "giftgenius" logger

DECLINE_CODES = frozenset({"CARD_DECLINED", "INSUFFICIENT_FUNDS"})
LIVE_STATUSES = (OrderStatus.DRAFT, OrderStatus.PROCESSING, OrderStatus.PAYMENT_PENDING)
IN_FLIGHT = (OrderStatus.PROCESSING, OrderStatus.PAYMENT_PENDING)  # being paid for


# --- the step log -----------------------------------------------------------------------------


def checkpoint(order_id: object, step: str, status: str) -> None:
    """Reached right after a step's progress was written (committed, except inside
    prepare_order's one transaction). Does nothing; tests patch it to make the process "die"
    at exactly this point."""


def log_step(row: SagaStep, order: Order, correlation_id: str) -> None:
    duration = (
        (row.finished_at - row.started_at).total_seconds() * 1000 if row.finished_at else None
    )
    get_logger(LOGGER).info(  # looked up per call so log capture in tests sees it
        "saga_step",
        order_id=str(order.pk),
        workflow_id=str(order.workflow_id) if order.workflow_id else None,
        step=row.step,
        status=row.status,
        attempt=row.attempt,
        error_code=row.error_code or None,
        correlation_id=correlation_id,
        duration_ms=round(duration, 2) if duration is not None else None,
    )


def record_step(
    order: Order,
    step: str,
    status: str,
    *,
    correlation_id: str,
    started_at=None,
    attempt: int | None = None,
    error_code: str = "",
    detail: str = "",
) -> SagaStep:
    """Write one step row (a started row when status is STARTED, else a finished one)."""
    now = timezone.now()
    row = SagaStep.objects.create(
        order=order,
        step=step,
        status=status,
        attempt=attempt or order.saga_attempt,
        error_code=error_code,
        detail=detail[:300],
        correlation_id=correlation_id[:64],
        started_at=started_at or now,
        finished_at=None if status == SagaStepStatus.STARTED else now,
    )
    log_step(row, order, correlation_id)
    return row


def finish_step(
    row: SagaStep,
    order: Order,
    status: str,
    *,
    correlation_id: str,
    error_code: str = "",
    detail: str = "",
) -> None:
    row.status, row.error_code, row.detail, row.finished_at = (
        status,
        error_code,
        detail[:300],
        timezone.now(),
    )
    row.save(update_fields=["status", "error_code", "detail", "finished_at"])
    log_step(row, order, correlation_id)


# --- results ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SagaOutcome:
    """Where an order stands after the saga (or a recovery) ran; `error_code` names a failure."""

    order: Order
    error_code: str | None = None


@dataclass(frozen=True)
class Prepared:
    order: Order
    confirmation_token: str  # shown once, to the widget only; the order keeps its digest


@dataclass(frozen=True)
class InProgress:
    """No new draft: this order of the workflow is being paid for."""

    order: Order


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def provider_key(order: Order) -> str:
    """The order's one provider idempotency key, reused by every run of its saga."""
    return f"order-{order.pk}-charge"


def hold_expiry() -> datetime:
    return timezone.now() + timedelta(seconds=settings.RESERVATION_TTL_SECONDS)


def _fresh(order_id: object) -> Order:
    return Order.objects.get(pk=order_id)


def lock_workflow(workflow_id: object, *, with_order: bool = False) -> WorkflowContext | None:
    """Lock the workflow row (the lock that orders a person's actions on one checkout);
    `with_order` reads its newest order's id in the same statement."""
    if workflow_id is None:
        return None
    rows = WorkflowContext.objects.select_for_update()
    if with_order:
        rows = rows.annotate(newest_order_id=selectors.newest_order_id())
    return rows.filter(pk=workflow_id).first()


# --- forward steps ------------------------------------------------------------------------------


def prepare_order(
    *,
    workflow: WorkflowContext,
    product: Product,
    payment_method_id: str,
    shipping: dict,
    correlation_id: str,
) -> SagaOutcome | Prepared | InProgress:
    """create_order → reserve_items. Returns Prepared, a failed SagaOutcome (OUT_OF_STOCK), or
    InProgress when an order of the workflow is being paid for.

    One transaction holding the workflow lock: a commit claims its order under the same lock,
    so no payment can start between the in-flight check and the new draft replacing the old.
    Nothing here calls the provider, so the lock is held briefly.
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
            compensation.release_draft_order(
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
        record_step(
            order,
            SagaStepName.CREATE_ORDER,
            SagaStepStatus.SUCCEEDED,
            correlation_id=correlation_id,
            started_at=started,
        )
        checkpoint(order.pk, SagaStepName.CREATE_ORDER, SagaStepStatus.SUCCEEDED)
        sold_out = _reserve_or_compensate(order=order, correlation_id=correlation_id)
    return sold_out or Prepared(_fresh(order.pk), token)


def reserve_items(*, order: Order, correlation_id: str) -> bool:
    """Take stock for every line and point the workflow at the order, in one transaction.

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
        record_step(
            order,
            SagaStepName.RESERVE_ITEMS,
            SagaStepStatus.SUCCEEDED if held else SagaStepStatus.FAILED,
            correlation_id=correlation_id,
            started_at=started,
            error_code="" if held else "OUT_OF_STOCK",
        )
    checkpoint(
        order.pk,
        SagaStepName.RESERVE_ITEMS,
        SagaStepStatus.SUCCEEDED if held else SagaStepStatus.FAILED,
    )
    return held


class _NoStock(Exception):
    pass


def run_checkout(*, order: Order, correlation_id: str) -> SagaOutcome:
    """Commit a draft (or rerun a retryably failed order): charge_card → complete.

    The caller has checked the confirmation token. When another call got the order first, or
    the order is no longer the workflow's draft, the order is returned as it now is (no error)
    and the caller reports its state.
    """
    if not claim(order):
        return SagaOutcome(_fresh(order.pk))
    if order.status == OrderStatus.FAILED:
        order = _fresh(order.pk)
        sold_out = _reserve_or_compensate(order=order, correlation_id=correlation_id)
        if sold_out:
            return sold_out
    else:
        order.status = OrderStatus.PROCESSING
    return charge_card(order=order, correlation_id=correlation_id)


def claim(order: Order) -> bool:
    """Move a draft (or a retryably failed order) to processing; False if it may not be paid now.

    Lock order as everywhere in checkout: the workflow first, then the order (the conditional
    UPDATE). Only the workflow's own draft may be claimed: prepare_order and a step back hold
    the same lock while they replace or release it.
    """
    with transaction.atomic():
        workflow = lock_workflow(order.workflow_id, with_order=True)
        draft_id = (
            selectors.workflow_order_id(workflow=workflow) if workflow is not None else order.pk
        )
        if order.status == OrderStatus.FAILED:
            # A failed checkout left the workflow without a draft; a newer draft replaces it.
            if draft_id not in (None, order.pk):
                return False
            return bool(
                Order.objects.filter(
                    pk=order.pk,
                    status=OrderStatus.FAILED,
                    failure_code__in=RETRYABLE_FAILURES,
                    confirmation_used_at__isnull=True,
                )
                # A capture that came in after all and was refunded spent the order's provider
                # key: asking again under it would find that (refunded) charge, so no rerun.
                .exclude(
                    Exists(
                        Payment.objects.filter(
                            order=OuterRef("pk"),
                            status__in=[PaymentStatus.SUCCEEDED, PaymentStatus.REFUNDED],
                        )
                    )
                )
                .update(
                    status=OrderStatus.PROCESSING,
                    saga_attempt=F("saga_attempt") + 1,
                    failure_code="",
                    failure_message="",
                )
            )
        if draft_id != order.pk:
            return False
        return bool(
            Order.objects.filter(
                pk=order.pk,
                status=OrderStatus.DRAFT,
                expires_at__gt=timezone.now(),
                confirmation_used_at__isnull=True,
            ).update(status=OrderStatus.PROCESSING)
        )


def charge_card(*, order: Order, correlation_id: str) -> SagaOutcome:
    key = provider_key(order)
    with transaction.atomic():
        # Only the caller that moved the order to processing gets here. A rerun takes the
        # order's Payment row back from its retryable failure (run_checkout made sure nothing
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
        row = record_step(
            order, SagaStepName.CHARGE_CARD, SagaStepStatus.STARTED, correlation_id=correlation_id
        )
    checkpoint(order.pk, SagaStepName.CHARGE_CARD, SagaStepStatus.STARTED)

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
    checkpoint(order.pk, SagaStepName.CHARGE_CARD, "provider_answered")
    return apply_charge_outcome(
        order=order, payment=payment, outcome=outcome, step=row, correlation_id=correlation_id
    )


def failure_code_for(outcome: ChargeOutcome) -> str:
    if outcome.result == ChargeResult.DECLINED:
        return outcome.decline_code if outcome.decline_code in DECLINE_CODES else "CARD_DECLINED"
    if outcome.result == ChargeResult.NOT_CHARGED_TIMEOUT:
        return "PAYMENT_TIMEOUT"
    if outcome.result == ChargeResult.REJECTED:
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

    Used by the saga right after charging (`step` = its charge_card row) and by recovery and
    reconciliation after a lookup (`step` None: a reconcile step is written when it decides).
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
        checkpoint(order.pk, SagaStepName.CHARGE_CARD, SagaStepStatus.PENDING)
        return SagaOutcome(_fresh(order.pk))

    if result == ChargeResult.SUCCEEDED and charge is not None and charge.refunded_amount > 0:
        return _refunded_before_completion(
            order=order, payment=payment, charge=charge, step=step, correlation_id=correlation_id
        )

    if result == ChargeResult.SUCCEEDED:
        with transaction.atomic():
            _record_payment(payment, PaymentStatus.SUCCEEDED, charge_id=charge_id)
            _finish_charge_step(
                step=step,
                order=order,
                payment=payment,
                status=SagaStepStatus.SUCCEEDED,
                correlation_id=correlation_id,
                reconcile_detail="The provider confirmed the charge.",
            )
        checkpoint(order.pk, SagaStepName.CHARGE_CARD, SagaStepStatus.SUCCEEDED)
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
    checkpoint(order.pk, SagaStepName.CHARGE_CARD, SagaStepStatus.FAILED)
    compensation.compensate(
        order_id=order.pk,
        failure_code=code,
        final_status=OrderStatus.FAILED,
        correlation_id=correlation_id,
    )
    return SagaOutcome(_fresh(order.pk), code)


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
        finish_step(
            step, order, status, correlation_id=correlation_id, error_code=error_code, detail=detail
        )
    else:
        record_step(
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
    return SagaOutcome(_fresh(order.pk))


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
    """Payment captured: confirm the stock, complete the order and the workflow (one transaction).

    If the order was compensated meanwhile (a recovery sweep decided it had died), the charge
    that just came in is refunded: money is never kept for an order that is not completed.
    """
    started = timezone.now()
    with transaction.atomic():
        workflow = lock_workflow(order.workflow_id)
        done = Order.objects.filter(
            pk=order.pk, status__in=[OrderStatus.PROCESSING, OrderStatus.PAYMENT_PENDING]
        ).update(
            status=OrderStatus.COMPLETED,
            confirmation_used_at=timezone.now(),
            failure_code="",
            failure_message="",
        )
        if done:
            Reservation.objects.filter(order=order, status=ReservationStatus.HELD).update(
                status=ReservationStatus.CONFIRMED
            )
            if workflow is not None and flow.can_move(workflow.current_step, Step.COMPLETED):
                flow.move(workflow, Step.COMPLETED)
                workflow.save(update_fields=["current_step", "visited_steps", "updated_at"])
        record_step(
            order,
            SagaStepName.COMPLETE,
            SagaStepStatus.SUCCEEDED if done else SagaStepStatus.FAILED,
            correlation_id=correlation_id,
            started_at=started,
            detail=""
            if done
            else "The order had already been closed; a capture it does not need is refunded.",
        )
    checkpoint(
        order.pk, SagaStepName.COMPLETE, SagaStepStatus.SUCCEEDED if done else SagaStepStatus.FAILED
    )
    if done:
        order.status = OrderStatus.COMPLETED
        return SagaOutcome(order)
    current = _fresh(order.pk)
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
    return SagaOutcome(_fresh(order.pk))


# --- recovery (used by the sweeps) -----------------------------------------------------------------


def close_interrupted_steps(order: Order, *, correlation_id: str) -> None:
    """Steps left 'started' by a process that died are closed, so the timeline stays truthful."""
    for row in order.saga_steps.filter(status=SagaStepStatus.STARTED):
        finish_step(
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
        return SagaOutcome(_fresh(order.pk), "INTERNAL_ERROR")
    if payment.status == PaymentStatus.SUCCEEDED:
        return complete(order=order, correlation_id=correlation_id)
    if payment.status in (PaymentStatus.FAILED, PaymentStatus.REFUNDED):
        code = payment.error_code if payment.error_code in ERROR_CATALOG else "INTERNAL_ERROR"
        compensation.compensate(
            order_id=order.pk,
            failure_code=code,
            final_status=OrderStatus.FAILED,
            correlation_id=correlation_id,
        )
        return SagaOutcome(_fresh(order.pk), code)
    return reconcile_payment(order=order, payment=payment, correlation_id=correlation_id)


def reconcile_payment(*, order: Order, payment: Payment, correlation_id: str) -> SagaOutcome:
    """Ask the provider, by the stored key, what became of an undecided charge, and act on it."""
    outcome = gateway.lookup(
        idempotency_key=payment.provider_idempotency_key,
        charge_id=payment.provider_charge_id,
        since=payment.created_at,
    )
    return apply_charge_outcome(
        order=order, payment=payment, outcome=outcome, step=None, correlation_id=correlation_id
    )


def _reserve_or_compensate(*, order: Order, correlation_id: str) -> SagaOutcome | None:
    """Hold the stock; when there is none, compensate and say the order failed OUT_OF_STOCK."""
    if reserve_items(order=order, correlation_id=correlation_id):
        return None
    compensation.compensate(
        order_id=order.pk,
        failure_code="OUT_OF_STOCK",
        final_status=OrderStatus.FAILED,
        correlation_id=correlation_id,
    )
    return SagaOutcome(_fresh(order.pk), "OUT_OF_STOCK")
