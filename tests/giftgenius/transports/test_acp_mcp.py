"""The ACP binding over /mcp with the official MCP client: the five tools take {meta, id,
payload}, run the same operations as REST, and a signed-in person's agent buys with a Shared
Payment Token from localstripe."""

from __future__ import annotations

import uuid

import pytest

from checkout.ledger import check_ledger
from checkout.models import Order, OrderStatus
from tests.fixtures import make_product
from tests.giftgenius.transports.acp_client import ADDRESS, create_body, grant_token, spt_payment
from tests.live_server import McpTestClient
from tests.localstripe import intents
from tool_runtime.models import IdempotencyKey

pytestmark = pytest.mark.django_db(transaction=True, databases=["default", "payment_ledger"])
SUBJECT_META = {"openai/subject": "acp-mcp-buyer", "openai/locale": "en-US"}


def _meta(key: str | None = None) -> dict:
    return {"api_version": "2026-04-17", "idempotency_key": key or str(uuid.uuid4())}


def test_an_agent_buys_over_mcp_with_the_acp_tools(live_url, stripe_provider):
    make_product(sku="GG-ACP-MCP", stock=3, price="30.00")
    mcp = McpTestClient(live_url)
    names = {tool.name for tool in mcp.list_tools()}
    assert {
        "create_checkout_session",
        "get_checkout_session",
        "update_checkout_session",
        "complete_checkout_session",
        "cancel_checkout_session",
    } <= names

    body = create_body("GG-ACP-MCP", address=False)
    created = mcp.call(
        "create_checkout_session", {"meta": _meta(), "payload": body}, meta=SUBJECT_META
    )
    assert created.is_error is False, created.structured_content
    session = created.structured_content
    assert session["status"] == "not_ready_for_payment"
    update = {"fulfillment_details": {"name": "Ada", "address": ADDRESS}}
    updated = mcp.call(
        "update_checkout_session",
        {"meta": _meta(), "id": session["id"], "payload": update},
        meta=SUBJECT_META,
    ).structured_content
    assert updated["status"] == "ready_for_payment"
    total = next(t["amount"] for t in updated["totals"] if t["type"] == "total")

    token = grant_token(stripe_provider, max_amount=total)
    key = str(uuid.uuid4())
    arguments = {"meta": _meta(key), "id": session["id"], "payload": spt_payment(token)}
    done = mcp.call("complete_checkout_session", arguments, meta=SUBJECT_META)
    assert done.is_error is False, done.structured_content
    assert done.structured_content["status"] == "completed"
    again = mcp.call("complete_checkout_session", arguments, meta=SUBJECT_META)
    assert again.structured_content["order"] == done.structured_content["order"]
    assert IdempotencyKey.objects.filter(key=key, tool__startswith="acp:").count() == 1

    order = Order.objects.get(pk=done.structured_content["order"]["id"])
    assert order.status == OrderStatus.COMPLETED and order.owner.username.startswith("chatgpt-")
    assert [i["amount"] for i in intents(stripe_provider) if i["status"] == "succeeded"] == [total]
    read = mcp.call(
        "get_checkout_session", {"meta": _meta(), "id": session["id"]}, meta=SUBJECT_META
    ).structured_content
    assert read["status"] == "completed"
    assert check_ledger().ok


def test_acp_refusals_over_mcp_carry_the_acp_error(live_url):
    make_product(sku="GG-ACP-MCP", stock=3)
    mcp = McpTestClient(live_url)
    unknown = mcp.call(
        "get_checkout_session", {"meta": _meta(), "id": "cs_nope"}, meta=SUBJECT_META
    )
    assert unknown.is_error is True
    error = unknown.structured_content["error"]
    assert error["code"] == "NOT_FOUND"
    assert error["details"]["acp_error"]["code"] == "not_found"
    old = {"meta": {"api_version": "2025-09-29"}, "payload": create_body("GG-ACP-MCP")}
    refused = mcp.call("create_checkout_session", old, meta=SUBJECT_META).structured_content
    assert refused["error"]["details"]["acp_error"]["code"] == "unsupported_api_version"
    bad = {"meta": _meta(), "payload": {**create_body("GG-ACP-MCP"), "currency": 5}}
    invalid = mcp.call("create_checkout_session", bad, meta=SUBJECT_META).structured_content
    assert invalid["error"]["field"] == "$.currency"
    other = McpTestClient(live_url)
    mine = mcp.call(
        "create_checkout_session",
        {"meta": _meta(), "payload": create_body("GG-ACP-MCP")},
        meta=SUBJECT_META,
    ).structured_content
    theirs = other.call(
        "get_checkout_session",
        {"meta": _meta(), "id": mine["id"]},
        meta={**SUBJECT_META, "openai/subject": "someone-else"},
    )
    assert theirs.is_error is True and theirs.structured_content["error"]["code"] == "NOT_FOUND"
