"""A person's action racing a commit on the same checkout, one interleaving at a time (single
thread; tests/test_concurrency.py runs the lock-dependent ones with real threads on PostgreSQL).

- prepare_order while the workflow's order starts being paid;
- going back from checkout while the draft is being claimed.
"""

from __future__ import annotations

import pytest

from checkout import compensation, saga
from checkout import services as checkout_services
from checkout.models import Order, OrderStatus
from checkout.sweeps import run_sweeps
from giftgenius.models import WorkflowContext
from tests.fixtures import (
    BOTH_DATABASES,
    assert_books_balance,
    assert_error,
    commit,
    gift_selected,
    make_product,
    order_of,
    prepare,
    prepared,
)

pytestmark = pytest.mark.django_db(databases=BOTH_DATABASES)


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
    real_prepare = saga.prepare_order
    commits = []

    def commit_then_prepare(**kwargs):
        if not commits:
            commits.append(commit(api, workflow_id, first_id, first_token))
        return real_prepare(**kwargs)

    monkeypatch.setattr(saga, "prepare_order", commit_then_prepare)
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
    real_release = compensation.release_draft_order

    def claimed_first(**kwargs):
        Order.objects.filter(pk=order_id, status=OrderStatus.DRAFT).update(
            status=OrderStatus.PROCESSING
        )
        return real_release(**kwargs)

    monkeypatch.setattr(compensation, "release_draft_order", claimed_first)
    back = api.call("user_navigated_to_step", {"workflow_id": workflow_id, "step_id": "ideas"})

    error = assert_error(back, "ORDER_IN_PROGRESS", 409)
    assert error["details"] == {"order_id": order_id, "order_status": "processing"}
    workflow = WorkflowContext.objects.get(pk=workflow_id)
    assert (workflow.current_step, str(workflow.draft_order_id)) == ("checkout", order_id)
    assert order_of(order_id).status != OrderStatus.CANCELLED


def test_going_back_past_a_draft_that_already_ended_says_so(api):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, _ = prepared(api, workflow_id)
    # Cancelled without the workflow being told (what release_draft_order alone does).
    assert checkout_services.compensation.release_draft_order(order_id=order_id, reason="gone")

    back = api.call(
        "user_navigated_to_step", {"workflow_id": workflow_id, "step_id": "gift_selected"}
    )

    assert back.status == 200, back.body
    assert back.body["invalidated"] == [f"draft order {order_id} (already closed)"]
    assert WorkflowContext.objects.get(pk=workflow_id).draft_order_id is None
    assert_books_balance(product, initial={product.pk: 5})
