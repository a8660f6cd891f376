"""Cancellation racing the commit it would undo, or another cancellation.

One interleaving at a time in one thread: cancel_order (and the staff rollback, the same
cancellation) on a retryably failed order while the widget retries the commit. Then real
threads on PostgreSQL: five cancellations at once, repeats of one refused key at once once the
payment settled, and a staff rollback with the person's cancel. Never a charge left on a cancelled order, never a second refund."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model

from checkout import selectors, staff_rollback
from checkout.models import OrderStatus, PaymentStatus, SagaStep, SimulatedRefund
from checkout.payments import gateway, simulator
from checkout.saga import cancellation, compensation, states, step_log
from checkout.sweeps import run_sweeps
from giftgenius.operations.metrics import saga_step_counts
from tests.concurrency import in_threads
from tests.conftest import ToolClient
from tests.fixtures import (
    BOTH_DATABASES,
    assert_books_balance,
    assert_error,
    cancel,
    charges_for,
    commit,
    gift_selected,
    make_product,
    new_key,
    order_of,
    prepared,
)
from tests.localstripe import refunds
from tool_runtime.models import IdempotencyKey, IdempotencyStatus
from tool_runtime.principals import issue_api_token

pytestmark = pytest.mark.django_db(databases=BOTH_DATABASES)
# The tests with real threads: each thread's connection sees only what was committed.
THREADS = pytest.mark.django_db(transaction=True, databases=BOTH_DATABASES)


def retryably_failed(api, product) -> tuple[str, str, str, str]:
    """(workflow_id, order_id, token, key): a commit that met an outage, nothing charged."""
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id)
    key = new_key()
    with simulator.outage():
        assert_error(
            commit(api, workflow_id, order_id, token, key=key), "PAYMENT_PROVIDER_ERROR", 503
        )
    assert order_of(order_id).status == OrderStatus.FAILED
    return workflow_id, order_id, token, key


# --- cancel_order vs a retry of the commit, one interleaving at a time -------------------------


def test_a_retry_landing_while_cancel_refunds_cannot_reopen_the_order(api, monkeypatch):
    """The retry arrives once cancel is committed to the closed order: it must find the
    confirmation spent, not charge an order cancel answers for."""
    product = make_product(stock=5)
    workflow_id, order_id, token, key = retryably_failed(api, product)
    real_refund = compensation.refund_payments
    retries = []

    def retry_then_refund(*, order, correlation_id):
        if not retries:
            retries.append(commit(api, workflow_id, order_id, token, key=key))
        return real_refund(order=order, correlation_id=correlation_id)

    monkeypatch.setattr(compensation, "refund_payments", retry_then_refund)
    cancelled = cancel(api, order_id)

    assert cancelled.status == 200, cancelled.body
    assert cancelled.body["already_cancelled"] is True
    assert_error(retries[0], "CONFIRMATION_REQUIRED", 403)
    assert order_of(order_id).status == OrderStatus.FAILED
    assert [c.status for c in charges_for(order_id)] == []
    assert_books_balance(product, initial={product.pk: 5})


def test_a_retry_completing_right_after_cancel_read_the_order_is_cancelled_and_refunded(
    api, monkeypatch
):
    """cancel_order read the order as failed; the retry charged and completed it before cancel
    acted. Cancel must see the completed order (refund, release, cancel), not refund the charge
    as a "leftover" of a failed order and leave it completed."""
    product = make_product(stock=5)
    workflow_id, order_id, token, key = retryably_failed(api, product)
    real_order_for = selectors.order_for
    retries = []

    def read_then_retry(**kwargs):
        order = real_order_for(**kwargs)
        if not retries:
            retries.append(None)  # the retry reads the order through here too
            retries[0] = commit(api, workflow_id, order_id, token, key=key)
        return order

    monkeypatch.setattr(selectors, "order_for", read_then_retry)
    cancelled = cancel(api, order_id)

    assert retries[0].body["status"] == "completed"
    assert cancelled.status == 200, cancelled.body
    assert cancelled.body["status"] == "cancelled"
    assert cancelled.body["refunded_amount"] == "30.00"
    assert order_of(order_id).status == OrderStatus.CANCELLED
    assert order_of(order_id).payments.get().status == PaymentStatus.REFUNDED
    assert_books_balance(product, initial={product.pk: 5})


def test_cancel_with_a_stale_failed_order_refuses_while_the_retry_is_charging(api, monkeypatch):
    """The order was read as failed (cancel_order's read, or the admin's) just before the retry
    claimed it; cancel runs while the retry's charge is at the provider."""
    product = make_product(stock=5)
    workflow_id, order_id, token, key = retryably_failed(api, product)
    stale = order_of(order_id)
    real_checkpoint = step_log.checkpoint
    seen = []

    def cancel_mid_charge(oid, step, status):
        real_checkpoint(oid, step, status)
        if (str(step), str(status)) == ("charge_card", "started") and not seen:
            seen.append(
                cancellation.do_cancel_order(
                    order=stale, reason="Changed my mind", actor="the person", correlation_id="c"
                )
            )

    monkeypatch.setattr(step_log, "checkpoint", cancel_mid_charge)
    retried = commit(api, workflow_id, order_id, token, key=key)

    assert retried.body["status"] == "completed"
    assert seen[0].outcome == states.REFUSED
    assert seen[0].code == "ORDER_NOT_CANCELLABLE"
    assert seen[0].order.status == OrderStatus.PROCESSING
    assert order_of(order_id).status == OrderStatus.COMPLETED
    assert [c.status for c in charges_for(order_id)] == ["succeeded"]
    assert_books_balance(product, initial={product.pk: 5})


