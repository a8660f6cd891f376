"""No card data reaches our server: after a purchase paid on the fake Stripe's hosted page (the
card number, its expiry and CVC are sent to Stripe, not to us), neither the captured log output
nor any text in any table of either database holds the number, the CVC or the expiry as the
page sent them."""

from __future__ import annotations

import logging
import re

import pytest
from django.db import connections
from playwright.sync_api import Page, expect

from checkout.models import Order, OrderStatus
from tests.browser.conftest import BROWSER_DB, widget_frame
from tests.browser.test_hosted_checkout import (
    LOCALSTRIPE,
    SETTLED,
    confirm_with_a_new_card,
    payment_page,
)

__all__ = ["payment_page"]  # the provider fixture (tests/browser/test_hosted_checkout.py)

pytestmark = [pytest.mark.browser, BROWSER_DB]

# What the fake's page sends to Stripe for "Visa 4242 4242 4242 4242" (fakestripe/hosted_pages.py).
NUMBER, EXP_MONTH, EXP_YEAR, CVC = "4242424242424242", "12", "2034", "123"
CARD_DATA = [
    re.compile(NUMBER),
    re.compile(r"4242[ -]4242[ -]4242[ -]4242"),
    re.compile(rf"cvc\W{{0,4}}{CVC}\b", re.I),
    re.compile(rf"\b{EXP_MONTH}\s*/\s*{EXP_YEAR}\b"),
    re.compile(rf"{EXP_YEAR}-{EXP_MONTH}\b"),
    re.compile(
        rf"exp_month\W{{0,4}}{EXP_MONTH}\b.{{0,40}}exp_year\W{{0,4}}{EXP_YEAR}", re.I | re.S
    ),
]


def found_in(text: str) -> list[str]:
    return [pattern.pattern for pattern in CARD_DATA if pattern.search(text)]


def test_the_search_finds_card_data_as_stripe_receives_it():
    sent = f'{{"number": "{NUMBER}", "exp_month": "{EXP_MONTH}", "exp_year": "{EXP_YEAR}", "cvc": "{CVC}"}}'
    assert len(found_in(sent)) == 3  # the number, the CVC, the expiry
    assert found_in(f"card[number]=4242 4242 4242 4242&card[cvc]={CVC}&expiry=12/2034")
    assert found_in("Visa •••• 4242, 25.00 EUR, order 12345") == []


def text_in_every_table() -> dict[str, str]:
    """Every text value of every row of every table, per database and table."""
    texts: dict[str, str] = {}
    for alias in ("default", "payment_ledger"):
        connection = connections[alias]
        with connection.cursor() as cursor:
            for table in connection.introspection.table_names(cursor):
                # The names come from the database itself, quoted.
                cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")  # noqa: S608
                values = [
                    value.decode("utf-8", "replace") if isinstance(value, bytes) else value
                    for row in cursor.fetchall()
                    for value in row
                ]
                texts[f"{alias}.{table}"] = "\n".join(v for v in values if isinstance(v, str))
    return texts


@pytest.mark.parametrize("payment_page", [LOCALSTRIPE], ids=["localstripe"], indirect=True)
def test_after_a_hosted_purchase_no_log_line_and_no_column_holds_the_card(
    staff_page: Page, payment_page, caplog, capfd
):
    caplog.set_level(logging.DEBUG)
    page = staff_page
    payment = confirm_with_a_new_card(page)
    payment_page.pay(payment, payment_page.success_card)
    expect(payment.get_by_test_id("payment-received")).to_be_visible()
    page.bring_to_front()
    expect(widget_frame(page).get_by_test_id("order-status")).to_have_attribute(
        "data-status", "completed", timeout=SETTLED
    )
    order = Order.objects.get()
    assert order.status == OrderStatus.COMPLETED

    tables = text_in_every_table()
    assert order.correlation_id in tables["default.checkout_order"]  # the search sees our rows
    assert {table: hits for table, text in tables.items() if (hits := found_in(text))} == {}
    out, err = capfd.readouterr()
    logged = caplog.text + out + err
    assert order.correlation_id in logged  # the purchase itself was logged
    assert found_in(logged) == []
