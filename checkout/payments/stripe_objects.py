"""Stripe's SDK client, its errors as provider errors, money in minor units, and the Charge a
PaymentIntent stands for: shared by the Stripe adapter's payments, customers and hosted checkout
(checkout.payments.stripe_provider, stripe_customers, stripe_checkout).

Each call is exactly one attempt (the SDK's own retries are off): retrying is the gateway's job.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any, TypeVar

import stripe
from django.conf import settings

from checkout.payments.provider import (
    CardDeclined,
    Charge,
    ChargeStatus,
    ProviderError,
    ProviderOutcomeUnknown,
    ProviderRejected,
    ProviderTimeout,
    ProviderUnavailable,
    card_label,
)

T = TypeVar("T")

# Metadata fields of our own on PaymentIntents and Refunds (besides the caller's metadata).
KEY_FIELD = "giftgenius_key"  # the provider idempotency key the object was made under
METHOD_FIELD = "giftgenius_method"  # the saved card charged (a PaymentMethod id)
_DECLINES = {"insufficient_funds": "INSUFFICIENT_FUNDS"}  # every other decline: CARD_DECLINED

# Currencies Stripe counts in whole units (no cents).
ZERO_DECIMAL = frozenset(
    {"bif", "clp", "djf", "gnf", "jpy", "kmf", "krw", "mga"}
    | {"pyg", "rwf", "ugx", "vnd", "vuv", "xaf", "xof", "xpf"}
)

_PENDING_STATES = {"processing", "requires_capture"}
UNCONFIRMED_STATES = {"requires_confirmation"}


# --- the SDK client -------------------------------------------------------------------------------


@functools.lru_cache(maxsize=4)
def _client(api_key: str, api_base: str, timeout: float) -> stripe.StripeClient:
    # Cached: the HTTP client keeps one connection pool per thread. No SDK retries: the gateway
    # is the one retry layer.
    return stripe.StripeClient(
        api_key,
        base_addresses={"api": api_base},
        max_network_retries=0,
        http_client=stripe.RequestsClient(timeout=timeout),
    )


def client() -> stripe.StripeClient:
    """The configured client (settings read per call, so tests can point it elsewhere)."""
    return _client(
        settings.STRIPE_API_KEY,
        settings.STRIPE_API_BASE,
        float(settings.STRIPE_TIMEOUT_SECONDS),
    )


def translated(call: Callable[[], T]) -> T:
    """Run one SDK call; Stripe's errors become provider errors (see checkout.payments.stripe_provider)."""
    try:
        return call()
    except stripe.StripeError as exc:
        raise provider_error(exc) from exc


def provider_error(exc: stripe.StripeError) -> ProviderError:
    if isinstance(exc, stripe.CardError):
        return CardDeclined(_decline(_error_field(exc, "decline_code")), str(exc))
    if isinstance(exc, stripe.RateLimitError):
        return ProviderUnavailable(f"Stripe answered 429: {exc}")
    if isinstance(exc, stripe.APIConnectionError):
        return ProviderTimeout(f"Stripe did not answer: {exc}")
    if isinstance(exc, stripe.IdempotencyError):
        return ProviderRejected(str(exc), code="IDEMPOTENCY_KEY_REUSED")
    if isinstance(exc, stripe.InvalidRequestError):
        missing = exc.http_status == 404 or exc.code == "resource_missing"
        return ProviderRejected(str(exc), code="NO_SUCH_CHARGE" if missing else "INVALID_REQUEST")
    if isinstance(exc, stripe.APIError):
        if exc.http_status == 409:
            return ProviderUnavailable(f"Stripe answered 409: {exc}")
        if exc.http_status is None or exc.http_status >= 500:
            return ProviderOutcomeUnknown(f"Stripe answered {exc.http_status}: {exc}")
    # Authentication, permission, other 4xx: configuration or request problems.
    return ProviderRejected(str(exc))


def _error_field(exc: stripe.StripeError, name: str) -> str | None:
    body = exc.json_body if isinstance(exc.json_body, dict) else {}
    error = body.get("error") or {}
    return error.get(name) if isinstance(error, dict) else None


def _decline(decline_code: str | None) -> str:
    return _DECLINES.get(decline_code or "", "CARD_DECLINED")


# --- money ------------------------------------------------------------------------------------------


def to_minor(amount: Decimal, currency: str) -> int:
    """Our decimal amount in Stripe's integer minor units (cents, or units for JPY and co.)."""
    try:
        value = Decimal(str(amount))
    except (InvalidOperation, ValueError):
        raise ProviderRejected("amount is not a number", code="INVALID_REQUEST") from None
    exponent = 0 if currency.lower() in ZERO_DECIMAL else 2
    minor = value.scaleb(exponent)
    if not minor.is_finite() or minor <= 0 or minor != minor.to_integral_value():
        raise ProviderRejected(
            f"amount must be positive with at most {exponent} decimals", code="INVALID_REQUEST"
        )
    return int(minor)


