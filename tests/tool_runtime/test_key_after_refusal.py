"""A call refused as invalid never burns its idempotency key; a call that acted replays what it
ended in (a draft made, a decline), and a replayed decline never charges."""

from __future__ import annotations

import pytest

from checkout.models import Payment, SimulatedCharge, SimulatedChargeRequest
from tests.fixtures import (
    BOTH_DATABASES,
    SHIPPING,
    assert_error,
    assert_error_body,
    commit,
    gift_selected,
    make_product,
    new_key,
    prepare,
    prepared,
)
from tests.live_server import McpTestClient
from tool_runtime.models import IdempotencyKey
from tool_runtime.principals import issue_api_token

pytestmark = pytest.mark.django_db(databases=BOTH_DATABASES)


def test_a_corrected_retry_under_the_same_key_succeeds(api):
    workflow_id = gift_selected(api, make_product())
    key = new_key()
    refused = prepare(api, workflow_id, "pm_card_made_up", key=key)
    assert_error(refused, "PAYMENT_METHOD_UNKNOWN", 422)
    assert refused.error["error_type"] == "validation"
    assert not IdempotencyKey.objects.filter(key=key).exists()

    corrected = prepare(api, workflow_id, "pm_card_visa", key=key)

    assert corrected.status == 200, corrected.body
    assert corrected.body["payment_method"]["id"] == "pm_card_visa"
    again = prepare(api, workflow_id, "pm_card_visa", key=key)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.body["order_id"] == corrected.body["order_id"]


def test_a_schema_refusal_leaves_no_key_either(api):
    workflow_id = gift_selected(api, make_product())
    key = new_key()
    bad = prepare(api, workflow_id, key=key, shipping={**SHIPPING, "country": "XX"})
    assert_error(bad, "VALIDATION_ERROR", 422)
    assert not IdempotencyKey.objects.filter(key=key).exists()
    assert prepare(api, workflow_id, key=key).status == 200


def test_a_call_that_acted_still_replays_and_other_arguments_are_refused(api):
    workflow_id = gift_selected(api, make_product())
    key = new_key()
    first = prepare(api, workflow_id, key=key)
    assert first.status == 200
    replay = prepare(api, workflow_id, key=key)
    assert replay.headers["Idempotent-Replayed"] == "true"
    assert replay.body["order_id"] == first.body["order_id"]
    reused = prepare(api, workflow_id, "pm_card_declined", key=key)
    error = assert_error(reused, "IDEMPOTENCY_KEY_REUSED", 422)
    assert "acted" in error["message"] and "keeps no key" in error["message"]


def test_a_replayed_decline_never_charges(api):
    workflow_id = gift_selected(api, make_product())
    order_id, token = prepared(api, workflow_id, "pm_card_declined")
    key = new_key()
    declined = commit(api, workflow_id, order_id, token, key=key)
    assert_error(declined, "CARD_DECLINED", 402)
    requests = SimulatedChargeRequest.objects.get().attempts
    charges = list(SimulatedCharge.objects.values_list("charge_id", "attempts"))

    replay = commit(api, workflow_id, order_id, token, key=key)

    assert replay.headers["Idempotent-Replayed"] == "true"
    assert replay.body["error"] == declined.body["error"]
    assert SimulatedChargeRequest.objects.get().attempts == requests
    assert list(SimulatedCharge.objects.values_list("charge_id", "attempts")) == charges
    assert Payment.objects.filter(order_id=order_id).count() == 1


@pytest.mark.django_db(transaction=True, databases=BOTH_DATABASES)
@pytest.mark.usefixtures("demo_catalog")
def test_over_mcp_a_refusal_keeps_no_key_and_the_corrected_call_runs(live_url, user, api):
    workflow_id = gift_selected(api, make_product())
    client = McpTestClient(live_url, token=issue_api_token(user=user))
    key = new_key()
    arguments = {
        "workflow_id": workflow_id,
        "payment_method_id": "pm_card_made_up",
        "shipping": {**SHIPPING, "country": "XX"},
        "idempotency_key": key,
    }
    refused = client.call("prepare_order", arguments)
    error = assert_error_body(refused.structured_content, "VALIDATION_ERROR")
    fields = [entry["field"] for entry in error["details"]["invalid_fields"]]
    assert fields == ["shipping.country", "payment_method_id"]
    assert not IdempotencyKey.objects.filter(key=key).exists()

    fixed = client.call(
        "prepare_order", {**arguments, "payment_method_id": "pm_card_visa", "shipping": SHIPPING}
    )
    assert fixed.is_error is False, fixed.structured_content
