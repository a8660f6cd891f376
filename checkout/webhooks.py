"""Signed payment-provider webhooks: verified, stored once, applied through the sweeps' services.

An event is a hint, never the truth: applying one asks the provider for the payment's current
state (gateway.lookup / gateway.retrieve) and moves the order only where that differs from our
records, through the same saga and compensation services the sweeps use. So an event that
arrives twice, out of order, or after a sweep already settled the order changes nothing.

Receiving stores the event as an outbox message (unique per provider and event id) and tries
to apply it once; an apply that fails is retried by the outbox's policy (checkout.outbox): the
sweeps try again with exponential backoff and then park it for a person.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime

import stripe
from django.conf import settings
from django.db import transaction
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from checkout import outbox
from checkout.models import (
    Order,
    OrderStatus,
    OutboxMessage,
    OutboxStatus,
    Payment,
    PaymentStatus,
    SagaStepName,
    SagaStepStatus,
)
from checkout.payments import gateway
from checkout.payments.gateway import ChargeResult
from checkout.payments.provider import ProviderRejected, ProviderUnavailable
from checkout.saga import compensation, hosted, lease, recovery, step_log
from checkout.saga.charge import apply_charge_outcome
from checkout.saga.states import CAPTURED_PAYMENTS, UNDECIDED_PAYMENTS
from tool_runtime.observability import get_logger
from tool_runtime.text import PrintableText

LOGGER = "giftgenius.checkout.webhooks"
OUTBOX_KIND = "stripe_event"
# Events whose payment we settle; any other type is answered 2xx and ignored.
PAYMENT_EVENTS = frozenset({"payment_intent.succeeded", "payment_intent.payment_failed"})
REFUND_EVENTS = frozenset({"charge.refunded"})
# A payment page (Checkout Session) paid, settled later, failed or expired.
CHECKOUT_EVENTS = frozenset(
    {
        "checkout.session.completed",
        "checkout.session.async_payment_succeeded",
        "checkout.session.async_payment_failed",
        "checkout.session.expired",
    }
)
HANDLED_TYPES = PAYMENT_EVENTS | REFUND_EVENTS | CHECKOUT_EVENTS
AGREED = "Already in agreement with the provider."


class OrderBusy(Exception):
    """A sweep or another event holds the order's lease: this event is tried again later."""

    code = "ORDER_BUSY"


class PaymentUndecided(Exception):
    """A refund event for a payment whose own outcome is not settled yet: tried again later."""

    code = "PAYMENT_UNDECIDED"


