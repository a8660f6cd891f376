"""Hosted checkout with the Stripe adapter against localstripe: a Checkout Session per order
attempt, paid on localstripe's hosted page (its form posted as a browser would), and settled
only by what Stripe says: its signed events, delivered over HTTP by localstripe to a live test
server, or a sweep's question when an event is lost."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator

import httpx
import pytest
from django.test import override_settings

from checkout.models import Order, OrderStatus, Payment, PaymentStatus, SagaStep
from checkout.payments.stripe_objects import client
from checkout.sweeps import run_sweeps
from tests.fixtures import (
    BOTH_DATABASES,
    assert_books_balance,
    cancel,
    commit,
    gift_selected,
    make_product,
    new_key,
    prepare,
    prepared,
)
from tests.localstripe import API_KEY, intents, refunds

pytestmark = pytest.mark.django_db(transaction=True, databases=BOTH_DATABASES)

VISA = "4242424242424242"
DECLINED = "4000000000000002"


@pytest.fixture
def stripe_events(stripe_provider, live_url, settings) -> Iterator[str]:
    """localstripe sends its signed events to the live server's /webhooks/stripe."""
    endpoint = f"{stripe_provider}/_config/webhooks/{uuid.uuid4().hex}"
    registration = {"url": f"{live_url}/webhooks/stripe", "secret": settings.STRIPE_WEBHOOK_SECRET}
    httpx.post(endpoint, data=registration).raise_for_status()
    try:
        yield stripe_provider
    finally:
        httpx.delete(endpoint)


def awaiting(api, *, key: str | None = None, stock: int = 3):
    product = make_product(stock=stock)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, "new_card")
    response = commit(api, workflow_id, order_id, token, key=key)
    assert response.status == 200, response.body
    assert response.body["status"] == "awaiting_payment", response.body
    return product, workflow_id, order_id, token, response


def session_of(order_id) -> dict:
    checkout_id = Order.objects.get(pk=order_id).payment_session_id
    return client().v1.checkout.sessions.retrieve(checkout_id).to_dict()


def pay(url: str, card: str = VISA, *, save: bool = False) -> httpx.Response:
    """The person's click on localstripe's hosted page."""
    form = {"payment_method": card, **({"save": "on"} if save else {})}
    return httpx.post(url, data=form, timeout=10)


def wait_for(order_id, status: str, timeout: float = 15.0) -> Order:
    deadline = time.monotonic() + timeout
    while True:
        order = Order.objects.get(pk=order_id)
        if order.status == status:
            return order
        if time.monotonic() > deadline:
            raise AssertionError(f"order is {order.status}, never {status}")
        time.sleep(0.2)


def succeeded_intents(url: str, order_id) -> list[dict]:
    return [
        i
        for i in intents(url)
        if i["metadata"].get("order_id") == str(order_id) and i["status"] == "succeeded"
    ]


def test_the_session_carries_the_order_and_its_exact_total(api, stripe_provider, settings):
    _, _, order_id, _, response = awaiting(api)
    order = Order.objects.get(pk=order_id)
    session = session_of(order_id)
    action = response.body["next_action"]
    assert action["reason"] == "hosted_checkout" and action["url"] == session["url"]
    assert session["mode"] == "payment" and session["status"] == "open"
    assert session["amount_total"] == int(order.amount * 100)
    assert session["currency"] == order.currency.lower()
    assert session["client_reference_id"] == str(order_id)
    assert session["metadata"]["order_id"] == str(order_id)
    assert session["metadata"]["workflow_id"] == str(order.workflow_id)
    assert session["metadata"]["correlation_id"]
    assert session["customer"] == order.owner.stripe_customer.customer_id
    assert session["saved_payment_method_options"]["payment_method_save"] == "enabled"
    assert session["success_url"].startswith(f"{settings.PUBLIC_ORIGIN}/checkout/paid?session_id=")
    assert session["cancel_url"].startswith(f"{settings.PUBLIC_ORIGIN}/checkout/not-paid")
    # Held for the session's life, which Stripe keeps at 30 minutes at least.
    lifetime = session["expires_at"] - session["created"]
    assert 30 * 60 <= lifetime <= 32 * 60
    assert order.expires_at.timestamp() == session["expires_at"]
    assert intents(stripe_provider) == []  # nothing charged until the person pays


