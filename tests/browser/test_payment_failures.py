"""Each payment failure shows its own localized banner with the right next action, and never
charges twice; the money invariant holds after every scenario."""

from __future__ import annotations

import pytest
from django.utils import translation
from playwright.sync_api import Page, expect

from checkout.ledger import check_ledger
from checkout.models import Order
from checkout.payments.provider import get_provider
from checkout.sweeps import run_sweeps
from tests.browser.conftest import BROWSER_DB, screenshot, widget_frame
from tests.browser.flows import go_to_summary, mcp_calls, start_in_preview
from tool_runtime.errors import ERROR_CATALOG

pytestmark = [pytest.mark.browser, BROWSER_DB]

FAILURES = [
    ("pm_card_declined", "CARD_DECLINED"),
    ("pm_card_insufficient_funds", "INSUFFICIENT_FUNDS"),
    ("pm_card_timeout_always", "PAYMENT_TIMEOUT"),
    ("pm_card_unavailable", "PAYMENT_PROVIDER_ERROR"),
]
LOCALES = {"en": "en", "pl": "pl"}
# A decline names the card that was declined, in place of the catalog's general banner.
DECLINED_CARD = {
    "CARD_DECLINED": (
        "Visa •••• 0002",
        translation.gettext_lazy(
            "%(card)s was declined. Nothing was charged: choose another payment method."
        ),
    ),
    "INSUFFICIENT_FUNDS": (
        "Visa •••• 9995",
        translation.gettext_lazy(
            "%(card)s was declined for insufficient funds. Nothing was charged: choose another "
            "payment method."
        ),
    ),
}


def expected(text_of, locale: str) -> str:
    with translation.override(locale):
        return str(text_of)


def captured_for(order_id: str) -> list:
    return [
        c for c in get_provider().charges_for_order(order_id=order_id) if c.status == "succeeded"
    ]


@pytest.mark.parametrize("locale", list(LOCALES))
@pytest.mark.parametrize(("card", "code"), FAILURES)
def test_payment_failure_banner_and_its_way_out(
    staff_page: Page, card: str, code: str, locale: str
):
    page = staff_page
    calls = mcp_calls(page)
    start_in_preview(page, f"?locale={locale}")
    go_to_summary(page, payment_method=card)
    widget = widget_frame(page)
    widget.get_by_test_id("confirm-purchase").click()

    banner = widget.get_by_test_id("error-banner")
    expect(banner).to_have_attribute("data-error-code", code)
    if code in DECLINED_CARD:
        card, words = DECLINED_CARD[code]
        with translation.override(locale):
            expect(banner).to_contain_text(str(words) % {"card": card})
        # The order stays in view beside the banner, with the card it was.
        expect(widget.get_by_test_id("failed-card")).to_have_text(card)
    else:
        expect(banner).to_contain_text(expected(ERROR_CATALOG[code].banner, locale))
    assert code not in banner.inner_text()
    screenshot(page, f"preview-banner-{code.lower()}-{locale}")
    change = widget.get_by_test_id("change-payment")
    expect(change).to_have_text(
        expected(translation.gettext_lazy("Choose another payment method"), locale)
    )
    retry = widget.get_by_test_id("retry")
    failed_order = next(c for c in calls if c["name"] == "commit_order")["arguments"]["order_id"]

    if ERROR_CATALOG[code].retryable:
        expect(retry).to_have_text(expected(translation.gettext_lazy("Try again"), locale))
        retry.click()  # the same card fails again; the retry carries the same key
        for _ in range(100):  # the banner is already on screen: wait for the retry's call itself
            commits = [c for c in calls if c["name"] == "commit_order"]
            if len(commits) == 2:
                break
            page.wait_for_timeout(100)
        expect(widget.get_by_test_id("error-banner")).to_have_attribute("data-error-code", code)
        assert len(commits) == 2 and commits[0]["arguments"] == commits[1]["arguments"]
    else:
        expect(retry).to_have_count(0)  # retrying a decline cannot help: change the card instead
    assert captured_for(failed_order) == []  # nothing was charged for the failed order

    widget.get_by_test_id("change-payment").click()
    widget.get_by_test_id("payment-method").select_option("pm_card_visa")
    widget.get_by_test_id("prepare-order").click()
    widget.get_by_test_id("confirm-purchase").click()
    expect(widget.get_by_test_id("order-status")).to_have_attribute("data-status", "completed")

    paid = Order.objects.get(status="completed")
    assert len(captured_for(str(paid.pk))) == 1
    report = check_ledger()
    assert report.ok, report


