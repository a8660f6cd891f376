"""Paying a Checkout Session, for the hosted page: its PaymentIntent is made at the first attempt,
as at Stripe, and confirmed again with each new card after a decline; the session completes
from what the PaymentIntent does (`checkout.session.completed` with payment_status `paid`, or
`unpaid` for a debit that settles later, then `checkout.session.async_payment_succeeded` or
`_failed`). The card is saved to the customer only where the person ticked the box on a session
that enables saving.
"""

from __future__ import annotations

from typing import Any

from localstripe import resources
from localstripe.errors import UserError

from fakestripe import intents
from fakestripe.checkout_sessions import CheckoutSession, stored_sessions
from fakestripe.stock import emit

AUTHENTICATION_FAILED = (
    "We are unable to authenticate your payment method. Please choose a different payment "
    "method and try again."
)


def pay(session: CheckoutSession, method: Any, *, save: bool) -> str | None:
    """Pay with `method`; None when paid or pending, "authenticate" for 3-D Secure, or the
    message of a decline (the session stays open for another card)."""
    if session.status != "open":
        raise UserError(400, "This Checkout Session is no longer active.")
    saving = session.saved_payment_method_options or {}
    session._save_requested = save and saving.get("payment_method_save") == "enabled"
    if session.payment_intent is None:
        intent = resources.PaymentIntent._api_create(
            amount=session.amount_total,
            currency=session.currency,
            customer=session.customer,
            **session.payment_intent_data,
        )
        session.payment_intent = intent.id
    intent = resources.PaymentIntent._api_retrieve(session.payment_intent)
    if intent.status == "requires_action":  # 3-D Secure left unfinished for another card
        intent.next_action = None
        intent.payment_method = None
    try:
        intent = resources.PaymentIntent._api_confirm(
            session.payment_intent, payment_method=method.id
        )
    except UserError as error:
        return error.body["error"].get("message", "Your card was declined.")
    if intent.status == "requires_action":
        return "authenticate"
    if intent.status == "processing":
        _complete(session, paid=False)
    return None


def authenticate(session: CheckoutSession, *, success: bool) -> str | None:
    intent = resources.PaymentIntent._api_retrieve(session.payment_intent)
    try:
        intent = resources.PaymentIntent._api_authenticate(
            intent.id, client_secret=intent.client_secret, success=success
        )
    except UserError as error:
        return error.body["error"].get("message", "Your card was declined.")
    return AUTHENTICATION_FAILED if intent._authentication_failed else None


def _complete(session: CheckoutSession, *, paid: bool) -> None:
    intent = resources.PaymentIntent._api_retrieve(session.payment_intent)
    method = resources.PaymentMethod._api_retrieve(
        intent.payment_method or intent.latest_charge.payment_method
    )
    if session.customer is None and (
        session._save_requested or session.customer_creation == "always"
    ):
        session.customer = intent.customer = resources.Customer(email=session.customer_email).id
    if session._save_requested:
        method.allow_redisplay = "always"
        intents.attach(method, session.customer)
    email = session.customer_email
    if session.customer:
        email = resources.Customer._api_retrieve(session.customer).email or email
    session.customer_details = {
        "address": None,
        "email": email,
        "name": None,
        "phone": None,
        "tax_exempt": "none",
        "tax_ids": [],
    }
    session.status = "complete"
    session.payment_status = "paid" if paid else "unpaid"
    emit("checkout.session.completed", session)


def _on_settled(intent: Any, succeeded: bool) -> None:
    for session in stored_sessions():
        if session.payment_intent != intent.id:
            continue
        if session.status == "open" and succeeded:
            _complete(session, paid=True)
        elif session.status == "complete" and session.payment_status == "unpaid":
            if succeeded:
                session.payment_status = "paid"
                emit("checkout.session.async_payment_succeeded", session)
            else:
                emit("checkout.session.async_payment_failed", session)


def add_listener() -> None:
    intents.settled_listeners.append(_on_settled)
