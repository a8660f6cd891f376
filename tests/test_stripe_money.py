"""Where money could go astray with Stripe (localstripe over HTTP, the real SDK, no mocks): a
confirm that reaches Stripe after our time-out, lookups past the listing window, refunds made
in the Stripe dashboard before our books know of them."""

from __future__ import annotations

import time

import pytest

from checkout.models import Order, OrderStatus, Payment, PaymentStatus
from checkout.sweeps import run_sweeps
from tests.fixtures import BOTH_DATABASES, assert_books_balance, commit
from tests.localstripe import intents
from tests.test_stripe_provider import CONFIRM, READ, buy, ledger_is_clean

pytestmark = pytest.mark.django_db(databases=BOTH_DATABASES)


@pytest.fixture
def slow_confirm(stripe_proxy, settings):
    """The first confirm is held 2.5 s before it reaches Stripe, past the client's 1 s read
    time-out; the retry deadline (0.5 s) is spent by then, so there is no second attempt (the
    default settings' shape: a 10 s read time-out against a 5 s deadline, scaled down)."""
    stripe_proxy.fault("POST", CONFIRM, "delay", delay=2.5)
    settings.STRIPE_TIMEOUT_SECONDS = 1.0
    settings.PAYMENT_RETRY_DEADLINE_SECONDS = 0.5
    return stripe_proxy


def test_a_confirm_that_lands_after_the_time_out_can_never_capture(api, slow_confirm):
    product, workflow_id, order_id, token, response = buy(api)

    # The person is told "not charged" only because it is now a fact: the intent was cancelled
    # before the confirm reached Stripe, which refuses it when it lands.
    order = Order.objects.get(pk=order_id)
    assert (order.status, order.failure_code) == (OrderStatus.FAILED, "PAYMENT_TIMEOUT"), (
        response.body
    )
    slow_confirm.wait_forwarded("POST", CONFIRM)
    [intent] = intents(slow_confirm.upstream)
    assert intent["status"] == "canceled" and intent["latest_charge"] is None
    run_sweeps(older_than_seconds=0)
    ledger_is_clean()

    # "Try again" makes a new PaymentIntent and captures exactly once.
    slow_confirm.faults.clear()
    retried = commit(api, workflow_id, order_id, token)
    assert retried.body["status"] == "completed", retried.body
    captured = [i for i in intents(slow_confirm.upstream) if i["status"] == "succeeded"]
    assert len(captured) == 1
    assert Payment.objects.get(order_id=order_id).provider_charge_id == captured[0]["id"]
    assert Payment.objects.get(order_id=order_id).status == PaymentStatus.SUCCEEDED
    ledger_is_clean()
    assert_books_balance(product, initial={product.pk: 5})


@pytest.mark.parametrize("id_recorded", [True, False], ids=["by-id", "id-unknown"])
def test_an_order_reconciled_after_the_listing_window_is_not_taken_for_not_charged(
    api, stripe_proxy, settings, id_recorded
):
    # Stripe captured, the answer was lost and Stripe stayed away longer than the window in
    # which PaymentIntents are listed (48 h; 1 s here).
    stripe_proxy.fault("POST", CONFIRM, "lose")
    stripe_proxy.fault("GET", READ, "503", times=None, after=1)
    product, _, order_id, _, response = buy(api)
    assert Order.objects.get(pk=order_id).status == OrderStatus.PAYMENT_PENDING, response.body
    [intent] = intents(stripe_proxy.upstream)
    payment = Payment.objects.get(order_id=order_id)
    # The PaymentIntent id is on the row before the confirm was sent.
    assert payment.provider_charge_id == intent["id"]
    if not id_recorded:  # e.g. a row written before ids were recorded at create
        Payment.objects.filter(pk=payment.pk).update(provider_charge_id="")
    stripe_proxy.faults.clear()
    settings.STRIPE_LOOKUP_WINDOW_SECONDS = 1
    time.sleep(2)

    run_sweeps(older_than_seconds=0)

    order = Order.objects.get(pk=order_id)
    assert order.status == OrderStatus.COMPLETED, (order.status, order.failure_code)
    assert Payment.objects.get(order_id=order_id).provider_charge_id == intent["id"]
    ledger_is_clean()
    assert_books_balance(product, initial={product.pk: 5})


def test_a_retry_long_after_the_keys_expired_confirms_no_second_intent(api, stripe_proxy, settings):
    # Rate limited until the retries ran out: not charged, retryable, the intent unconfirmed.
    stripe_proxy.fault("POST", CONFIRM, "429", times=None)
    product, workflow_id, order_id, token, response = buy(api)
    assert Order.objects.get(pk=order_id).status == OrderStatus.FAILED, response.body
    [first] = intents(stripe_proxy.upstream)
    # Two days later: outside the listing window, and Stripe forgot every idempotency key.
    stripe_proxy.faults.clear()
    stripe_proxy.keys_expired = True
    settings.STRIPE_LOOKUP_WINDOW_SECONDS = 1
    time.sleep(2)

    retried = commit(api, workflow_id, order_id, token)

    assert retried.body["status"] == "completed", retried.body
    assert [i["id"] for i in intents(stripe_proxy.upstream)] == [first["id"]]  # the same intent
    assert Payment.objects.get(order_id=order_id).provider_charge_id == first["id"]
    ledger_is_clean()
    assert_books_balance(product, initial={product.pk: 5})
