"""3-D Secure for an agent's session (the protocol's `authentication_required`): when the bank
asks for it on the Shared Payment Token's PaymentIntent, the agent authenticates the buyer with
the session's `authentication_metadata` (when it said it handles `3ds`: its capabilities'
interventions; otherwise the payment is ended, `intervention_required`) and brings `authentication_result` to its next complete.

Stripe's word settles the order, never the agent's: the order waits on the saga's
awaiting-payment path, which reads a `pi_…` as a payment page (checkout.saga.hosted), so a
webhook or the sweep may settle it as well, under the order's lease, and nothing is charged a
second time. An outcome saying the buyer was not authenticated ends the PaymentIntent (a cancel
Stripe accepts proves it can never capture) and the session answers `payment_declined`.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from checkout.agentic import shape
from checkout.agentic.errors import AcpError
from checkout.models import CheckoutSession, Order, OrderStatus
from checkout.payments import gateway
from checkout.payments.provider import ProviderError
from checkout.saga import hosted, lease

# The card brands whose directory servers the specification names (AuthenticationMetadata).
DIRECTORY_SERVERS = {"visa": "visa", "mastercard": "mastercard", "amex": "american_express"}
# Outcomes in which the issuer authenticated the buyer or acknowledged the attempt.
AUTHENTICATED = frozenset({"authenticated", "attempt_acknowledged", "informational"})


def hand_to_agent(session: CheckoutSession, order: Order, *, correlation_id: str) -> dict[str, Any]:
    """The saga left the order awaiting authentication: name the card's directory server for
    the agent. A card no named directory server serves cannot be authenticated by an agent, so
    its payment is ended and declined, nothing charged."""
    try:
        page = gateway.retrieve_hosted_checkout(checkout_id=order.payment_session_id)
    except ProviderError:
        return shape.session_view(session)  # in progress; a webhook or the sweep settles it
    if "3ds" not in session.interventions:
        return _settle(
            session,
            order,
            authenticated=False,
            correlation_id=correlation_id,
            refusal=shape.message(
                "intervention_required",
                _(
                    "The bank asks for 3-D Secure, which this agent does not handle; nothing was "
                    "charged."
                ),
                param="$.capabilities.interventions.supported",
            ),
        )
    server = DIRECTORY_SERVERS.get(page.charge.card_brand if page.charge else "")
    if server is None:
        return _settle(session, order, authenticated=False, correlation_id=correlation_id)
    CheckoutSession.objects.filter(pk=session.pk).update(directory_server=server)
    session.directory_server = server
    return shape.session_view(session)


def settle(
    session: CheckoutSession, order: Order, *, result: dict | None, correlation_id: str
) -> dict[str, Any]:
    """A complete while the session awaits authentication: it must bring the agent's result."""
    if result is None:
        raise AcpError(
            400,
            "requires_3ds",
            "This checkout session requires issuer authentication. "
            "The request must include 'authentication_result'.",
            param="$.authentication_result",
        )
    return _settle(
        session,
        order,
        authenticated=result["outcome"] in AUTHENTICATED,
        correlation_id=correlation_id,
    )


def _settle(
    session: CheckoutSession,
    order: Order,
    *,
    authenticated: bool,
    correlation_id: str,
    refusal: dict[str, Any] | None = None,
) -> dict[str, Any]:
    lease_until = lease.claim_order(order_id=order.pk)
    if lease_until is None:  # a webhook or the sweep is settling it right now
        return shape.session_view(session)
    try:
        order.refresh_from_db()
        if shape.authenticating(order):
            page = (
                None
                if authenticated
                else gateway.expire_hosted_checkout(checkout_id=order.payment_session_id)
            )
            hosted.settle_hosted_checkout(order=order, correlation_id=correlation_id, page=page)
    finally:
        lease.release_order(order_id=order.pk, lease_until=lease_until)
    order.refresh_from_db()
    failed = order.status == OrderStatus.FAILED
    return shape.session_view(
        session, messages=[refusal or shape.declined_message()] if failed else []
    )
