"""Totals, tax, delivery options and gift options: checkout.pricing and prepare_order's refusals."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from django.utils import translation

from checkout import selectors
from checkout.ledger import BROKEN, check_ledger
from checkout.models import Order, OrderStatus
from checkout.pricing import add_business_days, minor_unit, quote
from checkout.store import ShippingRate, ShippingRatePrice, StoreSettings, TaxRate
from tests.fixtures import (
    SHIPPING,
    assert_error,
    commit,
    gift_selected,
    make_product,
    order_of,
    prepare,
    priced_order,
    provider_charges,
)

pytestmark = pytest.mark.django_db(databases=["default", "payment_ledger"])

POLAND = {**SHIPPING, "country": "PL", "city": "Kraków", "postal_code": "30-001"}
A_MONDAY = date(2026, 3, 9)


def totals_of(body: dict) -> dict[str, str]:
    return {line["code"]: line["amount"] for line in body["totals"]}


def test_minor_units_follow_the_currency():
    assert minor_unit("USD") == Decimal("0.01")
    assert minor_unit("JPY") == Decimal("1")
    assert minor_unit("KWD") == Decimal("0.001")


def test_business_days_skip_the_weekend():
    assert add_business_days(A_MONDAY, 3) == date(2026, 3, 12)  # Thursday
    assert add_business_days(A_MONDAY, 5) == date(2026, 3, 16)  # next Monday
    assert add_business_days(date(2026, 3, 13), 1) == date(2026, 3, 16)  # Friday → Monday


def test_tax_included_is_the_part_of_each_line_rounded_then_summed():
    product = make_product(price="10.99")
    priced = quote(
        product=product,
        quantity=3,
        country="PL",
        shipping_option="express",
        gift_wrap="classic",
        today=A_MONDAY,
    )
    # 32.97 * 23/123 = 6.1651 → 6.17; express 9.90 * 23/123 = 1.8512 → 1.85;
    # wrap 4.90 → 0.9163 → 0.92. Rounded per line, then summed.
    assert priced.items_total == Decimal("32.97")
    assert (priced.lines[0].tax_amount, priced.shipping_tax, priced.gift_wrap_tax) == (
        Decimal("6.17"),
        Decimal("1.85"),
        Decimal("0.92"),
    )
    assert priced.tax_total == Decimal("8.94")
    assert priced.total == Decimal("32.97") + Decimal("9.90") + Decimal("4.90")  # tax inside
    assert (priced.delivery.earliest, priced.delivery.latest) == (
        date(2026, 3, 10),
        date(2026, 3, 11),
    )


def test_an_included_price_does_not_change_with_the_country():
    product = make_product(price="30.00")
    poland = quote(product=product, quantity=1, country="PL")
    germany = quote(product=product, quantity=1, country="DE")
    assert poland.total == germany.total == Decimal("30.00")
    assert (poland.tax_total, germany.tax_total) == (Decimal("5.61"), Decimal("4.79"))


def test_tax_added_on_top_uses_the_category_rate_and_the_standard_rate_for_shipping():
    StoreSettings.objects.update_or_create(pk=1, defaults={"prices_include_tax": False})
    product = make_product(price="20.00")
    product.category = "books"
    priced = quote(product=product, quantity=1, country="PL", shipping_option="express")
    # book 20.00 * 5 % = 1.00; shipping 9.90 * 23 % = 2.277 → 2.28
    assert (priced.lines[0].tax_rate, priced.lines[0].tax_amount) == (Decimal("5"), Decimal("1.00"))
    assert priced.shipping_tax == Decimal("2.28")
    assert priced.total == Decimal("20.00") + Decimal("9.90") + Decimal("3.28")


def test_prepare_order_returns_line_items_total_lines_and_options(api):
    product = make_product(price="30.00")
    workflow_id = gift_selected(api, product)
    response = prepare(
        api, workflow_id, shipping=POLAND, shipping_option="express", gift_wrap="classic",
        gift_message="Wszystkiego najlepszego 🎂", ship_to_recipient=True, quantity=2,
    )  # fmt: skip
    assert response.status == 200, response.body
    body = response.body
    assert body["line_items"] == [
        {
            "product_id": product.pk,
            "sku": product.sku,
            "name": product.name,
            "quantity": 2,
            "unit_price": "30.00",
            "line_total": "60.00",
            "tax_rate": "23.00",
            "tax": "11.22",
        }
    ]
    assert totals_of(body) == {
        "items": "60.00",
        "shipping": "9.90",
        "gift_wrap": "4.90",
        "tax": "13.99",  # 11.22 + 1.85 + 0.92
        "total": "74.80",
    }
    assert body["amount"] == "74.80"
    labels = {line["code"]: line["label"] for line in body["totals"]}
    assert labels["tax"] == "incl. VAT 23 %"
    assert [o["code"] for o in body["delivery_options"]] == [
        "standard",
        "economy-europe",
        "express",
    ]
    assert [o["code"] for o in body["delivery_options"] if o["selected"]] == ["express"]
    assert body["gift_options"] == {
        "message": "Wszystkiego najlepszego 🎂",
        "gift_wrap": "classic",
        "gift_wrap_name": "Classic paper and ribbon",
        "ship_to_recipient": True,
    }
    assert body["summary"].startswith("$74.80 including $9.90 shipping, arriving ")
    order = order_of(body["order_id"])
    assert (order.amount, order.tax_total, order.gift_message) == (
        Decimal("74.80"),
        Decimal("13.99"),
        "Wszystkiego najlepszego 🎂",
    )


def test_labels_and_amounts_are_in_the_active_language(api):
    workflow_id = gift_selected(api, make_product(price="30.00"))
    body = prepare(api, workflow_id, shipping=POLAND, shipping_option="express").body
    with translation.override("pl"):
        totals = selectors.order_totals(order_of(body["order_id"]))
    labels = {line["code"]: (line["label"], line["display"]) for line in totals["totals"]}
    assert labels["tax"] == ("w tym VAT 23 %", "7,46\xa0USD")
    assert labels["total"][1] == "39,90\xa0USD"
    assert totals["summary"].startswith("39,90\xa0USD, w tym 9,90\xa0USD za dostawę, dostawa ")


def test_the_default_option_is_the_cheapest_and_a_change_reprices_keeping_the_hold(api):
    product = make_product(stock=3, price="30.00")
    workflow_id = gift_selected(api, product)
    first = prepare(api, workflow_id).body
    assert first["amount"] == "30.00" and first["delivery"]["code"] == "standard"
    hold = order_of(first["order_id"]).reservations.get()
    express = prepare(api, workflow_id, shipping_option="express").body
    assert express["order_id"] == first["order_id"] and express["amount"] == "39.90"
    order = order_of(first["order_id"])
    assert list(order.reservations.values_list("pk", "status")) == [(hold.pk, "held")]
    product.refresh_from_db()
    assert product.stock == 2


def test_the_draft_keeps_its_prices_when_staff_edit_a_rate(api):
    workflow_id = gift_selected(api, make_product(price="30.00"))
    body = prepare(api, workflow_id, shipping_option="express").body
    ShippingRatePrice.objects.filter(rate__code="express", currency="USD").update(amount=99)
    TaxRate.objects.filter(country="US", category="").update(rate=50)
    assert order_of(body["order_id"]).amount == Decimal("39.90")
    assert get_amount(api, body["order_id"]) == "39.90"


def get_amount(api, order_id: str) -> str:
    response = api.call("get_order", {"order_id": order_id})
    assert response.status == 200, response.body
    assert response.body["totals"][-1]["code"] == "total"
    return response.body["totals"][-1]["amount"]


def test_a_charge_is_exactly_the_total(api):
    workflow_id = gift_selected(api, make_product(price="30.00"))
    body = prepare(api, workflow_id, shipping_option="express", gift_wrap="classic").body
    response = commit(api, workflow_id, body["order_id"], body["_meta"]["confirmation_token"])
    assert response.status == 200, response.body
    order = order_of(body["order_id"])
    assert order.status == OrderStatus.COMPLETED
    assert [p.amount for p in order.payments.all()] == [Decimal("44.80")]
    assert check_ledger().ok


def test_a_stripe_charge_is_exactly_the_total(api, stripe_provider):
    workflow_id = gift_selected(api, make_product(price="30.00"))
    body = prepare(api, workflow_id, shipping_option="express", gift_wrap="classic").body
    response = commit(api, workflow_id, body["order_id"], body["_meta"]["confirmation_token"])
    assert response.status == 200 and response.body["status"] == "completed", response.body
    charges = provider_charges(body["order_id"])
    assert [(c.amount, c.currency) for c in charges] == [(Decimal("44.80"), "USD")]
    assert check_ledger().ok


def test_a_confirmation_given_before_a_reprice_cannot_pay_the_new_total(api):
    workflow_id = gift_selected(api, make_product(price="30.00"))
    before = prepare(api, workflow_id).body
    prepare(api, workflow_id, shipping_option="express")
    error = assert_error(
        commit(api, workflow_id, before["order_id"], before["_meta"]["confirmation_token"]),
        "CONFIRMATION_REQUIRED",
        403,
    )
    assert "re-priced" in error["message"]
    assert order_of(before["order_id"]).payments.count() == 0


# --- refusals: each names the field and writes nothing ------------------------------------


def refused(api, code: str, status: int = 422, **arguments) -> dict:
    workflow_id = gift_selected(api, make_product(stock=5, price="30.00"))
    error = assert_error(prepare(api, workflow_id, **arguments), code, status)
    assert Order.objects.count() == 0
    return error


def test_an_unknown_shipping_option_is_refused(api):
    error = refused(api, "SHIPPING_OPTION_UNKNOWN", shipping_option="teleport")
    assert error["field"] == "shipping_option"
    assert error["allowed_values"] == ["standard", "express"]


def test_an_option_that_does_not_serve_the_address_names_the_countries_served(api):
    error = refused(api, "SHIPPING_NOT_AVAILABLE", shipping_option="economy-europe")
    assert error["field"] == "shipping_option"
    assert error["details"]["countries_served"] == ["DE", "FR", "GB", "PL", "UA"]


def test_an_address_no_rate_serves_is_refused_on_the_country(api):
    error = refused(api, "SHIPPING_NOT_AVAILABLE", shipping={**SHIPPING, "country": "BR"})
    assert error["field"] == "shipping.country"
    assert "US" in error["details"]["countries_served"]


def test_a_quantity_over_the_limit_is_refused(api):
    error = refused(api, "QUANTITY_OVER_LIMIT", quantity=4)
    assert error["field"] == "quantity" and error["details"] == {"max_per_order": 3}


@pytest.mark.parametrize(
    "message", ["x" * 251, "Happy birthday\u202e", "line\x00break"], ids=["long", "bidi", "nul"]
)
def test_a_gift_message_too_long_or_not_printable_is_refused(api, message):
    error = refused(api, "VALIDATION_ERROR", gift_message=message)
    assert error["field"] == "gift_message"


def test_a_currency_mismatch_is_refused(api):
    error = refused(api, "CURRENCY_MISMATCH", currency="EUR")
    assert error["field"] == "currency" and error["allowed_values"] == ["USD"]


def test_an_option_without_a_price_in_the_currency_is_a_currency_mismatch(api):
    rate = ShippingRate.objects.create(
        code="courier-eur", name="Courier", countries=["US"], min_business_days=1,
        max_business_days=1,
    )  # fmt: skip
    rate.prices.create(currency="EUR", amount=5)
    error = refused(api, "CURRENCY_MISMATCH", shipping_option="courier-eur")
    assert error["field"] == "shipping_option"


def test_a_missing_tax_rate_is_refused_on_the_country(api):
    TaxRate.objects.filter(country="US").delete()
    error = refused(api, "TAX_RATE_MISSING")
    assert error["field"] == "shipping.country" and error["details"] == {"country": "US"}


def test_an_unknown_gift_wrap_is_refused(api):
    error = refused(api, "GIFT_WRAP_UNKNOWN", gift_wrap="golden")
    assert error["field"] == "gift_wrap" and error["allowed_values"] == ["classic"]


# --- the ledger's check of totals ---------------------------------------------------------


def test_a_total_that_is_not_the_sum_of_its_parts_is_broken(user):
    order = priced_order(user, OrderStatus.DRAFT)
    Order.objects.filter(pk=order.pk).update(shipping_total=Decimal("4.90"))
    report = check_ledger()
    (row,) = report.broken
    assert row.verdict == BROKEN
    assert row.problems == ("parts sum to 34.90, total says 30.00",)
