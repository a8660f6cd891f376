"""Paying on the provider's own page (hosted checkout): a new card is never typed into the chat.

commit → claim (processing) → open the page → awaiting_payment, stock held for the page's life;
then only the provider's word moves the order, asked afresh each time (settle_hosted_checkout):
a webhook, the reconcile sweep, the success page and a cancel all come here.

- paid → the charge is recorded and the order completes through the saga (receipt, ledger);
- a payment that settles later (a bank debit) → payment_pending, settled like any pending charge;
- expired, or the payment failed → compensated: stock released, order failed with a reason;
- paid for an order already closed → the capture is refunded (checkout.saga.charge.complete).

Call outside any transaction: these call the provider. Settling holds the order's lease
(checkout.saga.lease), taken by the caller, so two settlers never act on the same answer.
"""

from __future__ import annotations

import contextlib
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

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
from checkout.payments.gateway import ChargeOutcome, ChargeResult
from checkout.payments.provider import (
    ChargeStatus,
    CheckoutLine,
    CheckoutStatus,
    HostedCheckout,
    ProviderError,
    ProviderRejected,
    ProviderTimeout,
)
from checkout.saga import compensation, step_log
from checkout.saga.charge import apply_charge_outcome, begin_charge, provider_key
from checkout.saga.outcome import SagaOutcome
from checkout.saga.states import CAPTURED_PAYMENTS, IN_FLIGHT

HOSTED_CHECKOUT = "hosted_checkout"
AUTHENTICATE = "authenticate"
# Stripe refuses a session that lasts less than 30 minutes from when it makes it: ask for a
# minute more than the hold, for the request's time in transit and clock skew.
TRANSIT_ALLOWANCE = timedelta(seconds=60)
# A provider's "expired" may come a little after the page's expiry: the stock stays held
# that much longer, so it is released by the provider's word rather than by the clock.
SETTLE_GRACE = timedelta(minutes=10)


def success_url() -> str:
    return f"{settings.PUBLIC_ORIGIN}/checkout/paid?session_id={{CHECKOUT_SESSION_ID}}"


def cancel_url() -> str:
    return f"{settings.PUBLIC_ORIGIN}/checkout/not-paid?session_id={{CHECKOUT_SESSION_ID}}"


def checkout_lines(order: Order) -> tuple[list[CheckoutLine], CheckoutLine | None]:
    """The order's lines as the page shows them; with shipping they add up to its total."""
    lines = [
        CheckoutLine(name=line.name, unit_amount=line.unit_price, quantity=line.quantity)
        for line in order.lines.order_by("pk")
    ]
    if order.gift_wrap_total:
        lines.append(
            CheckoutLine(
                name=order.gift_wrap_name or "Gift wrap", unit_amount=order.gift_wrap_total
            )
        )
    if not order.prices_include_tax and order.tax_total:
        lines.append(CheckoutLine(name=order.tax_name or "Tax", unit_amount=order.tax_total))
    shipping = (
        CheckoutLine(
            name=order.shipping_option_name or "Shipping", unit_amount=order.shipping_total
        )
        if order.shipping_total
        else None
    )
    return lines, shipping


def start_hosted_checkout(*, order: Order, correlation_id: str) -> SagaOutcome:
    """Open the payment page for a claimed (processing) order and leave it awaiting payment.

    Made once per order attempt (the provider key and the saga run name it), so a replayed
    commit finds the same page. A page that could not be opened was never shown to anyone, so
    nothing can have been paid through it: the order fails retryably, as a charge that never
    reached the provider."""
    payment, row = begin_charge(order=order, correlation_id=correlation_id)
    lines, shipping = checkout_lines(order)
    hold = max(settings.HOSTED_CHECKOUT_HOLD_SECONDS, 1800)
    try:
        page = gateway.start_hosted_checkout(
            amount=order.amount,
            currency=order.currency,
            lines=lines,
            shipping=shipping,
            payer=order.owner,
            idempotency_key=provider_key(order),
            metadata={
                "order_id": str(order.pk),
                "workflow_id": str(order.workflow_id or ""),
                "correlation_id": correlation_id,
                "attempt": str(order.saga_attempt),
            },
            success_url=success_url(),
            cancel_url=cancel_url(),
            expires_at=timezone.now() + timedelta(seconds=hold) + TRANSIT_ALLOWANCE,
        )
    except ProviderError as exc:
        code = (
            "PAYMENT_REJECTED"
            if isinstance(exc, ProviderRejected)
            else "PAYMENT_TIMEOUT"
            if isinstance(exc, ProviderTimeout)
            else "PAYMENT_PROVIDER_ERROR"
        )
        with transaction.atomic():
            Payment.objects.filter(pk=payment.pk).update(
                status=PaymentStatus.FAILED, error_code=code
            )
            step_log.finish_step(
                row,
                order,
                SagaStepStatus.FAILED,
                correlation_id=correlation_id,
                error_code=code,
                detail="The payment page could not be opened; nobody was given it.",
            )
        return compensation.fail_order(
            order_id=order.pk, failure_code=code, correlation_id=correlation_id
        )
    with transaction.atomic():
        moved = Order.objects.filter(pk=order.pk, status=OrderStatus.PROCESSING).update(
            status=OrderStatus.AWAITING_PAYMENT,
            payment_session_id=page.id,
            payment_url=page.url,
            payment_url_reason=HOSTED_CHECKOUT,
            payment_url_expires_at=page.expires_at,
            expires_at=page.expires_at,
        )
        if moved:
            # The stock waits as long as the page may still be paid.
            Reservation.objects.filter(order=order, status=ReservationStatus.HELD).update(
                expires_at=page.expires_at + SETTLE_GRACE
            )
        step_log.finish_step(
            row,
            order,
            SagaStepStatus.PENDING if moved else SagaStepStatus.FAILED,
            correlation_id=correlation_id,
            detail=f"Waiting for the person to pay on the payment page ({page.id})."
            if moved
            else f"The order left processing meanwhile; its page ({page.id}) was closed unused.",
        )
    if not moved:
        # Nobody was given this page, so nothing may be paid through it.
        with contextlib.suppress(ProviderError):
            gateway.expire_hosted_checkout(checkout_id=page.id)
        return SagaOutcome.now(order.pk)
    step_log.checkpoint(order.pk, SagaStepName.CHARGE_CARD, SagaStepStatus.PENDING)
    return SagaOutcome.now(order.pk)