class WebhookRejected(Exception):
    """The request is not a genuine, well-formed event: answered 400, nothing changes."""

    def __init__(self, code: str, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field


@dataclass(frozen=True)
class Receipt:
    event_id: str
    event_type: str
    status: str  # applied | pending | parked (stored) · duplicate | ignored (not stored)


@dataclass(frozen=True)
class StoredEvent:
    """What applying an event needs, as its outbox message keeps it."""

    event_id: str
    event_type: str
    provider_payment_id: str
    order_id: uuid.UUID | None

    @classmethod
    def of(cls, message: OutboxMessage) -> StoredEvent:
        payload = message.payload
        return cls(
            event_id=payload["event_id"],
            event_type=payload["event_type"],
            provider_payment_id=payload.get("provider_payment_id", ""),
            order_id=message.order_id,
        )


# The Stripe-facing status of a stored event.
RECEIPT_STATUS = {
    OutboxStatus.DELIVERED: "applied",
    OutboxStatus.PENDING: "pending",
    OutboxStatus.PARKED: "parked",
}


# --- the event's shape: only what applying needs ----------------------------------------------


# What is stored follows the printable-text rule (tool_runtime.text): a signed event is still
# text from outside, and PostgreSQL refuses NUL in it.
class _EventObject(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: PrintableText = Field(min_length=1, max_length=255)
    metadata: dict[str, str] = {}
    payment_intent: PrintableText | None = Field(default=None, max_length=255)  # on a charge


class _EventData(BaseModel):
    model_config = ConfigDict(extra="ignore")
    object: _EventObject


class _Event(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: PrintableText = Field(min_length=1, max_length=255)
    type: PrintableText = Field(min_length=1, max_length=100)
    created: int | None = None
    data: _EventData


def _log():
    return get_logger(LOGGER)


# --- receiving ------------------------------------------------------------------------------


def receive_stripe_event(*, payload: bytes, signature_header: str | None) -> Receipt:
    """Verify a Stripe webhook, store it once and try to apply it. Raises WebhookRejected."""
    if len(payload) > settings.WEBHOOK_MAX_BODY_BYTES:
        raise too_large()
    event = _parse(_verified(payload, signature_header))
    if event.type not in HANDLED_TYPES:
        _log().info("webhook_ignored", event_id=event.id, event_type=event.type)
        return Receipt(event.id, event.type, "ignored")
    obj = event.data.object
    created = datetime.fromtimestamp(event.created, tz=UTC).isoformat() if event.created else None
    stored = outbox.enqueue(
        kind=OUTBOX_KIND,
        key=f"stripe:{event.id}",
        payload={
            "event_id": event.id,
            "event_type": event.type,
            "provider_payment_id": obj.payment_intent or obj.id,
            "provider_created_at": created,
        },
        order_id=_uuid_or_none(obj.metadata.get("order_id")),
    )
    if stored is None:
        _log().info("webhook_duplicate", event_id=event.id, event_type=event.type)
        return Receipt(event.id, event.type, "duplicate")
    _log().info("webhook_received", event_id=event.id, event_type=event.type)
    # One try now; if this process dies before it, the sweeps deliver it (it is due at once).
    status = outbox.deliver(message_pk=stored.pk)
    return Receipt(event.id, event.type, RECEIPT_STATUS[status])


def receive_simulator_event(*, checkout_id: str, order_id: uuid.UUID) -> str:
    """The simulator's word that its payment page changed (the person paid on it): stored and
    applied as a Stripe event is, so the order settles through the same path."""
    event_id = f"evt_sim_{uuid.uuid4().hex}"
    stored = outbox.enqueue(
        kind=OUTBOX_KIND,
        key=f"simulator:{event_id}",
        payload={
            "event_id": event_id,
            "event_type": "checkout.session.completed",
            "provider_payment_id": checkout_id,
        },
        order_id=order_id,
        key_is_new=True,  # a fresh event id
    )
    return outbox.deliver(message_pk=stored.pk) if stored is not None else OutboxStatus.PENDING


def too_large() -> WebhookRejected:
    return WebhookRejected("WEBHOOK_TOO_LARGE", "The event is larger than 1 MB.")


def _verified(payload: bytes, signature_header: str | None) -> dict:
    secret = settings.STRIPE_WEBHOOK_SECRET
    if not signature_header:
        raise WebhookRejected(
            "WEBHOOK_SIGNATURE_MISSING", "The Stripe-Signature header is missing."
        )
    try:
        text = payload.decode("utf-8")
    except UnicodeDecodeError:
        raise WebhookRejected("WEBHOOK_MALFORMED", "The event is not UTF-8 text.") from None
    # First the signature alone, so a stale but genuine event is told apart from a forged one.
    try:
        stripe.WebhookSignature.verify_header(text, signature_header, secret, tolerance=None)
    except stripe.SignatureVerificationError:
        raise WebhookRejected(
            "WEBHOOK_SIGNATURE_INVALID", "The signature does not match this endpoint's secret."
        ) from None
    try:
        event = stripe.Webhook.construct_event(
            text, signature_header, secret, tolerance=settings.STRIPE_WEBHOOK_TOLERANCE_SECONDS
        )
    except stripe.SignatureVerificationError:
        raise WebhookRejected(
            "WEBHOOK_TIMESTAMP_STALE",
            f"The signature is older than {settings.STRIPE_WEBHOOK_TOLERANCE_SECONDS} seconds.",
        ) from None
    except (ValueError, TypeError, AttributeError):
        # json errors are ValueErrors; a JSON value that is not an object fails in the SDK.
        raise WebhookRejected("WEBHOOK_MALFORMED", "The event is not a JSON object.") from None
    if _signed_at(signature_header) > time.time() + settings.STRIPE_WEBHOOK_TOLERANCE_SECONDS:
        # The SDK refuses only old timestamps; one far ahead would stay "fresh" for longer.
        raise WebhookRejected(
            "WEBHOOK_TIMESTAMP_FUTURE",
            f"The signature is dated more than {settings.STRIPE_WEBHOOK_TOLERANCE_SECONDS} "
            "seconds ahead of this server's clock.",
        )
    return event.to_dict()


def _signed_at(signature_header: str) -> int:
    """The `t=` of a header the SDK has verified (so it has one, and it is an integer)."""
    for item in signature_header.split(","):
        name, _, value = item.strip().partition("=")
        if name == "t":
            return int(value)
    raise AssertionError("a verified Stripe-Signature header carries t=")


def _parse(raw: dict) -> _Event:
    try:
        return _Event.model_validate(raw)
    except ValidationError as exc:
        where = ".".join(str(part) for part in exc.errors()[0]["loc"])
        raise WebhookRejected(
            "WEBHOOK_MALFORMED", f"The event has no valid '{where}'.", field=where
        ) from None


def _uuid_or_none(value: str | None) -> uuid.UUID | None:
    try:
        return uuid.UUID(value) if value else None
    except ValueError:
        return None


# --- applying ---------------------------------------------------------------------------------


def apply_event(message: OutboxMessage) -> str:
    """The outbox's handler for a stored provider event: returns what applying it did."""
    event = StoredEvent.of(message)
    correlation_id = f"webhook-{uuid.uuid4().hex[:12]}"
    _log().info(
        "webhook_applying",
        correlation_id=correlation_id,
        event_id=event.event_id,
        event_type=event.event_type,
        attempt=message.attempts,
    )
    return _apply(event, correlation_id=correlation_id)


def _apply(event: StoredEvent, *, correlation_id: str) -> str:
    order = _order_for(event)
    if order is None:
        return "No order here matches this payment; nothing to do."
    # One settler per order at a time, sweeps included: two would each act on the same answer.
    lease_until = lease.claim_order(order_id=order.pk)
    if lease_until is None:
        raise OrderBusy("another sweep or event is settling this order")
    try:
        order.refresh_from_db()
        if event.event_type in REFUND_EVENTS:
            return _record_provider_refunds(order, correlation_id=correlation_id)
        if order.payment_session_id and (
            order.status == OrderStatus.AWAITING_PAYMENT or event.event_type in CHECKOUT_EVENTS
        ):
            # Paid on the provider's page: the page says what happened, including a failed
            # card the person may still replace with another while it is open.
            return hosted.settle_hosted_checkout(order=order, correlation_id=correlation_id)
        return _settle_payments(order, correlation_id=correlation_id)
    finally:
        lease.release_order(order_id=order.pk, lease_until=lease_until)


def _order_for(event: StoredEvent) -> Order | None:
    if event.order_id is not None:
        order = Order.objects.filter(pk=event.order_id).first()
        if order is not None:
            return order
    if not event.provider_payment_id:
        return None
    paged = Order.objects.filter(payment_session_id=event.provider_payment_id).first()
    if paged is not None:
        return paged
    payment = Payment.objects.filter(provider_charge_id=event.provider_payment_id).first()
    if payment is not None:
        return payment.order
    # Not recorded here yet (a charge whose answer was lost, or a charge object without our
    # metadata): the provider's own record of the payment names the order.
    try:
        charge = gateway.retrieve(charge_id=event.provider_payment_id)
    except ProviderRejected:
        return None  # the provider does not know it either
    order_id = _uuid_or_none(charge.order_id)
    return Order.objects.filter(pk=order_id).first() if order_id else None


def _moves(status: str, result: ChargeResult) -> bool:
    """Whether the provider's answer changes what we recorded for a payment."""
    if status == PaymentStatus.PENDING:
        return result != ChargeResult.PENDING
    if status == PaymentStatus.UNKNOWN:
        return True
    if status == PaymentStatus.FAILED:
        # Taken as "not charged", yet the provider holds or captured it: a late capture, which
        # apply_charge_outcome refunds unless it is the payment of a completed order.
        return result in (ChargeResult.SUCCEEDED, ChargeResult.PENDING)
    return False  # a capture is final; refunds arrive as their own events


def _settle_payments(order: Order, *, correlation_id: str) -> str:
    if order.status == OrderStatus.PROCESSING:
        # The saga is between charging and recording: it applies the provider's answer itself
        # (and the recovery sweep, should its process die).
        return "The checkout is running; it records the provider's answer itself."
    # One Payment per order: every saga run charges under the order's one provider key.
    payment = order.payments.first()
    if payment is None or payment.status in CAPTURED_PAYMENTS:
        return AGREED
    outcome = recovery.provider_answer(payment)
    if outcome.result == ChargeResult.UNKNOWN:
        raise ProviderUnavailable("the provider could not say; tried again later")
    if not _moves(payment.status, outcome.result):
        return AGREED
    settled = apply_charge_outcome(
        order=order, payment=payment, outcome=outcome, step=None, correlation_id=correlation_id
    )
    return f"Settled: the provider says {outcome.result}; the order is {settled.order.status}."


def _record_provider_refunds(order: Order, *, correlation_id: str) -> str:
    """Record refunds the provider made that our books lack (made outside the app, or by a
    refund whose answer was lost); a completed order refunded in full is then cancelled.

    A refund of a payment we have not settled yet settles it first (its answer includes the
    refund, so the order is not completed); while it stays undecided the event is retried
    later rather than marked applied with nothing done."""
    settled = ""
    if order.payments.filter(status__in=UNDECIDED_PAYMENTS).exists():
        settled = _settle_payments(order, correlation_id=correlation_id)
        if order.payments.filter(status__in=UNDECIDED_PAYMENTS).exists():
            raise PaymentUndecided(f"the payment is not settled yet ({settled})")
        order.refresh_from_db()
    recorded = 0
    refundable = order.payments.filter(status__in=CAPTURED_PAYMENTS)
    for payment in refundable.exclude(provider_charge_id="").order_by("attempt", "pk"):
        charge = gateway.retrieve(charge_id=payment.provider_charge_id)
        if charge.refunded_amount <= payment.refunded_amount:
            continue
        in_full = charge.refunded_amount >= payment.amount
        with transaction.atomic():
            updated = Payment.objects.filter(
                pk=payment.pk, refunded_amount__lt=charge.refunded_amount
            ).update(
                refunded_amount=min(charge.refunded_amount, payment.amount),
                status=PaymentStatus.REFUNDED if in_full else payment.status,
            )
            if updated:
                step_log.record_step(
                    order,
                    SagaStepName.REFUND,
                    SagaStepStatus.SUCCEEDED,
                    correlation_id=correlation_id,
                    attempt=payment.attempt,
                    detail=f"{charge.refunded_amount} refunded at the provider; recorded from its event.",
                )
                recorded += 1
    if not recorded:
        return settled or "Refunds already recorded."
    order.refresh_from_db()
    if (
        order.status == OrderStatus.COMPLETED
        and not order.payments.filter(status=PaymentStatus.SUCCEEDED).exists()
    ):
        compensation.cancel_completed(
            order_id=order.pk,
            message="Refunded at the payment provider; the order was cancelled.",
            correlation_id=correlation_id,
        )
        return "Refunded in full at the provider: recorded, stock released, order cancelled."
    _log().warning("webhook_partial_refund", order_id=str(order.pk), correlation_id=correlation_id)
    return "Recorded a refund made at the provider; the order keeps its status for staff to review."
