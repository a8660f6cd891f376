"""PaymentIntents and saved cards as Stripe has them, where localstripe 1.15.10 differs:

- a PaymentIntent takes `setup_future_usage`, `payment_method_data`, `return_url`,
  `description`, `receipt_email`, `statement_descriptor(_suffix)`, `shipping` and
  `allowed_payment_method_types`, and a confirm may bring a new payment method (after a decline);
- 3-D Secure: off-session, a card that needs authentication is declined with the card error
  `authentication_required` (402), the intent back in `requires_payment_method` with
  `last_payment_error`; on-session the intent `requires_action`, with `redirect_to_url` when a
  `return_url` was given (the page is served by hosted_pages) or `use_stripe_sdk`, completed or
  failed with `POST /v1/payment_intents/{id}/_authenticate`;
- Stripe's regulatory test cards: 4000002500003155 authenticates unless set up (a SetupIntent or
  `setup_future_usage` made it reusable), 4000002760003184 always, 4000003800000446 only
  on-session;
- a PaymentIntent with `setup_future_usage` and a customer attaches its card to the customer
  once paid (`payment_method.attached`; setup_intents.py does the same for SetupIntents);
  saved cards are listed per customer, and a card another customer holds is not found.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from localstripe import resources
from localstripe.errors import UserError

from fakestripe import shared_payment
from fakestripe.core import card_error
from fakestripe.stock import (
    Exported,
    as_bool,
    choice,
    emit,
    no_such,
    origin,
    page,
    replace_api,
    route,
    stored,
)

PaymentIntent, PaymentMethod, Customer = (
    resources.PaymentIntent,
    resources.PaymentMethod,
    resources.Customer,
)

AUTHENTICATE_UNLESS_SET_UP = {"4000002500003155"}
SET_UP_FOR_OFF_SESSION = {"4000003800000446"}
USAGES = ("on_session", "off_session")
# Called with (intent, succeeded) when a PaymentIntent settles: checkout sessions listen.
settled_listeners: list[Callable[[Any, bool], None]] = []

_stock_requires_authentication = PaymentMethod._requires_authentication
_stock_on_success = PaymentIntent._on_success
_stock_report_async_failure = PaymentIntent._report_async_failure
_stock_authenticate = PaymentIntent._api_authenticate.__func__
_stock_cancel = PaymentIntent._api_cancel.__func__


def needs_authentication(method: Any, *, off_session: bool) -> bool:
    if method.type != "card":
        return False
    number = method._card_number
    if number in SET_UP_FOR_OFF_SESSION:
        return not off_session
    if off_session and number in AUTHENTICATE_UNLESS_SET_UP:
        return not method._set_up
    return _stock_requires_authentication(method)


def attach(method: Any, customer: str) -> None:
    if method.customer != customer:
        method.customer = customer
        emit("payment_method.attached", method)


def find_method(id: str, param: str = "payment_method") -> Any:
    """A stored PaymentMethod (a test id such as pm_card_visa makes a new one, as at Stripe)."""
    try:
        return PaymentMethod._api_retrieve(id)
    except UserError:
        raise no_such("PaymentMethod", id, param) from None


def method_from_data(data: dict[str, Any]) -> tuple[Any, Any]:
    """(PaymentMethod, granted token or None) for `payment_method_data`."""
    token_id = data.get("shared_payment_granted_token")
    if token_id is not None:
        if len(data) > 1:
            raise UserError(
                400,
                "payment_method_data[shared_payment_granted_token] cannot be combined with "
                "other payment_method_data fields.",
                {"param": "payment_method_data", "code": "parameters_exclusive"},
            )
        token = shared_payment.retrieve(
            token_id, param="payment_method_data[shared_payment_granted_token]"
        )
        return shared_payment.payment_method(token), token
    fields = {k: v for k, v in data.items() if k != "allow_redisplay"}
    method = PaymentMethod(**fields)
    method.allow_redisplay = data.get("allow_redisplay", "unspecified")
    return method, None


# --- PaymentIntents -----------------------------------------------------------------------------

_CREATE_EXTRAS = (
    "setup_future_usage",
    "return_url",
    "description",
    "receipt_email",
    "statement_descriptor",
    "statement_descriptor_suffix",
    "shipping",
)


def create_intent(
    cls,
    confirm=None,
    off_session=None,
    payment_method_data=None,
    allowed_payment_method_types=None,
    **data,
):
    confirm = as_bool(confirm, "confirm")
    off_session = _off_session(off_session)
    if off_session and not confirm:
        raise UserError(
            400, "You can only pass off_session when confirm=true.", {"param": "off_session"}
        )
    extras = {name: data.pop(name, None) for name in _CREATE_EXTRAS}
    choice(extras["setup_future_usage"], "setup_future_usage", USAGES)
    token = None
    if payment_method_data is not None:
        if data.get("payment_method"):
            raise UserError(
                400,
                "You cannot provide both payment_method and payment_method_data.",
                {"param": "payment_method_data", "code": "parameters_exclusive"},
            )
        method, token = method_from_data(payment_method_data)
        data["payment_method"] = method.id
    elif data.get("payment_method"):
        data["payment_method"] = find_method(data["payment_method"]).id
    intent = cls(**data)
    for name, value in extras.items():
        if name != "return_url":
            setattr(intent, name, value)
    intent.payment_method_types = allowed_payment_method_types or ["card"]
    intent._return_url = extras["return_url"]
    intent._granted_token = token
    if confirm:
        _confirm(intent, off_session=off_session)
    return intent


def confirm_intent(
    cls,
    id,
    payment_method=None,
    payment_method_data=None,
    off_session=None,
    return_url=None,
    setup_future_usage=None,
    **kwargs,
):
    if kwargs:
        raise UserError(400, "Unexpected " + ", ".join(kwargs.keys()))
    intent = cls._api_retrieve(id)
    if intent.status not in ("requires_payment_method", "requires_confirmation"):
        raise UserError(
            400,
            f"You cannot confirm this PaymentIntent because it has a status of {intent.status}.",
            {"code": "payment_intent_unexpected_state"},
        )
    if payment_method_data is not None:
        method, intent._granted_token = method_from_data(payment_method_data)
        payment_method = method.id
    if payment_method is not None:
        intent.payment_method = find_method(payment_method).id
    if intent.payment_method is None:
        raise UserError(
            400,
            "You cannot confirm this PaymentIntent because it's missing a payment method.",
            {"code": "payment_intent_unexpected_state"},
        )
    if setup_future_usage is not None:
        intent.setup_future_usage = choice(setup_future_usage, "setup_future_usage", USAGES)
    if return_url is not None:
        intent._return_url = return_url
    _confirm(intent, off_session=_off_session(off_session))
    return intent


def _off_session(value: Any) -> bool:
    if value in ("one_off", "recurring"):
        return True
    return bool(as_bool(value, "off_session"))


def _confirm(intent: Any, *, off_session: bool) -> None:
    """Confirm a fresh attempt: authenticate, decline or charge."""
    intent._authentication_failed = False
    intent._payment_error = None
    if intent.latest_charge is not None and intent.latest_charge.status == "failed":
        intent.latest_charge = None  # a new attempt after a decline
    method = find_method(intent.payment_method)
    if intent._granted_token is not None:
        refusal = shared_payment.refusal(intent._granted_token, intent.amount, intent.currency)
        if refusal is not None:
            _decline(
                intent,
                method,
                code="card_declined",
                decline_code="generic_decline",
                message=refusal,
            )
    if needs_authentication(method, off_session=off_session):
        if off_session:
            _decline(
                intent,
                method,
                code="authentication_required",
                decline_code="authentication_required",
                message="Your card was declined. This transaction requires authentication.",
            )
        intent.next_action = next_action(intent, "payment_intents")
        emit("payment_intent.requires_action", intent)
        return
    intent._create_charge(on_failure_now=intent._report_failure)


def _decline(intent: Any, method: Any, *, code: str, decline_code: str, message: str) -> None:
    intent._payment_error = {
        "type": "card_error",
        "code": code,
        "decline_code": decline_code,
        "message": message,
        "payment_method": method._export(),
    }
    intent.payment_method = None
    emit("payment_intent.payment_failed", intent)
    raise card_error(
        402,
        message,
        code=code,
        decline_code=decline_code,
        payment_intent=intent._export(),
        payment_method=method._export(),
    )


def next_action(intent: Any, kind: str) -> dict[str, Any]:
    return_url = getattr(intent, "_return_url", None)
    if return_url:
        url = (
            f"{origin()}/_fake/authenticate/{kind}/{intent.id}?client_secret={intent.client_secret}"
        )
        return {
            "type": "redirect_to_url",
            "redirect_to_url": {"url": url, "return_url": return_url},
        }
    return {
        "type": "use_stripe_sdk",
        "use_stripe_sdk": {"type": "three_d_secure_redirect", "stripe_js": ""},
    }


def on_success(self):
    method = PaymentMethod._api_retrieve(self.payment_method) if self.payment_method else None
    if method is not None and self.setup_future_usage:
        method._set_up = True
        if self.customer:
            attach(method, self.customer)
    if self._granted_token is not None:
        shared_payment.record_use(self._granted_token, self.amount)
    _stock_on_success(self)
    for listener in settled_listeners:
        listener(self, True)


def report_async_failure(self):
    _stock_report_async_failure(self)
    for listener in settled_listeners:
        listener(self, False)


def cancel_intent(cls, id, **params):
    intent = _stock_cancel(cls, id, **params)
    emit("payment_intent.canceled", intent)
    return intent


def authenticate_intent(cls, id, client_secret=None, success=False, **kwargs):
    intent = _stock_authenticate(cls, id, client_secret=client_secret, success=success, **kwargs)
    if intent._authentication_failed:
        emit("payment_intent.payment_failed", intent)
    return intent


# --- saved cards --------------------------------------------------------------------------------


def list_methods(
    cls,
    url,
    customer=None,
    type=None,
    limit=None,
    starting_after=None,
    ending_before=None,
    allow_redisplay=None,
):
    methods = [m for m in stored("payment_method") if customer is None or m.customer == customer]
    if customer is not None:
        Customer._api_retrieve(customer)
    if type is not None:
        methods = [m for m in methods if m.type == type]
    if allow_redisplay is not None:
        methods = [m for m in methods if m.allow_redisplay == allow_redisplay]
    return Exported(page(methods, url, limit, starting_after, ending_before))


def list_customer_methods(id, **params):
    Customer._api_retrieve(id)
    return list_methods(None, f"/v1/customers/{id}/payment_methods", customer=id, **params)


def retrieve_customer_method(id, payment_method, **_expand):
    Customer._api_retrieve(id)
    try:
        method = PaymentMethod._api_retrieve(payment_method)
    except UserError:
        method = None
    if method is None or method.customer != id:
        raise no_such("PaymentMethod", payment_method, "payment_method")
    return method


def patch() -> None:
    PaymentMethod._set_up = False
    PaymentMethod.allow_redisplay = "unspecified"
    PaymentIntent._granted_token = None
    PaymentIntent._return_url = None
    PaymentIntent._payment_error = None
    for name in _CREATE_EXTRAS:
        if name != "return_url":
            setattr(PaymentIntent, name, None)
    PaymentIntent.payment_method_types = ["card"]
    PaymentIntent._api_create = classmethod(create_intent)
    PaymentIntent._api_confirm = classmethod(confirm_intent)
    PaymentIntent._api_authenticate = classmethod(authenticate_intent)
    PaymentIntent._api_cancel = classmethod(cancel_intent)
    PaymentIntent._on_success = on_success
    PaymentIntent._report_async_failure = report_async_failure
    PaymentMethod._api_list_all = classmethod(list_methods)
    replace_api("POST", "/v1/payment_intents/{id}/confirm", PaymentIntent._api_confirm)
    replace_api("POST", "/v1/payment_intents/{id}/_authenticate", PaymentIntent._api_authenticate)
    replace_api("POST", "/v1/payment_intents/{id}/cancel", PaymentIntent._api_cancel)


def add_routes(app: Any) -> None:
    route(app, "GET", "/v1/customers/{id}/payment_methods", list_customer_methods)
    route(
        app, "GET", "/v1/customers/{id}/payment_methods/{payment_method}", retrieve_customer_method
    )
