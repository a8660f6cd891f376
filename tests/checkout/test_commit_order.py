"""The commerce tools end to end over REST: every test card, validation, gating, cancellation."""

from __future__ import annotations

import hashlib
import uuid
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from checkout.models import (
    Order,
    OrderStatus,
    Payment,
    PaymentStatus,
    Reservation,
    ReservationStatus,
    SimulatedCharge,
    SimulatedRefund,
)
from checkout.payments import gateway, simulator
from checkout.payments.provider import ProviderRejected
from checkout.payments.simulator import SimulatedProvider
from checkout.schemas import COUNTRY_CODES
from checkout.selectors import workflow_order_id
from checkout.sweeps import run_sweeps
from gifts.models import WorkflowContext
from tests.fixtures import (
    ALL_METHODS,
    BOTH_DATABASES,
    SHIPPING,
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
)
from tool_runtime.models import IdempotencyKey

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


def timeline(api, order_id) -> list[tuple[str, str]]:
    body = api.call("get_order", {"order_id": order_id}).body
    return [(step["step"], step["status"]) for step in body["saga"]]


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
    assert timeline(api, order_id) == steps
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
        assert timeline(api, order_id)[-2:] == [
            ("reconcile", "succeeded"),
            ("complete", "succeeded"),
        ]
        assert WorkflowContext.objects.get(pk=workflow_id).current_step == "completed"
    if method in ("pm_card_timeout_once", "pm_card_lost_response"):
        assert charges_for(order_id)[0].attempts == 2  # retried with the same key: one charge
    assert_books_balance(product, initial={product.pk: 5})


def test_get_payment_methods_lists_every_saved_card(api):
    workflow_id = gift_selected(api, make_product())
    response = api.call("get_payment_methods", {"workflow_id": workflow_id})
    assert response.status == 200
    methods = response.body["payment_methods"]
    assert [m["id"] for m in methods] == list(ALL_METHODS)
    assert methods[0]["label"] == "Visa •••• 4242"
    assert response.body["selected_payment_method_id"] is None


def test_commerce_tools_are_gated_before_a_gift_is_selected(api):
    workflow_id = api.call("start_gift_workflow", {}).body["workflow_id"]
    gated = api.call("get_payment_methods", {"workflow_id": workflow_id})
    error = assert_error(gated, "TOOL_NOT_AVAILABLE_IN_STEP", 409)
    assert error["details"]["current_step"] == "brief"
    key = new_key()
    fake_order = "9b1d5c7e-2f4a-4e8b-a6c3-0d2e4f6a8b10"
    error = assert_error(
        commit(api, workflow_id, fake_order, "token", key=key), "TOOL_NOT_AVAILABLE_IN_STEP", 409
    )
    assert "gift_selected" in error["message"]
    assert_error(prepare(api, workflow_id), "TOOL_NOT_AVAILABLE_IN_STEP", 409)
    # A refusal by the gate ran nothing, so the key is not spent on it.
    assert not IdempotencyKey.objects.filter(key=key).exists()


def test_prepare_returns_the_token_only_in_meta_and_stores_only_its_digest(api):
    product = make_product()
    workflow_id = gift_selected(api, product)
    response = prepare(api, workflow_id)
    assert response.status == 200
    body = response.body
    token = body["_meta"]["confirmation_token"]
    model_facing = {k: v for k, v in body.items() if k != "_meta"}
    assert token not in str(model_facing)
    assert body["status"] == "draft"
    assert body["gift"]["product_id"] == product.pk
    assert body["amount"] == "30.00" and body["currency"] == "USD"
    assert body["payment_method"] == {"id": "pm_card_visa", "label": "Visa •••• 4242"}
    assert body["shipping"] == SHIPPING
    assert body["current_step"] == "checkout"
    order = order_of(body["order_id"])
    assert order.confirmation_token_digest == hashlib.sha256(token.encode()).hexdigest()
    assert token not in str(Order.objects.filter(pk=order.pk).values().first())
    workflow = WorkflowContext.objects.get(pk=workflow_id)
    assert workflow_order_id(workflow=workflow) == order.pk
    assert order_of(order.pk).payment_method_id == "pm_card_visa"


