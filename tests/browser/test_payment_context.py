"""The payment screens keep their context in Chromium: while paying, the summary stays in view
and the button says what is happening; a pending payment updates by itself while the widget is
visible, and not while it is hidden."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from checkout.ledger import check_ledger
from checkout.sweeps import run_sweeps
from tests.browser.conftest import BROWSER_DB, widget_frame, widget_frame_handle
from tests.browser.flows import go_to_summary, mcp_calls, start_in_preview

pytestmark = [pytest.mark.browser, BROWSER_DB]

# Records, each time the widget turns busy, what the person sees: the confirm button's words
# and whether the order's summary is still displayed.
WATCH_BUSY = """() => {
  window.__busySeen = [];
  const root = document.getElementById("gg-root");
  new MutationObserver(() => {
    if (root.getAttribute("aria-busy") !== "true") return;
    const button = root.querySelector('[data-testid="confirm-purchase"]');
    const summary = root.querySelector('[data-testid="order-summary"]');
    window.__busySeen.push({
      label: button ? button.textContent : null,
      summaryShown: !!summary && getComputedStyle(summary).display !== "none",
    });
  }).observe(root, {attributes: true, attributeFilter: ["aria-busy"]});
}"""

# The Page Visibility API as a hidden (or shown again) tab reports it.
SET_VISIBILITY = """(state) => {
  Object.defineProperty(document, "visibilityState", {configurable: true, get: () => state});
  Object.defineProperty(document, "hidden", {configurable: true, get: () => state === "hidden"});
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_while_paying_the_summary_stays_and_the_button_says_so(staff_page: Page):
    page = staff_page
    start_in_preview(page)
    go_to_summary(page, payment_method="pm_card_visa")
    frame = widget_frame_handle(page)
    frame.evaluate(WATCH_BUSY)
    widget_frame(page).get_by_test_id("confirm-purchase").click()
    expect(widget_frame(page).get_by_test_id("order-status")).to_have_attribute(
        "data-status", "completed"
    )
    seen = frame.evaluate("window.__busySeen")
    assert seen and seen[0] == {"label": "Paying…", "summaryShown": True}
    assert check_ledger().ok


def reads_of_the_order(calls: list[dict]) -> int:
    return sum(c["name"] == "get_order" for c in calls)


def wait_until(page: Page, condition, *, seconds: float) -> None:
    for _ in range(int(seconds * 10)):
        if condition():
            return
        page.wait_for_timeout(100)
    raise AssertionError("the condition never held")


def pending_payment(page: Page) -> list[dict]:
    calls = mcp_calls(page)
    start_in_preview(page)
    go_to_summary(page, payment_method="pm_card_pending")
    widget_frame(page).get_by_test_id("confirm-purchase").click()
    expect(widget_frame(page).get_by_test_id("order-status")).to_have_attribute(
        "data-status", "payment_pending"
    )
    return calls


def test_a_pending_payment_updates_by_itself_while_visible(staff_page: Page):
    page = staff_page
    calls = pending_payment(page)
    status = widget_frame(page).get_by_test_id("order-status")
    # The widget asks by itself; nothing has settled, so the pending view stays as it is.
    wait_until(page, lambda: reads_of_the_order(calls) >= 1, seconds=6)
    expect(status).to_have_attribute("data-status", "payment_pending")
    run_sweeps(older_than_seconds=0)  # the provider settles; no one presses anything
    expect(status).to_have_attribute("data-status", "completed", timeout=25_000)
    assert check_ledger().ok


def test_a_hidden_widget_does_not_ask_and_asks_at_once_when_shown_again(staff_page: Page):
    page = staff_page
    calls = pending_payment(page)
    frame = widget_frame_handle(page)
    frame.evaluate(SET_VISIBILITY, "hidden")
    asked = reads_of_the_order(calls)
    run_sweeps(older_than_seconds=0)
    page.wait_for_timeout(6_000)  # longer than the first two pauses of the backoff
    assert reads_of_the_order(calls) == asked
    status = widget_frame(page).get_by_test_id("order-status")
    expect(status).to_have_attribute("data-status", "payment_pending")
    frame.evaluate(SET_VISIBILITY, "visible")  # the person comes back: the widget looks now
    expect(status).to_have_attribute("data-status", "completed", timeout=3_000)
    assert reads_of_the_order(calls) == asked + 1
    assert check_ledger().ok
