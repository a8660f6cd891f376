"""Checkout Sessions in `payment` mode with Stripe's hosted page: create, retrieve, list, expire,
line items, the Session object, its events, and expiry at `expires_at`.

A session is paid on the hosted page (hosted_pages.py, through checkout_payments.py); expiring
it, by `expire` or at `expires_at`, cancels its unfinished PaymentIntent and sends
`checkout.session.expired`.

Parameters Stripe has (the SDK's types are checked first, params.py) but this fake does not
implement are refused with a message saying so, never ignored.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from localstripe import resources
from localstripe.errors import UserError

from fakestripe import checkout_line_items, intents
from fakestripe.stock import (
    Exported,
    choice,
    emit,
    missing,
    no_such,
    not_implemented,
    origin,
    page,
    route,
    stored,
)

MIN_LIFETIME, MAX_LIFETIME = 30 * 60, 24 * 60 * 60
INTENT_DATA = {
    "capture_method",
    "description",
    "metadata",
    "receipt_email",
    "setup_future_usage",
    "statement_descriptor",
    "statement_descriptor_suffix",
}


class CheckoutSession(resources.StripeObject):
    object = "checkout.session"
    _id_prefix = "cs_test_"

    def __init__(self, **fields: Any):
        super().__init__()
        now = self.created
        self.after_expiration = None
        self.allow_promotion_codes = None
        self.automatic_tax = {"enabled": False, "liability": None, "status": None}
        self.billing_address_collection = None
        self.client_secret = None
        self.consent = None
        self.consent_collection = None
        self.custom_fields = []
        self.customer_details = None
        self.invoice = None
        self.payment_intent = None
        self.payment_link = None
        self.payment_method_collection = "always"
        self.payment_status = "unpaid"
        self.recovered_from = None
        self.setup_intent = None
        self.shipping_address_collection = None
        self.status = "open"
        self.subscription = None
        self.ui_mode = "hosted_page"
        self.expires_at = now + MAX_LIFETIME
        self.__dict__.update(fields)
        self._origin = origin()
        self._save_requested = False

    @property
    def url(self) -> str | None:
        return f"{self._origin}/c/pay/{self.id}" if self.status == "open" else None

    def _export(self, expand=None):
        expand = list(expand or [])
        with_items = "line_items" in expand
        body = super()._export(expand=[path for path in expand if path != "line_items"])
        if with_items:
            body["line_items"] = self._items_page(f"/v1/checkout/sessions/{self.id}/line_items")
        return body

    def _items_page(self, url: str, **params: Any) -> dict[str, Any]:
        return page([Exported(item) for item in self._line_items], url, **params)


def create(
    mode=None,
    line_items=None,
    expires_at=None,
    success_url=None,
    cancel_url=None,
    customer=None,
    customer_email=None,
    customer_creation=None,
    metadata=None,
    payment_intent_data=None,
    saved_payment_method_options=None,
    shipping_options=None,
    currency=None,
    ui_mode=None,
    client_reference_id=None,
    locale=None,
    submit_type=None,
    **other,
):
    for name in other:
        raise not_implemented(name)
    if mode is None:
        raise missing("mode")
    choice(mode, "mode", ("payment", "setup", "subscription"))
    if mode != "payment":
        raise not_implemented(f"mode={mode}")
    if ui_mode not in (None, "hosted_page"):
        raise not_implemented(f"ui_mode={ui_mode}")
    now = int(time.time())
    fields: dict[str, Any] = {
        "mode": mode,
        "client_reference_id": client_reference_id,
        "success_url": _url(success_url, "success_url"),
        "cancel_url": _url(cancel_url, "cancel_url"),
        "metadata": metadata or {},
        "customer_email": customer_email,
    }
    if customer is not None:
        if customer_email is not None:
            raise UserError(
                400,
                "You may only specify one of these parameters: customer, customer_email.",
                {"param": "customer_email"},
            )
        if customer_creation is not None:
            raise UserError(
                400,
                "customer_creation can only be used when customer is not set.",
                {"param": "customer_creation"},
            )
        try:
            resources.Customer._api_retrieve(customer)
        except UserError:
            raise no_such("customer", customer, "customer") from None
    fields["customer"] = customer
    fields["customer_creation"] = (
        None
        if customer
        else choice(
            customer_creation or "if_required", "customer_creation", ("always", "if_required")
        )
    )
    if expires_at is not None:
        expires_at = int(expires_at)
        if expires_at < now + MIN_LIFETIME:
            raise UserError(
                400,
                "The `expires_at` timestamp must be at least 30 minutes from "
                "Checkout Session creation.",
                {"param": "expires_at"},
            )
        if expires_at > now + MAX_LIFETIME:
            raise UserError(
                400,
                "The `expires_at` timestamp must be less than 24 hours from "
                "Checkout Session creation.",
                {"param": "expires_at"},
            )
        fields["expires_at"] = expires_at
    items = checkout_line_items.line_items(line_items)
    currency = checkout_line_items.currency_of(items, currency)
    fields["currency"] = currency
    fields["payment_intent_data"] = _intent_data(payment_intent_data)
    fields["saved_payment_method_options"] = _saving(saved_payment_method_options)
    shipping = checkout_line_items.shipping(shipping_options, currency)
    subtotal = sum(item["amount_total"] for item in items)
    fields.update(
        amount_subtotal=subtotal,
        amount_total=subtotal + (shipping["amount_total"] if shipping else 0),
        shipping_cost=shipping,
        shipping_options=[shipping] if shipping else [],
        total_details={
            "amount_discount": 0,
            "amount_shipping": shipping["amount_total"] if shipping else 0,
            "amount_tax": 0,
        },
        payment_method_types=["card", "sepa_debit"] if currency == "eur" else ["card"],
        locale=locale,
        submit_type=submit_type,
    )
    return CheckoutSession(**fields, _line_items=items)


def _url(value: Any, param: str) -> Any:
    if value is not None and not str(value).startswith(("http://", "https://")):
        raise UserError(400, f"Not a valid URL: {param}", {"param": param, "code": "url_invalid"})
    return value


def _intent_data(data: Any) -> dict[str, Any]:
    data = dict(data or {})
    for name in set(data) - INTENT_DATA:
        raise not_implemented(f"payment_intent_data[{name}]")
    choice(
        data.get("setup_future_usage"), "payment_intent_data[setup_future_usage]", intents.USAGES
    )
    return data


def _saving(options: Any) -> dict[str, Any] | None:
    if options is None:
        return None
    options = dict(options)
    for name in set(options) - {"payment_method_save", "allow_redisplay_filters"}:
        raise not_implemented(f"saved_payment_method_options[{name}]")
    choice(
        options.get("payment_method_save"),
        "saved_payment_method_options[payment_method_save]",
        ("enabled", "disabled"),
    )
    return {
        "allow_redisplay_filters": options.get("allow_redisplay_filters") or ["always"],
        "payment_method_remove": None,
        "payment_method_save": options.get("payment_method_save", "disabled"),
    }


def retrieve(id: str, **_: Any) -> CheckoutSession:
    session = resources.store.get(f"checkout.session:{id}")
    if session is None:
        raise no_such("checkout.session", id)
    return session


def list_sessions(
    customer=None,
    payment_intent=None,
    status=None,
    created=None,
    customer_details=None,
    payment_link=None,
    subscription=None,
    customer_account=None,
    limit=None,
    starting_after=None,
    ending_before=None,
):
    sessions = [
        s
        for s in stored_sessions()
        if (customer is None or s.customer == customer)
        and (payment_intent is None or s.payment_intent == payment_intent)
        and (status is None or s.status == status)
        and payment_link is None
        and subscription is None
        and customer_account is None
        and _created_matches(s.created, created)
        and (
            customer_details is None
            or (s.customer_details or {}).get("email") == customer_details.get("email")
        )
    ]
    return Exported(page(sessions, "/v1/checkout/sessions", limit, starting_after, ending_before))


def _created_matches(created: int, condition: Any) -> bool:
    if condition is None:
        return True
    if not isinstance(condition, dict):
        return created == int(condition)
    tests = {"gt": int.__gt__, "gte": int.__ge__, "lt": int.__lt__, "lte": int.__le__}
    return all(tests[op](created, int(value)) for op, value in condition.items())


def stored_sessions() -> list[CheckoutSession]:
    return stored("checkout.session")


def line_items(id: str, limit=None, starting_after=None, ending_before=None):
    session = retrieve(id)
    url = f"/v1/checkout/sessions/{id}/line_items"
    return Exported(
        session._items_page(
            url, limit=limit, starting_after=starting_after, ending_before=ending_before
        )
    )


def expire(id: str, **_: Any) -> CheckoutSession:
    session = retrieve(id)
    if session.status != "open":
        raise UserError(400, 'Only Checkout Sessions with a status in ["open"] can be expired.')
    _expire(session)
    return session


def _expire(session: CheckoutSession) -> None:
    session.status = "expired"
    if session.payment_intent:
        intent = resources.PaymentIntent._api_retrieve(session.payment_intent)
        if intent.status in ("requires_payment_method", "requires_confirmation", "requires_action"):
            intent._canceled = True
            intent.next_action = None
            emit("payment_intent.canceled", intent)
    emit("checkout.session.expired", session)


async def expire_due_sessions() -> None:
    """Stripe expires an open session at its `expires_at`; checked every second."""
    while True:
        now = time.time()
        for session in stored_sessions():
            if session.status == "open" and session.expires_at <= now:
                _expire(session)
        await asyncio.sleep(1)


def add_routes(app: Any) -> None:
    route(app, "POST", "/v1/checkout/sessions", create)
    route(app, "GET", "/v1/checkout/sessions", list_sessions)
    route(app, "GET", "/v1/checkout/sessions/{id}", retrieve)
    route(app, "POST", "/v1/checkout/sessions/{id}/expire", expire)
    route(app, "GET", "/v1/checkout/sessions/{id}/line_items", line_items)

    async def start(app):
        app["fakestripe.expiry"] = asyncio.ensure_future(expire_due_sessions())

    async def stop(app):
        app["fakestripe.expiry"].cancel()

    app.on_startup.append(start)
    app.on_cleanup.append(stop)