# --- real threads on PostgreSQL ------------------------------------------------------------------


@pytest.mark.postgres
@THREADS
def test_simultaneous_cancellations_refund_once(user, api, provider):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id)
    assert commit(api, workflow_id, order_id, token).status == 200
    bearer = issue_api_token(user=user)

    results = in_threads(
        5,
        lambda i: ToolClient(bearer).call(
            "cancel_order",
            {"order_id": order_id, "reason": "Changed my mind", "idempotency_key": new_key()},
        ),
    )

    assert [r.status for r in results] == [200] * 5, [r.body for r in results]
    assert all(r.body["status"] == "cancelled" for r in results)
    assert (len(refunds(provider)) if provider else SimulatedRefund.objects.count()) == 1
    assert_books_balance(product, initial={product.pk: 5})


@pytest.mark.postgres
@THREADS
def test_repeats_of_a_cancel_refused_while_pending_refund_once_and_store_one_answer(user, api):
    """The key's refusal was not kept (the payment was open); once it settled, four repeats of
    that key arrive at once and each asks again: one refund, and every later replay is the one
    answer stored. On the simulator only: localstripe has no card whose payment stays pending."""
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, "pm_card_pending")
    assert commit(api, workflow_id, order_id, token).body["status"] == "payment_pending"
    key = new_key()
    assert_error(cancel(api, order_id, key), "ORDER_NOT_CANCELLABLE", 409)
    assert run_sweeps(older_than_seconds=0).reconciled == 1
    bearer = issue_api_token(user=user)
    arguments = {"order_id": order_id, "reason": "Changed my mind", "idempotency_key": key}

    results = in_threads(4, lambda i: ToolClient(bearer).call("cancel_order", arguments))

    assert [r.status for r in results] == [200] * 4, [r.body for r in results]
    assert all(r.body["status"] == "cancelled" for r in results)
    assert SimulatedRefund.objects.count() == 1
    row = IdempotencyKey.objects.get(tool="cancel_order", key=key)
    assert row.status == IdempotencyStatus.COMPLETED
    replay = ToolClient(bearer).call("cancel_order", arguments)
    assert replay.raw == ToolClient(bearer).call("cancel_order", arguments).raw
    assert replay.body["status"] == "cancelled"
    assert order_of(order_id).status == OrderStatus.CANCELLED
    assert_books_balance(product, initial={product.pk: 5})


@pytest.mark.postgres
@THREADS
def test_a_staff_rollback_and_the_persons_cancel_at_once_record_one_refund(
    user, api, provider, monkeypatch
):
    """Both read the payment as captured and reach the provider together (held at a barrier so
    the race is not left to chance): one refund at the provider, so one refund in the saga log
    and in the metrics; the other caller's step is skipped."""
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id)
    assert commit(api, workflow_id, order_id, token).status == 200
    bearer = issue_api_token(user=user)
    staff = get_user_model().objects.create_user(username="operator", is_staff=True)
    at_provider = threading.Barrier(2)
    real_refund = gateway.refund

    def refund_together(**kwargs):
        at_provider.wait(timeout=30)
        return real_refund(**kwargs)

    monkeypatch.setattr(gateway, "refund", refund_together)

    def work(i: int):
        if i == 0:
            (report,) = staff_rollback.roll_back_orders(
                order_ids=[order_id], reason="Asked by phone", actor=staff
            )
            return report.outcome
        response = ToolClient(bearer).call(
            "cancel_order",
            {"order_id": order_id, "reason": "Changed my mind", "idempotency_key": new_key()},
        )
        return response.status, response.body.get("status")

    results = in_threads(2, work)

    assert results[1] == (200, "cancelled"), results
    assert results[0] in {"rolled_back", "already_rolled_back"}, results
    refund_steps = SagaStep.objects.filter(order_id=order_id, step="refund")
    assert sorted(refund_steps.values_list("status", flat=True)) == ["skipped", "succeeded"]
    assert (len(refunds(provider)) if provider else SimulatedRefund.objects.count()) == 1
    counts = {(c.step, c.status): c.count for c in saga_step_counts()}
    assert counts[("refund", "succeeded")] == 1
    assert_books_balance(product, initial={product.pk: 5})
