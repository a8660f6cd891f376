"""Which payment method pays for an order: the person's choice checked against what the
provider holds for them, at prepare and again just before a saved card is charged.

These checks have no side effect (they may ask the provider, never write), so they run as
input checks before any idempotency key is claimed (checkout.tools)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from checkout.models import Order
from checkout.payments.methods import (
    NEW_CARD,
    NEW_CARD_METHOD,
    SAVED_CARD_ID,
    PaymentMethod,
    keeps_saved_cards,
    offered_payment_methods,
    persons_payment_method,
)
from checkout.payments.provider import ProviderError
from gifts.models import WorkflowContext
from tool_runtime.errors import ToolError


def payment_method_error(payment_method_id: str, *, owner: AbstractBaseUser) -> ToolError | None:
    """Why `payment_method_id` cannot pay for the owner's order, or None (see chosen_payment_method)."""
    chosen = chosen_payment_method(payment_method_id, owner=owner)
    return chosen if isinstance(chosen, ToolError) else None


def chosen_payment_method(
    payment_method_id: str, *, owner: AbstractBaseUser
) -> PaymentMethod | ToolError:
    """The owner's payment method with this id, or why it cannot pay. No side effect (it may
    ask the provider, never write): prepare_order declares it as an input check, run with
    validation before any idempotency key is claimed.

    Another person's card, a detached one and an unknown id all get PAYMENT_METHOD_UNKNOWN,
    the same answer, so it tells nothing about anyone else's cards. With saved cards (Stripe),
    an id that is not a PaymentMethod id at all is a VALIDATION_ERROR. A new card is always
    accepted: it is entered on the provider's hosted page, never here."""
    saved_cards = keeps_saved_cards()
    if payment_method_id == NEW_CARD:
        return NEW_CARD_METHOD  # paid on the provider's own page (checkout.saga.hosted)
    if saved_cards and not SAVED_CARD_ID.fullmatch(payment_method_id):
        return ToolError(
            "VALIDATION_ERROR",
            "Field 'payment_method_id' is invalid (not a saved card's id); expected the id of "
            "a saved card get_payment_methods returned (pm_ and letters or digits).",
            field="payment_method_id",
            expected="the id of a saved card get_payment_methods returned (pm_ and letters or "
            "digits)",
        )
    try:
        method = persons_payment_method(user=owner, payment_method_id=payment_method_id)
        if method is not None:
            return method
        ids = [method.id for method in offered_payment_methods(user=owner)]
    except ProviderError:
        return ToolError(
            "PAYMENT_PROVIDER_ERROR",
            "The payment service could not be asked for the person's saved cards. Nothing was "
            "charged; try again in a moment.",
            field="payment_method_id",
        )
    return ToolError(
        "PAYMENT_METHOD_UNKNOWN",
        f"'{payment_method_id}' is not one of this person's payment methods. Use an id from "
        "get_payment_methods.",
        field="payment_method_id",
        expected="the id of one of the payment methods get_payment_methods returned",
        allowed_values=ids,
        example=ids[0],
    )


def check_card_still_saved(*, order: Order, workflow: WorkflowContext) -> None:
    """With saved cards, the card chosen at prepare must still be the person's (they may have
    removed it since): checked before anything is charged, so a detached card is answered as
    one, never as a payment service fault."""
    if not keeps_saved_cards() or order.payment_method_id == NEW_CARD:
        return
    error = payment_method_error(order.payment_method_id, owner=workflow.owner)
    if error is None:
        return
    if error.code == "PAYMENT_PROVIDER_ERROR":
        raise ToolError(
            "PAYMENT_PROVIDER_ERROR",
            "The payment service could not be asked about the chosen card. Nothing was "
            'charged; the person can press "Try again" in a moment.',
            details={"order_id": str(order.pk)},
        )
    raise ToolError(
        "PAYMENT_METHOD_UNKNOWN",
        "The card chosen for this order is no longer one of the person's saved cards. Nothing "
        "was charged. Choose another card from get_payment_methods and call prepare_order again.",
        details={"order_id": str(order.pk), "payment_method_id": order.payment_method_id},
        next_actions=["get_payment_methods", "prepare_order"],
    )
