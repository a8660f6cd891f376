"""The payment provider contract (Stripe-like) that the rest of checkout codes against.

A provider is an external system: every call may time out or fail, and every charge carries an
idempotency key so that asking again after a lost response never captures twice. Retries do NOT
live here (see checkout.payments.gateway); a provider makes exactly one attempt per call.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Protocol

from django.conf import settings
from django.utils.module_loading import import_string

DEFAULT_PROVIDER = "checkout.payments.simulator.SimulatedProvider"


class ChargeStatus:
    SUCCEEDED = "succeeded"
    PENDING = "pending"
    FAILED = "failed"
    # The bank asks the person to authenticate (3-D Secure) at `Charge.action_url` first.
    REQUIRES_ACTION = "requires_action"


def card_label(*, brand: str, last4: str) -> str:
    """How a card is shown to people and staff: its brand and last four digits, never its id."""
    return f"{brand} •••• {last4}"


@dataclass(frozen=True)
class Charge:
    id: str  # the simulator's "ch_...", Stripe's PaymentIntent "pi_..."
    idempotency_key: str
    amount: Decimal
    currency: str
    payment_method_id: str
    status: str  # "succeeded" | "pending" | "failed"
    failure_code: str | None  # "CARD_DECLINED" | "INSUFFICIENT_FUNDS" when failed
    refunded_amount: Decimal
    metadata: dict  # includes "order_id"
    action_url: str = ""  # where the person authenticates, while it requires action
    # "visa", "mastercard", "amex"…, when the read included the card; not what a charge *is*.
    card_brand: str = field(default="", compare=False)
    # The card it was paid with ("Visa •••• 4242"), when the provider says; not what a charge *is*.
    card_label: str = field(default="", compare=False)

    @property
    def order_id(self) -> str:
        return str(self.metadata.get("order_id") or "")

    @property
    def net_captured(self) -> Decimal:
        """Money the provider holds for this charge: captured minus refunded."""
        if self.status != ChargeStatus.SUCCEEDED:
            return Decimal("0")
        return self.amount - self.refunded_amount


@dataclass(frozen=True)
class Refund:
    id: str  # "re_..."
    charge_id: str
    amount: Decimal
    idempotency_key: str


class CheckoutStatus:
    OPEN = "open"  # the person may still pay on the page
    COMPLETE = "complete"  # paid, or a payment that settles later was made
    EXPIRED = "expired"  # closed unpaid: nothing can be paid through it any more


@dataclass(frozen=True)
class CheckoutLine:
    """One line of what the hosted page shows; their sum (with shipping) is the order total."""

    name: str
    unit_amount: Decimal
    quantity: int = 1


@dataclass(frozen=True)
class HostedCheckout:
    """A page at the provider where the person pays (Stripe's Checkout Session, "cs_..."), or
    where they authenticate a saved card's payment (3-D Secure: `id` is the intent's)."""

    id: str
    url: str  # where the person pays; empty once closed
    status: str  # CheckoutStatus
    paid: bool  # the provider captured the money
    expires_at: datetime | None  # None for an authentication: the order's hold bounds it
    charge: Charge | None  # the payment made through the page, once one was attempted
    metadata: dict  # includes "order_id"

    @property
    def order_id(self) -> str:
        return str(self.metadata.get("order_id") or "")


class ProviderError(Exception):
    """Anything the provider answered other than a result."""

    transient = False
    code = "PROVIDER_ERROR"

    def __init__(self, message: str = "", *, code: str | None = None) -> None:
        super().__init__(message or self.__class__.__name__)
        if code is not None:
            self.code = code


class CardDeclined(ProviderError):
    """The card was refused (not transient). `.charge` is the failed charge the provider
    recorded."""

    code = "CARD_DECLINED"

    def __init__(
        self, code: str = "CARD_DECLINED", message: str = "", *, charge: Charge | None = None
    ):
        super().__init__(message or f"card declined ({code})", code=code)
        self.charge = charge


class ProviderTimeout(ProviderError):
    """No answer in time. Transient, and the outcome is UNKNOWN: the request may have been
    processed."""

    transient = True
    code = "PROVIDER_TIMEOUT"


class ProviderOutcomeUnknown(ProviderTimeout):
    """The provider failed while handling the request (a 5xx from a real API): it may have been
    processed before it failed. Handled exactly like a time-out (retried with the same key, then
    looked up), so it can never be taken for "not charged" without asking."""

    code = "PROVIDER_SERVER_ERROR"


class ProviderUnavailable(ProviderError):
    """The provider refused to take the request (the simulator's 503, a real API's 429 rate
    limit or 409 conflict). Transient; the request was NOT processed."""

    transient = True
    code = "PROVIDER_UNAVAILABLE"


class ProviderRejected(ProviderError):
    """4xx: the request is wrong (key reused with other parameters, refund too large, unknown
    charge); asking again cannot help."""

    code = "PROVIDER_REJECTED"


class PaymentProvider(Protocol):
    def charge(
        self,
        *,
        amount: Decimal,
        currency: str,
        payment_method_id: str,
        idempotency_key: str,
        metadata: dict,
        charge_id: str = "",
        on_created: Callable[[str], None] | None = None,
    ) -> Charge:
        """`charge_id`: the provider's id of the charge made under the key, when the caller
        knows it. A provider that creates a charge before it attempts it (Stripe) calls
        `on_created(id)` in between, so the caller can record the id before any money moves."""
        ...

    def retrieve_by_idempotency_key(
        self, *, idempotency_key: str, charge_id: str = "", since: datetime | None = None
    ) -> Charge | None:
        """None only when nothing can ever be captured under the key. `charge_id` (when known)
        and `since` (when the key was first used) help a provider that cannot search by key."""
        ...

    def retrieve_charge(self, *, charge_id: str) -> Charge: ...

    def refund(self, *, charge_id: str, amount: Decimal, idempotency_key: str) -> Refund: ...

    def charges_for_order(self, *, order_id: str) -> list[Charge]: ...

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
        """Open a page where the person pays `amount` with a new card (and may save it), made
        once per `idempotency_key`. `lines` and `shipping` add up to `amount` exactly; a
        provider that would ask for another total refuses. `payer` is the signed-in user.
        `success_url` may carry `{CHECKOUT_SESSION_ID}`, replaced by the page's id."""
        ...

    def retrieve_hosted_checkout(self, *, checkout_id: str) -> HostedCheckout: ...

    def expire_hosted_checkout(self, *, checkout_id: str) -> HostedCheckout:
        """Close an open page so that nothing can be paid through it any more; a page already
        closed (paid or expired) is answered as it is."""
        ...


def provider_class():
    """settings.PAYMENT_PROVIDER: the dotted path of a class (or any zero-argument factory);
    the built-in simulator by default. Read on every call so tests can override the setting."""
    return import_string(getattr(settings, "PAYMENT_PROVIDER", None) or DEFAULT_PROVIDER)


def get_provider() -> PaymentProvider:
    """The configured provider."""
    return provider_class()()
