"""Steps the browser tests share: drive the preview to a state, record the /mcp calls."""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect

from tests.browser.conftest import widget_frame


def start_in_preview(page: Page, query: str = "") -> None:
    page.goto(f"/preview/{query}")
    page.get_by_test_id("qa-start").click()
    expect(widget_frame(page).get_by_test_id("gift-card").first).to_be_visible()


def go_to_summary(page: Page, payment_method: str = "pm_card_visa") -> None:
    widget = widget_frame(page)
    widget.get_by_test_id("select-gift").first.click()
    widget.get_by_test_id("go-to-checkout").click()
    widget.get_by_test_id("payment-method").select_option(payment_method)
    widget.get_by_test_id("prepare-order").click()
    expect(widget.get_by_test_id("confirm-purchase")).to_be_visible()


def mcp_calls(page: Page) -> list[dict]:
    """Record every JSON-RPC tools/call the page sends to /mcp."""
    calls: list[dict] = []

    def record(request) -> None:
        if request.url.endswith("/mcp") and request.method == "POST":
            calls.append(json.loads(request.post_data or "{}").get("params", {}))

    page.on("request", record)
    return calls
