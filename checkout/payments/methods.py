"""What a person may pay with.

With the simulator: the saved test cards. Every user has all of them (they stand for the demo
user's saved cards); each triggers one provider behaviour (see checkout.payments.simulator).
With a provider that keeps saved cards (Stripe): the cards saved to the person's own Customer,
never the test list. Both offer "a new card", entered on the provider's own payment page
(checkout.saga.hosted), never in the chat."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from checkout.payments.provider import card_label


@dataclass(frozen=True)
class PaymentMethod:
    id: str
    label: str  # what the person sees, e.g. "Visa •••• 4242"
    brand: str
    last4: str
    description: str  # what this card is, or what this test card does
    exp_month: int | None = None
    exp_year: int | None = None


VISA = "pm_card_visa"
DECLINED = "pm_card_declined"
INSUFFICIENT_FUNDS = "pm_card_insufficient_funds"
TIMEOUT_ONCE = "pm_card_timeout_once"
TIMEOUT_ALWAYS = "pm_card_timeout_always"
UNAVAILABLE = "pm_card_unavailable"
LOST_RESPONSE = "pm_card_lost_response"
PENDING = "pm_card_pending"
AUTHENTICATION_REQUIRED = "pm_card_authentication_required"
# A saved card's id at the provider (Stripe's PaymentMethod ids); anything else is malformed.
SAVED_CARD_ID = re.compile(r"pm_[A-Za-z0-9_]{1,60}")
NEW_CARD = "new_card"  # entered on the provider's hosted payment page, never in the chat

NEW_CARD_METHOD = PaymentMethod(
    id=NEW_CARD,
    label="New card",
    brand="",
    last4="",
    description="Pay with a new card on the payment service's own page.",
)


def _method(id: str, brand: str, last4: str, description: str) -> PaymentMethod:
    return PaymentMethod(
        id=id,
        label=card_label(brand=brand, last4=last4),
        brand=brand,
        last4=last4,
        description=description,
    )


PAYMENT_METHODS: tuple[PaymentMethod, ...] = (
    _method(VISA, "Visa", "4242", "Test card: the payment succeeds."),
    _method(DECLINED, "Visa", "0002", "Test card: the bank declines the payment."),
    _method(INSUFFICIENT_FUNDS, "Visa", "9995", "Test card: declined for insufficient funds."),
    _method(
        TIMEOUT_ONCE,
        "Mastercard",
        "4444",
        "Test card: the first attempt times out before charging; the retry succeeds.",
    ),
    _method(
        TIMEOUT_ALWAYS,
        "Mastercard",
        "0069",
        "Test card: the payment service never answers in time; nothing is charged.",
    ),
    _method(
        UNAVAILABLE, "Amex", "0005", "Test card: the payment service answers 503 (unavailable)."
    ),
    _method(
        LOST_RESPONSE,
        "Discover",
        "1117",
        "Test card: the charge goes through but the first answer is lost; the retry finds it.",
    ),
    _method(
        PENDING, "Visa", "3155", "Test card: the payment is pending at first and settles later."
    ),
    _method(
        AUTHENTICATION_REQUIRED,
        "Visa",
        "3184",
        "Test card: the bank asks the person to confirm the payment (3-D Secure).",
    ),
)
# Cards the simulator's payment page offers: its bank's check is for saved cards only.
PAGE_PAYMENT_METHODS = tuple(m for m in PAYMENT_METHODS if m.id != AUTHENTICATION_REQUIRED)

_BY_ID = {method.id: method for method in PAYMENT_METHODS}


def offered_payment_methods(*, user: Any) -> tuple[PaymentMethod, ...]:
    """What this person may pay with (see the module docstring). May ask the provider. Without
    a person (`user=None`) there are no saved cards to show."""
    if not keeps_saved_cards():
        return (*PAYMENT_METHODS, NEW_CARD_METHOD)
    if user is None:
        return (NEW_CARD_METHOD,)
    from checkout.payments.stripe_customers import saved_cards

    return (*(_saved(card) for card in saved_cards(user=user)), NEW_CARD_METHOD)


def keeps_saved_cards() -> bool:
    """Whether the configured provider keeps each person's saved cards (Stripe), rather than
    offering everyone the test cards (the simulator)."""
    from checkout.payments.provider import provider_class

    return bool(getattr(provider_class(), "keeps_saved_cards", False))


def persons_payment_method(*, user: Any, payment_method_id: str) -> PaymentMethod | None:
    """The person's payment method with this id, or None. With saved cards, asks the provider
    for that card on the person's Customer only, so another person's card is never found."""
    if payment_method_id == NEW_CARD:
        return NEW_CARD_METHOD
    if not keeps_saved_cards():
        return _BY_ID.get(payment_method_id)
    from checkout.payments.stripe_customers import saved_card

    card = saved_card(user=user, payment_method_id=payment_method_id)
    return None if card is None else _saved(card)


# Shown for a card whose label is not known: never its id.
UNKNOWN_CARD_LABEL = "Card"


def payment_method_label(*, user: Any, payment_method_id: str, known: str = "") -> str:
    """What the person sees for a payment method ("Visa •••• 4242"): `known` when the caller
    kept it (an order's stored label; the provider is then not asked), else asked; "Card" when
    the provider cannot be asked now or does not know it (a label never fails a call, and an
    id is never shown)."""
    from checkout.payments.provider import ProviderError

    if known:
        return known
    if payment_method_id != NEW_CARD and not SAVED_CARD_ID.fullmatch(payment_method_id):
        return UNKNOWN_CARD_LABEL  # a delegated token or none: no saved card to ask about
    try:
        method = persons_payment_method(user=user, payment_method_id=payment_method_id)
    except ProviderError:
        method = None
    return UNKNOWN_CARD_LABEL if method is None else method.label


def _saved(card: Any) -> PaymentMethod:
    return PaymentMethod(
        id=card.id,
        label=card_label(brand=card.brand, last4=card.last4),
        brand=card.brand,
        last4=card.last4,
        description=f"Saved card, expires {card.exp_month:02d}/{card.exp_year % 100:02d}.",
        exp_month=card.exp_month,
        exp_year=card.exp_year,
    )


def payment_method(id: str) -> PaymentMethod | None:
    """A test card by id (the simulator's list), for showing an order's method."""
    return _BY_ID.get(id)
