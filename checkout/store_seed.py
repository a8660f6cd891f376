"""The demo shop's delivery options, tax rates and gift wrap (`manage.py seed_store`), serving
the demo countries. Safe to run repeatedly: rows are upserted by code, staff edits to other
rows are kept."""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction

from checkout.store import (
    GiftWrap,
    GiftWrapPrice,
    ShippingRate,
    ShippingRatePrice,
    StoreSettings,
    TaxRate,
)

DEMO_COUNTRIES = ("US", "GB", "PL", "DE", "FR", "UA", "CN")
EUROPE = ("GB", "PL", "DE", "FR", "UA")

# code, name, countries, business days, prices. Standard delivery is free, so a gift's total
# is its price unless the person picks a faster option or wrap.
DEMO_RATES = (
    ("standard", "Standard", DEMO_COUNTRIES, (3, 5), {"USD": "0.00", "EUR": "0.00"}),
    ("express", "Express", DEMO_COUNTRIES, (1, 2), {"USD": "9.90", "EUR": "8.90"}),
    ("economy-europe", "Economy (Europe)", EUROPE, (6, 10), {"USD": "0.00", "EUR": "0.00"}),
)

# country, category ("" = standard rate), percent, name
DEMO_TAX_RATES = (
    ("US", "", "0.00", "sales tax"),
    ("GB", "", "20.00", "VAT"),
    ("GB", "books", "0.00", "VAT"),
    ("PL", "", "23.00", "VAT"),
    ("PL", "books", "5.00", "VAT"),
    ("DE", "", "19.00", "VAT"),
    ("DE", "books", "7.00", "VAT"),
    ("FR", "", "20.00", "VAT"),
    ("FR", "books", "5.50", "VAT"),
    ("UA", "", "20.00", "VAT"),
    ("CN", "", "13.00", "VAT"),
)

DEMO_WRAPS = (("classic", "Classic paper and ribbon", {"USD": "4.90", "EUR": "4.50"}),)


@transaction.atomic
def seed_demo_store() -> None:
    StoreSettings.current()
    for country, category, rate, name in DEMO_TAX_RATES:
        TaxRate.objects.update_or_create(
            country=country, category=category, defaults={"rate": Decimal(rate), "name": name}
        )
    for code, name, countries, (low, high), prices in DEMO_RATES:
        shipping_rate, _ = ShippingRate.objects.update_or_create(
            code=code,
            defaults={
                "name": name,
                "countries": list(countries),
                "min_business_days": low,
                "max_business_days": high,
            },
        )
        for currency, amount in prices.items():
            ShippingRatePrice.objects.update_or_create(
                rate=shipping_rate, currency=currency, defaults={"amount": Decimal(amount)}
            )
    for code, name, prices in DEMO_WRAPS:
        wrap, _ = GiftWrap.objects.update_or_create(code=code, defaults={"name": name})
        for currency, amount in prices.items():
            GiftWrapPrice.objects.update_or_create(
                wrap=wrap, currency=currency, defaults={"amount": Decimal(amount)}
            )
