"""The simulator's payment page and the pages a payment page sends the person back to, in
Chromium under the strict CSP (the `context` fixture asserts zero violations and no console
errors): a decline keeps the page open for another card, paying lands on "payment received",
and the order completes from the provider's word."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from checkout.models import Order, OrderStatus
from tests.browser.conftest import BROWSER_DB
from tests.conftest import ToolClient
from tests.fixtures import commit, gift_selected, make_product, prepared
from tool_runtime.principals import issue_api_token

pytestmark = [pytest.mark.browser, BROWSER_DB]


def test_paying_on_the_simulated_page_after_a_decline(page: Page, server: str, settings):
    settings.PUBLIC_ORIGIN = server  # the return pages are on the live server
    api = ToolClient(issue_api_token(user=get_user_model().objects.get(username="demo")))
    product = make_product(sku="GG-CHK-PAGE", stock=2)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, "new_card")
    action = commit(api, workflow_id, order_id, token).body["next_action"]
    assert urlsplit(action["url"]).netloc == urlsplit(server).netloc

    page.goto(action["url"])
    expect(page.get_by_test_id("total")).to_contain_text("USD")
    page.get_by_label(re.compile("0002")).check()
    page.get_by_role("button", name=re.compile(r"^Pay ")).click()
    expect(page.get_by_role("alert")).to_contain_text("declined")
    assert Order.objects.get(pk=order_id).status == OrderStatus.AWAITING_PAYMENT

    page.get_by_label(re.compile("4242")).check()
    page.get_by_role("button", name=re.compile(r"^Pay ")).click()
    expect(page.get_by_test_id("payment-received")).to_be_visible()
    assert str(order_id) not in page.content()
    assert Order.objects.get(pk=order_id).status == OrderStatus.COMPLETED


def test_the_not_paid_page_under_the_csp(page: Page, server: str):
    page.goto(f"{server}/checkout/not-paid?session_id=cs_sim_nothing")
    expect(page.get_by_test_id("payment-not-made")).to_be_visible()