def test_unknown_payment_method_lists_the_allowed_ids(api):
    workflow_id = gift_selected(api, make_product())
    error = assert_error(
        prepare(api, workflow_id, "pm_card_made_up"), "PAYMENT_METHOD_UNKNOWN", 422
    )
    assert error["field"] == "payment_method_id"
    assert error["allowed_values"] == list(ALL_METHODS)
    assert not Order.objects.exists()


def test_country_must_be_a_real_iso_code(api):
    workflow_id = gift_selected(api, make_product())
    error = assert_error(
        prepare(api, workflow_id, shipping={**SHIPPING, "country": "XX"}), "VALIDATION_ERROR", 422
    )
    assert error["field"] == "shipping.country"
    assert error["allowed_values"] == list(COUNTRY_CODES)
    assert len(COUNTRY_CODES) == len(set(COUNTRY_CODES)) == 249
    assert {"US", "PL", "UA", "CN", "DE"} <= set(COUNTRY_CODES)
    assert error["example"] == "US"
    accepted = prepare(api, workflow_id, shipping={**SHIPPING, "country": " pl "})
    assert accepted.status == 200, accepted.body
    assert accepted.body["shipping"]["country"] == "PL"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("postal_code", ""),
        ("name", "   "),
        ("city", None),
        ("line1", "x" * 201),
        ("name", "Ada\x00Lovelace"),
    ],
)
def test_shipping_fields_are_validated_by_name(api, field, value):
    workflow_id = gift_selected(api, make_product())
    error = assert_error(
        prepare(api, workflow_id, shipping={**SHIPPING, field: value}), "VALIDATION_ERROR", 422
    )
    assert error["field"] == f"shipping.{field}"


def test_missing_idempotency_key_is_its_own_error(api):
    workflow_id = gift_selected(api, make_product())
    response = api.call(
        "prepare_order",
        {"workflow_id": workflow_id, "payment_method_id": "pm_card_visa", "shipping": SHIPPING},
    )
    error = assert_error(response, "IDEMPOTENCY_KEY_REQUIRED", 400)
    assert error["field"] == "idempotency_key"
    assert error["example"]
    assert not Order.objects.exists()


@pytest.mark.parametrize("bad_key", ["short", "has spaces in it", "ключ-ключ-ключ", "x" * 201])
def test_idempotency_key_format_is_validated(api, bad_key):
    workflow_id = gift_selected(api, make_product())
    error = assert_error(prepare(api, workflow_id, key=bad_key), "VALIDATION_ERROR", 422)
    assert error["field"] == "idempotency_key"


def test_preparing_again_replaces_the_earlier_draft(api):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    first, _ = prepared(api, workflow_id)
    second, _ = prepared(api, workflow_id, "pm_card_declined")
    assert order_of(first).status == OrderStatus.CANCELLED
    assert order_of(second).status == OrderStatus.DRAFT
    assert (
        workflow_order_id(workflow=WorkflowContext.objects.get(pk=workflow_id))
        == order_of(second).pk
    )
    assert_books_balance(product, initial={product.pk: 5})
    product.refresh_from_db()
    assert product.stock == 4


def test_out_of_stock_when_the_last_unit_is_held_by_someone_else(api, other_api):
    product = make_product(stock=1)
    mine = gift_selected(api, product)
    theirs = gift_selected(other_api, product)
    prepared(other_api, theirs)
    error = assert_error(prepare(api, mine), "OUT_OF_STOCK", 409)
    assert error["retryable"] is False
    assert any("suggest_gifts" in action for action in error["next_actions"])
    product.refresh_from_db()
    assert product.stock == 0
    workflow = WorkflowContext.objects.get(pk=mine)
    assert workflow.current_step == "gift_selected" and workflow_order_id(workflow=workflow) is None
    assert_books_balance(product, initial={product.pk: 1})


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


