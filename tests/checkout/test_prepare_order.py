"""prepare_order over REST, and what comes before it: the saved cards, the step gate, the
shipping address and the idempotency key validated field by field, one draft per workflow,
holding its stock."""

from __future__ import annotations

import hashlib

import pytest

from checkout.models import Order, OrderStatus
from checkout.schemas import COUNTRY_CODES
from checkout.selectors import workflow_order_id
from gifts.models import WorkflowContext
from tests.fixtures import (
    ALL_METHODS,
    BOTH_DATABASES,
    SHIPPING,
    assert_books_balance,
    assert_error,
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


def test_get_payment_methods_lists_every_saved_card(api):
    workflow_id = gift_selected(api, make_product())
    response = api.call("get_payment_methods", {"workflow_id": workflow_id})
    assert response.status == 200
    methods = response.body["payment_methods"]
    # The test cards stand for saved cards; a new card is paid on the payment page.
    assert [m["id"] for m in methods] == [
        *ALL_METHODS,
        "pm_card_authentication_required",
        "new_card",
    ]
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
    assert error["allowed_values"] == [*ALL_METHODS, "pm_card_authentication_required", "new_card"]
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


def test_preparing_again_with_the_same_items_reprices_the_draft_and_keeps_its_hold(api):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    first, first_token = prepared(api, workflow_id)
    hold = order_of(first).reservations.get()
    second, second_token = prepared(api, workflow_id, "pm_card_declined")
    assert second == first and second_token != first_token
    order = order_of(first)
    assert order.status == OrderStatus.DRAFT and order.payment_method_id == "pm_card_declined"
    assert list(order.reservations.values_list("pk", "status")) == [(hold.pk, "held")]
    assert_books_balance(product, initial={product.pk: 5})
    product.refresh_from_db()
    assert product.stock == 4


def test_preparing_again_with_another_quantity_replaces_the_earlier_draft(api):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    first, _ = prepared(api, workflow_id)
    response = prepare(api, workflow_id, quantity=2)
    assert response.status == 200, response.body
    second = response.body["order_id"]
    assert order_of(first).status == OrderStatus.CANCELLED
    assert order_of(second).status == OrderStatus.DRAFT
    assert (
        workflow_order_id(workflow=WorkflowContext.objects.get(pk=workflow_id))
        == order_of(second).pk
    )
    assert_books_balance(product, initial={product.pk: 5})
    product.refresh_from_db()
    assert product.stock == 3


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
