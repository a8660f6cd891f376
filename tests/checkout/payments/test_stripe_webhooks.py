"""Webhooks with the Stripe adapter against localstripe: the events carry localstripe's own
PaymentIntent and Charge objects, signed with the SDK's signing helper (localstripe sends no
charge.refunded and never redelivers, so duplicates and reordering are driven from here)."""

from __future__ import annotations

import json
import time
import uuid

import httpx
import pytest
import stripe
from django.test import Client

from checkout.models import Order, OrderStatus, Payment, PaymentStatus
from checkout.sweeps import run_sweeps
from tests.checkout.payments.test_stripe_provider import CONFIRM, READ, buy, ledger_is_clean
from tests.checkout.test_webhooks import stored_events
from tests.fixtures import BOTH_DATABASES, assert_books_balance
from tests.localstripe import API_KEY, intents

pytestmark = pytest.mark.django_db(databases=BOTH_DATABASES)


def deliver(event_type: str, obj: dict, *, secret: str, event_id: str | None = None) -> dict:
    payload = json.dumps(
        {
            "id": event_id or f"evt_{uuid.uuid4().hex[:24]}",
            "object": "event",
            "type": event_type,
            "created": int(time.time()),
            "data": {"object": obj},
        }
    )
    header = stripe.WebhookSignature.generate_signature_header(payload, secret)
    response = Client().post(
        "/webhooks/stripe",
        data=payload,
        content_type="application/json",
        HTTP_STRIPE_SIGNATURE=header,
    )
    assert response.status_code == 200, response.content
    return json.loads(response.content)


def localstripe(url: str, method: str, path: str, **data) -> dict:
    response = httpx.request(method, f"{url}{path}", data=data, auth=(API_KEY, ""), timeout=10)
    response.raise_for_status()
    return response.json()


def test_the_succeeded_event_settles_an_order_whose_answer_was_lost(api, stripe_proxy, settings):
    """The seeds' hardest case: Stripe charged, the answer was lost and Stripe then stayed
    away; its webhook settles the order at once, exactly one charge, whatever comes after."""
    stripe_proxy.fault("POST", CONFIRM, "lose")
    stripe_proxy.fault("GET", READ, "503", times=None, after=1)
    product, _, order_id, _, response = buy(api)
    assert Order.objects.get(pk=order_id).status == OrderStatus.PAYMENT_PENDING, response.body
    stripe_proxy.faults.clear()
    [intent] = intents(stripe_proxy.upstream)
    assert intent["status"] == "succeeded" and intent["metadata"]["order_id"] == order_id
    secret = settings.STRIPE_WEBHOOK_SECRET

    event_id = f"evt_{uuid.uuid4().hex[:24]}"
    assert deliver("payment_intent.succeeded", intent, secret=secret, event_id=event_id) == {
        "received": True,
        "event_id": event_id,
        "status": "applied",
    }
    order = Order.objects.get(pk=order_id)
    assert order.status == OrderStatus.COMPLETED
    assert Payment.objects.get(order_id=order_id).provider_charge_id == intent["id"]

    # Twice, then a stale 'failed' out of order: nothing moves.
    assert deliver("payment_intent.succeeded", intent, secret=secret, event_id=event_id)[
        "status"
    ] == ("duplicate")
    deliver("payment_intent.payment_failed", intent, secret=secret)
    assert Order.objects.get(pk=order_id).status == OrderStatus.COMPLETED
    assert len(intents(stripe_proxy.upstream)) == 1
    assert stored_events().count() == 2
    ledger_is_clean()
    assert_books_balance(product, initial={product.pk: 5})


def test_a_refund_made_in_stripe_cancels_the_order_once(api, stripe_provider, settings):
    product, _, order_id, _, response = buy(api)
    assert response.body["status"] == "completed", response.body
    [intent] = intents(stripe_provider)
    refund = localstripe(stripe_provider, "POST", "/v1/refunds", payment_intent=intent["id"])
    assert refund["status"] == "succeeded"
    charge = localstripe(stripe_provider, "GET", f"/v1/charges/{refund['charge']}")
    assert charge["refunded"] is True

    deliver("charge.refunded", charge, secret=settings.STRIPE_WEBHOOK_SECRET)

    payment = Payment.objects.get(order_id=order_id)
    assert payment.status == PaymentStatus.REFUNDED and payment.refunded_amount == payment.amount
    assert Order.objects.get(pk=order_id).status == OrderStatus.CANCELLED
    deliver("charge.refunded", charge, secret=settings.STRIPE_WEBHOOK_SECRET)  # again, new id
    assert Order.objects.get(pk=order_id).status == OrderStatus.CANCELLED
    [refund_row] = localstripe(stripe_provider, "GET", "/v1/refunds")["data"]
    assert refund_row["id"] == refund["id"]  # no second refund was made by us
    ledger_is_clean()
    assert_books_balance(product, initial={product.pk: 5})


