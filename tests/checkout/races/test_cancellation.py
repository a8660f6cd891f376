"""A person's action racing a commit on the same checkout, one interleaving at a time (single
thread; tests/checkout/races/test_idempotency_keys.py runs the lock-dependent ones with real threads on PostgreSQL).

- cancel_order (and the staff rollback, the same cancellation) on a retryably failed
  order while the widget retries the commit;
- prepare_order while the workflow's order starts being paid;
- going back from checkout while the draft is being claimed.
"""

from __future__ import annotations

import pytest

from checkout import selectors
from checkout.models import Order, OrderStatus, PaymentStatus
from checkout.payments import simulator
from checkout.saga import cancellation, compensation, draft, states, step_log
from checkout.selectors import workflow_order_id
from checkout.sweeps import run_sweeps
from gifts.models import WorkflowContext
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
    prepare,
    prepared,
)

pytestmark = pytest.mark.django_db(databases=BOTH_DATABASES)


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


# --- cancel_order vs a retry of the commit ------------------------------------------------------


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


# --- prepare_order vs a commit ------------------------------------------------------------------


def test_a_commit_landing_as_prepare_starts_is_seen_by_its_in_flight_check(
    api, monkeypatch, settings
):
    """The person's Confirm lands after prepare_order passed its gates but before it took the
    workflow: the check made under the lock sees the payment and makes no second draft."""
    settings.SIMULATOR_PENDING_SETTLE_SECONDS = 0  # the pending charge settles on the next read
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    first_id, first_token = prepared(api, workflow_id, "pm_card_pending")
    real_prepare = draft.do_prepare_order
    commits = []

    def commit_then_prepare(**kwargs):
        if not commits:
            commits.append(commit(api, workflow_id, first_id, first_token))
        return real_prepare(**kwargs)

    monkeypatch.setattr(draft, "do_prepare_order", commit_then_prepare)
    second = prepare(api, workflow_id, "pm_card_visa")

    assert commits[0].body["status"] == "payment_pending"
    error = assert_error(second, "ORDER_IN_PROGRESS", 409)
    assert error["details"] == {"order_id": first_id, "order_status": "payment_pending"}
    assert list(Order.objects.filter(workflow_id=workflow_id).values_list("pk", flat=True)) == [
        order_of(first_id).pk
    ]
    run_sweeps(older_than_seconds=0)  # reconciliation settles the pending payment
    assert order_of(first_id).status == OrderStatus.COMPLETED
    assert_books_balance(product, initial={product.pk: 5})


# --- going back from checkout vs a commit -------------------------------------------------------


def test_going_back_keeps_a_draft_that_was_claimed_before_its_release(api, monkeypatch):
    """The release finds the draft already being paid (a claim got in first): going back must
    refuse and keep the order on the workflow, never report it cancelled."""
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, _ = prepared(api, workflow_id)
    real_release = compensation.do_release_draft

    def claimed_first(**kwargs):
        Order.objects.filter(pk=order_id, status=OrderStatus.DRAFT).update(
            status=OrderStatus.PROCESSING
        )
        return real_release(**kwargs)

    monkeypatch.setattr(compensation, "do_release_draft", claimed_first)
    back = api.call("user_navigated_to_step", {"workflow_id": workflow_id, "step_id": "ideas"})

    error = assert_error(back, "ORDER_IN_PROGRESS", 409)
    assert error["details"] == {"order_id": order_id, "order_status": "processing"}
    workflow = WorkflowContext.objects.get(pk=workflow_id)
    assert (workflow.current_step, str(workflow_order_id(workflow=workflow))) == (
        "checkout",
        order_id,
    )
    assert order_of(order_id).status != OrderStatus.CANCELLED


def test_going_back_past_a_draft_that_already_ended_says_so(api):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, _ = prepared(api, workflow_id)
    # Cancelled without the workflow being told (what do_release_draft alone does).
    assert compensation.do_release_draft(order_id=order_id, reason="gone")

    back = api.call(
        "user_navigated_to_step", {"workflow_id": workflow_id, "step_id": "gift_selected"}
    )

    assert back.status == 200, back.body
    assert back.body["invalidated"] == [f"draft order {order_id} (already closed)"]
    assert workflow_order_id(workflow=WorkflowContext.objects.get(pk=workflow_id)) is None
    assert_books_balance(product, initial={product.pk: 5})
