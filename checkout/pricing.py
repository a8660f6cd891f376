"""The one place an order's money is computed: line items, delivery options, gift wrap, tax and
the totals, all in the order's currency and rounded to its minor unit.

- Tax is computed and rounded per line (each item line, shipping, gift wrap), and the tax total
  adds up the rounded lines, so per-line figures and the order total agree to the cent.
- Where prices include tax, the line totals are what the person pays and the tax is the part
  they include; otherwise the tax is added on top.
- Shipping and gift wrap are taxed at the country's standard rate.
- Tax comes from a `TaxCalculator`: the flat rates staff keep in the admin, or (settings
  CHECKOUT_TAX_CALCULATOR, a dotted path) an external tax service behind the same interface.

Nothing here writes; checkout.saga.draft freezes a `Quote` on the draft order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from typing import Protocol

from babel.numbers import get_currency_precision
from django.conf import settings
from django.utils import timezone
from django.utils.module_loading import import_string

from checkout.store import GiftWrap, ShippingRate, StoreSettings, TaxRate
from gifts.models import Product
from tool_runtime.errors import ToolError

ZERO = Decimal(0)
HUNDRED = Decimal(100)


@cache
def minor_unit(currency: str) -> Decimal:
    """The smallest amount of a currency: 0.01 USD, 1 JPY (ISO 4217 via Babel)."""
    return Decimal(1).scaleb(-get_currency_precision(currency))


def round_money(amount: Decimal, currency: str) -> Decimal:
    return amount.quantize(minor_unit(currency), rounding=ROUND_HALF_UP)


# --- tax ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TaxableLine:
    """One line to tax: an item line (with its product category), shipping or gift wrap
    (category None: the standard rate)."""

    code: str
    amount: Decimal
    category: str | None


@dataclass(frozen=True)
class LineTax:
    code: str
    rate: Decimal  # percent
    amount: Decimal  # rounded to the currency's minor unit


@dataclass(frozen=True)
class TaxResult:
    name: str  # "VAT", "sales tax"
    standard_rate: Decimal
    lines: dict[str, LineTax]


class MissingTaxRate(Exception):
    def __init__(self, country: str) -> None:
        super().__init__(country)
        self.country = country


class TaxCalculator(Protocol):
    """The seam for a tax service: tax every line of one order, each rounded on its own.
    Raises MissingTaxRate when it knows no rate for the country."""

    def tax(
        self,
        *,
        country: str,
        currency: str,
        prices_include_tax: bool,
        lines: list[TaxableLine],
    ) -> TaxResult: ...


class FlatRateTaxes:
    """Rates per country (and optionally per product category) from the admin's TaxRate table."""

    def tax(
        self,
        *,
        country: str,
        currency: str,
        prices_include_tax: bool,
        lines: list[TaxableLine],
    ) -> TaxResult:
        rates = {rate.category: rate for rate in TaxRate.objects.filter(country=country)}
        standard = rates.get("")
        if standard is None:
            raise MissingTaxRate(country)
        taxed = {}
        for line in lines:
            rate = rates.get(line.category or "", standard).rate
            if prices_include_tax:
                tax = line.amount * rate / (HUNDRED + rate)
            else:
                tax = line.amount * rate / HUNDRED
            taxed[line.code] = LineTax(line.code, rate, round_money(tax, currency))
        return TaxResult(standard.name, standard.rate, taxed)


def tax_calculator() -> TaxCalculator:
    path = getattr(settings, "CHECKOUT_TAX_CALCULATOR", "")
    return import_string(path)() if path else FlatRateTaxes()


def countries_without_tax_rate(countries: Iterable[str]) -> list[str]:
    """Those of `countries` with no standard tax rate (a shipping rate may not serve them)."""
    wanted = set(countries)
    have = set(
        TaxRate.objects.filter(country__in=wanted, category="").values_list("country", flat=True)
    )
    return sorted(wanted - have)


# --- delivery -------------------------------------------------------------------------------


def add_business_days(start: date, days: int) -> date:
    """`days` working days (Monday to Friday) after `start`."""
    day = start
    while days > 0:
        day += timedelta(days=1)
        if day.weekday() < 5:
            days -= 1
    return day


@dataclass(frozen=True)
class DeliveryOption:
    code: str
    name: str
    price: Decimal
    currency: str
    min_business_days: int
    max_business_days: int
    earliest: date
    latest: date
    rate_id: int


