"""Shared Payment Tokens, seller side (Stripe's Agentic Commerce preview, API
2026-04-22.preview): an agent grants the seller a token for a buyer's PaymentMethod, limited to
a currency, a maximum amount and an expiry; the seller charges it with a PaymentIntent whose
`payment_method_data[shared_payment_granted_token]` names it.

- `POST /v1/test_helpers/shared_payment/granted_tokens`: grant one (test helper):
  `payment_method` and `usage_limits[currency|max_amount|expires_at]` required, `customer` and
  `shared_metadata` optional.
- `GET /v1/shared_payment/granted_tokens/{id}`: the token, with `usage_details.amount_captured`.
- `POST /v1/test_helpers/shared_payment/granted_tokens/{id}/revoke`: the agent revokes it.

A token shows the card's brand, last 4 and expiry, never its number. Charging it makes a
PaymentMethod of the seller's own (a copy of the buyer's card, `shared_payment_granted_token` set
on it). A charge that would pass a limit is declined (card_error `card_declined`, with a
message naming the limit) and captures nothing; when the captured total reaches `max_amount` the
token is deactivated (`consumed`), and `shared_payment.granted_token.used` is sent on each use.
"""

import time
from typing import Any, NotRequired

from localstripe import resources
from localstripe.errors import UserError
from typing_extensions import TypedDict

from fakestripe import params
from fakestripe.stock import emit, no_such, route

OBJECT = "shared_payment.granted_token"


class GrantedTokenUsageLimits(TypedDict):
    currency: str
    expires_at: NotRequired[int]
    max_amount: int


class GrantedTokenCreateParams(TypedDict):
    """Stripe's API reference for the test helper (the installed SDK does not type it)."""

    customer: NotRequired[str]
    expand: NotRequired[list[str]]
    payment_method: str
    shared_metadata: NotRequired[dict[str, str]]
    usage_limits: GrantedTokenUsageLimits


class GrantedTokenExpandParams(TypedDict):
    expand: NotRequired[list[str]]


params.endpoint("POST", "/v1/test_helpers/shared_payment/granted_tokens", GrantedTokenCreateParams)
params.endpoint("GET", "/v1/shared_payment/granted_tokens/{id}", GrantedTokenExpandParams)
params.endpoint(
    "POST", "/v1/test_helpers/shared_payment/granted_tokens/{id}/revoke", GrantedTokenExpandParams
)


class GrantedToken(resources.StripeObject):
    object = OBJECT
    _id_prefix = "spt_"

    def __init__(
        self,
        payment_method: Any,
        currency: str,
        max_amount: int,
        expires_at: int | None,
        customer: str | None,
        shared_metadata: dict[str, str] | None,
    ):
        super().__init__()
        self._payment_method = payment_method.id
        self.customer = customer
        self.deactivated_at = None
        self.deactivated_reason = None
        self.shared_metadata = shared_metadata or {}
        self.usage_limits = {
            "currency": currency,
            "expires_at": expires_at,
            "max_amount": max_amount,
        }
        self.usage_details = {"amount_captured": {"currency": currency, "value": 0}}
        card = payment_method.card
        self.payment_method_details = {
            "type": "card",
            "billing_details": payment_method.billing_details,
            "card": {
                k: card[k]
                for k in (
                    "brand",
                    "country",
                    "exp_month",
                    "exp_year",
                    "fingerprint",
                    "funding",
                    "last4",
                )
            },
        }

    def _deactivate(self, reason: str) -> None:
        if self.deactivated_reason is None:
            self.deactivated_at = int(time.time())
            self.deactivated_reason = reason


def grant(payment_method=None, usage_limits=None, customer=None, shared_metadata=None, **_):
    method = resources.PaymentMethod._api_retrieve(payment_method)
    if method.type != "card":
        raise UserError(400, "Only card PaymentMethods can be shared.", {"param": "payment_method"})
    if customer is not None:
        resources.Customer._api_retrieve(customer)
        if method.customer not in (None, customer):
            raise UserError(
                400,
                "The PaymentMethod is attached to another Customer.",
                {"param": "customer"},
            )
    limits = usage_limits
    max_amount = resources.try_convert_to_int(limits["max_amount"])
    expires_at = resources.try_convert_to_int(limits.get("expires_at"))
    if max_amount <= 0:
        raise UserError(
            400, "usage_limits[max_amount] must be positive.", {"param": "usage_limits[max_amount]"}
        )
    if expires_at is not None and expires_at <= time.time():
        raise UserError(
            400,
            "usage_limits[expires_at] must be in the future.",
            {"param": "usage_limits[expires_at]"},
        )
    return GrantedToken(
        method, limits["currency"].lower(), max_amount, expires_at, customer, shared_metadata
    )


def retrieve(id: str, param: str = "id") -> GrantedToken:
    token = resources.store.get(f"{OBJECT}:{id}")
    if token is None:
        raise no_such("shared_payment_granted_token", id, param)
    expires_at = token.usage_limits["expires_at"]
    if token.deactivated_reason is None and expires_at is not None and expires_at <= time.time():
        token._deactivate("expired")
    return token


def revoke(id: str, **_) -> GrantedToken:
    token = retrieve(id)
    token._deactivate("revoked")
    return token


def payment_method(token: GrantedToken) -> Any:
    """The seller's own copy of the buyer's card, to charge the token with."""
    shared = resources.PaymentMethod._api_retrieve(token._payment_method)
    card = {
        "number": shared._card_number,
        "exp_month": shared.card["exp_month"],
        "exp_year": shared.card["exp_year"],
        "cvc": "123",
    }
    method = resources.PaymentMethod(type="card", card=card, billing_details=shared.billing_details)
    method.shared_payment_granted_token = token.id
    return method


def refusal(token: GrantedToken, amount: int, currency: str) -> str | None:
    """Why charging `amount currency` with the token is declined, or None when it may be."""
    token = retrieve(token.id)
    if token.deactivated_reason is not None:
        return f"The shared payment granted token is no longer usable ({token.deactivated_reason})."
    limits = token.usage_limits
    if currency.lower() != limits["currency"]:
        return f"The shared payment granted token is limited to {limits['currency']}."
    captured = token.usage_details["amount_captured"]["value"]
    if captured + amount > limits["max_amount"]:
        return (
            f"The amount exceeds the shared payment granted token's limit "
            f"({limits['max_amount'] - captured} {limits['currency']} left)."
        )
    return None


def record_use(token: GrantedToken, amount: int) -> None:
    captured = token.usage_details["amount_captured"]
    captured["value"] += amount
    if captured["value"] >= token.usage_limits["max_amount"]:
        token._deactivate("consumed")
    emit("shared_payment.granted_token.used", token)


def add_routes(app: Any) -> None:
    route(app, "POST", "/v1/test_helpers/shared_payment/granted_tokens", grant)
    route(app, "GET", "/v1/shared_payment/granted_tokens/{id}", lambda id, **_: retrieve(id))
    route(app, "POST", "/v1/test_helpers/shared_payment/granted_tokens/{id}/revoke", revoke)
