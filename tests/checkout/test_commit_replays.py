"""A commit_order key never keeps an answer that may still change: while the order is being
paid, a repeat with the same key answers the order as it is now; once it is final, that answer
is stored and replayed byte for byte. Also across a real SIGKILL of a server mid-commit."""

from __future__ import annotations

import pytest

from checkout.ledger import check_ledger
from checkout.sweeps import run_sweeps
from tests.fixtures import (
    BOTH_DATABASES,
    commit,
    gift_selected,
    make_product,
    new_key,
    prepared,
)
from tool_runtime.models import IdempotencyKey, IdempotencyStatus

pytestmark = pytest.mark.django_db(databases=BOTH_DATABASES)


def order_as_get_order_says(api, order_id: str) -> dict:
    response = api.call("get_order", {"order_id": order_id})
    assert response.status == 200, response.body
    return response.body


def assert_replay_agrees_with_get_order(replay, order: dict) -> None:
    """A repeat's answer says what get_order says: the status, or the failure with its code."""
    if replay.status == 200:
        assert replay.body["status"] == order["status"], (replay.body, order)
    else:
        error = replay.body["error"]
        assert order["status"] in ("failed", "cancelled"), (replay.body, order)
        assert error["details"]["order_status"] == order["status"]
        failure = order["failure"] or {}
        assert error["code"] in (failure.get("code"), "ORDER_NOT_COMMITTABLE"), (
            error,
            order,
        )


def test_a_pending_commit_is_answered_afresh_until_final_then_replayed_unchanged(api):
    product = make_product()
    workflow_id = gift_selected(api, product)
    order_id, token = prepared(api, workflow_id, "pm_card_pending")
    key = new_key()

    first = commit(api, workflow_id, order_id, token, key=key)
    assert first.status == 200 and first.body["status"] == "payment_pending", first.body
    row = IdempotencyKey.objects.get(tool="commit_order", key=key)
    # Nothing that may still change is kept under the key.
    assert row.status == IdempotencyStatus.AWAITING_FINAL
    assert row.response_body == ""

    while_pending = commit(api, workflow_id, order_id, token, key=key)
    assert while_pending.body["status"] == "payment_pending"
    assert while_pending.headers["Idempotent-Replayed"] == "true"

    assert run_sweeps(older_than_seconds=0).reconciled == 1
    settled = commit(api, workflow_id, order_id, token, key=key)
    again = commit(api, workflow_id, order_id, token, key=key)

    assert settled.status == 200 and settled.body["status"] == "completed", settled.body
    assert again.raw == settled.raw  # stored once final: byte for byte from now on
    row.refresh_from_db()
    assert row.status == IdempotencyStatus.COMPLETED
    assert_replay_agrees_with_get_order(again, order_as_get_order_says(api, order_id))
    assert check_ledger().ok
