"""axe-core on every widget state (light and dark) and on the preview: no serious or critical
violations; keyboard focus follows every action to the new view."""

from __future__ import annotations

import pytest
from playwright.sync_api import FrameLocator, Locator, Page, expect

from tests.browser.conftest import (
    BROWSER_DB,
    BrowserProblems,
    log_in,
    serious_axe_violations,
    widget_frame,
    widget_frame_handle,
)
from tests.browser.flows import start_in_preview

pytestmark = [pytest.mark.browser, BROWSER_DB]


def check(target, state: str, found: dict) -> None:
    violations = serious_axe_violations(target)
    if violations:
        found[state] = violations


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_widget_state_is_accessible(axe_page: Page, theme: str):
    page = axe_page
    found: dict = {}
    log_in(page, "demo", "demo", f"/widget/?theme={theme}")
    check(page, "start", found)
    page.get_by_test_id("start").click()
    expect(page.get_by_test_id("brief-form")).to_be_visible()
    check(page, "brief", found)
    page.get_by_test_id("brief-form").locator("input[name=interests]").fill("coffee, cooking")
    page.get_by_test_id("suggest-gifts").click()
    expect(page.get_by_test_id("gift-card").first).to_be_visible()
    check(page, "suggestions", found)
    page.get_by_test_id("select-gift").first.click()
    expect(page.get_by_test_id("go-to-checkout")).to_be_visible()
    check(page, "selected", found)
    page.get_by_test_id("go-to-checkout").click()
    expect(page.get_by_test_id("payment-method")).to_be_visible()
    check(page, "checkout", found)
    page.get_by_test_id("payment-method").select_option("pm_card_declined")
    page.get_by_test_id("prepare-order").click()
    expect(page.get_by_test_id("confirm-purchase")).to_be_visible()
    check(page, "summary", found)
    page.get_by_test_id("confirm-purchase").click()
    expect(page.get_by_test_id("error-banner")).to_be_visible()
    check(page, "error", found)
    page.get_by_test_id("change-payment").click()
    page.get_by_test_id("payment-method").select_option("pm_card_pending")
    page.get_by_test_id("prepare-order").click()
    page.get_by_test_id("confirm-purchase").click()
    expect(page.get_by_test_id("order-status")).to_have_attribute("data-status", "payment_pending")
    check(page, "payment_pending", found)
    assert not found, found


def test_the_empty_state_is_accessible(axe_page: Page):
    page = axe_page
    log_in(page, "demo", "demo", "/widget/")
    page.get_by_test_id("start").click()
    page.get_by_test_id("brief-form").locator("input[name=interests]").fill("coffee")
    page.get_by_test_id("brief-form").locator("input[name=budget_max]").fill("2")
    page.get_by_test_id("brief-form").locator("input[name=budget_min]").fill("1")
    page.get_by_test_id("suggest-gifts").click()
    expect(page.get_by_test_id("no-results-suggestions")).to_be_visible()
    assert serious_axe_violations(page) == []
    page.get_by_test_id("apply-suggestion").first.click()  # the concrete suggestion finds gifts
    expect(page.get_by_test_id("gift-card").first).to_be_visible()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_preview_and_its_completed_widget_are_accessible(axe_page: Page, theme: str):
    page = axe_page
    log_in(page, "demo", "demo", f"/preview/?theme={theme}")
    page.get_by_test_id("qa-start").click()
    frame = page.frame_locator('[data-testid="qa-frame"]')
    expect(frame.get_by_test_id("gift-card").first).to_be_visible()
    assert serious_axe_violations(page) == []
    frame.get_by_test_id("select-gift").first.click()
    frame.get_by_test_id("go-to-checkout").click()
    frame.get_by_test_id("prepare-order").click()
    frame.get_by_test_id("confirm-purchase").click()
    expect(frame.get_by_test_id("order-status")).to_have_attribute("data-status", "completed")
    assert serious_axe_violations(widget_frame_handle(page)) == []


def press(target: Locator, key: str = "Enter") -> None:
    """A keyboard action: focus the control and press a key, as a keyboard user would."""
    target.focus()
    target.press(key)


def expect_heading_focused(widget: Page | FrameLocator, state: str) -> None:
    """After an action the focus is on the new view's heading, not lost to <body>."""
    expect(widget.locator(f"#gg-root [data-gg-state={state}]")).to_be_visible()
    expect(widget.locator(f"#gg-root [data-gg-state={state}] [data-gg-focus]")).to_be_focused()


@pytest.mark.parametrize("dialect", ["mcp-apps", "openai"], ids=["mcp-apps", "window.openai"])
def test_after_a_keyboard_action_the_focus_is_on_the_new_views_heading_in_a_host(
    staff_page: Page, problems: BrowserProblems, dialect: str
):
    page = staff_page
    start_in_preview(page, f"?dialect={dialect}")
    widget = widget_frame(page)
    press(widget.get_by_test_id("select-gift").first)
    expect_heading_focused(widget, "selected")
    press(widget.get_by_test_id("go-to-checkout"))
    expect_heading_focused(widget, "checkout")
    press(widget.get_by_test_id("prepare-order"))
    expect_heading_focused(widget, "summary")

    # The banner the bridge builds itself when the host cannot reach the server takes it too.
    problems.allow_console(r"Failed to load resource")
    page.route("**/mcp", lambda route: route.abort())
    press(widget.get_by_test_id("confirm-purchase"))
    banner = widget.get_by_test_id("error-banner")
    expect(banner).to_have_attribute("data-error-code", "CLIENT_UNREACHABLE")
    expect(banner.locator("[data-gg-focus]")).to_be_focused()


def test_after_a_keyboard_action_the_focus_is_on_the_new_views_heading_in_htmx(page: Page):
    log_in(page, "demo", "demo", "/widget/")
    press(page.get_by_test_id("start"))
    expect_heading_focused(page, "brief")
    form = page.get_by_test_id("brief-form")
    form.locator("input[name=interests]").fill("coffee, cooking")
    press(form.locator("input[name=interests]"))  # Enter in a field submits the form
    expect_heading_focused(page, "suggestions")
    press(page.get_by_test_id("select-gift").first, " ")
    expect_heading_focused(page, "selected")