def delivery_options(
    *, country: str, currency: str, today: date | None = None
) -> list[DeliveryOption]:
    """The active rates that serve `country` and have a price in `currency`, cheapest first
    (then fastest), each with its delivery window counted in business days from today."""
    today = today or timezone.localdate()
    options = []
    for rate in ShippingRate.objects.filter(active=True).prefetch_related("prices"):
        price = next((p.amount for p in rate.prices.all() if p.currency == currency), None)
        if price is None or not rate.serves(country):
            continue
        options.append(
            DeliveryOption(
                code=rate.code,
                name=rate.name,
                price=round_money(price, currency),
                currency=currency,
                min_business_days=rate.min_business_days,
                max_business_days=rate.max_business_days,
                earliest=add_business_days(today, rate.min_business_days),
                latest=add_business_days(today, rate.max_business_days),
                rate_id=rate.pk,
            )
        )
    return sorted(options, key=lambda o: (o.price, o.max_business_days, o.code))


def choose_delivery(
    *, country: str, currency: str, code: str | None, today: date | None = None
) -> tuple[DeliveryOption, list[DeliveryOption]]:
    """The chosen option (the cheapest when `code` is None) and every option offered. Raises
    SHIPPING_OPTION_UNKNOWN, SHIPPING_NOT_AVAILABLE or CURRENCY_MISMATCH naming the field."""
    options = delivery_options(country=country, currency=currency, today=today)
    if code is None:
        if options:
            return options[0], options
        raise _not_served(country=country, field="shipping.country")
    chosen = next((o for o in options if o.code == code), None)
    if chosen is not None:
        return chosen, options
    rate = ShippingRate.objects.filter(code=code, active=True).prefetch_related("prices").first()
    if rate is None:
        codes = [o.code for o in options]
        raise ToolError(
            "SHIPPING_OPTION_UNKNOWN",
            f"There is no delivery option '{code}'. Use a code from the delivery options "
            "prepare_order lists (or leave shipping_option out for the cheapest).",
            field="shipping_option",
            allowed_values=codes,
            example=codes[0] if codes else None,
        )
    if not rate.serves(country):
        raise _not_served(country=country, field="shipping_option", rate=rate, options=options)
    currencies = sorted(p.currency for p in rate.prices.all())
    raise ToolError(
        "CURRENCY_MISMATCH",
        f"The delivery option '{code}' is not priced in {currency}, the order's currency (it is "
        f"priced in {', '.join(currencies) or 'no currency'}). Choose another option.",
        field="shipping_option",
        allowed_values=[o.code for o in options],
        details={"currency": currency, "option_currencies": currencies},
    )


def _not_served(
    *,
    country: str,
    field: str,
    rate: ShippingRate | None = None,
    options: list[DeliveryOption] | None = None,
) -> ToolError:
    rates = [rate] if rate is not None else ShippingRate.objects.filter(active=True)
    served = sorted({c for r in rates for c in r.countries})
    what = f"The delivery option '{rate.code}'" if rate is not None else "No delivery option"
    return ToolError(
        "SHIPPING_NOT_AVAILABLE",
        f"{what} delivers to {country}. Countries served: {', '.join(served) or 'none'}. Ask the "
        "person for an address in one of them"
        + (", or choose another option." if options else "."),
        field=field,
        allowed_values=[o.code for o in options] if options else served,
        details={"country": country, "countries_served": served},
    )


# --- the quote ------------------------------------------------------------------------------


@dataclass(frozen=True)
class PricedLine:
    product: Product
    quantity: int
    unit_price: Decimal
    line_total: Decimal
    tax_rate: Decimal
    tax_amount: Decimal


@dataclass(frozen=True)
class ChosenWrap:
    wrap: GiftWrap
    price: Decimal


@dataclass(frozen=True)
class Quote:
    """Everything a draft freezes. total = items + shipping + wrap (+ tax when added)."""

    currency: str
    prices_include_tax: bool
    lines: list[PricedLine]
    delivery: DeliveryOption
    options: list[DeliveryOption]
    wrap: ChosenWrap | None
    items_total: Decimal
    shipping_total: Decimal
    gift_wrap_total: Decimal
    shipping_tax: Decimal
    gift_wrap_tax: Decimal
    tax_total: Decimal
    tax_name: str
    tax_rate: Decimal
    total: Decimal = field(init=False)

    def __post_init__(self) -> None:
        added = ZERO if self.prices_include_tax else self.tax_total
        total = self.items_total + self.shipping_total + self.gift_wrap_total + added
        object.__setattr__(self, "total", total)


