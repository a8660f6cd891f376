"""The saved test payment methods. Every user has all of them; each triggers one provider
behaviour in the simulator (see checkout.payments.simulator)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PaymentMethod:
    id: str
    label: str  # what the person sees, e.g. "Visa •••• 4242"
    brand: str
    last4: str
    description: str  # what this test card does


VISA = "pm_card_visa"
DECLINED = "pm_card_declined"
INSUFFICIENT_FUNDS = "pm_card_insufficient_funds"
TIMEOUT_ONCE = "pm_card_timeout_once"
TIMEOUT_ALWAYS = "pm_card_timeout_always"
UNAVAILABLE = "pm_card_unavailable"
LOST_RESPONSE = "pm_card_lost_response"
PENDING = "pm_card_pending"


def _method(id: str, brand: str, last4: str, description: str) -> PaymentMethod:
    return PaymentMethod(
        id=id, label=f"{brand} •••• {last4}", brand=brand, last4=last4, description=description
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
)

_BY_ID = {method.id: method for method in PAYMENT_METHODS}


def offered_payment_methods() -> tuple[PaymentMethod, ...]:
    """What a person may pay with: the methods the configured provider can charge. A provider
    class names them in `payment_method_ids`; without it (the simulator), every one."""
    from checkout.payments.provider import provider_class

    ids = getattr(provider_class(), "payment_method_ids", None)
    return PAYMENT_METHODS if ids is None else tuple(m for m in PAYMENT_METHODS if m.id in ids)


def payment_method(id: str) -> PaymentMethod | None:
    return _BY_ID.get(id)
