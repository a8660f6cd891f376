"""Hosted checkout with the Stripe adapter against localstripe: a Checkout Session per order
attempt, paid on localstripe's hosted page (its form posted as a browser would), and settled
only by what Stripe says: its signed events, delivered over HTTP by localstripe to a live test
server, or a sweep's question when an event is lost."""

from __future__ import annotations

import json
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
    SHIPPING,
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


# --- 3-D Secure on a saved card, paid inside the chat ----------------------------------------------


def save_3ds_card(user, url: str) -> str:
    """A saved card whose bank asks for authentication on every payment (authenticated once
    when it was saved, as a person would)."""
    from checkout.payments.stripe_customers import ensure_stripe_customer

    setup = client().v1.setup_intents.create(
        params={
            "customer": ensure_stripe_customer(user=user),
            "payment_method": "pm_card_authenticationRequired",
            "confirm": True,
        }
    )
    if setup.status == "requires_action":
        authenticate(url, "setup_intents", setup.id, setup.client_secret, success=True)
    return str(setup.payment_method)


def authenticate(url: str, kind: str, object_id: str, secret: str, *, success: bool) -> None:
    """The person's answer to their bank's 3-D Secure check."""
    response = httpx.post(
        f"{url}/v1/{kind}/{object_id}/_authenticate",
        data={"client_secret": secret, "success": "true" if success else "false"},
        auth=(API_KEY, ""),
    )
    response.raise_for_status()


def authenticating(api, user, url: str):
    card = save_3ds_card(user, url)
    product = make_product(stock=3)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, card)
    response = commit(api, workflow_id, order_id, token)
    assert response.status == 200, response.body
    assert response.body["status"] == "awaiting_payment", response.body
    intent_id = Order.objects.get(pk=order_id).payment_session_id
    intent = client().v1.payment_intents.retrieve(intent_id)
    # The bank's page carries the intent's client secret: the widget gets it, the model not.
    assert response.body["next_action"]["url"] is None
    assert intent.client_secret not in json.dumps(
        {k: v for k, v in response.body.items() if k != "_meta"}
    )
    action = {**response.body["next_action"], "url": response.body["_meta"]["payment_url"]}
    return product, order_id, action, intent


def test_a_saved_card_the_bank_checks_completes_after_authentication(api, user, stripe_events):
    product, order_id, action, intent = authenticating(api, user, stripe_events)
    assert action["reason"] == "authenticate"
    assert action["url"] == intent.next_action.redirect_to_url.url
    assert intent.status == "requires_action"
    authenticate(stripe_events, "payment_intents", intent.id, intent.client_secret, success=True)
    order = wait_for(order_id, OrderStatus.COMPLETED)
    assert [i["id"] for i in succeeded_intents(stripe_events, order_id)] == [intent.id]
    assert (
        len([i for i in intents(stripe_events) if i["metadata"].get("order_id") == str(order_id)])
        == 1
    )
    assert Payment.objects.get(order=order).provider_charge_id == intent.id
    assert_books_balance(product, initial={product.pk: 3})


def test_a_failed_authentication_is_a_clean_decline(api, user, stripe_events):
    product, order_id, _, intent = authenticating(api, user, stripe_events)
    authenticate(stripe_events, "payment_intents", intent.id, intent.client_secret, success=False)
    order = wait_for(order_id, OrderStatus.FAILED)
    assert order.failure_code == "CARD_DECLINED"
    assert succeeded_intents(stripe_events, order_id) == []
    product.refresh_from_db()
    assert product.stock == 3
    assert_books_balance(product, initial={product.pk: 3})


def test_cancel_while_the_bank_waits_cancels_the_payment(api, user, stripe_provider):
    product, order_id, _, intent = authenticating(api, user, stripe_provider)
    cancelled = cancel(api, order_id)
    assert cancelled.status == 200 and cancelled.body["status"] == "cancelled", cancelled.body
    assert client().v1.payment_intents.retrieve(intent.id).status == "canceled"
    assert_books_balance(product, initial={product.pk: 3})


def test_an_authentication_whose_event_is_lost_is_settled_by_the_sweep(api, user, stripe_provider):
    product, order_id, _, intent = authenticating(api, user, stripe_provider)
    authenticate(stripe_provider, "payment_intents", intent.id, intent.client_secret, success=True)
    assert Order.objects.get(pk=order_id).status == OrderStatus.AWAITING_PAYMENT
    with override_settings(HOSTED_CHECKOUT_RECONCILE_SECONDS=0):
        assert run_sweeps().reconciled == 1
    assert Order.objects.get(pk=order_id).status == OrderStatus.COMPLETED
    assert len(succeeded_intents(stripe_provider, order_id)) == 1
    assert_books_balance(product, initial={product.pk: 3})