def test_pay_with_a_new_card_then_buy_again_with_the_saved_one(api, stripe_events):
    key = new_key()
    product, workflow_id, order_id, token, response = awaiting(api, key=key)
    page = pay(response.body["next_action"]["url"], save=True)
    assert page.status_code in (200, 303), page.text
    order = wait_for(order_id, OrderStatus.COMPLETED)
    payment = Payment.objects.get(order=order)
    assert payment.status == PaymentStatus.SUCCEEDED and payment.provider_charge_id.startswith(
        "pi_"
    )
    assert len(succeeded_intents(stripe_events, order_id)) == 1
    replay = commit(api, workflow_id, order_id, token, key=key)
    assert replay.body["status"] == "completed" and replay.body["next_action"] is None
    assert_books_balance(product, initial={product.pk: 3})

    # The card ticked "save" is the person's now: the next gift is paid inside the chat.
    again = make_product(sku="GG-CHK-SECOND", stock=2)
    second = gift_selected(api, again)
    methods = api.call("get_payment_methods", {"workflow_id": second}).body["payment_methods"]
    saved = [m for m in methods if m["last4"] == "4242"]
    assert len(saved) == 1, methods
    second_order, second_token = prepared(api, second, saved[0]["id"])
    paid = commit(api, second, second_order, second_token)
    assert paid.body["status"] == "completed", paid.body
    assert paid.body["next_action"] is None
    assert_books_balance(again, initial={again.pk: 2})


def test_a_decline_on_the_page_keeps_the_order_waiting_for_another_card(api, stripe_events):
    product, _, order_id, _, response = awaiting(api)
    url = response.body["next_action"]["url"]
    declined = pay(url, DECLINED)
    assert declined.status_code == 200 and 'role="alert"' in declined.text
    time.sleep(1.0)  # any event it caused has been delivered
    assert Order.objects.get(pk=order_id).status == OrderStatus.AWAITING_PAYMENT
    pay(url, VISA)
    wait_for(order_id, OrderStatus.COMPLETED)
    assert len(succeeded_intents(stripe_events, order_id)) == 1
    assert_books_balance(product, initial={product.pk: 3})


def test_an_expired_session_releases_the_stock(api, stripe_events):
    product, _, order_id, _, _ = awaiting(api)
    client().v1.checkout.sessions.expire(Order.objects.get(pk=order_id).payment_session_id)
    order = wait_for(order_id, OrderStatus.FAILED)
    assert order.failure_code == "CHECKOUT_EXPIRED"
    product.refresh_from_db()
    assert product.stock == 3
    assert Payment.objects.get(order=order).status == PaymentStatus.FAILED
    assert succeeded_intents(stripe_events, order_id) == []
    assert_books_balance(product, initial={product.pk: 3})


def test_a_lost_event_is_settled_by_the_sweep(api, stripe_provider):
    # No endpoint registered: Stripe's word never arrives.
    product, _, order_id, _, response = awaiting(api)
    pay(response.body["next_action"]["url"])
    assert Order.objects.get(pk=order_id).status == OrderStatus.AWAITING_PAYMENT
    assert run_sweeps().reconciled == 0  # not overdue yet
    with override_settings(HOSTED_CHECKOUT_RECONCILE_SECONDS=0):
        assert run_sweeps().reconciled == 1
        assert run_sweeps().reconciled == 0
    assert Order.objects.get(pk=order_id).status == OrderStatus.COMPLETED
    assert len(succeeded_intents(stripe_provider, order_id)) == 1
    assert_books_balance(product, initial={product.pk: 3})


def test_events_that_come_twice_or_after_the_sweep_change_nothing(api, stripe_events):
    product, _, order_id, _, response = awaiting(api)
    pay(response.body["next_action"]["url"])
    with override_settings(HOSTED_CHECKOUT_RECONCILE_SECONDS=0):
        run_sweeps()  # the sweep may get there before the event
    order = wait_for(order_id, OrderStatus.COMPLETED)
    time.sleep(1.0)  # the events arrive after it
    assert SagaStep.objects.filter(order=order, step="complete").count() == 1
    assert len(succeeded_intents(stripe_events, order_id)) == 1
    assert refunds(stripe_events) == []
    assert_books_balance(product, initial={product.pk: 3})


def test_cancel_while_awaiting_expires_the_session_and_charges_nothing(api, stripe_events):
    product, _, order_id, _, response = awaiting(api)
    url = response.body["next_action"]["url"]
    cancelled = cancel(api, order_id)
    assert cancelled.status == 200, cancelled.body
    assert cancelled.body["status"] == "cancelled" and cancelled.body["refunded_amount"] == "0.00"
    assert session_of(order_id)["status"] == "expired"
    assert pay(url).status_code >= 400  # the page takes no payment any more
    time.sleep(1.0)
    assert Order.objects.get(pk=order_id).status == OrderStatus.CANCELLED
    assert succeeded_intents(stripe_events, order_id) == []
    assert_books_balance(product, initial={product.pk: 3})


