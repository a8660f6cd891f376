"""A receipt and the staff's order pages in real Chromium, under the strict CSP, with zero
violations (the `context` fixture fails the test on any): the receipt page without JavaScript
and in print, the order list at 1280 px with nothing cut off, the order page, and "mark
shipped" with tracking."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from checkout.models import FulfilmentStatus, Order
from tests.browser.conftest import BROWSER_DB, log_in, screenshot, watched_context
from tests.fixtures import SHIPPING, paid_order

pytestmark = [pytest.mark.browser, BROWSER_DB]


def test_the_receipt_page_works_without_javascript_and_prints(
    server: str, browser: Browser, problems, api
) -> None:
    placed = paid_order(api)
    order = Order.objects.get(pk=placed.order_id)
    with watched_context(browser, server, problems) as context:
        page = context.new_page()
        page.goto(f"/receipts/{order.receipt_key}/")
        expect(page.locator(".gg-receipt-lines")).to_contain_text(order.lines.get().name)
        expect(page.locator(".gg-total-total")).to_contain_text("$")
        screenshot(page, "receipt-page")
        page.emulate_media(media="print")
        assert page.pdf(format="A4")[:4] == b"%PDF"
    no_js = browser.new_context(base_url=server, java_script_enabled=False)
    try:
        bare = no_js.new_page()
        bare.goto(f"/receipts/{order.receipt_key}/")
        expect(bare.locator(".gg-receipt-facts")).to_contain_text(SHIPPING["city"])
    finally:
        no_js.close()


def test_the_order_list_fits_1280_px_and_the_page_reads_like_a_shops(
    server: str, page: Page, api
) -> None:
    placed = paid_order(api)
    paid_order(api)
    log_in(page, "admin", "admin", "/admin/checkout/order/")
    table = page.locator("#result_list")
    expect(table).to_contain_text(SHIPPING["name"])
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 1280, f"the order list is {width} px wide"
    # No column cut off: the results table needs no scrolling inside its box.
    overflow = page.evaluate(
        "(() => { const box = document.querySelector('#changelist .results');"
        " return box.scrollWidth - box.clientWidth; })()"
    )
    assert overflow <= 0, f"the order table overflows its box by {overflow} px"
    screenshot(page, "admin-order-list")

    page.locator(f'#result_list a[href*="{placed.order_id}"]').first.click()
    expect(page.locator("#order-overview")).to_contain_text("Customer")
    overview = page.locator("#order-overview").bounding_box()
    timeline = page.locator("#order-timeline").bounding_box()
    items = page.locator("#order-items").bounding_box()
    assert timeline["x"] > items["x"] + items["width"] - 1  # beside, not below
    assert overview["y"] < page.locator("#order_form fieldset").first.bounding_box()["y"]
    screenshot(page, "admin-order-page")


def test_mark_shipped_with_tracking_from_the_list(server: str, page: Page, api) -> None:
    placed = paid_order(api)
    log_in(page, "admin", "admin", "/admin/checkout/order/")
    page.locator(f'input[name="_selected_action"][value="{placed.order_id}"]').check()
    page.select_option('select[name="action"]', "mark_shipped")
    page.locator('button[name="index"]').click()
    expect(page.locator("#ship-orders")).to_contain_text(placed.order_id)
    page.fill("#id_carrier", "DHL")
    page.fill(f"#id_tracking_{placed.order_id}", "JD014600003")
    page.locator("#ship-form input[type=submit]").click()
    expect(page.locator("ul.messagelist")).to_contain_text("Shipped with DHL")
    order = Order.objects.get(pk=placed.order_id)
    assert (order.fulfilment_status, order.tracking_number) == (
        FulfilmentStatus.SHIPPED,
        "JD014600003",
    )
