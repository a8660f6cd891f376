"""cancel_order over REST: a draft releases its stock, a paid order is refunded (only what is
left of it) and released, twice is a no-op, and a pending payment, a shipped gift or an outage
refuses and changes nothing. A refusal while the payment is open is not kept under the key: the
same key cancels once the payment settles."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.utils import translation

from checkout import fulfilment
from checkout.ledger import check_ledger
from checkout.models import (
    OrderStatus,
    Payment,
    PaymentStatus,
    SimulatedRefund,
)
from checkout.payments import gateway, simulator
from checkout.selectors import workflow_order_id
from checkout.sweeps import run_sweeps
from gifts.models import Product, WorkflowContext
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
    paid_order,
    prepared,
    saga_timeline,
)
from tool_runtime.errors import ERROR_CATALOG
from tool_runtime.models import IdempotencyKey, IdempotencyStatus

pytestmark = pytest.mark.django_db(databases=BOTH_DATABASES)


def test_cancel_a_draft_releases_the_stock(api):
    product = make_product(stock=3)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id)
    response = cancel(api, order_id)
    assert response.status == 200, response.body
    assert response.body["status"] == "cancelled" and response.body["already_cancelled"] is False
    assert response.body["refunded_amount"] == "0.00"
    workflow = WorkflowContext.objects.get(pk=workflow_id)
    assert workflow.current_step == "gift_selected" and workflow_order_id(workflow=workflow) is None
    assert_error(commit(api, workflow_id, order_id, token), "ORDER_NOT_COMMITTABLE", 409)
    assert_books_balance(product, initial={product.pk: 3})


def test_cancel_twice_is_a_no_op_success(api):
    product = make_product(stock=3)
    workflow_id = gift_selected(api, product)
    order_id, _ = prepared(api, workflow_id)
    assert cancel(api, order_id).status == 200
    steps_before = saga_timeline(api, order_id)
    again = cancel(api, order_id)
    assert again.status == 200
    assert again.body["already_cancelled"] is True and again.body["status"] == "cancelled"
    assert saga_timeline(api, order_id) == steps_before
    assert_books_balance(product, initial={product.pk: 3})


def test_cancel_after_a_partial_refund_refunds_and_reports_only_the_rest(api):
    workflow_id = gift_selected(api, make_product(stock=3, price="30.00"))
    order_id, token = prepared(api, workflow_id)
    assert commit(api, workflow_id, order_id, token).status == 200
    payment = Payment.objects.get(order_id=order_id)
    # 10.00 refunded at the provider earlier, and recorded (as its webhook records it).
    gateway.refund(
        charge_id=payment.provider_charge_id, amount=Decimal("10.00"), idempotency_key="p-1"
    )
    Payment.objects.filter(pk=payment.pk).update(refunded_amount=Decimal("10.00"))

    response = cancel(api, order_id)

    assert response.body["refunded_amount"] == "20.00"
    assert "Refunded 20.00 USD," in response.body["message"], response.body["message"]
    [charge] = charges_for(order_id)
    assert charge.refunded_amount == charge.amount == Decimal("30.00")


def test_cancel_after_completion_refunds_releases_and_fails_the_workflow(api):
    product = make_product(stock=3)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id)
    assert commit(api, workflow_id, order_id, token).status == 200
    product.refresh_from_db()
    assert product.stock == 2
    response = cancel(api, order_id)
    assert response.status == 200, response.body
    assert response.body["status"] == "cancelled" and response.body["refunded_amount"] == "30.00"
    payment = Payment.objects.get(order_id=order_id)
    assert payment.status == PaymentStatus.REFUNDED and payment.refunded_amount == payment.amount
    [charge] = charges_for(order_id)
    assert charge.refunded_amount == charge.amount
    assert SimulatedRefund.objects.count() == 1
    assert WorkflowContext.objects.get(pk=workflow_id).current_step == "failed"
    assert saga_timeline(api, order_id)[-3:] == [
        ("refund", "succeeded"),
        ("cancel_reservation", "succeeded"),
        ("cancel_order", "succeeded"),
    ]
    assert cancel(api, order_id).body["already_cancelled"] is True
    assert SimulatedRefund.objects.count() == 1
    assert_books_balance(product, initial={product.pk: 3})


def test_cancel_while_the_payment_is_pending_is_refused_with_why(api, settings):
    settings.SIMULATOR_PENDING_SETTLE_SECONDS = 3600
    workflow_id = gift_selected(api, make_product())
    order_id, token = prepared(api, workflow_id, "pm_card_pending")
    assert commit(api, workflow_id, order_id, token).body["status"] == "payment_pending"
    error = assert_error(cancel(api, order_id), "ORDER_NOT_CANCELLABLE", 409)
    assert "payment_pending" in error["message"]
    assert order_of(order_id).status == OrderStatus.PAYMENT_PENDING


def test_cancel_during_a_provider_outage_changes_nothing_and_can_be_retried(api):
    product = make_product(stock=3)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id)
    assert commit(api, workflow_id, order_id, token).status == 200
    key = new_key()
    with simulator.outage():
        error = assert_error(cancel(api, order_id, key), "PAYMENT_PROVIDER_ERROR", 503)
    assert error["retryable"] is True
    assert order_of(order_id).status == OrderStatus.COMPLETED
    assert Payment.objects.get(order_id=order_id).status == PaymentStatus.SUCCEEDED
    assert_books_balance(product, initial={product.pk: 3})
    # The retryable failure is not replayed: the same key runs the cancellation again.
    retried = cancel(api, order_id, key)
    assert retried.status == 200 and retried.body["status"] == "cancelled"
    assert_books_balance(product, initial={product.pk: 3})


def test_cancelling_a_retryably_failed_order_stops_any_retry(api):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id)
    key = new_key()
    with simulator.outage():
        assert_error(
            commit(api, workflow_id, order_id, token, key=key), "PAYMENT_PROVIDER_ERROR", 503
        )
    cancelled = cancel(api, order_id)
    assert cancelled.status == 200 and cancelled.body["already_cancelled"] is True
    assert_error(commit(api, workflow_id, order_id, token, key=key), "CONFIRMATION_REQUIRED", 403)
    assert Payment.objects.filter(order_id=order_id).count() == 1  # never charged again
    assert_books_balance(product, initial={product.pk: 5})


# --- a gift on its way ---------------------------------------------------------------------------


def shipped(api, django_user_model, *, delivered: bool):
    """A paid order the warehouse marked shipped (and delivered), as staff do."""
    placed = paid_order(api)
    staff = django_user_model.objects.create_user(username="warehouse", is_staff=True)
    [report] = fulfilment.mark_shipped(
        shipments=[fulfilment.Shipment(placed.order_id, "DHL", "JD0142")], actor=staff
    )
    assert report.outcome == "done", report.detail
    if delivered:
        [report] = fulfilment.mark_delivered(order_ids=[placed.order_id], actor=staff)
        assert report.outcome == "done", report.detail
    return placed


@pytest.mark.parametrize("delivered", [False, True], ids=["shipped", "delivered"])
def test_a_shipped_gift_is_refused_and_nothing_changes(
    api, demo_catalog, django_user_model, delivered
):
    placed = shipped(api, django_user_model, delivered=delivered)
    stock_before = Product.objects.get(pk=placed.product_id).stock
    steps_before = saga_timeline(api, placed.order_id)
    key = new_key()

    response = cancel(api, placed.order_id, key)

    error = assert_error(response, "ORDER_ALREADY_SHIPPED", 409)
    state = "delivered" if delivered else "shipped"
    assert f"already {state} (DHL JD0142)" in error["message"], error["message"]
    assert "contact the shop for a return" in error["message"]
    assert error["details"]["carrier"] == "DHL"
    assert error["details"]["tracking_number"] == "JD0142"
    assert error["details"]["fulfilment_status"] == state
    order = order_of(placed.order_id)
    assert (order.status, order.fulfilment_status) == (OrderStatus.COMPLETED, state)
    payment = Payment.objects.get(order_id=placed.order_id)
    assert payment.status == PaymentStatus.SUCCEEDED and payment.refunded_amount == 0
    [charge] = charges_for(placed.order_id)
    assert charge.refunded_amount == 0 and SimulatedRefund.objects.count() == 0
    assert Product.objects.get(pk=placed.product_id).stock == stock_before
    assert saga_timeline(api, placed.order_id) == steps_before
    assert WorkflowContext.objects.get(pk=placed.workflow_id).current_step == "completed"
    assert check_ledger().ok
    # A shipped gift stays shipped: the refusal is final, kept and replayed unchanged.
    again = cancel(api, placed.order_id, key)
    assert again.raw == response.raw and again.headers["Idempotent-Replayed"] == "true"


def test_an_unshipped_paid_order_still_cancels_and_refunds(api, demo_catalog):
    placed = paid_order(api)
    response = cancel(api, placed.order_id)
    assert response.status == 200, response.body
    assert response.body["status"] == "cancelled" and response.body["refunded_amount"] != "0.00"
    assert Payment.objects.get(order_id=placed.order_id).status == PaymentStatus.REFUNDED
    assert check_ledger().ok


@pytest.mark.parametrize("language", ["pl", "ru", "uk", "zh-hans"])
def test_the_shipped_banner_is_translated(language):
    banner = ERROR_CATALOG["ORDER_ALREADY_SHIPPED"].banner
    english = str(banner)
    with translation.override(language):
        assert str(banner) not in ("", english)


# --- a refusal while the payment is open is not kept ----------------------------------------------


def test_a_cancel_refused_while_pending_cancels_with_the_same_key_once_settled(api):
    product = make_product(stock=3)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, "pm_card_pending")
    assert commit(api, workflow_id, order_id, token).body["status"] == "payment_pending"
    key = new_key()

    refused = cancel(api, order_id, key)
    assert_error(refused, "ORDER_NOT_CANCELLABLE", 409)
    row = IdempotencyKey.objects.get(tool="cancel_order", key=key)
    # Nothing that may still change is kept under the key.
    assert row.status == IdempotencyStatus.AWAITING_FINAL and row.response_body == ""
    while_pending = cancel(api, order_id, key)
    assert_error(while_pending, "ORDER_NOT_CANCELLABLE", 409)
    assert order_of(order_id).status == OrderStatus.PAYMENT_PENDING

    assert run_sweeps(older_than_seconds=0).reconciled == 1
    assert order_of(order_id).status == OrderStatus.COMPLETED
    settled = cancel(api, order_id, key)
    again = cancel(api, order_id, key)

    assert settled.status == 200, settled.body
    assert settled.body["status"] == "cancelled" and settled.body["refunded_amount"] == "30.00"
    assert settled.body["already_cancelled"] is False
    assert again.raw == settled.raw  # stored once final: byte for byte from now on
    row.refresh_from_db()
    assert row.status == IdempotencyStatus.COMPLETED
    assert Payment.objects.get(order_id=order_id).status == PaymentStatus.REFUNDED
    assert SimulatedRefund.objects.count() == 1  # the replay refunded nothing more
    assert_books_balance(product, initial={product.pk: 3})
    assert check_ledger().ok
