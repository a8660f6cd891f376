"""The fake Stripe's hosted Checkout page (fakestripe/hosted_pages.py) in Chromium, clicked as a person would: pay, save the card or not,
3-D Secure completed or failed, a decline, and going back to the shop. The shop's success and
cancel pages are answered by the browser context itself (shop.example is not on the network)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import BrowserProblems, watched_context
from tests.fakestripe.conftest import client, fake, session_params

__all__ = ["client", "fake"]  # the fake Stripe's fixtures (tests/fakestripe/conftest.py)

pytestmark = pytest.mark.browser
SHOP = "https://shop.example"


@pytest.fixture
def context(browser: Browser, fake: str) -> Iterator[BrowserContext]:
    with watched_context(browser, fake, BrowserProblems()) as context:
        context.route(
            f"{SHOP}/**",
            lambda route: route.fulfill(
                content_type="text/html",
                body="<!doctype html><title>Shop</title><h1>Back at the shop</h1>",
            ),
        )
        yield context


@pytest.fixture
def page(context: BrowserContext) -> Page:
    return context.new_page()


def _open(page: Page, client, **overrides) -> str:
    session = client.v1.checkout.sessions.create(params=session_params(**overrides))
    page.goto(session.url)
    expect(page.get_by_text("Total: 25.00 EUR")).to_be_visible()
    return session.id


def _pay_with(page: Page, card: str) -> None:
    page.get_by_label(card).check()
    page.get_by_role("button", name="Pay 25.00 EUR").click()


@pytest.mark.parametrize("tick", [True, False])
def test_paying_returns_to_the_success_url_and_saves_the_card_only_if_ticked(page, client, tick):
    customer = client.v1.customers.create(params={"email": "ada@example.com"}).id
    session_id = _open(
        page,
        client,
        customer=customer,
        saved_payment_method_options={"payment_method_save": "enabled"},
    )
    if tick:
        page.get_by_label("Save my payment details for future purchases").check()
    _pay_with(page, "4242 4242 4242 4242")
    expect(page).to_have_url(f"{SHOP}/paid?session={session_id}")
    session = client.v1.checkout.sessions.retrieve(session_id)
    assert (session.status, session.payment_status) == ("complete", "paid")
    saved = client.v1.customers.payment_methods.list(customer).data
    assert [card.card.last4 for card in saved] == (["4242"] if tick else [])


def test_no_save_box_where_the_session_does_not_enable_saving(page, client):
    _open(page, client, customer=client.v1.customers.create().id)
    expect(page.get_by_role("radio")).to_have_count(8)  # six cards, two SEPA debits (EUR)
    expect(page.get_by_label(re.compile("Save my payment details"))).to_have_count(0)


def test_3d_secure_completed_pays(page, client):
    session_id = _open(page, client)
    _pay_with(page, "4000 0025 0000 3155")
    expect(page.get_by_role("heading", name="3D Secure test authentication")).to_be_visible()
    page.get_by_role("button", name="Complete authentication").click()
    expect(page).to_have_url(f"{SHOP}/paid?session={session_id}")
    assert client.v1.checkout.sessions.retrieve(session_id).payment_status == "paid"


def test_3d_secure_failed_shows_why_and_another_card_still_pays(page, client):
    session_id = _open(page, client)
    _pay_with(page, "4000 0027 6000 3184")
    page.get_by_role("button", name="Fail authentication").click()
    expect(page.get_by_role("alert")).to_contain_text("unable to authenticate")
    assert client.v1.checkout.sessions.retrieve(session_id).status == "open"
    _pay_with(page, "4242 4242 4242 4242")
    expect(page).to_have_url(f"{SHOP}/paid?session={session_id}")


def test_a_decline_keeps_the_order_on_screen_and_unpaid(page, client):
    session_id = _open(page, client)
    _pay_with(page, "4000 0000 0000 0002")
    expect(page.get_by_role("alert")).to_have_text("Your card was declined.")
    expect(page.get_by_text("Ceramic mug x 2: 25.00 EUR")).to_be_visible()
    session = client.v1.checkout.sessions.retrieve(session_id)
    assert (session.status, session.payment_status) == ("open", "unpaid")


def test_back_returns_to_the_cancel_url_and_charges_nothing(page, client):
    session_id = _open(page, client)
    page.get_by_role("link", name="Back").click()
    expect(page).to_have_url(f"{SHOP}/cancelled")
    session = client.v1.checkout.sessions.retrieve(session_id)
    assert (session.status, session.payment_intent) == ("open", None)
