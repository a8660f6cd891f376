"""Hosted checkout at Stripe: a Checkout Session per order attempt, where the person pays with
a new card (and may save it for next time) on Stripe's own page.

The session is made once per order attempt (Stripe idempotency key "<key>-session-<attempt>");
its PaymentIntent carries our provider key in its metadata like any charge of ours
(checkout.payments.stripe_provider), so the ledger check and refunds treat it as the order's
one payment. What the session says is read from Stripe, never from a redirect.
"""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import stripe

from checkout.payments.provider import (
    CheckoutLine,
    CheckoutStatus,
    HostedCheckout,
    ProviderRejected,
)
from checkout.payments.stripe_objects import (
    KEY_FIELD,
    charge_from_intent,
    field_of,
    metadata_of,
    provider_error,
    to_minor,
    translated,
)


def _price(line: CheckoutLine, currency: str) -> dict:
    return {
        "price_data": {
            "currency": currency,
            "unit_amount": to_minor(line.unit_amount, currency),
            "product_data": {"name": line.name[:250]},
        },
        "quantity": line.quantity,
    }


def session_params(
    *,
    amount: Decimal,
    currency: str,
    lines: list[CheckoutLine],
    shipping: CheckoutLine | None,
    customer: str,
    idempotency_key: str,
    metadata: dict,
    success_url: str,
    cancel_url: str,
    expires_at: datetime,
) -> dict:
    """The Checkout Session for an order: its lines (zero amounts left out, as Stripe refuses
    nothing but shows them for nothing), its shipping as Checkout's shipping option. Refused
    when they do not add up to `amount` exactly: the person must be asked for the order's
    total, never another."""
    cur = currency.lower()
    paid_lines = [line for line in lines if line.unit_amount > 0]
    minor_total = sum(to_minor(line.unit_amount, cur) * line.quantity for line in paid_lines)
    params: dict[str, Any] = {
        "mode": "payment",
        "line_items": [_price(line, cur) for line in paid_lines],
        "customer": customer,
        "client_reference_id": str(metadata.get("order_id", "")),
        "metadata": metadata,
        "payment_intent_data": {"metadata": {**metadata, KEY_FIELD: idempotency_key}},
        "success_url": success_url,
        "cancel_url": cancel_url,
        # Saved only where the person ticks the box on Stripe's page, never silently.
        "saved_payment_method_options": {"payment_method_save": "enabled"},
        "expires_at": int(expires_at.timestamp()),
    }
    if shipping is not None and shipping.unit_amount > 0:
        shipping_minor = to_minor(shipping.unit_amount, cur)
        minor_total += shipping_minor
        params["shipping_options"] = [
            {
                "shipping_rate_data": {
                    "type": "fixed_amount",
                    "display_name": shipping.name[:100] or "Shipping",
                    "fixed_amount": {"amount": shipping_minor, "currency": cur},
                }
            }
        ]
    if minor_total != to_minor(amount, cur):
        raise ProviderRejected(
            f"the checkout lines add up to {minor_total}, not the order's {amount} {currency}",
            code="INVALID_REQUEST",
        )
    return params