def test_a_payment_just_before_the_cancel_is_refunded(api, stripe_provider):
    product, _, order_id, _, response = awaiting(api)
    pay(response.body["next_action"]["url"])  # its event is lost
    cancelled = cancel(api, order_id)
    assert cancelled.status == 200, cancelled.body
    order = Order.objects.get(pk=order_id)
    assert order.status == OrderStatus.CANCELLED
    assert cancelled.body["refunded_amount"] == str(order.amount)
    assert Payment.objects.get(order=order).status == PaymentStatus.REFUNDED
    assert [r["amount"] for r in refunds(stripe_provider)] == [int(order.amount * 100)]
    assert_books_balance(product, initial={product.pk: 3})


def test_the_return_page_settles_sooner_but_never_on_its_own_word(api, stripe_provider, client):
    product, _, order_id, _, response = awaiting(api)
    checkout_id = Order.objects.get(pk=order_id).payment_session_id
    # Not paid: the success page says nothing was received and completes nothing.
    early = client.get("/checkout/paid", {"session_id": checkout_id})
    assert b"Payment received" not in early.content
    assert Order.objects.get(pk=order_id).status == OrderStatus.AWAITING_PAYMENT
    pay(response.body["next_action"]["url"])
    back = client.get("/checkout/paid", {"session_id": checkout_id})
    assert b"Payment received" in back.content
    assert str(order_id).encode() not in back.content
    assert Order.objects.get(pk=order_id).status == OrderStatus.COMPLETED
    assert_books_balance(product, initial={product.pk: 3})


def test_a_foreign_session_id_shows_nothing(api, other_api, stripe_provider, client):
    # A session of Stripe's that is not ours, and another person's.
    foreign = client_session(stripe_provider)
    _, _, order_id, _, _ = awaiting(other_api)
    theirs = Order.objects.get(pk=order_id)
    for session_id in (foreign, theirs.payment_session_id, "cs_test_unknown"):
        for path in ("/checkout/paid", "/checkout/not-paid"):
            page = client.get(path, {"session_id": session_id})
            assert page.status_code == 200
            text = page.content.decode()
            assert str(theirs.pk) not in text and str(theirs.amount) not in text
    assert Order.objects.get(pk=order_id).status == OrderStatus.AWAITING_PAYMENT


def client_session(url: str) -> str:
    """A Checkout Session made at Stripe by someone else (no order of ours)."""
    response = httpx.post(
        f"{url}/v1/checkout/sessions",
        data={
            "mode": "payment",
            "success_url": "https://example.com/ok",
            "line_items[0][price_data][currency]": "usd",
            "line_items[0][price_data][unit_amount]": "500",
            "line_items[0][price_data][product_data][name]": "Elsewhere",
            "line_items[0][quantity]": "1",
        },
        auth=(API_KEY, ""),
    )
    response.raise_for_status()
    return response.json()["id"]


def test_a_session_stripe_cannot_open_fails_the_order_retryably(api, stripe_proxy):
    stripe_proxy.fault("POST", "/v1/checkout/sessions", "503", times=None)
    product = make_product(stock=3)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, "new_card")
    failed = commit(api, workflow_id, order_id, token)
    assert failed.status >= 400 and failed.body["error"]["retryable"] is True, failed.body
    product.refresh_from_db()
    assert product.stock == 3
    stripe_proxy.faults.clear()
    retried = commit(api, workflow_id, order_id, token)
    assert retried.body["status"] == "awaiting_payment", retried.body
    assert_books_balance(product, initial={product.pk: 3})


def test_new_card_is_accepted_with_stripe(api, user, stripe_provider):
    workflow_id = gift_selected(api, make_product())
    response = prepare(api, workflow_id, "new_card")
    assert response.status == 200, response.body
    assert response.body["payment_method"]["id"] == "new_card"


def test_staff_see_the_session_and_intent_with_dashboard_links(api, stripe_provider, admin_client):
    _, _, order_id, _, response = awaiting(api)
    pay(response.body["next_action"]["url"])
    checkout_id = Order.objects.get(pk=order_id).payment_session_id
    html = admin_client.get(f"/admin/checkout/order/{order_id}/change/").content.decode()
    intent = [i for i in intents(stripe_provider) if i["metadata"]["order_id"] == str(order_id)]
    assert f"https://dashboard.stripe.com/test/checkout/sessions/{checkout_id}" in html
    assert f"https://dashboard.stripe.com/test/payments/{intent[0]['id']}" in html
    assert "complete, paid" in html
