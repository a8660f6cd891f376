"""Idempotency keys: replay byte for byte, reuse, expiry, in-progress, take-over."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from checkout import services
from checkout.models import Order, OrderStatus, Payment, SimulatedCharge
from checkout.schemas import PrepareOrderInput
from tests.fixtures import (
    BOTH_DATABASES,
    SHIPPING,
    assert_books_balance,
    assert_error,
    charges_for,
    commit,
    gift_selected,
    make_product,
    new_key,
    prepare,
    prepared,
)
from tool_runtime import idempotency
from tool_runtime.errors import ToolError
from tool_runtime.idempotency import arguments_fingerprint, purge_expired_keys
from tool_runtime.models import IdempotencyKey, IdempotencyStatus
from tool_runtime.outcome import error_outcome
from tool_runtime.principals import principal_label

pytestmark = pytest.mark.django_db(databases=BOTH_DATABASES)


def prepare_args(workflow_id: str, key: str) -> dict:
    return {
        "workflow_id": workflow_id,
        "payment_method_id": "pm_card_visa",
        "shipping": SHIPPING,
        "idempotency_key": key,
    }


def key_row(user, key: str, tool: str = "prepare_order") -> IdempotencyKey:
    return IdempotencyKey.objects.get(principal=principal_label(user), tool=tool, key=key)


def plant_key(user, workflow_id: str, key: str, **fields) -> IdempotencyKey:
    """A key row as a concurrent (or dead) first call would have left it."""
    args = PrepareOrderInput.model_validate(prepare_args(workflow_id, key))
    now = timezone.now()
    defaults = {
        "fingerprint": arguments_fingerprint(args),
        "status": IdempotencyStatus.IN_PROGRESS,
        "locked_at": now,
        "expires_at": now + timedelta(hours=1),
    }
    return IdempotencyKey.objects.create(
        principal=principal_label(user), tool="prepare_order", key=key, **{**defaults, **fields}
    )


def test_prepare_replay_is_byte_for_byte_and_makes_nothing_new(api):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    key = new_key()
    first = prepare(api, workflow_id, key=key)
    second = prepare(api, workflow_id, key=key)
    assert first.status == second.status == 200
    assert second.raw == first.raw
    assert second.headers["Idempotent-Replayed"] == "true"
    assert Order.objects.count() == 1
    product.refresh_from_db()
    assert product.stock == 4
    # The widget lost the first answer: the replay still carries its confirmation token.
    assert second.body["_meta"]["confirmation_token"] == first.body["_meta"]["confirmation_token"]


def test_commit_replay_after_success_is_byte_for_byte_with_one_charge(api):
    workflow_id = gift_selected(api, make_product())
    order_id, token = prepared(api, workflow_id)
    key = new_key()
    first = commit(api, workflow_id, order_id, token, key=key)
    assert first.body["status"] == "completed"
    # The workflow has moved on to completed; the stored answer still comes back unchanged.
    replay = commit(
        api, workflow_id, order_id, token, key=key, HTTP_X_CORRELATION_ID="another-call"
    )
    assert replay.raw == first.raw
    assert replay.headers["X-Correlation-ID"] == "another-call"
    assert len(charges_for(order_id)) == 1
    assert Payment.objects.filter(order_id=order_id).count() == 1


def test_a_decline_is_replayed_not_retried(api, user):
    workflow_id = gift_selected(api, make_product())
    order_id, token = prepared(api, workflow_id, "pm_card_declined")
    key = new_key()
    first = commit(api, workflow_id, order_id, token, key=key)
    replay = commit(api, workflow_id, order_id, token, key=key)
    assert_error(first, "CARD_DECLINED", 402)
    assert replay.raw == first.raw and replay.status == 402
    assert len(charges_for(order_id)) == 1
    assert key_row(user, key, "commit_order").status == IdempotencyStatus.COMPLETED


def test_same_key_with_other_arguments_is_refused(api):
    workflow_id = gift_selected(api, make_product())
    key = new_key()
    assert prepare(api, workflow_id, key=key).status == 200
    error = assert_error(
        prepare(api, workflow_id, "pm_card_declined", key=key), "IDEMPOTENCY_KEY_REUSED", 422
    )
    assert error["retryable"] is False and error["field"] == "idempotency_key"
    assert Order.objects.count() == 1


def test_keys_are_scoped_to_principal_and_tool(api, other_api):
    product = make_product(stock=5)
    key = new_key()
    mine = gift_selected(api, product)
    theirs = gift_selected(other_api, product)
    assert prepare(api, mine, key=key).status == 200
    assert prepare(other_api, theirs, key=key).status == 200  # another principal: a new call
    order = Order.objects.get(workflow_id=mine)
    cancelled = api.call(
        "cancel_order", {"order_id": str(order.pk), "reason": "no longer", "idempotency_key": key}
    )
    assert cancelled.status == 200  # another tool: a new call
    assert Order.objects.count() == 2


def test_expired_key_runs_anew(api, user):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    key = new_key()
    first = prepare(api, workflow_id, key=key)
    IdempotencyKey.objects.filter(key=key).update(expires_at=timezone.now() - timedelta(seconds=1))
    again = prepare(api, workflow_id, key=key)
    assert again.status == 200 and "Idempotent-Replayed" not in again.headers
    # It ran again: preparing the same gift again re-prices the workflow's draft in place.
    assert again.body["order_id"] == first.body["order_id"]
    assert Order.objects.count() == 1
    # Ran again: the draft was re-priced, with a new confirmation token.
    token = again.body["_meta"]["confirmation_token"]
    assert token != first.body["_meta"]["confirmation_token"]
    row = key_row(user, key)
    assert row.status == IdempotencyStatus.COMPLETED and row.runs == 2
    assert row.expires_at > timezone.now() + timedelta(hours=23)


def test_expired_key_may_even_carry_other_arguments(api, user):
    workflow_id = gift_selected(api, make_product())
    key = new_key()
    prepare(api, workflow_id, key=key)
    IdempotencyKey.objects.filter(key=key).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert prepare(api, workflow_id, "pm_card_declined", key=key).status == 200


def test_a_call_still_running_answers_in_progress(api, user):
    workflow_id = gift_selected(api, make_product())
    key = new_key()
    plant_key(user, workflow_id, key)
    error = assert_error(prepare(api, workflow_id, key=key), "IDEMPOTENCY_IN_PROGRESS", 409)
    assert error["retryable"] is True
    assert not Order.objects.exists()


def test_a_stale_lock_is_taken_over(api, user, settings):
    workflow_id = gift_selected(api, make_product())
    key = new_key()
    stale = timezone.now() - timedelta(seconds=settings.IDEMPOTENCY_LOCK_TIMEOUT_SECONDS + 1)
    plant_key(user, workflow_id, key, locked_at=stale)
    response = prepare(api, workflow_id, key=key)
    assert response.status == 200, response.body
    row = key_row(user, key)
    assert row.status == IdempotencyStatus.COMPLETED and row.runs == 2 and row.locked_at is None


def test_after_a_take_over_the_next_caller_waits(api, user, settings):
    """The taker holds a fresh lock: a second caller is told to wait, it does not run too.
    (The race between two takers: checkout/races/test_idempotency_keys.py, real threads.)"""
    workflow_id = gift_selected(api, make_product())
    key = new_key()
    stale = timezone.now() - timedelta(seconds=settings.IDEMPOTENCY_LOCK_TIMEOUT_SECONDS + 1)
    row = plant_key(user, workflow_id, key, locked_at=stale)
    args = PrepareOrderInput.model_validate(prepare_args(workflow_id, key))
    context = type("Context", (), {"principal": user, "correlation_id": "c1"})()
    scope = {"principal": principal_label(user), "tool": "prepare_order", "key": key}
    first = idempotency._stored_key(scope)
    claim = idempotency._claim(scope, arguments_fingerprint(args), context, first)
    assert claim == idempotency.Claim(row.pk, 2)
    assert_error(prepare(api, workflow_id, key=key), "IDEMPOTENCY_IN_PROGRESS", 409)
    assert not Order.objects.exists()


def test_a_crash_inside_the_tool_leaves_the_key_retryable(api, user, monkeypatch):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    key = new_key()
    real = services.prepare_order
    calls = []

    def crash_once(**kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("disk on fire")
        return real(**kwargs)

    monkeypatch.setattr(services, "prepare_order", crash_once)
    crashed = prepare(api, workflow_id, key=key)
    error = assert_error(crashed, "INTERNAL_ERROR", 500)
    assert "disk on fire" not in str(crashed.body)
    assert key_row(user, key).status == IdempotencyStatus.RETRYABLE_FAILURE
    again = prepare(api, workflow_id, key=key)
    assert again.status == 200 and error["retryable"] is True
    assert key_row(user, key).status == IdempotencyStatus.COMPLETED


def test_retryable_failures_are_stored_as_such_and_run_again(api, user):
    product = make_product(stock=5)
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, "pm_card_timeout_always")
    key = new_key()
    assert_error(commit(api, workflow_id, order_id, token, key=key), "PAYMENT_TIMEOUT", 504)
    assert key_row(user, key, "commit_order").status == IdempotencyStatus.RETRYABLE_FAILURE
    assert_error(commit(api, workflow_id, order_id, token, key=key), "PAYMENT_TIMEOUT", 504)
    # It really ran again: the order's one Payment row is on its 2nd run.
    assert Payment.objects.get(order_id=order_id).attempt == 2
    assert SimulatedCharge.objects.count() == 0
    assert Order.objects.get(pk=order_id).status == OrderStatus.FAILED
    assert_books_balance(product, initial={product.pk: 5})


@pytest.mark.parametrize("final", [True, False], ids=["final", "not_final"])
def test_a_refusal_is_kept_under_the_key_only_when_final(user, final):
    """A business refusal is an answer like any other: kept and replayed when final; one about a
    state that may still change (ToolError(final=False)) is not kept, so repeats ask afresh."""
    now = timezone.now()
    row = IdempotencyKey.objects.create(
        principal=principal_label(user),
        tool="cancel_order",
        key=new_key(),
        fingerprint="f",
        status=IdempotencyStatus.IN_PROGRESS,
        correlation_id="c",
        locked_at=now,
        expires_at=now + timedelta(days=1),
    )
    refusal = ToolError("ORDER_NOT_CANCELLABLE", "Wait until it settles.", final=final)
    outcome = error_outcome(name="cancel_order", error=refusal, correlation_id="c")

    idempotency.settle(idempotency.Claim(row.pk, row.runs), outcome)

    row.refresh_from_db()
    if final:
        assert row.status == IdempotencyStatus.COMPLETED and row.http_status == 409
        assert '"ORDER_NOT_CANCELLABLE"' in row.response_body
    else:
        assert row.status == IdempotencyStatus.AWAITING_FINAL and row.response_body == ""


def test_cancel_order_requires_a_key(api):
    workflow_id = gift_selected(api, make_product())
    order_id, _ = prepared(api, workflow_id)
    error = assert_error(
        api.call("cancel_order", {"order_id": order_id, "reason": "not needed"}),
        "IDEMPOTENCY_KEY_REQUIRED",
        400,
    )
    assert error["field"] == "idempotency_key"
    assert Order.objects.get(pk=order_id).status == OrderStatus.DRAFT


def test_purge_deletes_only_expired_keys_that_nobody_holds(user, settings):
    now = timezone.now()
    long_ago = now - timedelta(days=2)
    stale = now - timedelta(seconds=settings.IDEMPOTENCY_LOCK_TIMEOUT_SECONDS + 1)
    common = {"principal": "user:1", "tool": "prepare_order", "fingerprint": "f"}
    IdempotencyKey.objects.create(
        key="expired-done", status="completed", expires_at=long_ago, **common
    )
    IdempotencyKey.objects.create(
        key="expired-dead", status="in_progress", locked_at=stale, expires_at=long_ago, **common
    )
    IdempotencyKey.objects.create(
        key="expired-running", status="in_progress", locked_at=now, expires_at=long_ago, **common
    )
    IdempotencyKey.objects.create(
        key="fresh-done", status="completed", expires_at=now + timedelta(hours=1), **common
    )
    assert purge_expired_keys() == 2
    assert set(IdempotencyKey.objects.values_list("key", flat=True)) == {
        "expired-running",
        "fresh-done",
    }
