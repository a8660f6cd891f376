"""ChatGPT's payment sheet in the preview (window.openai dialect, its requestCheckout emulated
from OpenAI's documented shapes), paying with a test Shared Payment Token on localstripe:
confirm → requestCheckout → complete_checkout → the completion. With the setting off the widget
never asks for the sheet. Zero CSP violations (the context fixture asserts it)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from checkout.models import CheckoutSession, Order, OrderStatus
from checkout.payments.methods import NEW_CARD
from tests.browser.conftest import BROWSER_DB, widget_frame
from tests.browser.flows import go_to_summary, mcp_calls, start_in_preview
from tests.localstripe import intents

pytestmark = [pytest.mark.browser, BROWSER_DB]


@pytest.fixture
def localstripe_preview(settings, server: str, stripe_provider: str) -> str:
    settings.PUBLIC_ORIGIN = server
    return stripe_provider


def test_the_sheet_pays_and_the_widget_shows_the_completion(
    staff_page: Page, settings, localstripe_preview: str
):
    settings.CHATGPT_PAYMENT_SHEET = True
    page = staff_page
    calls = mcp_calls(page)
    start_in_preview(page, "?dialect=openai")
    widget = widget_frame(page)
    go_to_summary(page, NEW_CARD)  # the draft's own method does not matter: the sheet pays

    widget.get_by_test_id("confirm-purchase").click()
    sheet = page.get_by_test_id("qa-sheet")
    expect(sheet).to_be_visible()
    expect(page.get_by_test_id("qa-sheet-summary")).to_contain_text("stripe · test")
    handed = page.evaluate("window.GiftGeniusPreviewHost.checkoutRequests()")[0]
    total = next(t["amount"] for t in handed["totals"] if t["type"] == "total")
    assert handed["currency"] == "usd"  # the demo catalog's
    # The sheet shows money, not the session's minor units.
    expect(page.get_by_test_id("qa-sheet-summary")).to_contain_text(f"Total ${total / 100:,.2f}")
    page.get_by_test_id("qa-sheet-pay").click()

    status = widget.get_by_test_id("order-status")
    expect(status).to_have_attribute("data-status", "completed", timeout=30_000)
    expect(sheet).to_be_hidden()
    requests = page.evaluate("window.GiftGeniusPreviewHost.checkoutRequests()")
    assert len(requests) == 1 and requests[0]["status"] == "ready_for_payment"
    session = CheckoutSession.objects.get(pk=requests[0]["id"])
    order = Order.objects.get(workflow_id=session.workflow_id, status=OrderStatus.COMPLETED)
    assert order.payment_method_id.startswith("spt_")
    names = [c["name"] for c in calls]
    assert "commit_order" not in names  # the sheet paid, not the widget's own commit
    assert names.count("complete_checkout") == 1
    paid = [i for i in intents(localstripe_preview) if i["status"] == "succeeded"]
    assert [i["amount"] for i in paid] == [int(order.amount * 100)]


def test_with_the_setting_off_the_widget_never_asks_for_the_sheet(staff_page: Page, settings):
    assert settings.CHATGPT_PAYMENT_SHEET is False
    page = staff_page
    calls = mcp_calls(page)
    start_in_preview(page, "?dialect=openai")
    go_to_summary(page)
    assert (
        widget_frame(page)
        .get_by_test_id("confirm-purchase")
        .get_attribute("data-gg-checkout-session")
        is None
    )
    widget_frame(page).get_by_test_id("confirm-purchase").click()
    status = widget_frame(page).get_by_test_id("order-status")
    expect(status).to_have_attribute("data-status", "completed")
    assert page.evaluate("window.GiftGeniusPreviewHost.checkoutRequests()") == []
    expect(page.get_by_test_id("qa-sheet")).to_be_hidden()
    assert "commit_order" in [c["name"] for c in calls]


def test_closing_the_sheet_keeps_the_summary_and_charges_nothing(
    staff_page: Page, settings, localstripe_preview: str
):
    settings.CHATGPT_PAYMENT_SHEET = True
    page = staff_page
    calls = mcp_calls(page)
    start_in_preview(page, "?dialect=openai")
    widget = widget_frame(page)
    go_to_summary(page, NEW_CARD)
    confirm = widget.get_by_test_id("confirm-purchase")
    label = confirm.inner_text()
    confirm.click()
    expect(page.get_by_test_id("qa-sheet")).to_be_visible()
    page.get_by_test_id("qa-sheet-close").click()
    expect(page.get_by_test_id("qa-sheet")).to_be_hidden()
    expect(confirm).to_have_text(label)  # the summary is back, ready to confirm again
    names = [c["name"] for c in calls]
    assert "complete_checkout" not in names and "commit_order" not in names
    assert not [i for i in intents(localstripe_preview) if i["status"] == "succeeded"]
    assert not Order.objects.filter(status=OrderStatus.COMPLETED).exists()