def from_minor(minor: int, currency: str) -> Decimal:
    exponent = 0 if currency.lower() in ZERO_DECIMAL else 2
    quantum = Decimal(1) if exponent == 0 else Decimal("0.01")
    return (Decimal(int(minor or 0)).scaleb(-exponent)).quantize(quantum, ROUND_HALF_UP)


# --- PaymentIntent → Charge ---------------------------------------------------------------------------


def _plain(obj: Any) -> Any:
    """An SDK object as a plain dict (a webhook event's data.object already is one)."""
    to_dict = getattr(obj, "to_dict", None)
    return to_dict() if callable(to_dict) else obj


def field_of(obj: Any, name: str, default: Any = None) -> Any:
    obj = _plain(obj)
    return obj.get(name, default) if isinstance(obj, dict) else default


BRANDS = {"visa": "Visa", "mastercard": "Mastercard", "amex": "Amex", "discover": "Discover"}


def brand_name(brand: Any) -> str:
    """A card brand as people write it ("Visa"), from Stripe's code ("visa")."""
    code = str(brand or "")
    return BRANDS.get(code, code.title())


def paid_card_label(intent: Any) -> str:
    """The card an intent was paid with ("Visa •••• 4242"), from its expanded PaymentMethod
    or its latest charge's details; "" when it names none (not expanded, or not a card)."""
    method = field_of(intent, "payment_method")
    card = None if isinstance(method, str) else field_of(method, "card")
    if card is None:
        latest = field_of(intent, "latest_charge")
        details = None if isinstance(latest, str) else field_of(latest, "payment_method_details")
        card = field_of(details, "card")
    if not card or not field_of(card, "last4"):
        return ""
    return card_label(brand=brand_name(field_of(card, "brand")), last4=str(field_of(card, "last4")))


def metadata_of(intent: Any) -> dict:
    raw = field_of(intent, "metadata") or {}
    return {str(k): str(v) for k, v in raw.items()}


def charge_status(intent: Any) -> str | None:
    """Our ChargeStatus for a PaymentIntent's status, or None while it was never confirmed
    (nothing was attempted, so nothing can be captured under it yet)."""
    status = field_of(intent, "status")
    if status == "succeeded":
        return ChargeStatus.SUCCEEDED
    if status in _PENDING_STATES:
        return ChargeStatus.PENDING
    if status in UNCONFIRMED_STATES:
        return None
    if status == "requires_payment_method" and not field_of(intent, "last_payment_error"):
        return None
    if status == "requires_action":
        return ChargeStatus.REQUIRES_ACTION  # the person authenticates (3-D Secure) first
    # requires_payment_method after a decline, canceled: nothing captured, nothing coming.
    return ChargeStatus.FAILED


def action_url(intent: Any) -> str:
    """Where the person authenticates a PaymentIntent that requires action (its redirect)."""
    redirect = field_of(field_of(intent, "next_action"), "redirect_to_url")
    return str(field_of(redirect, "url") or "")


def charge_from_intent(intent: Any) -> Charge:
    """The Charge a PaymentIntent stands for (an SDK object, or the dict of a webhook event's
    `data.object`). A never-confirmed intent reads as failed with no failure code: nothing was
    captured and nothing is pending. `refunded_amount` comes from the intent's latest charge
    when it is expanded (an id only: 0, so fetch it with `StripeProvider.retrieve_charge`)."""
    currency = str(field_of(intent, "currency") or "")
    status = charge_status(intent) or ChargeStatus.FAILED
    error = field_of(intent, "last_payment_error")
    failure = (
        _decline(field_of(error, "decline_code"))
        if status == ChargeStatus.FAILED and error
        else None
    )
    latest = field_of(intent, "latest_charge")
    refunded = (
        0 if latest is None or isinstance(latest, str) else field_of(latest, "amount_refunded", 0)
    )
    meta = metadata_of(intent)
    method = field_of(intent, "payment_method")
    method = None if isinstance(method, str) else method  # expanded, or only an id
    return Charge(
        id=str(field_of(intent, "id")),
        idempotency_key=meta.get(KEY_FIELD, ""),
        amount=from_minor(field_of(intent, "amount", 0), currency),
        currency=currency.upper(),
        payment_method_id=meta.get(METHOD_FIELD, ""),
        status=status,
        failure_code=failure,
        refunded_amount=from_minor(refunded, currency),
        metadata=meta,
        action_url=action_url(intent) if status == ChargeStatus.REQUIRES_ACTION else "",
        card_brand=str(field_of(field_of(method, "card"), "brand") or "") if method else "",
        card_label=paid_card_label(intent),
    )
