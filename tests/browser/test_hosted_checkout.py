"""A real person pays with their own card, end to end in Chromium, on the simulator's payment
page and on the fake Stripe's (localstripe, its webhooks delivered over HTTP to the live
server): the widget opens the page in a new tab, the person pays and comes back to the
completion, then buys again with the saved card without leaving the chat. Also: a decline on
the page, cancelling while the page is open, and a page that expires."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest
from playwright.sync_api import Page, expect

from checkout.ledger import check_ledger
from checkout.models import Order, OrderStatus, PaymentStatus
from checkout.payments.provider import get_provider
from checkout.sweeps import run_sweeps
from gifts.models import Product
from tests.browser.conftest import (
    BROWSER_DB,
    BrowserProblems,
    log_in,
    serious_axe_violations,
    widget_frame,
)
from tests.browser.flows import start_in_preview

pytestmark = [pytest.mark.browser, BROWSER_DB]

SETTLED = 30_000  # ms: a webhook or the widget's next read, whichever shows it first


@dataclass(frozen=True)
class PaymentPage:
    """One provider's hosted payment page, as a person clicks it."""

    name: str
    success_card: str  # the card's label on the page
    declined_card: str
    saved_card: str  # how the card paid with shows in the widget's list afterwards

    def pay(self, page: Page, card: str) -> None:
        page.get_by_label(re.compile(re.escape(card))).check()
        save = page.get_by_label("Save my payment details for future purchases")
        if save.count():
            save.check()  # the person ticks the box: only then is the card saved
        page.get_by_role("button", name=re.compile(r"^Pay ")).click()


SIMULATOR = PaymentPage("simulator", "Visa •••• 4242", "Visa •••• 0002", "Visa •••• 4242")
LOCALSTRIPE = PaymentPage(
    "localstripe", "Visa 4242 4242 4242 4242", "Visa 4000 0000 0000 0002", "Visa •••• 4242"
)


@pytest.fixture(params=[SIMULATOR, LOCALSTRIPE], ids=lambda p: p.name)
def payment_page(request, settings, server: str) -> Iterator[PaymentPage]:
    """The provider, with its pages sending the person back to the live server; for
    localstripe, the live server's /webhooks/stripe registered for its events."""
    settings.PUBLIC_ORIGIN = server
    settings.HOSTED_CHECKOUT_RECONCILE_SECONDS = 0  # a sweep asks about every open page
    if request.param is SIMULATOR:
        yield SIMULATOR
        return
    stripe_url = request.getfixturevalue("stripe_provider")
    endpoint = f"{stripe_url}/_config/webhooks/{uuid.uuid4().hex}"
    httpx.post(
        endpoint,
        data={"url": f"{server}/webhooks/stripe", "secret": settings.STRIPE_WEBHOOK_SECRET},
    ).raise_for_status()
    yield LOCALSTRIPE
    httpx.delete(endpoint)


def choose(page: Page, label: str) -> None:
    """On the checkout form, the payment method whose label starts with `label`."""
    select = widget_frame(page).get_by_test_id("payment-method")
    value = select.locator("option", has_text=label).first.get_attribute("value")
    select.select_option(value)


def to_summary(page: Page, method_label: str) -> None:
    widget = widget_frame(page)
    widget.get_by_test_id("select-gift").first.click()
    widget.get_by_test_id("go-to-checkout").click()
    choose(page, method_label)
    widget.get_by_test_id("prepare-order").click()
    expect(widget.get_by_test_id("confirm-purchase")).to_be_visible()


def confirm_with_a_new_card(page: Page) -> Page:
    """Confirm with "New card": the widget opens the payment page, a new page in the test."""
    start_in_preview(page)
    to_summary(page, "New card")
    with page.context.expect_page() as opened:
        widget_frame(page).get_by_test_id("confirm-purchase").click()
    status = widget_frame(page).get_by_test_id("order-status")
    expect(status).to_have_attribute("data-status", "awaiting_payment")
    expect(status).to_contain_text("Finish paying in the tab that opened.")
    expect(widget_frame(page).get_by_test_id("open-payment-page")).to_be_visible()
    payment = opened.value
    payment.wait_for_load_state()
    return payment


def captured(order: Order) -> list:
    return list(order.payments.filter(status=PaymentStatus.SUCCEEDED))


def test_a_new_card_pays_on_the_page_then_the_saved_card_pays_in_the_chat(
    staff_page: Page, payment_page: PaymentPage
):
    page = staff_page
    payment = confirm_with_a_new_card(page)
    order = Order.objects.get(status=OrderStatus.AWAITING_PAYMENT)
    payment_page.pay(payment, payment_page.success_card)
    expect(payment.get_by_test_id("payment-received")).to_be_visible()

    page.bring_to_front()  # back in the chat: the widget shows the completion by itself
    widget = widget_frame(page)
    expect(widget.get_by_test_id("order-status")).to_have_attribute(
        "data-status", "completed", timeout=SETTLED
    )
    order.refresh_from_db()
    assert order.status == OrderStatus.COMPLETED and len(captured(order)) == 1

    # A second gift in the same chat, paid with the card saved on the page: no tab opens.
    tabs = len(page.context.pages)
    start_in_preview(page)
    to_summary(page, payment_page.saved_card)
    widget.get_by_test_id("confirm-purchase").click()
    expect(widget.get_by_test_id("order-status")).to_have_attribute(
        "data-status", "completed", timeout=SETTLED
    )
    assert len(page.context.pages) == tabs
    second = Order.objects.exclude(pk=order.pk).get()
    assert second.status == OrderStatus.COMPLETED and len(captured(second)) == 1
    assert check_ledger().ok


