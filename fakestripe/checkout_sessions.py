"""Checkout Sessions in `payment` mode with Stripe's hosted page: create, retrieve, list, expire,
line items, the Session object, its events, and expiry at `expires_at`.

A session is paid on the hosted page (hosted_pages.py), which calls `pay` and `authenticate`
here. Its PaymentIntent is made at the first attempt, as Stripe does, and confirmed again with
each new card after a decline. The events: `checkout.session.completed` (payment_status `paid`,
or `unpaid` for a debit that settles later, then `checkout.session.async_payment_succeeded` or
`_failed`), and `checkout.session.expired`.

Parameters Stripe has (the SDK's types are checked first, params.py) but this fake does not
implement are refused with a message saying so, never ignored.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from localstripe import resources
from localstripe.errors import UserError

from fakestripe import intents
from fakestripe.stock import choice, emit, no_such, origin, page, route

MIN_LIFETIME, MAX_LIFETIME = 30 * 60, 24 * 60 * 60
INTENT_DATA = {
    "capture_method", "description", "metadata", "receipt_email", "setup_future_usage",
    "statement_descriptor", "statement_descriptor_suffix",
}
AUTHENTICATION_FAILED = (
    "We are unable to authenticate your payment method. Please choose a different payment "
    "method and try again."
)


def not_implemented(name: str) -> UserError:
    return UserError(
        400, f"localstripe does not implement the Checkout Session parameter {name}.",
        {"param": name},
    )


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
        return page([_Item(item) for item in self._line_items], url, **params)


class _Item:
    def __init__(self, body: dict[str, Any]):
        self.id, self.body = body["id"], body

    def _export(self, expand=None):
        return self.body


def create(mode=None, line_items=None, expires_at=None, success_url=None, cancel_url=None,
           customer=None, customer_email=None, customer_creation=None, metadata=None,
           payment_intent_data=None, saved_payment_method_options=None, shipping_options=None,
           currency=None, ui_mode=None, client_reference_id=None, locale=None, submit_type=None,
           **other):
    for name in other:
        raise not_implemented(name)
    if mode is None:
        raise UserError(400, "Missing required param: mode.",
                        {"param": "mode", "code": "parameter_missing"})
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
            raise UserError(400, "You may only specify one of these parameters: customer, "
                            "customer_email.", {"param": "customer_email"})
        if customer_creation is not None:
            raise UserError(400, "customer_creation can only be used when customer is not set.",
                            {"param": "customer_creation"})
        try:
            resources.Customer._api_retrieve(customer)
        except UserError:
            raise no_such("customer", customer, "customer") from None
    fields["customer"] = customer
    fields["customer_creation"] = None if customer else choice(
        customer_creation or "if_required", "customer_creation", ("always", "if_required"))
    if expires_at is not None:
        expires_at = int(expires_at)
        if expires_at < now + MIN_LIFETIME:
            raise UserError(400, "The `expires_at` timestamp must be at least 30 minutes from "
                            "Checkout Session creation.", {"param": "expires_at"})
        if expires_at > now + MAX_LIFETIME:
            raise UserError(400, "The `expires_at` timestamp must be less than 24 hours from "
                            "Checkout Session creation.", {"param": "expires_at"})
        fields["expires_at"] = expires_at
    items = _line_items(line_items)
    currency = _currency(items, currency)
    fields["_line_items"] = items
    fields["currency"] = currency
    fields["payment_intent_data"] = _intent_data(payment_intent_data)
    fields["saved_payment_method_options"] = _saving(saved_payment_method_options)
    shipping = _shipping(shipping_options, currency)
    subtotal = sum(item["amount_total"] for item in items)
    fields.update(
        amount_subtotal=subtotal,
        amount_total=subtotal + (shipping["amount_total"] if shipping else 0),
        shipping_cost=shipping,
        shipping_options=[shipping] if shipping else [],
        total_details={"amount_discount": 0, "amount_shipping": shipping["amount_total"]
                       if shipping else 0, "amount_tax": 0},
        payment_method_types=["card", "sepa_debit"] if currency == "eur" else ["card"],
        locale=locale,
        submit_type=submit_type,
    )
    return CheckoutSession(**{k: v for k, v in fields.items() if not k.startswith("_")},
                           _line_items=items)


def _url(value: Any, param: str) -> Any:
    if value is not None and not str(value).startswith(("http://", "https://")):
        raise UserError(400, f"Not a valid URL: {param}", {"param": param, "code": "url_invalid"})
    return value


def _line_items(line_items: Any) -> list[dict[str, Any]]:
    if not line_items:
        raise UserError(400, "line_items is required in payment mode.",
                        {"param": "line_items", "code": "parameter_missing"})
    if len(line_items) > 100:
        raise UserError(400, "A Checkout Session can have at most 100 line items.",
                        {"param": "line_items"})
    return [_line_item(item, f"line_items[{index}]") for index, item in enumerate(line_items)]


def _line_item(item: dict[str, Any], path: str) -> dict[str, Any]:
    for name in set(item) - {"price", "price_data", "quantity", "metadata"}:
        raise not_implemented(f"{path}[{name}]")
    if "price" in item:
        # This fake has no Prices API: every price id is unknown to it.
        raise no_such("price", item["price"], f"{path}[price]")
    data = item.get("price_data")
    if data is None:
        raise UserError(400, f"You must specify either price or price_data in {path}.",
                        {"param": path})
    quantity = resources.try_convert_to_int(item.get("quantity"))
    if not isinstance(quantity, int) or quantity < 1:
        raise UserError(400, f"Missing required param: {path}[quantity].",
                        {"param": f"{path}[quantity]", "code": "parameter_missing"})
    for name in set(data) - {"currency", "product", "product_data", "unit_amount", "tax_behavior"}:
        raise not_implemented(f"{path}[price_data][{name}]")
    if ("product" in data) == ("product_data" in data):
        raise UserError(400, "You must specify exactly one of product or product_data.",
                        {"param": f"{path}[price_data]"})
    unit_amount = resources.try_convert_to_int(data.get("unit_amount"))
    if not isinstance(unit_amount, int) or unit_amount < 0:
        raise UserError(400, f"Missing required param: {path}[price_data][unit_amount].",
                        {"param": f"{path}[price_data][unit_amount]", "code": "parameter_missing"})
    product = _product(data, path)
    currency = data["currency"].lower()
    created = int(time.time())
    price = {
        "id": "price_" + resources.random_id(24), "object": "price", "active": False,
        "billing_scheme": "per_unit", "created": created, "currency": currency,
        "livemode": False, "lookup_key": None, "metadata": {}, "nickname": None,
        "product": product.id, "recurring": None, "tax_behavior":
        data.get("tax_behavior", "unspecified"), "type": "one_time", "unit_amount": unit_amount,
        "unit_amount_decimal": str(unit_amount),
    }
    total = unit_amount * quantity
    return {
        "id": "li_" + resources.random_id(24), "object": "item", "amount_discount": 0,
        "amount_subtotal": total, "amount_tax": 0, "amount_total": total, "currency": currency,
        "description": product.name, "metadata": item.get("metadata") or {}, "price": price,
        "quantity": quantity,
    }


def _product(data: dict[str, Any], path: str) -> Any:
    if "product" in data:
        try:
            return resources.Product._api_retrieve(data["product"])
        except UserError:
            raise no_such("product", data["product"], f"{path}[price_data][product]") from None
    product_data = data["product_data"]
    for name in set(product_data) - {"name", "description", "metadata", "images"}:
        raise not_implemented(f"{path}[price_data][product_data][{name}]")
    fields = {k: product_data[k] for k in ("name", "description", "metadata") if k in product_data}
    product = resources.Product(type="good", **fields)
    product.images = product_data.get("images") or []
    return product


def _currency(items: list[dict[str, Any]], currency: Any) -> str:
    currencies = {item["currency"] for item in items}
    if currency is not None:
        currencies.add(currency.lower())
    if len(currencies) > 1:
        raise UserError(400, "All line items of a Checkout Session must use the same currency.",
                        {"param": "line_items"})
    return currencies.pop()


def _intent_data(data: Any) -> dict[str, Any]:
    data = dict(data or {})
    for name in set(data) - INTENT_DATA:
        raise not_implemented(f"payment_intent_data[{name}]")
    choice(data.get("setup_future_usage"), "payment_intent_data[setup_future_usage]",
           intents.USAGES)
    return data


def _saving(options: Any) -> dict[str, Any] | None:
    if options is None:
        return None
    options = dict(options)
    for name in set(options) - {"payment_method_save", "allow_redisplay_filters"}:
        raise not_implemented(f"saved_payment_method_options[{name}]")
    choice(options.get("payment_method_save"),
           "saved_payment_method_options[payment_method_save]", ("enabled", "disabled"))
    return {
        "allow_redisplay_filters": options.get("allow_redisplay_filters") or ["always"],
        "payment_method_remove": None,
        "payment_method_save": options.get("payment_method_save", "disabled"),
    }


def _shipping(options: Any, currency: str) -> dict[str, Any] | None:
    """The first shipping option (Checkout selects it): a fixed_amount shipping_rate_data."""
    if not options:
        return None
    if len(options) > 5:
        raise UserError(400, "A Checkout Session can have at most 5 shipping options.",
                        {"param": "shipping_options"})
    first = options[0]
    if "shipping_rate" in first:
        raise no_such("shipping_rate", first["shipping_rate"], "shipping_options[0][shipping_rate]")
    rate = first.get("shipping_rate_data") or {}
    fixed = rate.get("fixed_amount") or {}
    amount = resources.try_convert_to_int(fixed.get("amount"))
    if not isinstance(amount, int) or str(fixed.get("currency", "")).lower() != currency:
        raise UserError(400, "shipping_options[0][shipping_rate_data][fixed_amount] needs an "
                        f"amount in {currency}.", {"param": "shipping_options[0]"})
    return {"amount_subtotal": amount, "amount_tax": 0, "amount_total": amount,
            "shipping_rate": "shr_" + resources.random_id(24),
            "display_name": rate.get("display_name")}


def retrieve(id: str, **_: Any) -> CheckoutSession:
    session = resources.store.get(f"checkout.session:{id}")
    if session is None:
        raise no_such("checkout.session", id)
    return session


def list_sessions(customer=None, payment_intent=None, status=None, created=None,
                  customer_details=None, payment_link=None, subscription=None,
                  customer_account=None, limit=None, starting_after=None, ending_before=None):
    sessions = [s for s in _stored() if
                (customer is None or s.customer == customer)
                and (payment_intent is None or s.payment_intent == payment_intent)
                and (status is None or s.status == status)
                and payment_link is None and subscription is None and customer_account is None
                and _created_matches(s.created, created)
                and (customer_details is None or (s.customer_details or {}).get("email")
                     == customer_details.get("email"))]
    return _List(page(sessions, "/v1/checkout/sessions", limit, starting_after, ending_before))


def _created_matches(created: int, condition: Any) -> bool:
    if condition is None:
        return True
    if not isinstance(condition, dict):
        return created == int(condition)
    tests = {"gt": int.__gt__, "gte": int.__ge__, "lt": int.__lt__, "lte": int.__le__}
    return all(tests[op](created, int(value)) for op, value in condition.items())


def _stored() -> list[CheckoutSession]:
    found = [v for k, v in resources.store.items() if k.startswith("checkout.session:")]
    return sorted(found, key=lambda s: s.created, reverse=True)


class _List:
    def __init__(self, body: dict[str, Any]):
        self.body = body

    def _export(self, expand=None):
        return self.body


def line_items(id: str, limit=None, starting_after=None, ending_before=None):
    session = retrieve(id)
    url = f"/v1/checkout/sessions/{id}/line_items"
    return _List(session._items_page(url, limit=limit, starting_after=starting_after,
                                     ending_before=ending_before))


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
        if intent.status in ("requires_payment_method", "requires_confirmation",
                             "requires_action"):
            intent._canceled = True
            intent.next_action = None
            emit("payment_intent.canceled", intent)
    emit("checkout.session.expired", session)


async def expire_due_sessions() -> None:
    """Stripe expires an open session at its `expires_at`; checked every second."""
    while True:
        now = time.time()
        for session in _stored():
            if session.status == "open" and session.expires_at <= now:
                _expire(session)
        await asyncio.sleep(1)


# --- paying, called by the hosted page -----------------------------------------------------------


def pay(session: CheckoutSession, method: Any, *, save: bool) -> str | None:
    """Pay with `method`; None when paid or pending, "authenticate" for 3-D Secure, or the
    message of a decline (the session stays open for another card)."""
    if session.status != "open":
        raise UserError(400, "This Checkout Session is no longer active.")
    session._save_requested = save
    if session.payment_intent is None:
        data = session.payment_intent_data
        intent = resources.PaymentIntent._api_create(
            amount=session.amount_total, currency=session.currency, customer=session.customer,
            **{k: v for k, v in data.items()},
        )
        session.payment_intent = intent.id
    try:
        intent = resources.PaymentIntent._api_confirm(session.payment_intent,
                                                      payment_method=method.id)
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
            intent.id, client_secret=intent.client_secret, success=success)
    except UserError as error:
        return error.body["error"].get("message", "Your card was declined.")
    return AUTHENTICATION_FAILED if intent._authentication_failed else None


def _complete(session: CheckoutSession, *, paid: bool) -> None:
    intent = resources.PaymentIntent._api_retrieve(session.payment_intent)
    method = resources.PaymentMethod._api_retrieve(
        intent.payment_method or intent.latest_charge.payment_method)
    if session._save_requested:
        if session.customer is None:
            session.customer = resources.Customer(email=session.customer_email).id
        method.allow_redisplay = "always"
        intents.attach(method, session.customer)
    email = session.customer_email
    if session.customer:
        email = resources.Customer._api_retrieve(session.customer).email or email
    session.customer_details = {"address": None, "email": email, "name": None, "phone": None,
                                "tax_exempt": "none", "tax_ids": []}
    session.status = "complete"
    session.payment_status = "paid" if paid else "unpaid"
    emit("checkout.session.completed", session)


def _on_settled(intent: Any, succeeded: bool) -> None:
    for session in _stored():
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


def add_routes(app: Any) -> None:
    intents.settled_listeners.append(_on_settled)
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
