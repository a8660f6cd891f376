"""The ACP binding over /mcp with the official MCP client: the five tools take {meta, id,
payload}, run the same operations as REST, and a signed-in person's agent buys with a Shared
Payment Token from localstripe."""

from __future__ import annotations

import uuid

import pytest
from mcp.shared.exceptions import MCPError

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


def _refusal(mcp: McpTestClient, name: str, arguments: dict, subject: str = "acp-mcp-buyer"):
    """The JSON-RPC error an ACP refusal is (the binding): code -32000, ACP's Error as data."""
    with pytest.raises(Exception) as raised:  # the SDK may wrap it: unwrapped below
        mcp.call(name, arguments, meta={**SUBJECT_META, "openai/subject": subject})
    error = raised.value
    while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
        error = error.exceptions[0]  # the SDK client's task group wraps it
    assert isinstance(error, MCPError), raised.value
    assert error.code == -32000
    return error.data


def test_acp_refusals_over_mcp_are_json_rpc_errors_carrying_the_acp_error(live_url):
    make_product(sku="GG-ACP-MCP", stock=3)
    mcp = McpTestClient(live_url)
    unknown = _refusal(mcp, "get_checkout_session", {"meta": _meta(), "id": "cs_nope"})
    assert (unknown["type"], unknown["code"]) == ("invalid_request", "not_found")
    old = {"meta": {"api_version": "2025-09-29"}, "payload": create_body("GG-ACP-MCP")}
    assert _refusal(mcp, "create_checkout_session", old)["code"] == "unsupported_api_version"
    bad = {"meta": _meta(), "payload": {**create_body("GG-ACP-MCP"), "currency": 5}}
    assert _refusal(mcp, "create_checkout_session", bad)["param"] == "$.currency"
    mine = mcp.call(
        "create_checkout_session",
        {"meta": _meta(), "payload": create_body("GG-ACP-MCP")},
        meta=SUBJECT_META,
    ).structured_content
    theirs = _refusal(
        mcp, "get_checkout_session", {"meta": _meta(), "id": mine["id"]}, subject="someone-else"
    )
    assert theirs["code"] == "not_found"
    # A call the tool's own schema refuses (no meta) stays a tool error, as for every tool.
    unchecked = mcp.call("get_checkout_session", {"id": mine["id"]}, meta=SUBJECT_META)
    assert unchecked.is_error is True
    assert unchecked.structured_content["error"]["code"] == "VALIDATION_ERROR"


def test_tools_list_gives_each_payload_the_specifications_request_schema(live_url):
    from jsonschema import Draft202012Validator

    from checkout.agentic.requests import bundled
    from checkout.agentic.tools import CreateCheckoutSessionInput

    tools = {tool.name: tool.input_schema for tool in McpTestClient(live_url).list_tools()}
    requests = {
        "create_checkout_session": "CheckoutSessionCreateRequest",
        "update_checkout_session": "CheckoutSessionUpdateRequest",
        "complete_checkout_session": "CheckoutSessionCompleteRequest",
    }
    for name, request in requests.items():
        payload = tools[name]["properties"]["payload"]
        assert payload["properties"].keys() == bundled(request)["properties"].keys()
        assert payload["additionalProperties"] is False and "$ref" not in str(payload)
    create = tools["create_checkout_session"]["properties"]["payload"]
    assert set(create["required"]) == {"line_items", "currency", "capabilities"}
    item = create["properties"]["line_items"]["items"]
    assert {"id", "quantity"} <= item.keys() | item["properties"].keys()
    complete = tools["complete_checkout_session"]["properties"]["payload"]
    assert complete["required"] == ["payment_data"]
    outcomes = complete["properties"]["authentication_result"]["properties"]["outcome"]["enum"]
    assert "authenticated" in outcomes and "denied" in outcomes
    (cancel, _null) = tools["cancel_checkout_session"]["properties"]["payload"]["anyOf"]
    assert "intent_trace" in cancel["properties"]
    # The tool's own example is valid against the schema the model now sees.
    (example,) = CreateCheckoutSessionInput.model_json_schema()["examples"]
    assert not list(Draft202012Validator(tools["create_checkout_session"]).iter_errors(example))