def check_quantity(*, product: Product, quantity: int) -> None:
    if not 1 <= quantity <= product.max_per_order:
        raise ToolError(
            "QUANTITY_OVER_LIMIT",
            f"'{product.name}' can be ordered 1 to {product.max_per_order} at a time; "
            f"{quantity} was asked for.",
            field="quantity",
            expected=f"a whole number from 1 to {product.max_per_order}",
            example=1,
            details={"max_per_order": product.max_per_order},
        )


def check_currency(*, product: Product, currency: str | None) -> str:
    """The order's currency: the gift's. A caller expecting another gets CURRENCY_MISMATCH."""
    if currency is not None and currency != product.currency:
        raise ToolError(
            "CURRENCY_MISMATCH",
            f"'{product.name}' is sold in {product.currency}, not {currency}; the order is in "
            f"{product.currency}. Leave currency out, or pass {product.currency}.",
            field="currency",
            allowed_values=[product.currency],
            example=product.currency,
        )
    return product.currency


def choose_wrap(*, code: str | None, currency: str) -> ChosenWrap | None:
    if code is None:
        return None
    offered = list(GiftWrap.objects.filter(active=True).prefetch_related("prices"))
    wrap = next((w for w in offered if w.code == code), None)
    price = (
        next((p.amount for p in wrap.prices.all() if p.currency == currency), None)
        if wrap
        else None
    )
    if wrap is None or price is None:
        codes = [w.code for w in offered if any(p.currency == currency for p in w.prices.all())]
        reason = "is not offered" if wrap is None else f"is not priced in {currency}"
        raise ToolError(
            "GIFT_WRAP_UNKNOWN" if wrap is None else "CURRENCY_MISMATCH",
            f"The gift wrap '{code}' {reason}. Use one of: {', '.join(codes) or 'none'} "
            "(or leave gift_wrap out).",
            field="gift_wrap",
            allowed_values=codes,
        )
    return ChosenWrap(wrap, round_money(price, currency))


def quote(
    *,
    product: Product,
    quantity: int,
    country: str,
    currency: str | None = None,
    shipping_option: str | None = None,
    gift_wrap: str | None = None,
    today: date | None = None,
) -> Quote:
    """Price one product line with delivery, wrap and tax for an address in `country`. Raises
    the ToolError that names the field at fault (quantity, currency, shipping_option,
    gift_wrap, shipping.country)."""
    check_quantity(product=product, quantity=quantity)
    currency = check_currency(product=product, currency=currency)
    delivery, options = choose_delivery(
        country=country, currency=currency, code=shipping_option, today=today
    )
    wrap = choose_wrap(code=gift_wrap, currency=currency)
    store = StoreSettings.current()
    unit_price = round_money(product.price, currency)
    line_total = unit_price * quantity
    taxable = [
        TaxableLine("line-1", line_total, product.category),
        TaxableLine("shipping", delivery.price, None),
    ]
    if wrap is not None:
        taxable.append(TaxableLine("gift_wrap", wrap.price, None))
    try:
        taxes = tax_calculator().tax(
            country=country,
            currency=currency,
            prices_include_tax=store.prices_include_tax,
            lines=taxable,
        )
    except MissingTaxRate as missing:
        raise ToolError(
            "TAX_RATE_MISSING",
            f"The shop has no tax rate for {missing.country}, so it cannot price this order. "
            "Tell the person this address cannot be served now; the shop's staff must add the rate.",
            field="shipping.country",
            details={"country": missing.country},
        ) from None
    line_tax = taxes.lines["line-1"]
    wrap_tax = taxes.lines["gift_wrap"].amount if wrap is not None else ZERO
    shipping_tax = taxes.lines["shipping"].amount
    return Quote(
        currency=currency,
        prices_include_tax=store.prices_include_tax,
        lines=[
            PricedLine(product, quantity, unit_price, line_total, line_tax.rate, line_tax.amount)
        ],
        delivery=delivery,
        options=options,
        wrap=wrap,
        items_total=line_total,
        shipping_total=delivery.price,
        gift_wrap_total=wrap.price if wrap is not None else ZERO,
        shipping_tax=shipping_tax,
        gift_wrap_tax=wrap_tax,
        tax_total=line_tax.amount + shipping_tax + wrap_tax,
        tax_name=taxes.name,
        tax_rate=taxes.standard_rate,
    )