def _pending_order(api, proxy) -> tuple:
    """Stripe captured, the answer was lost and every lookup after the first failed."""
    proxy.fault("POST", CONFIRM, "lose")
    proxy.fault("GET", READ, "503", times=None, after=1)
    product, _, order_id, _, response = buy(api)
    assert Order.objects.get(pk=order_id).status == OrderStatus.PAYMENT_PENDING, response.body
    return product, order_id


def _refund_at_stripe(url: str, intent_id: str, **amount) -> dict:
    """A refund made in the Stripe dashboard; returns the refunded charge (the event's object)."""
    refund = localstripe(url, "POST", "/v1/refunds", payment_intent=intent_id, **amount)
    return localstripe(url, "GET", f"/v1/charges/{refund['charge']}")


def test_a_refund_of_a_payment_not_yet_settled_cancels_the_order_instead_of_completing_it(
    api, stripe_proxy, settings
):
    product, order_id = _pending_order(api, stripe_proxy)
    stripe_proxy.faults.clear()
    [intent] = intents(stripe_proxy.upstream)
    charge = _refund_at_stripe(stripe_proxy.upstream, intent["id"])
    assert "order_id" not in charge["metadata"]  # only the PaymentIntent names the order

    receipt = deliver("charge.refunded", charge, secret=settings.STRIPE_WEBHOOK_SECRET)

    assert receipt["status"] == "applied"
    outcome = stored_events().get(key=f"stripe:{receipt['event_id']}").outcome
    # Captured, then refunded: settled, and not as completed.
    assert outcome == "Settled: the provider says succeeded; the order is cancelled.", outcome
    order = Order.objects.get(pk=order_id)
    assert order.status == OrderStatus.CANCELLED, order.status
    payment = Payment.objects.get(order_id=order_id)
    assert payment.status == PaymentStatus.REFUNDED and payment.refunded_amount == payment.amount
    # Later passes and events agree; no refund of ours was added to Stripe's.
    run_sweeps(older_than_seconds=0)
    deliver("payment_intent.succeeded", intent, secret=settings.STRIPE_WEBHOOK_SECRET)
    assert Order.objects.get(pk=order_id).status == OrderStatus.CANCELLED
    assert len(localstripe(stripe_proxy.upstream, "GET", "/v1/refunds")["data"]) == 1
    ledger_is_clean()
    assert_books_balance(product, initial={product.pk: 5})


def test_a_refund_event_for_a_payment_stripe_cannot_settle_now_is_retried(
    api, stripe_proxy, settings
):
    _, order_id = _pending_order(api, stripe_proxy)  # lookups still refused
    [intent] = intents(stripe_proxy.upstream)
    charge = _refund_at_stripe(stripe_proxy.upstream, intent["id"])

    receipt = deliver("charge.refunded", charge, secret=settings.STRIPE_WEBHOOK_SECRET)

    assert receipt["status"] == "pending"  # not "applied" with nothing done
    assert Order.objects.get(pk=order_id).status == OrderStatus.PAYMENT_PENDING
    stripe_proxy.faults.clear()
    assert run_sweeps(older_than_seconds=0).reconciled == 1
    assert Order.objects.get(pk=order_id).status == OrderStatus.CANCELLED
    ledger_is_clean()


def test_a_partial_refund_before_settling_refunds_the_rest_and_cancels(api, stripe_proxy, settings):
    product, order_id = _pending_order(api, stripe_proxy)
    stripe_proxy.faults.clear()
    [intent] = intents(stripe_proxy.upstream)
    _refund_at_stripe(stripe_proxy.upstream, intent["id"], amount=1000)

    run_sweeps(older_than_seconds=0)  # reconciliation, no event at all

    assert Order.objects.get(pk=order_id).status == OrderStatus.CANCELLED
    payment = Payment.objects.get(order_id=order_id)
    assert payment.status == PaymentStatus.REFUNDED and payment.refunded_amount == payment.amount
    assert intents(stripe_proxy.upstream)[0]["latest_charge"]["amount_refunded"] == 3000
    ledger_is_clean()
    assert_books_balance(product, initial={product.pk: 5})
