"""A Checkout Session's line items (inline `price_data` with `product_data` or a product id)
and its shipping option (inline `shipping_rate_data` with a fixed amount), priced as Stripe
prices them. This fake has no Prices or Shipping Rates API: an id of either is unknown to it.
"""

from __future__ import annotations

import time
from typing import Any

from localstripe import resources
from localstripe.errors import UserError

from fakestripe.stock import missing, no_such, not_implemented


def line_items(line_items: Any) -> list[dict[str, Any]]:
    if not line_items:
        raise missing("line_items")  # required in payment mode
    if len(line_items) > 100:
        raise UserError(
            400, "A Checkout Session can have at most 100 line items.", {"param": "line_items"}
        )
    return [_line_item(item, f"line_items[{index}]") for index, item in enumerate(line_items)]


def _line_item(item: dict[str, Any], path: str) -> dict[str, Any]:
    for name in set(item) - {"price", "price_data", "quantity", "metadata"}:
        raise not_implemented(f"{path}[{name}]")
    if "price" in item:
        # This fake has no Prices API: every price id is unknown to it.
        raise no_such("price", item["price"], f"{path}[price]")
    data = item.get("price_data")
    if data is None:
        raise UserError(
            400, f"You must specify either price or price_data in {path}.", {"param": path}
        )
    quantity = resources.try_convert_to_int(item.get("quantity"))
    if not isinstance(quantity, int) or quantity < 1:
        raise missing(f"{path}[quantity]")
    for name in set(data) - {"currency", "product", "product_data", "unit_amount", "tax_behavior"}:
        raise not_implemented(f"{path}[price_data][{name}]")
    if ("product" in data) == ("product_data" in data):
        raise UserError(
            400,
            "You must specify exactly one of product or product_data.",
            {"param": f"{path}[price_data]"},
        )
    unit_amount = resources.try_convert_to_int(data.get("unit_amount"))
    if not isinstance(unit_amount, int) or unit_amount < 0:
        raise missing(f"{path}[price_data][unit_amount]")
    product = _product(data, path)
    currency = data["currency"].lower()
    created = int(time.time())
    price = {
        "id": "price_" + resources.random_id(24),
        "object": "price",
        "active": False,
        "billing_scheme": "per_unit",
        "created": created,
        "currency": currency,
        "livemode": False,
        "lookup_key": None,
        "metadata": {},
        "nickname": None,
        "product": product.id,
        "recurring": None,
        "tax_behavior": data.get("tax_behavior", "unspecified"),
        "type": "one_time",
        "unit_amount": unit_amount,
        "unit_amount_decimal": str(unit_amount),
    }
    total = unit_amount * quantity
    return {
        "id": "li_" + resources.random_id(24),
        "object": "item",
        "amount_discount": 0,
        "amount_subtotal": total,
        "amount_tax": 0,
        "amount_total": total,
        "currency": currency,
        "description": product.name,
        "metadata": item.get("metadata") or {},
        "price": price,
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


def currency_of(items: list[dict[str, Any]], currency: Any) -> str:
    currencies = {item["currency"] for item in items}
    if currency is not None:
        currencies.add(currency.lower())
    if len(currencies) > 1:
        raise UserError(
            400,
            "All line items of a Checkout Session must use the same currency.",
            {"param": "line_items"},
        )
    return currencies.pop()


def shipping(options: Any, currency: str) -> dict[str, Any] | None:
    """The first shipping option (Checkout selects it): a fixed_amount shipping_rate_data."""
    if not options:
        return None
    if len(options) > 5:
        raise UserError(
            400,
            "A Checkout Session can have at most 5 shipping options.",
            {"param": "shipping_options"},
        )
    first = options[0]
    if "shipping_rate" in first:
        raise no_such("shipping_rate", first["shipping_rate"], "shipping_options[0][shipping_rate]")
    rate = first.get("shipping_rate_data") or {}
    fixed = rate.get("fixed_amount") or {}
    amount = resources.try_convert_to_int(fixed.get("amount"))
    if not isinstance(amount, int) or str(fixed.get("currency", "")).lower() != currency:
        raise UserError(
            400,
            f"shipping_options[0][shipping_rate_data][fixed_amount] needs an amount in {currency}.",
            {"param": "shipping_options[0]"},
        )
    return {
        "amount_subtotal": amount,
        "amount_tax": 0,
        "amount_total": amount,
        "shipping_rate": "shr_" + resources.random_id(24),
        "display_name": rate.get("display_name"),
    }