def test_a_timeout_on_the_first_attempt_is_retried_by_the_server_and_charges_once(staff_page: Page):
    page = staff_page
    calls = mcp_calls(page)
    start_in_preview(page)
    go_to_summary(page, payment_method="pm_card_timeout_once")
    widget = widget_frame(page)
    widget.get_by_test_id("confirm-purchase").click()
    expect(widget.get_by_test_id("order-status")).to_have_attribute("data-status", "completed")
    commits = [c for c in calls if c["name"] == "commit_order"]
    assert len(commits) == 1  # the widget never retried: the server's one retry layer did
    order_id = commits[0]["arguments"]["order_id"]
    assert len(captured_for(order_id)) == 1
    assert check_ledger().ok


def test_a_pending_payment_is_a_status_with_check_again_not_a_spinner(staff_page: Page):
    page = staff_page
    start_in_preview(page)
    go_to_summary(page, payment_method="pm_card_pending")
    widget = widget_frame(page)
    widget.get_by_test_id("confirm-purchase").click()
    status = widget.get_by_test_id("order-status")
    expect(status).to_have_attribute("data-status", "payment_pending")
    check = widget.get_by_test_id("check-again")
    expect(check).to_be_visible()
    shown = widget.locator("[data-gg-view]").first.get_attribute("data-gg-view")
    check.click()  # nothing has settled yet: still pending, and still a status with an action
    # Wait for the redraw itself (a new view), not the pending status still on screen.
    expect(widget.locator("[data-gg-view]").first).not_to_have_attribute("data-gg-view", shown)
    expect(widget.locator("#gg-root")).to_have_attribute("aria-busy", "false")
    expect(widget.get_by_test_id("order-status")).to_have_attribute(
        "data-status", "payment_pending"
    )
    run_sweeps(older_than_seconds=0)  # the background reconciliation asks the provider
    widget.get_by_test_id("check-again").click()
    expect(widget.get_by_test_id("order-status")).to_have_attribute("data-status", "completed")
    assert check_ledger().ok


def test_the_address_typed_before_a_decline_or_back_is_kept_for_the_next_attempt(staff_page: Page):
    page = staff_page
    start_in_preview(page)
    widget = widget_frame(page)
    widget.get_by_test_id("select-gift").first.click()
    widget.get_by_test_id("go-to-checkout").click()
    widget.get_by_test_id("payment-method").select_option("pm_card_declined")
    widget.locator("[name='shipping.name']").fill("Ann Smith")
    widget.locator("[name='shipping.city']").fill("Kraków")
    widget.get_by_test_id("prepare-order").click()
    expect(widget.get_by_test_id("order-summary")).to_contain_text("Ann Smith")
    widget.get_by_test_id("confirm-purchase").click()
    expect(widget.get_by_test_id("error-banner")).to_have_attribute(
        "data-error-code", "CARD_DECLINED"
    )

    widget.get_by_test_id("change-payment").click()
    expect(widget.locator("[name='shipping.name']")).to_have_value("Ann Smith")
    expect(widget.locator("[name='shipping.city']")).to_have_value("Kraków")
    widget.get_by_test_id("payment-method").select_option("pm_card_visa")
    widget.get_by_test_id("prepare-order").click()
    expect(widget.get_by_test_id("order-summary")).to_contain_text("Ann Smith")

    # Back from the summary is the form with the address; Back from there releases the draft,
    # and checkout again still has the address.
    widget.get_by_test_id("back").click()
    expect(widget.locator("[name='shipping.name']")).to_have_value("Ann Smith")
    widget.get_by_test_id("back").click()
    widget.get_by_test_id("go-to-checkout").click()
    expect(widget.locator("[name='shipping.name']")).to_have_value("Ann Smith")
    widget.get_by_test_id("prepare-order").click()
    widget.get_by_test_id("confirm-purchase").click()
    expect(widget.get_by_test_id("order-status")).to_have_attribute("data-status", "completed")
    assert Order.objects.get(status="completed").shipping["name"] == "Ann Smith"
