"""Where money could go astray with Stripe (localstripe over HTTP, the real SDK, no mocks): a
confirm that reaches Stripe after our time-out, lookups past the listing window, refunds made
in the Stripe dashboard before our books know of them."""

from __future__ import annotations

import time
from decimal import Decimal

import pytest

from checkout.models import Order, OrderStatus, Payment, PaymentStatus
from checkout.saga import cancellation, states
from checkout.sweeps import run_sweeps
from tests.checkout.payments.test_stripe_provider import CONFIRM, READ, buy, ledger_is_clean
from tests.checkout.payments.test_stripe_webhooks import localstripe
from tests.fixtures import BOTH_DATABASES, assert_books_balance, commit
from tests.localstripe import intents

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


# --- refunds made at Stripe that our books do not know yet -------------------------------------


def _refund_at_stripe(url: str, **amount) -> None:
    [intent] = intents(url)
    localstripe(url, "POST", "/v1/refunds", payment_intent=intent["id"], **amount)


def _cancel(order_id):
    return cancellation.do_cancel_order(
        order=Order.objects.get(pk=order_id),
        reason="changed my mind",
        actor="the person",
        correlation_id="test",
    )


def test_cancel_after_a_partial_refund_at_stripe_refunds_the_rest(api, stripe_provider):
    product, _, order_id, _, response = buy(api)
    assert response.body["status"] == "completed", response.body
    _refund_at_stripe(stripe_provider, amount=1000)  # its charge.refunded not delivered yet

    out = _cancel(order_id)

    assert out.outcome == states.ROLLED_BACK, out.detail
    assert out.refunded == Decimal("20.00") and "Refunded 20.00 USD," in out.detail
    assert Order.objects.get(pk=order_id).status == OrderStatus.CANCELLED
    payment = Payment.objects.get(order_id=order_id)
    assert payment.status == PaymentStatus.REFUNDED and payment.refunded_amount == payment.amount
    assert intents(stripe_provider)[0]["latest_charge"]["amount_refunded"] == 3000
    ledger_is_clean()
    assert_books_balance(product, initial={product.pk: 5})


def test_cancel_after_a_full_refund_at_stripe_just_closes_the_order(api, stripe_provider):
    product, _, order_id, _, _ = buy(api)
    _refund_at_stripe(stripe_provider)

    out = _cancel(order_id)

    assert out.outcome == states.ROLLED_BACK, out.detail
    assert out.refunded == Decimal("0.00") and "already been refunded" in out.detail
    assert len(localstripe(stripe_provider, "GET", "/v1/refunds")["data"]) == 1  # none of ours
    ledger_is_clean()
    assert_books_balance(product, initial={product.pk: 5})


def test_a_closed_order_whose_capture_stripe_refunded_is_settled_by_the_sweep(api, stripe_provider):
    # A late capture on a failed order (Payment recorded succeeded), refunded in the dashboard
    # before the sweep gave it back: it must not fail on every pass.
    _, _, order_id, _, _ = buy(api)
    Order.objects.filter(pk=order_id).update(
        status=OrderStatus.FAILED, failure_code="PAYMENT_TIMEOUT"
    )
    _refund_at_stripe(stripe_provider)

    reports = [run_sweeps(older_than_seconds=0) for _ in range(2)]

    assert [r.errors for r in reports] == [0, 0]
    payment = Payment.objects.get(order_id=order_id)
    assert payment.status == PaymentStatus.REFUNDED and payment.refunded_amount == payment.amount
    ledger_is_clean()


def test_a_refund_stripe_refuses_is_not_reported_as_an_outage(api, stripe_provider):
    _, _, order_id, _, _ = buy(api)
    Payment.objects.filter(order_id=order_id).update(provider_charge_id="pi_unknowntostripe")

    out = _cancel(order_id)

    assert (out.outcome, out.code) == (states.REFUSED, "PAYMENT_REJECTED")
    assert "refused the refund (NO_SUCH_CHARGE)" in out.detail
    assert "unavailable" not in out.detail and "Try again later" not in out.detail
    assert Order.objects.get(pk=order_id).status == OrderStatus.COMPLETED
