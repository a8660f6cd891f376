"""A payment that did not go through (`error.html` with the order kept on screen): the card it
was, the gift, the total and the address stay in view, as on a hosted payment page, and the
banner says what happened to that card and what the person can do next."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from widget import selectors
from widget.formatting import country_name, local_time, money
from widget.screens.error import CHANGE_PAYMENT, PAYMENT_RETRYABLE, error_context

PAYMENT_FAILURES = CHANGE_PAYMENT | PAYMENT_RETRYABLE


def payment_failure_context(tool: str, error: dict[str, Any]) -> dict[str, Any] | None:
    """The error screen for a failed payment, with its order; None where the error is not a
    payment's or names no order (then the plain error screen shows it)."""
    code = error.get("code")
    details = error.get("details") if isinstance(error.get("details"), dict) else {}
    if code not in PAYMENT_FAILURES or not details.get("order_id"):
        return None
    attempt = selectors.payment_attempt(details["order_id"])
    if attempt is None:
        return None
    context = error_context(tool, error)
    card = attempt.card_label
    if code == "INSUFFICIENT_FUNDS":
        context["banner"] = _(
            "%(card)s was declined for insufficient funds. Nothing was charged: choose another "
            "payment method."
        ) % {"card": card}
    elif code == "CARD_DECLINED":
        context["banner"] = _(
            "%(card)s was declined. Nothing was charged: choose another payment method."
        ) % {"card": card}
    elif code in PAYMENT_RETRYABLE:
        context["next_step"] = _held_and_next(attempt)
    shipping = attempt.shipping
    context["order"] = {
        "gift_name": attempt.gift_name,
        "quantity": attempt.quantity,
        "amount": money(attempt.amount, attempt.currency),
        "ship_to": ", ".join(
            part
            for part in (
                shipping["name"],
                shipping["line1"],
                f"{shipping['postal_code']} {shipping['city']}".strip(),
                country_name(shipping["country"]) if shipping["country"] else "",
            )
            if part
        ),
        "card": card,
    }
    return context


def _held_and_next(attempt: selectors.PaymentAttempt) -> str:
    """For a payment service that keeps failing: how long the gift stays held, and what to do."""
    if attempt.held_until is not None:
        return _(
            "We hold the gift for you until %(held_until)s. Try again in a few minutes, or pay "
            "with another card."
        ) % {"held_until": local_time(attempt.held_until)}
    return _(
        "The gift is no longer held for you: trying again holds it again while it is in stock. "
        "Try again in a few minutes, or pay with another card."
    )