def test_a_decline_on_the_page_charges_nothing_and_another_card_still_pays(
    staff_page: Page, payment_page: PaymentPage
):
    page = staff_page
    payment = confirm_with_a_new_card(page)
    order = Order.objects.get(status=OrderStatus.AWAITING_PAYMENT)
    payment_page.pay(payment, payment_page.declined_card)
    expect(payment.get_by_role("alert")).to_contain_text(re.compile("declined", re.I))
    order.refresh_from_db()
    assert order.status == OrderStatus.AWAITING_PAYMENT and captured(order) == []
    expect(widget_frame(page).get_by_test_id("order-status")).to_have_attribute(
        "data-status", "awaiting_payment"
    )
    payment_page.pay(payment, payment_page.success_card)
    page.bring_to_front()
    expect(widget_frame(page).get_by_test_id("order-status")).to_have_attribute(
        "data-status", "completed", timeout=SETTLED
    )
    assert check_ledger().ok


def test_cancel_while_the_page_is_open_charges_nothing_and_closes_the_page(
    staff_page: Page, payment_page: PaymentPage, problems: BrowserProblems
):
    page = staff_page
    problems.allow_console(r"status of (404|410)")  # the closed page, reloaded: gone
    payment = confirm_with_a_new_card(page)
    order = Order.objects.get(status=OrderStatus.AWAITING_PAYMENT)
    product = order.lines.get().product
    held_stock = Product.objects.get(pk=product.pk).stock
    payment.close()  # the person closed the tab: "open again" brings the page back
    page.bring_to_front()
    widget = widget_frame(page)
    with page.context.expect_page() as reopened:
        widget.get_by_test_id("open-payment-page").click()
    payment = reopened.value
    payment.wait_for_load_state()
    expect(payment.get_by_role("button", name=re.compile(r"^Pay "))).to_be_visible()
    page.bring_to_front()
    widget.get_by_test_id("cancel-order").click()
    expect(widget.get_by_test_id("order-status")).to_have_attribute("data-status", "cancelled")
    order.refresh_from_db()
    assert order.status == OrderStatus.CANCELLED and captured(order) == []
    assert Product.objects.get(pk=product.pk).stock == held_stock + order.lines.get().quantity
    # The page was closed at the provider: paying on it now takes nothing.
    payment.reload()
    assert not payment.get_by_role("button", name=re.compile(r"^Pay ")).is_visible()
    order.refresh_from_db()
    assert captured(order) == []
    assert check_ledger().ok


def test_an_expired_page_is_shown_in_the_widget_and_the_stock_released(
    staff_page: Page, payment_page: PaymentPage
):
    page = staff_page
    confirm_with_a_new_card(page)
    order = Order.objects.get(status=OrderStatus.AWAITING_PAYMENT)
    product = order.lines.get().product
    held_stock = Product.objects.get(pk=product.pk).stock
    get_provider().expire_hosted_checkout(checkout_id=order.payment_session_id)
    run_sweeps(older_than_seconds=0)  # the provider's word, asked for (a webhook may beat it)
    page.bring_to_front()
    status = widget_frame(page).get_by_test_id("order-status")
    expect(status).to_have_attribute("data-status", "failed", timeout=SETTLED)
    expect(widget_frame(page).get_by_test_id("error-banner")).to_contain_text(
        "The payment page expired before the payment was made."
    )
    expect(widget_frame(page).get_by_test_id("go-to-checkout")).to_have_text("Pay again")
    order.refresh_from_db()
    assert order.status in (OrderStatus.FAILED, OrderStatus.CANCELLED)
    assert captured(order) == []
    assert Product.objects.get(pk=product.pk).stock == held_stock + order.lines.get().quantity
    assert check_ledger().ok


# The fake's card that asks its bank every time (the simulator has no 3-D Secure card).
THREE_D_SECURE = "Visa 4000 0027 6000 3184"


def buy_with_a_card_that_asks_its_bank(page: Page, payment_page: PaymentPage) -> Order:
    """A first purchase on the payment page with the card that always asks for 3-D Secure,
    authenticated there and saved; the order it completed."""
    payment = confirm_with_a_new_card(page)
    payment_page.pay(payment, THREE_D_SECURE)
    payment.get_by_role("button", name="Complete authentication").click()
    expect(payment.get_by_test_id("payment-received")).to_be_visible()
    payment.close()
    expect(widget_frame(page).get_by_test_id("order-status")).to_have_attribute(
        "data-status", "completed", timeout=SETTLED
    )
    return Order.objects.get(status=OrderStatus.COMPLETED)


