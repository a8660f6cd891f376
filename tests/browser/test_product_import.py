"""The admin's catalog import in Chromium, under the strict CSP (the `context` fixture asserts
zero violations and no console errors after the test)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from playwright.sync_api import Page, expect

from gifts.models import Product, ProductTranslation
from tests.browser.conftest import BROWSER_DB, log_in
from tests.gifts.feed_builders import csv_bytes

pytestmark = [pytest.mark.browser, BROWSER_DB]


def test_staff_preview_then_confirm_a_csv_import(page: Page, tmp_path):
    catalog = tmp_path / "catalog.csv"
    catalog.write_bytes(
        csv_bytes(
            "kitchen/mug,Mug,GG-NEW-RED,Red Mug,A red mug.,1250,USD,,kitchen,coffee,,,,,,Czerwony kubek,",
            "kitchen/mug,Mug,GG-NEW-BLUE,Blue Mug,A blue mug.,1350,USD,,kitchen,coffee,,,,,,,",
        )
    )
    bad = tmp_path / "bad.csv"
    bad.write_bytes(csv_bytes("GG-BAD,,GG-BAD,Mug,,-1,USD,,kitchen,,,,,,,,"))
    log_in(page, "admin", "admin", "/admin/gifts/product/")
    page.get_by_role("link", name="Import").click()
    expect(page.locator("main")).to_contain_text("price_amount, price_currency")

    page.locator("#id_import_file").set_input_files(str(bad))
    expect(page.locator("#id_format")).to_have_value("1")  # picked from the extension
    page.get_by_role("button", name="Submit").click()
    expect(page.locator(".errorlist")).to_contain_text(
        "line 2, field price_amount: -1 is less than the minimum of 0"
    )
    expect(page.locator("input[value='Confirm import']")).to_have_count(0)

    page.locator("#id_import_file").set_input_files(str(catalog))
    page.get_by_role("button", name="Submit").click()
    expect(page.locator("input[value='Confirm import']")).to_be_visible()
    assert not Product.objects.filter(sku__startswith="GG-NEW").exists()  # a preview only

    page.locator("input[value='Confirm import']").click()
    expect(page.locator("#changelist")).to_be_visible()
    assert Product.objects.get(sku="GG-NEW-RED").price == Decimal("12.50")
    assert Product.objects.get(sku="GG-NEW-BLUE").family == "kitchen/mug"
    assert ProductTranslation.objects.get(product__sku="GG-NEW-RED").name == "Czerwony kubek"
    assert not Product.objects.filter(sku="GG-BAD").exists()
