"""Staff roll an order back in a real browser, under the strict CSP, with zero violations.

The `context` fixture (tests/browser/conftest.py) fails the test on any CSP violation, console
error or page error seen on any page opened here.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from checkout.ledger import check_ledger
from checkout.models import Order, OrderAuditEntry, OrderStatus, SimulatedRefund
from tests.browser.conftest import BROWSER_DB, log_in, screenshot
from tests.fixtures import paid_order

pytestmark = [pytest.mark.browser, BROWSER_DB]


def assert_ledger_clean() -> None:
    report = check_ledger()
    assert report.broken == [] and report.orphan_charges == []


def test_roll_back_a_paid_order_from_its_page(server: str, page: Page, api) -> None:
    placed = paid_order(api)
    order_path = f"/admin/checkout/order/{placed.order_id}/change/"
    log_in(page, "admin", "admin", order_path)

    expect(page.locator("#content h2, #content-main").first).to_be_visible()
    expect(page.get_by_text("Saga timeline", exact=False).first).to_be_visible()
    page.locator("#rollback-order").click()

    page.wait_for_url("**/admin/checkout/order/rollback/**")
    expect(page.locator("#rollback-orders")).to_contain_text(placed.order_id)
    # Submitting without a reason is refused by the server and nothing happens.
    page.locator("#rollback-form input[type=submit]").click()
    expect(page.locator(".errorlist")).to_contain_text("This field is required")
    assert Order.objects.get(pk=placed.order_id).status == OrderStatus.COMPLETED

    page.fill("#id_reason", "Customer phoned: wrong recipient address")
    page.locator("#rollback-form input[type=submit]").click()

    page.wait_for_url(f"**{order_path}")
    expect(page.locator("ul.messagelist")).to_contain_text(f"Order {placed.order_id} rolled back")
    screenshot(page, "admin-rollback-done")
    order = Order.objects.get(pk=placed.order_id)
    assert order.status == OrderStatus.CANCELLED
    entry = OrderAuditEntry.objects.get(order=order)
    assert (entry.actor.username, entry.outcome) == ("admin", "rolled_back")
    assert SimulatedRefund.objects.count() == 1
    assert_ledger_clean()


def test_roll_back_from_the_changelist_action_and_view_the_dashboard(
    server: str, page: Page, api
) -> None:
    first, second = paid_order(api), paid_order(api)
    log_in(page, "admin", "admin", "/admin/checkout/order/")

    for placed in (first, second):
        page.locator(f'input.action-select[value="{placed.order_id}"]').check()
    page.select_option("select[name=action]", "rollback_orders")
    page.locator("button[name=index], input[name=index]").first.click()

    expect(page.locator("#rollback-orders")).to_contain_text(first.order_id)
    page.fill("#id_reason", "Duplicate orders")
    page.locator("#rollback-form input[type=submit]").click()
    page.wait_for_url("**/admin/checkout/order/")
    messages = page.locator("ul.messagelist")
    expect(messages).to_contain_text(f"Order {first.order_id} rolled back")
    expect(messages).to_contain_text(f"Order {second.order_id} rolled back")

    # Rolling back again is harmless and says so.
    page.goto(f"/admin/checkout/order/rollback/?ids={first.order_id}")
    page.fill("#id_reason", "Pressed again")
    page.locator("#rollback-form input[type=submit]").click()
    expect(page.locator("ul.messagelist")).to_contain_text("already rolled back")
    assert SimulatedRefund.objects.count() == 2
    assert_ledger_clean()

    # The operations pages render under the same CSP.
    page.goto("/admin/")
    page.locator("#ops-module a", has_text="Metrics dashboard").click()
    page.wait_for_url("**/dashboard/")
    for window in ("15m", "24h", "7d"):
        page.goto(f"/admin/tool_runtime/toolcalllog/dashboard/?window={window}")
        expect(page.locator("svg.ops-chart").first).to_be_visible()
    expect(page.locator("#ops-alerts")).to_be_visible()
    screenshot(page, "admin-ops-dashboard")