@pytest.mark.parametrize("payment_page", [LOCALSTRIPE], ids=["localstripe"], indirect=True)
@pytest.mark.parametrize("outcome", ["complete", "fail"])
def test_a_saved_card_whose_bank_asks_is_confirmed_in_a_new_tab(
    staff_page: Page, payment_page: PaymentPage, outcome: str
):
    page = staff_page
    first = buy_with_a_card_that_asks_its_bank(page, payment_page)
    start_in_preview(page)
    to_summary(page, "Visa •••• 3184")
    widget = widget_frame(page)
    with page.context.expect_page() as opened:
        widget.get_by_test_id("confirm-purchase").click()
    status = widget.get_by_test_id("order-status")
    expect(status).to_have_attribute("data-status", "awaiting_payment")
    expect(status).to_contain_text("Your bank asks you to confirm the payment.")
    expect(widget.get_by_test_id("open-payment-page")).to_have_text("Open the confirmation again")
    bank = opened.value
    bank.wait_for_load_state()
    second = Order.objects.exclude(pk=first.pk).get()
    bank.get_by_role("button", name=f"{outcome.capitalize()} authentication").click()
    page.bring_to_front()
    _assert_authenticated(widget, second, paid=outcome == "complete")


def standalone_to_summary(page: Page) -> None:
    log_in(page, "demo", "demo", "/widget/")
    page.get_by_test_id("start").click()
    page.get_by_test_id("brief-form").locator("input[name=interests]").fill("coffee")
    page.get_by_test_id("suggest-gifts").click()
    page.get_by_test_id("select-gift").first.click()
    page.get_by_test_id("go-to-checkout").click()
    select = page.get_by_test_id("payment-method")
    select.select_option(select.locator("option", has_text="New card").first.get_attribute("value"))
    page.get_by_test_id("prepare-order").click()


@pytest.mark.parametrize("payment_page", [SIMULATOR], ids=["simulator"], indirect=True)
def test_the_standalone_page_opens_the_payment_page_and_asks_by_itself(
    page: Page, payment_page: PaymentPage
):
    """Without a host (htmx): the bridge opens the page itself and reads the order with fetch."""
    standalone_to_summary(page)
    with page.context.expect_page() as opened:
        page.get_by_test_id("confirm-purchase").click()
    status = page.get_by_test_id("order-status")
    expect(status).to_have_attribute("data-status", "awaiting_payment")
    payment = opened.value
    payment.wait_for_load_state()
    payment_page.pay(payment, payment_page.success_card)
    expect(payment.get_by_test_id("payment-received")).to_be_visible()
    page.bring_to_front()
    expect(status).to_have_attribute("data-status", "completed", timeout=SETTLED)
    assert check_ledger().ok


@pytest.mark.parametrize("payment_page", [SIMULATOR], ids=["simulator"], indirect=True)
def test_the_awaiting_payment_screen_is_accessible(axe_page: Page, payment_page: PaymentPage):
    standalone_to_summary(axe_page)
    with axe_page.context.expect_page():
        axe_page.get_by_test_id("confirm-purchase").click()
    expect(axe_page.get_by_test_id("order-status")).to_have_attribute(
        "data-status", "awaiting_payment"
    )
    axe_page.bring_to_front()
    assert serious_axe_violations(axe_page) == []


@pytest.mark.parametrize("payment_page", [SIMULATOR], ids=["simulator"], indirect=True)
@pytest.mark.parametrize("answer", ["Confirm", "Fail"])
def test_the_simulators_card_whose_bank_asks_is_confirmed_in_a_new_tab(
    staff_page: Page, payment_page: PaymentPage, answer: str
):
    page = staff_page
    start_in_preview(page)
    to_summary(page, "Visa •••• 3184")
    widget = widget_frame(page)
    with page.context.expect_page() as opened:
        widget.get_by_test_id("confirm-purchase").click()
    status = widget.get_by_test_id("order-status")
    expect(status).to_have_attribute("data-status", "awaiting_payment")
    expect(status).to_contain_text("Your bank asks you to confirm the payment.")
    bank = opened.value
    bank.wait_for_load_state()
    expect(bank.get_by_text("Your bank asks you to confirm this payment")).to_be_visible()
    bank.get_by_role("button", name=answer, exact=True).click()
    page.bring_to_front()
    order = Order.objects.get()
    _assert_authenticated(widget, order, paid=answer == "Confirm")


def _assert_authenticated(widget, order: Order, *, paid: bool) -> None:
    """After the bank's answer: completed and captured once, or a clean decline with a way to
    pay otherwise and nothing charged; one charge attempt for the order either way."""
    status = widget.get_by_test_id("order-status")
    if paid:
        expect(status).to_have_attribute("data-status", "completed", timeout=SETTLED)
        order.refresh_from_db()
        assert len(captured(order)) == 1
    else:
        expect(status).to_have_attribute("data-status", "failed", timeout=SETTLED)
        expect(widget.get_by_test_id("go-to-checkout")).to_be_visible()
        order.refresh_from_db()
        assert captured(order) == []
    assert order.payments.count() == 1  # one PaymentIntent for the order, never a second
    assert check_ledger().ok
