"""commit_order over REST: every test card end to end, the person's confirmation (spent once),
holds that expired or drafts that were replaced, retries of a retryable failure, and
get_order's account of it all."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from checkout.models import (
    Order,
    OrderStatus,
    Payment,
    PaymentStatus,
    Reservation,
    ReservationStatus,
)
from checkout.payments import simulator
from checkout.payments.provider import ProviderRejected
from checkout.payments.simulator import SimulatedProvider
from checkout.selectors import workflow_order_id
from checkout.sweeps import run_sweeps
from gifts.models import WorkflowContext
from tests.fixtures import (
    ALL_METHODS,
    BOTH_DATABASES,
    assert_books_balance,
    assert_error,
    charges_for,
    commit,
    gift_selected,
    make_product,
    new_key,
    order_of,
    prepare,
    prepared,
    saga_timeline,
)

pytestmark = pytest.mark.django_db(databases=BOTH_DATABASES)

OK = ("create_order", "succeeded"), ("reserve_items", "succeeded")
COMPENSATED = ("cancel_reservation", "succeeded"), ("cancel_order", "succeeded")

# method → (HTTP status, error code or order status, saga timeline, ledger charges (status list))
EXPECTED = {
    "pm_card_visa": (
        200,
        "completed",
        [*OK, ("charge_card", "succeeded"), ("complete", "succeeded")],
        ["succeeded"],
    ),
    "pm_card_declined": (
        402,
        "CARD_DECLINED",
        [*OK, ("charge_card", "failed"), *COMPENSATED],
        ["failed"],
    ),
    "pm_card_insufficient_funds": (
        402,
        "INSUFFICIENT_FUNDS",
        [*OK, ("charge_card", "failed"), *COMPENSATED],
        ["failed"],
    ),
    "pm_card_timeout_once": (
        200,
        "completed",
        [*OK, ("charge_card", "succeeded"), ("complete", "succeeded")],
        ["succeeded"],
    ),
    "pm_card_timeout_always": (
        504,
        "PAYMENT_TIMEOUT",
        [*OK, ("charge_card", "failed"), *COMPENSATED],
        [],
    ),
    "pm_card_unavailable": (
        503,
        "PAYMENT_PROVIDER_ERROR",
        [*OK, ("charge_card", "failed"), *COMPENSATED],
        [],
    ),
    "pm_card_lost_response": (
        200,
        "completed",
        [*OK, ("charge_card", "succeeded"), ("complete", "succeeded")],
        ["succeeded"],
    ),
    "pm_card_pending": (200, "payment_pending", [*OK, ("charge_card", "pending")], ["pending"]),
}


@pytest.mark.parametrize("method", ALL_METHODS)
def test_every_test_card_end_to_end(api, method):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, method)
    assert Reservation.objects.get(order_id=order_id).status == ReservationStatus.HELD
    product.refresh_from_db()
    assert product.stock == 4

    response = commit(api, workflow_id, order_id, token)

    status, code_or_status, steps, charges = EXPECTED[method]
    assert response.status == status, response.body
    order = order_of(order_id)
    assert saga_timeline(api, order_id) == steps
    assert sorted(c.status for c in charges_for(order_id)) == charges
    workflow = WorkflowContext.objects.get(pk=workflow_id)
    if status == 200:
        assert response.body["status"] == code_or_status == order.status
        assert response.body["_meta"]["idempotency_key"]
    else:
        error = assert_error(response, code_or_status, status)
        assert error["retryable"] is (status in (503, 504))
        assert order.status == OrderStatus.FAILED
        assert order.failure_code == code_or_status
        assert workflow.current_step == "gift_selected"
        assert workflow_order_id(workflow=workflow) is None
        product.refresh_from_db()
        assert product.stock == 5  # the hold was released
        # The person is never told "failed" when money moved: nothing was captured here.
        assert all(c.status != "succeeded" for c in charges_for(order_id))
    if code_or_status == "completed":
        assert workflow.current_step == "completed"
        assert Reservation.objects.get(order_id=order_id).status == ReservationStatus.CONFIRMED
        payment = Payment.objects.get(order_id=order_id)
        assert payment.status == PaymentStatus.SUCCEEDED
        assert payment.provider_charge_id == charges_for(order_id)[0].charge_id
        assert payment.provider_idempotency_key == f"order-{order_id}-charge"
    if method == "pm_card_pending":
        assert "processing" in response.body["message"]
        assert workflow.current_step == "checkout"
        assert Reservation.objects.get(order_id=order_id).status == ReservationStatus.HELD
        # Reconciliation asks the provider later; the pending charge has settled by then.
        assert run_sweeps(older_than_seconds=0).reconciled == 1
        assert order_of(order_id).status == OrderStatus.COMPLETED
        assert saga_timeline(api, order_id)[-2:] == [
            ("reconcile", "succeeded"),
            ("complete", "succeeded"),
        ]
        assert WorkflowContext.objects.get(pk=workflow_id).current_step == "completed"
    if method in ("pm_card_timeout_once", "pm_card_lost_response"):
        assert charges_for(order_id)[0].attempts == 2  # retried with the same key: one charge
    assert_books_balance(product, initial={product.pk: 5})


@pytest.mark.parametrize("token", [None, "", "not-the-token"])
def test_commit_without_the_persons_confirmation_is_refused(api, token):
    product = make_product()
    workflow_id = gift_selected(api, product)
    order_id, _ = prepared(api, workflow_id)
    error = assert_error(commit(api, workflow_id, order_id, token), "CONFIRMATION_REQUIRED", 403)
    assert error["retryable"] is False
    assert "Confirm purchase" in error["message"]
    assert order_of(order_id).status == OrderStatus.DRAFT
    assert not Payment.objects.exists()


def test_a_used_confirmation_cannot_buy_twice(api):
    workflow_id = gift_selected(api, make_product())
    order_id, token = prepared(api, workflow_id)
    assert commit(api, workflow_id, order_id, token).status == 200
    # A new key with the same token: the token is spent, and the workflow is completed.
    again = commit(api, workflow_id, order_id, token)
    assert_error(again, "TOOL_NOT_AVAILABLE_IN_STEP", 409)
    assert len(charges_for(order_id)) == 1


def test_a_declined_token_is_spent(api):
    product = make_product()
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, "pm_card_declined")
    assert commit(api, workflow_id, order_id, token).status == 402
    error = assert_error(commit(api, workflow_id, order_id, token), "CONFIRMATION_REQUIRED", 403)
    assert error["details"]["order_status"] == "failed"
    assert len(charges_for(order_id)) == 1


def test_expired_hold_cannot_be_committed(api):
    product = make_product(stock=2)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id)
    Order.objects.filter(pk=order_id).update(expires_at=timezone.now() - timedelta(seconds=1))
    error = assert_error(commit(api, workflow_id, order_id, token), "ORDER_EXPIRED", 409)
    assert error["next_actions"] == ["prepare_order"]
    order = order_of(order_id)
    assert order.status == OrderStatus.CANCELLED and order.failure_code == "ORDER_EXPIRED"
    assert Reservation.objects.get(order_id=order_id).status == ReservationStatus.EXPIRED
    workflow = WorkflowContext.objects.get(pk=workflow_id)
    assert workflow.current_step == "gift_selected" and workflow_order_id(workflow=workflow) is None
    assert not Payment.objects.exists()
    assert_books_balance(product, initial={product.pk: 2})


def test_an_order_cancelled_by_going_back_cannot_be_committed(api):
    product = make_product(stock=2)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id)
    back = api.call(
        "user_navigated_to_step", {"workflow_id": workflow_id, "step_id": "gift_selected"}
    )
    assert back.status == 200, back.body
    assert order_of(order_id).status == OrderStatus.CANCELLED
    product.refresh_from_db()
    assert product.stock == 2
    assert_error(commit(api, workflow_id, order_id, token), "ORDER_NOT_COMMITTABLE", 409)
    assert_books_balance(product, initial={product.pk: 2})


def test_get_order_shows_status_payments_and_timeline(api):
    workflow_id = gift_selected(api, make_product())
    order_id, token = prepared(api, workflow_id)
    commit(api, workflow_id, order_id, token)
    body = api.call("get_order", {"order_id": order_id}).body
    assert body["status"] == "completed" and body["amount"] == "30.00" and body["failure"] is None
    [payment] = body["payments"]
    assert payment["status"] == "succeeded" and payment["provider_charge_id"].startswith("ch_")
    assert payment["refunded_amount"] == "0.00"
    assert all(step["finished_at"] >= step["started_at"] for step in body["saga"])
    assert {step["attempt"] for step in body["saga"]} == {1}


@pytest.mark.parametrize("method", ["pm_card_timeout_always", "pm_card_unavailable"])
def test_a_payment_outage_never_tells_the_model_to_call_the_app_only_commit(api, method):
    workflow_id = gift_selected(api, make_product())
    order_id, token = prepared(api, workflow_id, method)
    error = commit(api, workflow_id, order_id, token).error
    assert error["retryable"] is True
    told = [error["message"], *error["next_actions"]]
    assert not [text for text in told if "commit_order" in text]
    assert '"Try again"' in error["message"]


def test_a_timed_out_charge_whose_lookup_is_refused_stays_pending_with_its_stock(api, monkeypatch):
    def refuse(self, *, idempotency_key, **_):
        raise ProviderRejected("401: this API key cannot read charges")

    monkeypatch.setattr(SimulatedProvider, "retrieve_by_idempotency_key", refuse)
    product = make_product(stock=3)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, "pm_card_timeout_always")
    # It may have been charged: neither failed nor compensated, reconciliation settles it.
    assert commit(api, workflow_id, order_id, token).body["status"] == "payment_pending"
    assert order_of(order_id).status == OrderStatus.PAYMENT_PENDING
    assert Reservation.objects.get(order_id=order_id).status == ReservationStatus.HELD


# --- retries of a retryable failure --------------------------------------------------------------


def test_retryable_failure_reruns_the_saga_with_the_same_key_and_token(api):
    product = make_product(stock=3)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id)
    key = new_key()
    with simulator.outage():
        assert_error(
            commit(api, workflow_id, order_id, token, key=key), "PAYMENT_PROVIDER_ERROR", 503
        )
    assert WorkflowContext.objects.get(pk=workflow_id).current_step == "gift_selected"
    product.refresh_from_db()
    assert product.stock == 3

    retried = commit(api, workflow_id, order_id, token, key=key)

    assert retried.status == 200, retried.body
    assert retried.body["status"] == "completed"
    # One provider key per order: the rerun charged under the same key, on the same Payment row.
    payment = Payment.objects.get(order_id=order_id)
    assert (payment.attempt, payment.status) == (2, "succeeded")
    assert payment.provider_idempotency_key == f"order-{order_id}-charge"
    assert [c.status for c in charges_for(order_id)] == ["succeeded"]
    steps = [
        (s["step"], s["status"], s["attempt"])
        for s in api.call("get_order", {"order_id": order_id}).body["saga"]
    ]
    assert steps[-3:] == [
        ("reserve_items", "succeeded", 2),
        ("charge_card", "succeeded", 2),
        ("complete", "succeeded", 2),
    ]
    # A replay now returns the success, byte for byte.
    assert commit(api, workflow_id, order_id, token, key=key).raw == retried.raw
    assert_books_balance(product, initial={product.pk: 3})


def test_a_failed_order_replaced_by_a_newer_draft_cannot_be_retried(api):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id)
    key = new_key()
    with simulator.outage():
        assert_error(
            commit(api, workflow_id, order_id, token, key=key), "PAYMENT_PROVIDER_ERROR", 503
        )
    newer_id, _ = prepared(api, workflow_id, "pm_card_declined")
    error = assert_error(
        commit(api, workflow_id, order_id, token, key=key), "ORDER_NOT_COMMITTABLE", 409
    )
    assert newer_id in error["message"]
    assert order_of(order_id).status == OrderStatus.FAILED
    assert order_of(newer_id).status == OrderStatus.DRAFT
    assert Payment.objects.filter(order_id=order_id).count() == 1
    assert_books_balance(product, initial={product.pk: 5})


def test_only_the_workflows_current_draft_can_be_paid(api):
    """Two drafts of one workflow (e.g. model and widget racing): the replaced one is refused."""
    from gifts.models import WorkflowContext

    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    first_id, first_token = prepared(api, workflow_id)
    second_id = prepare(api, workflow_id, quantity=2).body["order_id"]  # other items: a new draft
    # Simulate the race: the first draft is still a live draft although the second replaced it.
    Order.objects.filter(pk=first_id).update(
        status="draft", confirmation_used_at=None, failure_code="", failure_message=""
    )
    assert workflow_order_id(workflow=WorkflowContext.objects.get(pk=workflow_id)) == uuid.UUID(
        second_id
    )
    error = assert_error(
        commit(api, workflow_id, first_id, first_token), "ORDER_NOT_COMMITTABLE", 409
    )
    assert second_id in error["message"]
    assert charges_for(first_id) == []