class StripeHostedCheckout:
    """StripeProvider's hosted checkout (the PaymentProvider methods of that name)."""

    stripe: stripe.StripeClient
    _retrieve: Any  # StripeProvider's: a PaymentIntent with its latest charge

    def start_hosted_checkout(
        self,
        *,
        amount: Decimal,
        currency: str,
        lines: list[CheckoutLine],
        shipping: CheckoutLine | None,
        payer: object,
        idempotency_key: str,
        metadata: dict,
        success_url: str,
        cancel_url: str,
        expires_at: datetime,
    ) -> HostedCheckout:
        from checkout.payments.stripe_customers import ensure_stripe_customer

        meta = {str(k): str(v) for k, v in (metadata or {}).items() if v is not None}
        attempt = meta.pop("attempt", "1")
        params = session_params(
            amount=amount,
            currency=currency,
            lines=lines,
            shipping=shipping,
            customer=ensure_stripe_customer(user=payer),
            idempotency_key=idempotency_key,
            metadata=meta,
            success_url=success_url,
            cancel_url=cancel_url,
            expires_at=expires_at,
        )
        session = translated(
            lambda: self.stripe.v1.checkout.sessions.create(
                params=params, options={"idempotency_key": f"{idempotency_key}-session-{attempt}"}
            )
        )
        return self._hosted(session)

    def retrieve_hosted_checkout(self, *, checkout_id: str) -> HostedCheckout:
        if checkout_id.startswith(INTENT_PREFIX):
            return _authentication(self._retrieve(checkout_id))
        return self._hosted(
            translated(lambda: self.stripe.v1.checkout.sessions.retrieve(checkout_id))
        )

    def expire_hosted_checkout(self, *, checkout_id: str) -> HostedCheckout:
        if checkout_id.startswith(INTENT_PREFIX):
            return self._end_authentication(checkout_id)
        try:
            session = self.stripe.v1.checkout.sessions.expire(checkout_id)
        except stripe.InvalidRequestError as exc:
            # Refused when it is no longer open (paid meanwhile, or expired): say what it is.
            session = translated(lambda: self.stripe.v1.checkout.sessions.retrieve(checkout_id))
            if field_of(session, "status") == CheckoutStatus.OPEN:
                raise provider_error(exc) from exc
        except stripe.StripeError as exc:
            raise provider_error(exc) from exc
        return self._hosted(session)

    def _end_authentication(self, intent_id: str) -> HostedCheckout:
        """Cancel a PaymentIntent still waiting for the person's authentication, so it can no
        longer capture; refused once it moved on (authenticated and paid): say what it is."""
        try:
            intent = self.stripe.v1.payment_intents.cancel(
                intent_id,
                params={"expand": ["latest_charge"]},
                options={"idempotency_key": f"{intent_id}-cancel-authentication"},
            )
        except stripe.InvalidRequestError as exc:
            intent = self._retrieve(intent_id)
            if field_of(intent, "status") == "requires_action":
                raise provider_error(exc) from exc
        except stripe.StripeError as exc:
            raise provider_error(exc) from exc
        return _authentication(intent)

    def _hosted(self, session: Any) -> HostedCheckout:
        intent_id = field_of(session, "payment_intent")
        if intent_id is not None and not isinstance(intent_id, str):
            intent_id = field_of(intent_id, "id")
        intent = self._retrieve(intent_id) if intent_id else None
        return HostedCheckout(
            id=str(field_of(session, "id")),
            url=str(field_of(session, "url") or ""),
            status=str(field_of(session, "status")),
            paid=field_of(session, "payment_status") == "paid",
            expires_at=datetime.fromtimestamp(int(field_of(session, "expires_at")), tz=UTC),
            charge=charge_from_intent(intent) if intent is not None else None,
            metadata=metadata_of(session),
        )


INTENT_PREFIX = "pi_"
# A PaymentIntent waiting for 3-D Secure, read as a payment page: open while the bank waits for
# the person, complete once paid (or settling, or declined after the attempt), expired when
# cancelled.
_INTENT_PAGE = {
    "requires_action": CheckoutStatus.OPEN,
    "succeeded": CheckoutStatus.COMPLETE,
    "processing": CheckoutStatus.COMPLETE,
    "requires_capture": CheckoutStatus.COMPLETE,
    "requires_payment_method": CheckoutStatus.COMPLETE,
    "canceled": CheckoutStatus.EXPIRED,
}


def _authentication(intent: Any) -> HostedCheckout:
    charge = charge_from_intent(intent)
    return HostedCheckout(
        id=charge.id,
        url=charge.action_url,
        status=_INTENT_PAGE.get(str(field_of(intent, "status")), CheckoutStatus.EXPIRED),
        paid=charge.status == "succeeded",
        expires_at=None,
        charge=charge,
        metadata=charge.metadata,
    )
