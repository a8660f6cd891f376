"""Every HTML page we serve works under the strict CSP in Chromium: zero violations, no console
errors (the `context` fixture asserts both after each test)."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from checkout.models import Order, Payment
from tests.browser.conftest import BROWSER_DB, log_in

pytestmark = [pytest.mark.browser, BROWSER_DB]


def test_the_standalone_widget_runs_the_purchase_over_htmx(page: Page):
    log_in(page, "demo", "demo", "/widget/")
    actions: list[str] = []
    page.on(
        "request",
        lambda r: "/widget/actions/" in r.url and actions.append(r.url.rsplit("/", 1)[-1]),
    )
    page.get_by_test_id("start").click()
    form = page.get_by_test_id("brief-form")
    expect(form).to_be_visible()
    form.get_by_label("Interests").fill("coffee, cooking")
    page.get_by_test_id("suggest-gifts").click()
    expect(page.get_by_test_id("gift-card").first).to_be_visible()
    page.get_by_test_id("select-gift").first.click()
    page.get_by_test_id("back").click()
    page.get_by_test_id("select-gift").nth(1).click()
    page.get_by_test_id("go-to-checkout").click()
    page.get_by_test_id("payment-method").select_option("pm_card_visa")
    page.get_by_test_id("prepare-order").click()
    expect(page.get_by_test_id("confirm-purchase")).to_be_visible()

    page.reload()  # the page comes back at the summary, with the same keys
    page.get_by_test_id("confirm-purchase").click()
    expect(page.get_by_test_id("order-status")).to_have_attribute("data-status", "completed")
    assert actions == [
        "start_gift_workflow", "suggest_gifts", "select_gift", "user_navigated_to_step", "select_gift",
        "get_payment_methods", "prepare_order", "commit_order",
    ]  # fmt: skip
    order = Order.objects.get(status="completed", owner__username="demo")
    assert Payment.objects.filter(order=order).count() == 1

    # No chat here: no button that would only send a message into one; "Find another gift"
    # starts a new search itself.
    expect(page.get_by_test_id("follow-up")).to_have_count(0)
    page.get_by_test_id("start-over").click()
    expect(page.get_by_test_id("brief-form")).to_be_visible()
    assert actions[-1] == "start_gift_workflow"


def test_the_standalone_widget_recovers_from_a_declined_card_in_ukrainian(page: Page):
    log_in(page, "demo", "demo", "/widget/?locale=uk")
    page.get_by_test_id("start").click()
    page.get_by_test_id("brief-form").locator("input[name=interests]").fill("coffee")
    page.get_by_test_id("suggest-gifts").click()
    page.get_by_test_id("select-gift").first.click()
    page.get_by_test_id("go-to-checkout").click()
    page.get_by_test_id("payment-method").select_option("pm_card_declined")
    page.get_by_test_id("prepare-order").click()
    page.get_by_test_id("confirm-purchase").click()
    banner = page.get_by_test_id("error-banner")
    expect(banner).to_have_attribute("data-error-code", "CARD_DECLINED")
    # The banner names the declined card, in Ukrainian.
    expect(banner).to_contain_text("•••• 0002 відхилено. Нічого не списано")
    page.get_by_test_id("change-payment").click()
    page.get_by_test_id("payment-method").select_option("pm_card_visa")
    page.get_by_test_id("prepare-order").click()
    page.get_by_test_id("confirm-purchase").click()
    expect(page.get_by_test_id("order-status")).to_have_attribute("data-status", "completed")


def test_the_preview_page_loads_clean(page: Page):
    log_in(page, "demo", "demo", "/preview/")
    expect(page.get_by_test_id("qa-start")).to_be_enabled()
    expect(page.locator("html")).to_have_attribute("data-qa-ready", "true")


def test_the_api_docs_render_under_the_csp(page: Page):
    page.goto("/api/docs")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("GiftGenius tools")
    expect(page.locator(".opblock").first).to_be_visible()
    page.locator(".opblock-summary").first.click()  # expanding an operation renders more UI
    expect(page.locator(".opblock-body").first).to_be_visible()


def test_the_admin_works_under_the_csp(page: Page):
    log_in(page, "admin", "admin", "/admin/")
    expect(page.locator("#site-name")).to_be_visible()
    page.goto("/admin/checkout/order/")
    expect(page.locator("#changelist")).to_be_visible()
    page.goto("/admin/auth/user/")
    expect(page.locator("#result_list")).to_be_visible()
    page.locator("#result_list tbody tr th a").first.click()  # a change form (widgets, scripts)
    expect(page.locator("#user_form")).to_be_visible()
    page.locator("#logout-form button, #logout-form input[type=submit]").first.click()
    expect(page.locator("body")).to_contain_text("Logged out")


def test_try_again_in_the_standalone_widget_resends_the_same_key(page: Page):
    log_in(page, "demo", "demo", "/widget/")
    commits: list[dict] = []
    page.on(
        "request",
        lambda r: (
            r.url.endswith("/widget/actions/commit_order")
            and commits.append(json.loads(r.post_data or "{}"))
        ),
    )
    page.get_by_test_id("start").click()
    page.get_by_test_id("brief-form").locator("input[name=interests]").fill("coffee")
    page.get_by_test_id("suggest-gifts").click()
    page.get_by_test_id("select-gift").first.click()
    page.get_by_test_id("go-to-checkout").click()
    page.get_by_test_id("payment-method").select_option("pm_card_timeout_always")
    page.get_by_test_id("prepare-order").click()
    page.get_by_test_id("confirm-purchase").click()
    expect(page.get_by_test_id("error-banner")).to_have_attribute(
        "data-error-code", "PAYMENT_TIMEOUT"
    )
    page.get_by_test_id("retry").click()
    expect(page.get_by_test_id("error-banner")).to_have_attribute(
        "data-error-code", "PAYMENT_TIMEOUT"
    )
    page.wait_for_function(
        "() => document.getElementById('gg-root').getAttribute('aria-busy') === 'false'"
    )
    assert len(commits) == 2 and commits[0] == commits[1] and commits[0]["idempotency_key"]
    assert not Payment.objects.filter(order_id=commits[0]["order_id"], status="succeeded").exists()