# --- payments that settle later (SEPA debits, EUR sessions only) -----------------------------------


def awaiting_in_euros(api):
    product = make_product(sku="GG-CHK-EURO", stock=3)
    product.currency = "EUR"
    product.save(update_fields=["currency"])
    workflow_id = gift_selected(api, product)
    german = {**SHIPPING, "country": "DE", "postal_code": "10115", "city": "Berlin"}
    draft = prepare(api, workflow_id, "new_card", shipping=german)
    assert draft.status == 200, draft.body
    order_id = draft.body["order_id"]
    response = commit(api, workflow_id, order_id, draft.body["_meta"]["confirmation_token"])
    assert response.body["status"] == "awaiting_payment", response.body
    return product, order_id, response.body["next_action"]["url"]


def test_a_debit_that_settles_later_completes_the_order(api, stripe_events):
    product, order_id, url = awaiting_in_euros(api)
    pay(url, "DE89370400440532013000")
    order = wait_for(order_id, OrderStatus.COMPLETED)
    assert Payment.objects.get(order=order).status == PaymentStatus.SUCCEEDED
    assert len(succeeded_intents(stripe_events, order_id)) == 1
    assert_books_balance(product, initial={product.pk: 3})


def test_a_debit_that_fails_later_releases_the_stock(api, stripe_events):
    product, order_id, url = awaiting_in_euros(api)
    pay(url, "DE62370400440532013001")
    order = wait_for(order_id, OrderStatus.FAILED)
    assert order.failure_code in {"CARD_DECLINED", "INSUFFICIENT_FUNDS"}
    assert Payment.objects.get(order=order).status == PaymentStatus.FAILED
    product.refresh_from_db()
    assert product.stock == 3
    assert succeeded_intents(stripe_events, order_id) == []
    assert_books_balance(product, initial={product.pk: 3})


def test_signed_events_twice_and_a_stale_expired_change_nothing(api, stripe_provider, settings):
    from tests.checkout.payments.test_stripe_webhooks import deliver

    product, _, order_id, _, response = awaiting(api)
    pay(response.body["next_action"]["url"])
    session = session_of(order_id)
    secret = settings.STRIPE_WEBHOOK_SECRET
    first = deliver("checkout.session.completed", session, secret=secret, event_id="evt_cs_1")
    again = deliver("checkout.session.completed", session, secret=secret, event_id="evt_cs_1")
    assert first["status"] == "applied" and again["status"] == "duplicate"
    # An "expired" event for it, out of order (as if sent before the payment): Stripe is asked.
    stale = {**session, "status": "expired", "payment_status": "unpaid"}
    assert deliver("checkout.session.expired", stale, secret=secret)["status"] == "applied"
    order = Order.objects.get(pk=order_id)
    assert order.status == OrderStatus.COMPLETED
    assert SagaStep.objects.filter(order=order, step="complete").count() == 1
    assert refunds(stripe_provider) == []
    assert_books_balance(product, initial={product.pk: 3})


def test_back_from_the_bank_the_return_page_asks_stripe(api, user, stripe_provider, client):
    product, order_id, _, intent = authenticating(api, user, stripe_provider)
    early = client.get("/checkout/paid", {"payment_intent": intent.id})
    assert b"Payment received" not in early.content
    authenticate(stripe_provider, "payment_intents", intent.id, intent.client_secret, success=True)
    back = client.get("/checkout/paid", {"payment_intent": intent.id, "redirect_status": "failed"})
    assert b"Payment received" in back.content  # Stripe's word, not the address's
    assert Order.objects.get(pk=order_id).status == OrderStatus.COMPLETED
    assert_books_balance(product, initial={product.pk: 3})


def test_no_card_number_reaches_our_database_or_logs(api, stripe_events, caplog, capsys):
    from io import StringIO

    from django.core.management import call_command

    product, _, order_id, _, response = awaiting(api)
    pay(response.body["next_action"]["url"], save=True)
    wait_for(order_id, OrderStatus.COMPLETED)
    dump = StringIO()
    for database in BOTH_DATABASES:
        call_command("dumpdata", database=database, stdout=dump)
    everything = dump.getvalue() + caplog.text + "".join(capsys.readouterr())
    assert str(order_id) in everything  # the search sees what we keep
    for secret in (VISA, "4242 4242 4242 4242", "cvc", "client_secret"):
        assert secret not in everything, secret
    assert_books_balance(product, initial={product.pk: 3})
