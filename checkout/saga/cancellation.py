"""Cancelling an order as far as it went: a person's cancel_order and a staff rollback.

Built on the compensation (refund if charged → release the stock → cancel), which is idempotent:
cancelling twice leaves the order as the first call did. While the outcome of a payment is open
(processing, payment_pending) nothing is done and the refusal says why; an order awaiting
payment on the provider's page has that page closed first.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from checkout.models import Order, OrderStatus
from checkout.payments import gateway
from checkout.payments.provider import ChargeStatus, CheckoutStatus, ProviderError
from checkout.saga import compensation, hosted, lease
from checkout.saga.compensation import ZERO, RefundFailed
from checkout.saga.states import ALREADY, CLOSED, FINAL_STATUSES, REFUSED, ROLLED_BACK


@dataclass(frozen=True)
class RollbackOutcome:
    outcome: str  # rolled_back | closed_for_good | already_rolled_back | refused
    detail: str
    order: Order | None = None
    refunded: Decimal = ZERO
    code: str | None = None  # for a refusal: the catalog error code that explains it


def do_cancel_order(
    *, order: Order, reason: str, actor: str, correlation_id: str
) -> RollbackOutcome:
    """Undo an order as far as it went: refund if charged → release the stock → cancel.

    Idempotent: an order already failed or cancelled is left as it is ("already"), after making
    sure no captured money is still held for it. Refuses (an outcome, not an exception) while
    the outcome of a payment is open.

    Locks: call outside any transaction and holding no lock; refunds call the provider. Each
    step locks what it changes in a short transaction of its own: the order row to close a
    failed order for good, the workflow row then the order row to release and close.
    """
    message = f"Cancelled by {actor}: {reason}"[:300]
    for _ in range(3):  # the order may move under us (e.g. a draft committed); look again
        if order.status in FINAL_STATUSES:
            closed = _close_for_good(order.pk)
            if closed is not None:
                closed_order, spent_now = closed
                return _refund_leftovers(
                    closed_order, correlation_id=correlation_id, closed_now=spent_now
                )
            # A retry of the commit reopened it since it was read: look again.
        elif order.status == OrderStatus.PROCESSING:
            return RollbackOutcome(
                REFUSED,
                "The checkout is running for this order right now (status processing). Wait until it "
                "finishes (get_order shows it), then cancel if it completed.",
                order,
                code="ORDER_NOT_CANCELLABLE",
            )
        elif order.status == OrderStatus.PAYMENT_PENDING:
            return RollbackOutcome(
                REFUSED,
                "The payment outcome is not known yet (status payment_pending). Reconciliation settles "
                "it with the payment provider first; cancel once the order is completed.",
                order,
                code="ORDER_NOT_CANCELLABLE",
            )
        elif order.status == OrderStatus.AWAITING_PAYMENT:
            return _cancel_awaiting(order, message=message, correlation_id=correlation_id)
        elif order.status == OrderStatus.DRAFT:
            if compensation.do_release_draft(
                order_id=order.pk,
                reason=message,
                correlation_id=correlation_id,
                rollback_workflow=True,
            ):
                fresh = Order.objects.get(pk=order.pk)
                return RollbackOutcome(
                    ROLLED_BACK, "The draft order was cancelled and its stock released.", fresh
                )
        else:  # completed
            try:
                done = compensation.cancel_completed(
                    order_id=order.pk, message=message, correlation_id=correlation_id
                )
            except RefundFailed as exc:
                return _refund_refused(
                    exc, order, consequence="Nothing was changed: the order is still completed."
                )
            if done.closed:
                # What this cancellation refunded: part or all may have been refunded before it.
                refunded = (
                    f"Refunded {done.refunded} {order.currency},"
                    if done.refunded
                    else "The payment had already been refunded at the payment provider;"
                )
                return RollbackOutcome(
                    ROLLED_BACK,
                    f"{refunded} released the stock and cancelled the order.",
                    done.order,
                    done.refunded,
                )
        order = Order.objects.get(pk=order.pk)
    return RollbackOutcome(
        REFUSED,
        "The order kept changing while it was being cancelled; try again.",
        order,
        code="ORDER_NOT_CANCELLABLE",
    )


def _cancel_awaiting(order: Order, *, message: str, correlation_id: str) -> RollbackOutcome:
    """Cancel an order the person is paying on the provider's page: close the page at the
    provider first, so nothing more can be paid through it, then act on what it says. Paid
    meanwhile: the order completes and is refunded (never left half-done). Not paid: the stock
    is released and the order cancelled, nothing charged. Holds the order's lease, as every
    settler does."""
    lease_until = lease.claim_order(order_id=order.pk)
    if lease_until is None:
        return RollbackOutcome(
            REFUSED,
            "The payment of this order is being settled right now; try again in a moment.",
            order,
            code="ORDER_NOT_CANCELLABLE",
        )
    try:
        try:
            page = gateway.expire_hosted_checkout(checkout_id=order.payment_session_id)
        except ProviderError:
            return RollbackOutcome(
                REFUSED,
                "The payment service could not be reached to close the payment page; nothing "
                "was changed. Try again in a moment.",
                order,
                code="PAYMENT_PROVIDER_ERROR",
            )
        charge = page.charge
        if charge is not None and charge.status == ChargeStatus.SUCCEEDED:
            try:
                # Settling refunds at once a payment that landed on an order closed meanwhile.
                hosted.settle_hosted_checkout(order=order, correlation_id=correlation_id, page=page)
                done = compensation.cancel_completed(
                    order_id=order.pk, message=message, correlation_id=correlation_id
                )
            except RefundFailed as exc:
                return _refund_refused(
                    exc, order, consequence="The payment had just gone through: the order is paid."
                )
            return RollbackOutcome(
                ROLLED_BACK,
                f"The payment had just gone through: refunded {done.refunded} {order.currency}, "
                "released the stock and cancelled the order.",
                done.order,
                done.refunded,
            )
        if page.status == CheckoutStatus.OPEN or (
            charge is not None and charge.status == ChargeStatus.PENDING
        ):
            hosted.settle_hosted_checkout(order=order, correlation_id=correlation_id, page=page)
            return RollbackOutcome(
                REFUSED,
                "A payment made on the payment page has not settled yet (status payment_pending); "
                "cancel once it has.",
                Order.objects.get(pk=order.pk),
                code="ORDER_NOT_CANCELLABLE",
            )
        hosted.close_unpaid(order=order, code="", correlation_id=correlation_id, page=page)
        done = compensation.compensate(
            order_id=order.pk,
            failure_code="",
            failure_message=message,
            final_status=OrderStatus.CANCELLED,
            expected_statuses=(OrderStatus.AWAITING_PAYMENT,),
            correlation_id=correlation_id,
        )
        return RollbackOutcome(
            ROLLED_BACK if done.closed else ALREADY,
            "The payment page was closed before any payment: nothing was charged, the stock "
            "was released and the order cancelled.",
            done.order,
        )
    finally:
        lease.release_order(order_id=order.pk, lease_until=lease_until)


def _close_for_good(order_id: object) -> tuple[Order, bool] | None:
    """Lock a failed or cancelled order, re-check it is still closed and spend its confirmation
    (a compare-and-swap), so no retry of the commit can reopen it; None if one already has.
    The retry's claim needs `confirmation_used_at` empty, so after this the order stays closed
    and refunding what it captured cannot race a charge that completes it.
    Returns the order and whether this call spent the confirmation (ended a possible retry)."""
    spent_now = False
    with transaction.atomic():
        order = Order.objects.select_for_update().get(pk=order_id)
        if order.status not in FINAL_STATUSES:
            return None
        if order.confirmation_used_at is None:
            used_at = timezone.now()
            spent_now = bool(
                Order.objects.filter(
                    pk=order.pk, status__in=FINAL_STATUSES, confirmation_used_at__isnull=True
                ).update(confirmation_used_at=used_at)
            )
            order.confirmation_used_at = used_at
    return order, spent_now


def _refund_leftovers(
    order: Order, *, correlation_id: str, closed_now: bool = False
) -> RollbackOutcome:
    """A closed order keeps no money: refund a capture that came in after it was closed."""
    try:
        refunded = compensation.refund_payments(order=order, correlation_id=correlation_id)
    except RefundFailed as exc:
        return _refund_refused(
            exc,
            order,
            consequence="The order is closed and can no longer be retried, but a leftover charge "
            "was not refunded.",
        )
    closed_text = (
        "closed for good: the person can no longer retry this order." if closed_now else ""
    )
    if refunded:
        return RollbackOutcome(
            ROLLED_BACK,
            f"Refunded a leftover charge of {refunded} {order.currency}"
            + (f"; {closed_text}" if closed_now else "."),
            order,
            refunded,
        )
    if closed_now:
        return RollbackOutcome(
            CLOSED,
            f"The order was already {order.status} but could still be retried; now it is "
            f"{closed_text}",
            order,
        )
    return RollbackOutcome(ALREADY, f"The order is already {order.status}; nothing to do.", order)


def _refund_refused(exc: RefundFailed, order: Order, *, consequence: str) -> RollbackOutcome:
    """Why a refund failed, told apart: an unreachable service may answer a later try; a refusal
    (4xx) will not change by trying again and needs a person to look at the payment."""
    if exc.rejected:
        return RollbackOutcome(
            REFUSED,
            f"The payment service refused the refund ({exc.code}). {consequence} Trying again will "
            "not help: the payment needs to be checked by staff.",
            order,
            code="PAYMENT_REJECTED",
        )
    return RollbackOutcome(
        REFUSED,
        f"The refund could not be made because the payment service is unavailable. {consequence} "
        "Try again later.",
        order,
        code="PAYMENT_PROVIDER_ERROR",
    )