def test_another_users_order_is_not_found(api, other_api):
    product = make_product()
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id)
    assert_error(other_api.call("get_order", {"order_id": order_id}), "NOT_FOUND", 404)
    cancel = other_api.call(
        "cancel_order", {"order_id": order_id, "reason": "mine now", "idempotency_key": new_key()}
    )
    assert_error(cancel, "NOT_FOUND", 404)
    their_workflow = gift_selected(other_api, product)
    assert_error(commit(other_api, their_workflow, order_id, token), "NOT_FOUND", 404)
    assert order_of(order_id).status == OrderStatus.DRAFT


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


# --- cancel_order ---------------------------------------------------------------------------------


def cancel(api, order_id, key=None):
    return api.call(
        "cancel_order",
        {"order_id": order_id, "reason": "Changed my mind", "idempotency_key": key or new_key()},
    )


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
    steps_before = timeline(api, order_id)
    again = cancel(api, order_id)
    assert again.status == 200
    assert again.body["already_cancelled"] is True and again.body["status"] == "cancelled"
    assert timeline(api, order_id) == steps_before
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
    assert timeline(api, order_id)[-3:] == [
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


# --- retries of a retryable failure, and the loop guard ----------------------------------------------


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


def test_loop_guard_stops_a_commit_that_keeps_failing(api):
    product = make_product(stock=3)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, "pm_card_timeout_always")
    key = new_key()
    for _ in range(3):
        assert_error(commit(api, workflow_id, order_id, token, key=key), "PAYMENT_TIMEOUT", 504)
    error = assert_error(
        commit(api, workflow_id, order_id, token, key=key), "RETRY_LIMIT_EXCEEDED", 429
    )
    assert error["retryable"] is False
    # One Payment row (one provider key) for the order, on its 3rd run: the 4th call ran none.
    assert Payment.objects.get(order_id=order_id).attempt == 3
    assert SimulatedCharge.objects.count() == 0
    assert_books_balance(product, initial={product.pk: 3})


def test_one_commit_stays_within_its_query_budget(api, django_assert_max_num_queries):
    workflow_id = gift_selected(api, make_product())
    order_id, token = prepared(api, workflow_id)
    # The key read with the loop guard's count beside it, the claim, workflow, order, the
    # workflow lock and conditional claim of the order, the saga (payment and step rows,
    # order/reservation/workflow updates), the workflow as it ended, the key settled, the call
    # log: 18 statements on the default DB, plus the 10 savepoints the test transaction adds (the
    # bearer token is cached; the simulator's ledger is another database).
    with django_assert_max_num_queries(28):
        response = commit(api, workflow_id, order_id, token, key="budget-key-0001")
    assert response.status == 200
    # A replay is one indexed read of the key, the loop guard's count beside it, and the
    # call-log row.
    with django_assert_max_num_queries(2):
        replay = commit(api, workflow_id, order_id, token, key="budget-key-0001")
    assert replay.raw == response.raw


def test_no_new_draft_while_the_workflows_payment_is_pending(api, settings):
    settings.SIMULATOR_PENDING_SETTLE_SECONDS = 3600
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, "pm_card_pending")
    assert commit(api, workflow_id, order_id, token).body["status"] == "payment_pending"
    error = assert_error(prepare(api, workflow_id), "ORDER_IN_PROGRESS", 409)
    assert error["details"] == {"order_id": order_id, "order_status": "payment_pending"}
    assert Order.objects.count() == 1
    assert_books_balance(product, initial={product.pk: 5})


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


def test_only_the_workflows_current_draft_can_be_paid(api):
    """Two drafts of one workflow (e.g. model and widget racing): the replaced one is refused."""
    from gifts.models import WorkflowContext

    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    first_id, first_token = prepared(api, workflow_id)
    second_id, _ = prepared(api, workflow_id)
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