def settle_hosted_checkout(
    *, order: Order, correlation_id: str, page: HostedCheckout | None = None
) -> str:
    """Ask the provider what became of the order's payment page and act on it once; returns
    what was done. `page`: the provider's answer when the caller already has it (a cancel
    that expired the page). An open page past the hold is expired at the provider first.
    Raises ProviderError when the provider cannot be asked (the caller tries again later)."""
    if not order.payment_session_id:
        return "No payment page for this order."
    if order.status == OrderStatus.PROCESSING:
        # A commit (or its rerun) is opening a page right now and settles it itself; the page
        # named here may be the last attempt's, which must not close the new attempt.
        return "The checkout is running; nothing to settle yet."
    if page is None:
        page = gateway.retrieve_hosted_checkout(checkout_id=order.payment_session_id)
    payment = payment_of(order)
    charge = page.charge
    if charge is not None and charge.status == ChargeStatus.SUCCEEDED:
        if payment.status in CAPTURED_PAYMENTS and order.status not in IN_FLIGHT:
            # Settled already (a closed order still holding it is the recovery sweep's).
            return "Already recorded as paid."
        outcome = ChargeOutcome(ChargeResult.SUCCEEDED, charge, None, 1)
        settled = apply_charge_outcome(
            order=order, payment=payment, outcome=outcome, step=None, correlation_id=correlation_id
        )
        return f"Paid on the payment page; the order is {settled.order.status}."
    if page.status == CheckoutStatus.OPEN:
        if order.status == OrderStatus.AWAITING_PAYMENT and order.expires_at > timezone.now():
            return "The person has not paid yet; the page is open."
        # Past the hold (or the order was closed): nothing may be paid through it any more.
        closed = gateway.expire_hosted_checkout(checkout_id=order.payment_session_id)
        if closed.status == CheckoutStatus.OPEN:
            raise ProviderError("the payment page is still open after expiring it")
        return settle_hosted_checkout(order=order, correlation_id=correlation_id, page=closed)
    if charge is not None and charge.status == ChargeStatus.PENDING:
        return _wait_for_settlement(order, payment, charge.id, correlation_id=correlation_id)
    if order.status not in IN_FLIGHT:
        return f"The page is {page.status} and the order already {order.status}."
    declined = charge is not None and page.status == CheckoutStatus.COMPLETE
    code = (charge.failure_code or "CARD_DECLINED") if declined else "CHECKOUT_EXPIRED"
    close_unpaid(order=order, code=code, correlation_id=correlation_id, page=page)
    done = compensation.fail_order(
        order_id=order.pk, failure_code=code, correlation_id=correlation_id
    )
    return f"Not paid ({code}); the order is {done.order.status}."


def close_unpaid(
    *, order: Order, code: str, correlation_id: str, page: HostedCheckout | None = None
) -> None:
    """Record that nothing was paid through the order's closed page (its Payment failed), so
    no sweep asks about it again; the caller then compensates the order."""
    payment = payment_of(order)
    charge = page.charge if page is not None else None
    with transaction.atomic():
        Payment.objects.filter(
            pk=payment.pk, status__in=(PaymentStatus.PENDING, PaymentStatus.UNKNOWN)
        ).update(
            status=PaymentStatus.FAILED,
            error_code=code,
            provider_charge_id=charge.id if charge else payment.provider_charge_id,
        )
        step_log.record_step(
            order,
            SagaStepName.RECONCILE,
            SagaStepStatus.FAILED,
            correlation_id=correlation_id,
            attempt=payment.attempt,
            error_code=code,
            detail="The payment page was closed; nothing was paid through it.",
        )


def _wait_for_settlement(
    order: Order, payment: Payment, charge_id: str, *, correlation_id: str
) -> str:
    """A payment made on the page that settles later (a bank debit): the person is done, so
    the order waits as payment_pending, reconciled like any pending charge."""
    with transaction.atomic():
        Payment.objects.filter(
            pk=payment.pk, status__in=(PaymentStatus.PENDING, PaymentStatus.UNKNOWN)
        ).update(status=PaymentStatus.PENDING, provider_charge_id=charge_id)
        moved = Order.objects.filter(pk=order.pk, status=OrderStatus.AWAITING_PAYMENT).update(
            status=OrderStatus.PAYMENT_PENDING, payment_url=""
        )
        if moved:
            step_log.record_step(
                order,
                SagaStepName.RECONCILE,
                SagaStepStatus.PENDING,
                correlation_id=correlation_id,
                attempt=payment.attempt,
                detail="Paid on the payment page with a method that settles later.",
            )
    return "The payment settles later; the order waits as payment_pending."


def payment_of(order: Order) -> Payment:
    """The order's one Payment: every run of its saga pays under its one provider key."""
    return Payment.objects.get(order=order, provider_idempotency_key=provider_key(order))
