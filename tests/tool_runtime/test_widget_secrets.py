"""The widget's secret (the confirmation token): checked in the executor before anything sends
or stores a result, and sealed (encrypted) where an idempotency key keeps it for replays."""

from __future__ import annotations

import dataclasses
import json

import pytest

from tests.fixtures import BOTH_DATABASES, gift_selected, make_product, new_key, prepare
from tool_runtime.models import IdempotencyKey, IdempotencyStatus
from tool_runtime.outcome import SecretLeakError, ToolOutcome, refuse_leaked_secrets
from tool_runtime.registry import REGISTRY, ToolResult

pytestmark = pytest.mark.django_db(databases=BOTH_DATABASES)
TOKEN = "ct_very-secret-token"


def outcome(body: dict, meta: dict) -> ToolOutcome:
    return ToolOutcome("prepare_order", {"ok": True, **body}, meta, 200, "cid")


def test_a_token_in_the_body_fails_closed():
    with pytest.raises(SecretLeakError):
        refuse_leaked_secrets(outcome({"note": f"use {TOKEN}"}, {"confirmation_token": TOKEN}))


def test_a_token_field_in_the_body_fails_closed_even_when_meta_has_none():
    with pytest.raises(SecretLeakError):
        refuse_leaked_secrets(outcome({"draft": [{"confirmation_token": "x"}]}, {}))


@pytest.mark.parametrize(
    "body",
    [
        {"order": {"lines": [{"sku": "x", "confirmation_token": None}]}},  # nested, any value
        {"confirmation_token": ""},
        {1: {"confirmation_token": 0}},  # under a non-string key
    ],
)
def test_a_token_key_at_any_depth_fails_closed(body):
    with pytest.raises(SecretLeakError):
        refuse_leaked_secrets(outcome(body, {}))


@pytest.mark.parametrize(
    "body",
    [
        {"note": "the confirmation_token is shown in the widget"},  # the word, not a key
        {"note": '"confirmation_token": quoted in a text'},  # quotes inside a string are escaped
        {"my_confirmation_token": "x", "confirmation_tokens": ["y"]},  # other keys
    ],
)
def test_the_word_or_a_longer_key_is_not_a_leak(body):
    refuse_leaked_secrets(outcome(body, {"confirmation_token": TOKEN}))


def test_a_token_only_in_meta_passes():
    refuse_leaked_secrets(outcome({"order_id": "o1"}, {"confirmation_token": TOKEN}))


@pytest.fixture
def leaky_prepare(monkeypatch):
    """prepare_order as a buggy handler would write it: the token in the model-visible body."""
    spec = REGISTRY["prepare_order"]

    def leaky(context, args):
        result = spec.handler(context, args)
        token = result.meta["confirmation_token"]
        data = result.data.model_copy(update={"next_step": f"commit with {token}"})
        return ToolResult(data, result.meta)

    monkeypatch.setitem(REGISTRY, "prepare_order", dataclasses.replace(spec, handler=leaky))
    return monkeypatch


def test_a_leaking_result_is_never_sent_nor_stored_and_the_key_can_run_again(api, leaky_prepare):
    workflow_id = gift_selected(api, make_product())
    key = new_key()
    leaked = prepare(api, workflow_id, key=key)
    assert leaked.status == 500 and leaked.body["error"]["code"] == "INTERNAL_ERROR"
    assert "confirmation_token" not in leaked.raw.decode()
    row = IdempotencyKey.objects.get(key=key)
    assert row.status == IdempotencyStatus.RETRYABLE_FAILURE
    assert row.response_body == "" and row.response_meta == ""

    leaky_prepare.undo()  # the handler fixed: the same key runs again and answers
    fixed = prepare(api, workflow_id, key=key)
    assert fixed.status == 200, fixed.body
    assert fixed.body["_meta"]["confirmation_token"] not in json.dumps(
        {k: v for k, v in fixed.body.items() if k != "_meta"}
    )


def test_the_stored_token_is_sealed_and_a_replay_shows_it_again(api):
    workflow_id = gift_selected(api, make_product())
    key = new_key()
    first = prepare(api, workflow_id, key=key)
    token = first.body["_meta"]["confirmation_token"]
    row = IdempotencyKey.objects.get(key=key)
    assert token not in row.response_meta and token not in row.response_body
    stored = json.loads(row.response_meta)
    assert set(stored["confirmation_token"]) == {"sealed"}
    assert stored["idempotency_key"] == key  # not a secret: staff may read it

    replay = prepare(api, workflow_id, key=key)
    assert replay.status == 200
    assert replay.body["_meta"]["confirmation_token"] == token
    assert replay.body["order_id"] == first.body["order_id"]


def test_a_seal_made_under_another_secret_key_replays_without_the_token(api, settings):
    workflow_id = gift_selected(api, make_product())
    key = new_key()
    first = prepare(api, workflow_id, key=key)
    settings.SECRET_KEY = "rotated-" + settings.SECRET_KEY
    replay = prepare(api, workflow_id, key=key)
    assert replay.status == 200 and replay.body["order_id"] == first.body["order_id"]
    assert "confirmation_token" not in replay.body["_meta"]
